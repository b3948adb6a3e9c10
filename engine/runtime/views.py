"""What one player may see of a state: hidden zones become counts, the
options of a decision are shown only to the one deciding, and another
player's choice is told only as far as the viewer could tell it (``told``).

``Observer`` is composed with a compiled game (``game.observer``), beside its
rules: it works out what a seat may know (``knowledge``: hidden zone slots and
variables, once a seat) and never changes a state it is given. What a seat sees
of any state of a game of so many players (which zone slots it sees the cards of,
which only the size of, which variables it reads) is its ``Sight``, made once;
``view`` reads a state through it, and so do readers that want the same
knowledge without the view's labels (``meeple.rl``'s observation vectors).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Sequence

from meeple.dsl.runtime import ActionDescriber, ChoiceDescriber, OneOfDescriber
from meeple.dsl.typesys import PLAYER, Card, Type

from meeple.core.errors import MeepleError, Refusal
from meeple.runtime.prices import decision_prices
from meeple.runtime.scoring import view_data as score_parts
from meeple.runtime.state import State
from meeple.runtime.redeal import Knowledge
from meeple.runtime.tables import ReadOnly

if TYPE_CHECKING:
    from meeple.runtime.flow import Rules
    from meeple.runtime.game import Game

HIDDEN_CHOICE = "(hidden)"      # what a viewer reads of a choice they could not tell


@dataclass(frozen=True)
class SeenZone:
    """One place of a view's zones: its label (``market``, ``hand/P2``, ``workers/dyers#2``),
    its zone slot, whether the seat sees its cards (``listed``; else only how many) and
    whether it is shown only while it holds cards (a zone of each card)."""
    label: str
    slot: int
    listed: bool
    when_held: bool


@dataclass(frozen=True)
class Sight:
    """What one seat (None: a spectator) sees of any state of a game of ``players``: the
    zone places of its view, in the view's order, and the variables it reads, as
    (name, column) of the player variables (each player's row) and of the game's."""
    players: int
    seat: Optional[int]
    zones: tuple[SeenZone, ...]
    player_vars: tuple[tuple[str, int], ...]
    game_vars: tuple[tuple[str, int], ...]


class Observer(ReadOnly):
    """What each seat may see of a state, and how another's choice is told to it."""

    def __init__(self, game: Game, rules: Rules):
        self.game = game
        self.vocab = v = game.vocab
        self.layout = game.layout
        self.rules = rules          # a choice is tried on a copy to tell what it reveals
        g = game.defn
        self.zones = g.zones        # as declared: who sees each (the vocabulary's zone facts do not say)
        self.hidden_vars = {x.name for x in (*g.variables, *g.player_variables) if x.visibility == "nobody"}
        self.value_var = v.cvar_index.get("value")     # dice show their value in views
        self.has_value = [v.card_defs[d].kind in v.kind_cvars and "value" in v.kind_cvars[v.card_defs[d].kind]
                          for d in v.card_def_index]
        self.var_columns = self._var_columns()
        self.knowledge = Knowledge(game)      # what each seat cannot see, worked out as asked
        self.labels = [self.card_label(c) for c in range(v.ncards)]        # a card's label but a die's value
        self.valued = [self.value_var is not None and self.has_value[c] for c in range(v.ncards)]
        self.any_valued = any(self.valued)
        # each zone slot: whether a die lying there is shown with its value (``show_values``)
        self.shows_value = [self.zones[zi].show_values for zi in game.layout.slot_zone]
        self.sights: dict[tuple[int, Optional[int]], Sight] = {}      # made as asked, one a seat and player count
        self._seal()

    def sight(self, players: int, player: Optional[int]) -> Sight:
        """What ``player`` (None: a spectator) sees of any state of ``players`` (made once)."""
        got = self.sights.get((players, player))
        if got is None:
            got = self.sights[(players, player)] = self._make_sight(players, player)
        return got

    def _make_sight(self, players: int, player: Optional[int]) -> Sight:
        v = self.vocab
        zones: list[SeenZone] = []
        for zi, z in enumerate(self.zones):
            base = v.zone_base[zi]
            if z.of_card is not None:
                seen: dict[str, int] = {}
                for k, host in enumerate(v.kind_cards.get(z.of_card, ())):
                    hid = v.card_def_ids[host]
                    seen[hid] = seen.get(hid, 0) + 1
                    label = f"{z.name}/{hid}" + (f"#{seen[hid]}" if seen[hid] > 1 else "")
                    zones.append(SeenZone(label, base + k, z.visibility == "public", True))
                continue
            for p in (range(players) if z.per_player else [None]):
                visible = z.visibility == "public" or (z.visibility == "owner" and p is not None and p == player)
                listed = visible and not (z.ordered and z.visibility != "public")
                zones.append(SeenZone(z.name if p is None else f"{z.name}/P{p + 1}", base + (p or 0), listed, False))
        return Sight(players, player, tuple(zones),
                     tuple((n, i) for n, i in v.pvar_index.items() if n not in self.hidden_vars),
                     tuple((n, i) for n, i in v.gvar_index.items() if n not in self.hidden_vars))

    def hidden_slots_of(self, player: int) -> list[int]:
        """Zone slots whose cards (or their order) ``player`` does not see."""
        return self.knowledge.hidden_slots(player)

    def card_label(self, c: int, st: Optional[State] = None) -> str:
        """A card's id, with its owner for a player's piece (pawn@P2) and, given a
        state, the value of a die (red_die=5) unless it lies where none is shown."""
        seat = self.vocab.card_seat[c]
        label = self.vocab.card_def_ids[c] if seat < 0 else f"{self.vocab.card_def_ids[c]}@P{seat + 1}"
        face = self.face(c, st)
        return label if face is None else f"{label}={face}"

    def face(self, c: int, st: Optional[State]) -> Any:
        """The value card ``c`` shows in ``st``: a die's, where it lies in a zone that shows
        values (``show_values``); None for any other card, or without a state."""
        if st is None or not self.valued[c] or not self.shows_value[st.loc[c]]:
            return None
        return st.cvars[c * self.vocab.ncvars + self.value_var]

    def show(self, value: Any, t: Type) -> Any:
        """A variable's value as people read it: players as P1.., cards by id."""
        if value is None:
            return None
        if t == PLAYER:
            return f"P{value + 1}"
        if isinstance(t, Card):
            return self.vocab.card_def_ids[value]
        return value

    def view(self, st: State, player: Optional[int]) -> dict:
        """What ``player`` may see (None: a spectator who sees only public things)."""
        sight = self.sight(st.players, player)
        labels = self.labels
        zones: dict[str, Any] = {}
        for z in sight.zones:
            cards = st.zones[z.slot]
            if z.when_held and not cards:
                continue
            if not z.listed:
                zones[z.label] = {"hidden": len(cards)}
            elif self.any_valued:
                zones[z.label] = [self.card_label(c, st) if self.valued[c] else labels[c] for c in cards]
            else:
                zones[z.label] = [labels[c] for c in cards]
        v = self.vocab
        nres, npv = v.nres, v.npvars
        out = {
            "round": st.round,
            "players": [{"seat": f"P{p + 1}", **{r: st.res[p * nres + i] for i, r in enumerate(v.res_names)},
                         **{name: self.show(st.pvars[p * npv + i], v.pvar_types[i]) for name, i in sight.player_vars}}
                        for p in range(st.players)],
            "variables": {name: self.show(st.gvars[i], v.gvar_types[i]) for name, i in sight.game_vars},
            "zones": zones,
            "over": st.over,
        }
        if st.pending is not None:
            decision: dict[str, Any] = {"player": f"P{st.pending.player + 1}", "prompt": st.pending.prompt}
            out["decision"] = decision
            if player == st.pending.player:
                decision["options"] = keys = st.pending.keys()
                prices = decision_prices(self.game, st)       # the chooser's own: a price may read what they see
                if any(prices):
                    decision["prices"] = {k: dict(p) for k, p in zip(keys, prices) if p}
        if st.over:
            out["scores"] = st.scores
            parts = score_parts(self.game, st)      # each part of the final scoring, per player (public at the end)
            if parts is not None:
                out["score_parts"] = parts
        return out

    # ------------------------------------------------------------ telling a choice
    def told(self, st: State, index: int, viewers: Sequence[int]) -> str:
        """The label of option ``index`` of ``st``'s pending decision as the
        ``viewers`` (the seats watching, never the one deciding) may read it:
        the label itself when every viewer could tell it, else ``HIDDEN_CHOICE``.
        ``st`` is left untouched (choices are tried on copies). A viewer could
        tell it when

        1. every card the option names (a chosen card, an action's card and its
           parameter) lies where the viewer sees it, before or after the
           choice, or the choice makes it the value of a variable the viewer
           sees; and
        2. no option with another label leaves the viewer's view (with the
           notes the rules print) the same while the hidden variables
           (``visibility: nobody``) differ.

        The first keeps a card's identity secret while it stays face down (a
        card picked from a hidden pile, kept from a private draw); the second
        keeps secret a choice whose only effect is a face-down marker. Where
        the engine cannot tell (an option it cannot read, a rule error on a
        copy), the choice is hidden.
        """
        dec = st.pending
        label = dec.options[index][1]
        if not viewers:
            return label
        try:
            return HIDDEN_CHOICE if self._reveals(st, index, viewers) else label
        except MeepleError:
            return HIDDEN_CHOICE

    def sees_card(self, st: State, c: int, viewer: int) -> bool:
        """Whether ``viewer`` sees card ``c`` where it lies (in a zone whose cards they see)."""
        slot = st.loc[c]
        z = self.zones[self.layout.slot_zone[slot]]
        if z.visibility == "public":
            return True
        return z.visibility == "owner" and z.per_player and not z.ordered and self.vocab.slot_owner[slot] == viewer

    def named_by_variables(self, st: State) -> set:
        """(variable column, card) for every variable players see that holds a card."""
        gvars, pvars = self.var_columns[:2]
        n = self.vocab.npvars
        out = {(("g", i), st.gvars[i]) for i in gvars if st.gvars[i] is not None}
        out.update((("p", p * n + i), st.pvars[p * n + i]) for p in range(st.players) for i in pvars
                   if st.pvars[p * n + i] is not None)
        return out

    def named_cards(self, dec, index: int) -> Optional[list[int]]:
        """The cards option ``index`` of a decision names (in its label or by being
        chosen), or None when the engine cannot read the option."""
        d = dec.describer
        value = dec.values[index]
        if isinstance(d, OneOfDescriber):
            return []
        if isinstance(d, ChoiceDescriber):
            if value == d.skip:
                return []
            return [value] if self.keys_cards(d.keyer) else []
        if isinstance(d, ActionDescriber):
            ai, card, param = value
            keyer = d.actions[ai][2]
            out = [card] if card is not None else []
            if keyer is not None and param is not None and self.keys_cards(keyer):
                out.append(param)
            return out
        return None

    def hidden_values(self, st: State) -> tuple:
        """The values of the hidden variables (game ones, then each player's)."""
        _, _, gvars, pvars = self.var_columns
        n = self.vocab.npvars
        return tuple(st.gvars[i] for i in gvars) + tuple(st.pvars[p * n + i] for p in range(st.players) for i in pvars)

    def keys_cards(self, keyer) -> bool:
        """Whether options keyed by ``keyer`` are cards (keyed by card id: ``Vocabulary.describe``)."""
        return getattr(keyer, "__self__", None) is self.vocab.card_def_ids

    def _var_columns(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """Columns of the game and player variables that hold a card and that players
        see, then those of the hidden game and player variables (``var_columns``, made once)."""
        hidden = self.hidden_vars
        return ([i for v, i in self.vocab.gvar_index.items() if isinstance(self.vocab.gvar_types[i], Card) and v not in hidden],
                [i for v, i in self.vocab.pvar_index.items() if isinstance(self.vocab.pvar_types[i], Card) and v not in hidden],
                [i for v, i in self.vocab.gvar_index.items() if v in hidden],
                [i for v, i in self.vocab.pvar_index.items() if v in hidden])

    def _after(self, st: State, index: int) -> tuple[State, Optional[str]]:
        """A copy of ``st`` with option ``index`` applied, and the refusal's message if
        a rule refused it (the copy is then as before)."""
        s = st.clone()
        try:
            self.rules.apply(s, index)
        except Refusal as err:
            return s, err.message
        return s, None

    def _seen(self, after: tuple[State, Optional[str]], viewer: int) -> tuple:
        """What ``viewer`` sees after a choice: their view, the notes printed, a refusal."""
        s, refused = after
        return self.view(s, viewer), tuple(s.events), refused

    def _reveals(self, st: State, index: int, viewers: Sequence[int]) -> bool:
        """Whether option ``index`` would tell some viewer more than they see (``told``)."""
        dec = st.pending
        named = self.named_cards(dec, index)
        if named is None:
            return True
        chosen = self._after(st, index)
        if named:
            # a card the choice puts into a variable everyone sees is announced by it (a named target)
            announced = {c for _, c in self.named_by_variables(chosen[0]) - self.named_by_variables(st)}
            for v in viewers:
                for c in named:
                    if c not in announced and not (self.sees_card(st, c, v) or self.sees_card(chosen[0], c, v)):
                        return True
        if not self.hidden_vars:
            return False
        label = dec.options[index][1]
        secret = self.hidden_values(chosen[0])
        mine = None
        for j, opt in enumerate(dec.options):
            if j == index or opt[1] == label:
                continue
            other = self._after(st, j)
            if self.hidden_values(other[0]) == secret:
                continue
            if mine is None:
                mine = [self._seen(chosen, v) for v in viewers]
            if any(self._seen(other, v) == seen for v, seen in zip(viewers, mine)):
                return True
        return False
