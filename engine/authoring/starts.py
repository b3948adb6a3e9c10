"""A scenario's starting position (``start:``, and a step's ``arrange:``): resources,
variables, zones and dice set on a state after setup, each value checked against
the pack's declarations and every problem located in the scenario file.
"""
from __future__ import annotations

from typing import Any, Optional

from meeple.dsl.types import zone_to_write
from meeple.dsl.typesys import BOOL, INT, PLAYER, Card, Enum, Type

from meeple.core.errors import ContentError, suggest
from meeple.runtime.game import Game
from meeple.runtime.state import State
from meeple.loading.yamlsrc import Document


def player_value(v: Any) -> int:
    return int(v) - 1


class Start:
    """Applies a scenario's ``start`` block to a state after setup."""

    def __init__(self, game: Game, doc: Document, path: tuple, spec: dict):
        self.game, self.doc, self.path, self.spec = game, doc, path, spec

    def err(self, path: tuple, message: str, hint: Optional[str] = None) -> ContentError:
        return ContentError(message, self.doc.span(self.path + path), hint)

    def value(self, path: tuple, type_: Type, raw: Any) -> Any:
        g = self.game
        if raw is None:
            return None
        if type_ == PLAYER:
            return player_value(raw)
        if isinstance(type_, Card):
            if raw not in g.vocab.card_index:
                raise self.err(path, f"unknown card id '{raw}'", suggest(str(raw), list(g.vocab.card_index)))
            di = g.vocab.card_index[raw]
            return next(c for c, d in enumerate(g.card_def_index) if d == di)
        if isinstance(type_, Enum):
            values = list(g.vocab.enums[type_.name])
            if raw not in values:
                raise self.err(path, f"'{raw}' is not a {type_.name} value ({', '.join(values)})", suggest(str(raw), values))
        elif type_ == INT and (isinstance(raw, bool) or not isinstance(raw, int)):
            raise self.err(path, f"expected a number, found {raw!r}")
        elif type_ == BOOL and not isinstance(raw, bool):
            raise self.err(path, f"expected true or false, found {raw!r}")
        return raw

    def __call__(self, st: State) -> None:
        g = self.game
        placed: set[int] = set()
        for name, raw in (self.spec.get("variables") or {}).items():
            if name not in g.vocab.gvar_index:
                raise self.err(("variables", name), f"unknown variable '{name}'", suggest(name, list(g.vocab.gvar_index)))
            i = g.vocab.gvar_index[name]
            st.gvars[i] = self.value(("variables", name), g.vocab.gvar_types[i], raw)
        for seat, items in (self.spec.get("players") or {}).items():
            p = int(seat) - 1
            if not 0 <= p < st.players:
                raise self.err(("players", seat), f"there is no player {seat} in a {st.players}-player game")
            for name, raw in items.items():
                path = ("players", seat, name)
                if name in g.vocab.res_index:
                    st.res[p * g.vocab.nres + g.vocab.res_index[name]] = int(raw)
                elif name in g.vocab.pvar_index:
                    i = g.vocab.pvar_index[name]
                    st.pvars[p * g.vocab.npvars + i] = self.value(path, g.vocab.pvar_types[i], raw)
                elif name in g.vocab.zone_index and g.vocab.zone_defs[g.vocab.zone_index[name]].per_player:
                    self.fill_zone(st, g.vocab.zone_base[g.vocab.zone_index[name]] + p, raw, path, placed)
                else:
                    shared = name in g.vocab.zone_index and not g.vocab.zone_defs[g.vocab.zone_index[name]].per_player
                    raise self.err(path, f"players have no '{name}'",
                                   f"'{name}' is a shared zone: list it under zones:" if shared else
                                   suggest(name, list(g.vocab.res_index) + list(g.vocab.pvar_index) + [z.name for z in g.vocab.zone_defs if z.per_player]))
        for name, raw in (self.spec.get("zones") or {}).items():
            zi = g.vocab.zone_index.get(name)
            if zi is None or g.vocab.zone_defs[zi].per_player or g.vocab.zone_defs[zi].of_card is not None:
                shared = [z.name for z in g.vocab.zone_defs if not z.per_player and z.of_card is None]
                hint = (f"'{name}' is a zone each player has: list it under players: N:" if zi is not None and g.vocab.zone_defs[zi].per_player
                        else f"'{name}' is a zone of each {g.vocab.zone_defs[zi].of_card} card: list it under cards: CARD:" if zi is not None
                        else suggest(name, shared))
                raise self.err(("zones", name), f"no shared zone '{name}'", hint)
            self.fill_zone(st, g.vocab.zone_base[zi], raw, ("zones", name), placed)
        self.fill_cards(st, placed)

    def fill_zone(self, st: State, slot: int, ids: list, path: tuple, placed: set) -> None:
        """Put the listed cards in a zone; what was there goes back to its home.

        A piece (``per_player``) is taken from the zone owner's own pieces; write
        ``pawn@2`` for player 2's piece in a shared zone or on a card.
        """
        g = self.game
        for c in list(st.zones[slot]):            # what was there goes back home
            if c not in placed:
                move(st, c, g.layout.card_home[c])
        owner = g.slot_owner[slot]
        for j, raw in enumerate(ids or []):
            settings: dict = {}
            if isinstance(raw, dict):          # {card: man, rank: 3}: a card and its variables
                settings = {k: v for k, v in raw.items() if k != "card"}
                if "card" not in raw:
                    raise self.err(path + (j,), "write the card id as 'card: ID' beside its variables")
                raw = raw["card"]
            cid, _, seat_text = str(raw).partition("@")
            if cid not in g.vocab.card_index:
                raise self.err(path + (j,), f"unknown card id '{cid}'", suggest(cid, list(g.vocab.card_index)))
            di = g.vocab.card_index[cid]
            seat = -1
            if g.vocab.card_defs[di].per_player:
                if seat_text:
                    if not seat_text.isdigit() or not 1 <= int(seat_text) <= st.players:
                        raise self.err(path + (j,), f"'{raw}': there is no player {seat_text}")
                    seat = int(seat_text) - 1
                elif owner >= 0:
                    seat = owner
                else:
                    raise self.err(path + (j,), f"'{cid}' is a piece each player has: write {cid}@N for player N's")
            elif seat_text:
                raise self.err(path + (j,), f"'{cid}' is not a piece of a player; drop '@{seat_text}'")
            free = [c for c, d in enumerate(g.card_def_index)
                    if d == di and c not in placed and (seat < 0 or g.vocab.card_seat[c] == seat)]
            if not free:
                raise self.err(path + (j,), f"no copy of '{raw}' is left to place")
            # prefer a copy lying in its home zone, so other placements stay put
            free.sort(key=lambda c: (st.loc[c] != g.layout.card_home[c], c))
            c = free[0]
            move(st, c, slot)
            placed.add(c)
            if owner >= 0 and not g.vocab.card_defs[di].per_player and "owner" in g.vocab.kind_cvars.get(g.vocab.card_defs[di].kind, {}) \
                    and "owner" not in settings:
                # a card placed in a player's zone is that player's (a die in his section), unless written otherwise
                st.cvars[c * g.vocab.ncvars + g.vocab.cvar_index["owner"]] = owner
            self.set_variables(st, c, settings, path + (j,))

    def set_variables(self, st: State, c: int, settings: dict, path: tuple) -> None:
        g = self.game
        kind = g.vocab.card_defs[g.card_def_index[c]].kind
        cvars = g.vocab.kind_cvars.get(kind, {})
        for name, raw in settings.items():
            if name not in cvars:
                raise self.err(path + (name,), f"{kind} cards have no variable '{name}'", suggest(str(name), list(cvars)))
            if isinstance(raw, (list, dict)):
                raise self.err(path + (name,), f"'{name}' is a variable of {kind} cards: give one value")
            st.cvars[c * g.vocab.ncvars + g.vocab.cvar_index[name]] = self.value(path + (name,), cvars[name], raw)

    def fill_cards(self, st: State, placed: set) -> None:
        """``cards: {board_1: {occupant: [pawn@2]}, red_2: {value: 1}}``: the zones that
        belong to a card, and its variables (the first copy of a card with several)."""
        g = self.game
        for host_id, items in (self.spec.get("cards") or {}).items():
            path = ("cards", host_id)
            if host_id not in g.vocab.card_index:
                raise self.err(path, f"unknown card id '{host_id}'", suggest(str(host_id), list(g.vocab.card_index)))
            host = g.card_def_index.index(g.vocab.card_index[host_id])
            kind = g.vocab.card_defs[g.vocab.card_index[host_id]].kind
            cvars = g.vocab.kind_cvars.get(kind, {})
            for name, raw in (items or {}).items():
                zi = g.vocab.zone_index.get(name)
                if zi is not None and g.vocab.zone_defs[zi].of_card == kind:
                    if not isinstance(raw, list):
                        raise self.err(path + (name,), f"'{name}' is a zone: list the card ids in it")
                    self.fill_zone(st, g.vocab.zone_base[zi] + g.vocab.kind_pos[host], raw, path + (name,), placed)
                elif name in cvars:
                    self.set_variables(st, host, {name: raw}, path)
                else:
                    own = [z.name for z in g.vocab.zone_defs if z.of_card == kind] + list(cvars)
                    raise self.err(path + (name,), f"{kind} cards have no zone or variable '{name}'" + (f" (they have: {', '.join(own)})" if own else ""),
                                   suggest(str(name), own))


def move(st: State, card: int, slot: int) -> None:
    zone_to_write(st, st.loc[card]).remove(card)        # owned first: a state may share its lists (State.clone)
    zone_to_write(st, slot).append(card)
    st.loc[card] = slot
