"""A seat's observation as a fixed-size vector: what that seat's view holds.

``Layout.encode`` says what the vector is: it writes ``game.view(state, seat)`` (the
observer: what the seat may know) into the layout, so it can hold nothing the seat may
not see. The adapters read the same vector through the seat's sight instead, the table
the view itself is made through, without making the view (``meeple.rl.reading``;
tests/test_rl_observation.py checks the two bit for bit). Its layout is fixed per pack
and player count (``Layout``), each part in [-1, 1]:

- the seat observing (one-hot), the round (over the pack's last round), whether the
  game is over;
- the decision pending: whose (one-hot), whether it is the observer's, and its prompt
  (one-hot over the prompts of the catalogue, numbers written as '#', plus one for any
  other);
- each player's resources, scaled by their declared bounds ((x - min) / (max - min)
  where both are declared, else x / (|x| + 10)), and the variables the view shows
  (a number as x / (|x| + 10), a flag 0 or 1, an enum, a seat or a card one-hot with a
  place for none); then the game's variables alike;
- every zone (per seat for a seat's zone, per host card for a zone of each card): its
  size over the number of cards of its kind (its size times 1 over that number, in
  single precision, as the counts are weighed), then, where the view lists its cards,
  their counts over the pack's cards of that kind (each over that card's copies),
  told apart by owner and die value where the kind has them. A zone the view shows
  only as a size (hidden, or a pile whose order is hidden) leaves its counts zero.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from meeple.dsl.typesys import BOOL, INT, PLAYER, Card, Enum

from meeple.rl.catalogue import Catalogue, card_keys, prompt_form

SOFT = 10.0         # a number without declared bounds is shown as x / (|x| + SOFT)


def soft(x: Any) -> float:
    if x is None or isinstance(x, str):
        return 0.0
    x = float(x)
    return x / (abs(x) + SOFT)


class Layout:
    """Where each part of a view goes in the vector, for one pack and player count."""

    def __init__(self, game, players: int, catalogue: Catalogue):
        self.game = game
        self.players = players
        self.catalogue = catalogue
        v = game.vocab
        defn = game.defn
        size = 0

        def take(n: int) -> int:
            nonlocal size
            at = size
            size += n
            return at
        self.seat_at = take(players)
        self.round_at = take(2)
        self.decider_at = take(players + 1)
        self.prompt_at = take(len(catalogue.prompts) + 1)
        self.bounds = [(r.minimum, r.maximum) for r in defn.resources]
        self.res_names = list(v.res_names)
        hidden = {x.name for x in (*defn.variables, *defn.player_variables) if x.visibility == "nobody"}
        self.pvars = [(name, self._encoder(v.pvar_types[i])) for name, i in v.pvar_index.items() if name not in hidden]
        self.gvars = [(name, self._encoder(v.gvar_types[i])) for name, i in v.gvar_index.items() if name not in hidden]
        per_player = len(self.res_names) + sum(w for _, (w, _) in self.pvars)
        self.players_at = take(per_player * players)
        self.per_player = per_player
        self.gvars_at = take(sum(w for _, (w, _) in self.gvars))
        self.zones: dict[str, tuple[int, int, Optional[dict[str, int]], list[float]]] = {}
        self.classes: dict[str, tuple[dict[str, int], list[float]]] = {}
        for zi, z in enumerate(defn.zones):
            kind = z.holds
            total = max(1, len(v.kind_cards.get(kind, ())))
            listed = z.visibility != "nobody" and not (z.ordered and z.visibility != "public")
            classes = self._classes(kind) if listed else None
            width = 1 + (len(classes[0]) if classes else 0)
            for label in self._zone_labels(zi, z):
                self.zones[label] = (take(width), total, classes[0] if classes else None, classes[1] if classes else [])
        self.size = size
        # what one card weighs where it is counted: 1 over the cards of its kind in a
        # zone's size, 1 over its copies among the zone's counts
        self.weights = np.zeros(size, dtype=np.float32)
        for at, total, classes, scale in self.zones.values():
            self.weights[at] = 1.0 / total
            if classes is not None:
                self.weights[at + 1:at + 1 + len(scale)] = scale

    def _encoder(self, t) -> tuple[int, Any]:
        """(width, how a shown value is written) for a variable of type ``t``."""
        v = self.game.vocab
        if t == BOOL:
            return 1, ("bool", None)
        if t == INT:
            return 1, ("int", None)
        if t == PLAYER:
            return self.players + 1, ("onehot", {f"P{p + 1}": p for p in range(self.players)})
        if isinstance(t, Enum):
            values = list(v.enums.get(t.name, ()))
            return len(values) + 1, ("onehot", {str(x): i for i, x in enumerate(values)})
        if isinstance(t, Card):
            cards = v.kind_cards.get(t.kind, ()) if t.kind is not None else range(v.ncards)
            ids = list(dict.fromkeys(v.card_def_ids[c] for c in cards))
            return len(ids) + 1, ("onehot", {x: i for i, x in enumerate(ids)})
        return 0, ("none", None)

    def _classes(self, kind: str) -> tuple[dict[str, int], list[float]]:
        """The card classes of a kind, as a zone's counts tell them apart: each card label
        the view may write (id, with owner and value where the kind has them) to its place,
        and the scale of each place (the copies of its card)."""
        got = self.classes.get(kind)
        if got is not None:
            return got
        v = self.game.vocab
        copies: dict[str, int] = {}
        for c in v.kind_cards.get(kind, ()):
            copies[v.card_def_ids[c]] = copies.get(v.card_def_ids[c], 0) + 1
        index: dict[str, int] = {}
        scale: list[float] = []
        for key in card_keys(self.game, kind):
            if "#" in key:
                continue
            owner = key.split("@", 1)[1].split("=", 1)[0] if "@" in key else None
            if owner is not None and int(owner[1:]) > self.players:
                continue
            if key not in index:
                index[key] = len(scale)
                scale.append(1.0 / copies[key.split("@", 1)[0].split("=", 1)[0]])
        got = self.classes[kind] = (index, scale)
        return got

    def _zone_labels(self, zi: int, z) -> list[str]:
        """The names the view gives the zone's places in a game of this many players."""
        v = self.game.vocab
        if z.of_card is not None:
            out, seen = [], {}
            for host in v.kind_cards.get(z.of_card, ()):
                hid = v.card_def_ids[host]
                seen[hid] = seen.get(hid, 0) + 1        # numbered as the view numbers them, absent seats' too
                if v.card_seat[host] >= self.players:
                    continue
                out.append(f"{z.name}/{hid}" + (f"#{seen[hid]}" if seen[hid] > 1 else ""))
            return out
        return [f"{z.name}/P{p + 1}" for p in range(self.players)] if z.per_player else [z.name]

    # ------------------------------------------------------------ a view to a vector
    def encode(self, view: dict, seat: int) -> np.ndarray:
        """The vector of ``view`` (``game.view(state, seat)``). Its places and values are
        gathered in lists and written at once, and the cards counted by their places (a
        zone's size and each listed card's class) and weighed at once (``weights``, in
        single precision): a few numpy operations, not one a value."""
        places: list[int] = [self.seat_at + seat, self.round_at, self.round_at + 1]
        values: list[float] = [1.0, min(1.0, view["round"] / (self.game.defn.max_rounds or 1)), 1.0 if view["over"] else 0.0]
        put, val = places.append, values.append
        dec = view.get("decision")
        if dec is not None:
            decider = int(dec["player"][1:]) - 1
            put(self.decider_at + decider)
            val(1.0)
            put(self.decider_at + self.players)
            val(1.0 if decider == seat else 0.0)
            p = self.catalogue.prompt_index.get(prompt_form(dec["prompt"]), len(self.catalogue.prompts))  # type: ignore[attr-defined]
            put(self.prompt_at + p)
            val(1.0)
        for p, row in enumerate(view["players"]):
            at = self.players_at + p * self.per_player
            for (name, (lo, hi)) in zip(self.res_names, self.bounds):
                x = row[name]
                put(at)
                val((x - lo) / (hi - lo) if lo is not None and hi is not None and hi > lo else soft(x))
                at += 1
            self._variables(put, val, at, self.pvars, row)
        self._variables(put, val, self.gvars_at, self.gvars, view["variables"])
        zones = self.zones
        counted: list[int] = []
        sized: list[int] = []
        sizes: list[int] = []
        add = counted.append
        for label, cards in view["zones"].items():
            place = zones.get(label)
            if place is None:
                continue
            at, total, classes, _ = place
            sized.append(at)
            if cards.__class__ is dict:
                sizes.append(cards["hidden"])
                continue
            sizes.append(len(cards))
            if classes is not None:
                first = at + 1
                get = classes.get
                for c in cards:
                    i = get(c)
                    if i is None:
                        i = get(c.split("=", 1)[0], get(c.split("@", 1)[0].split("=", 1)[0]))
                    if i is not None:
                        add(first + i)
        out = np.zeros(self.size, dtype=np.float32)
        out[places] = values
        if counted:
            out += np.bincount(counted, minlength=self.size).astype(np.float32) * self.weights
        if sized:
            out[sized] = np.array(sizes, dtype=np.float32) * self.weights[sized]
        np.clip(out, -1.0, 1.0, out=out)        # sums of 1/copies may pass 1 by a rounding
        return out

    @staticmethod
    def _variables(put, val, at: int, columns: list, values: dict) -> None:
        for name, (width, (how, table)) in columns:
            x = values.get(name)
            if how == "bool":
                put(at)
                val(1.0 if x else 0.0)
            elif how == "int":
                put(at)
                val(soft(x))
            elif how == "onehot":
                put(at + table.get(x, width - 1) if x is not None else at + width - 1)
                val(1.0)
            at += width
