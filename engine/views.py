"""What one player may see of a state: hidden zones become counts, the
options of a decision are shown only to the one deciding.

A mixin of ``engine.game.Game``.
"""
from __future__ import annotations

from typing import Any, Optional

from dsl.typesys import PLAYER, Card, Type

from .state import State


class Views:
    """Views of a state (mixed into ``Game``)."""

    def card_label(self, c: int, st: Optional[State] = None) -> str:
        """A card's id, with its owner for a player's piece (pawn@P2) and, given a
        state, the value of a die (red_die=5)."""
        seat = self.card_seat[c]
        label = self.card_def_ids[c] if seat < 0 else f"{self.card_def_ids[c]}@P{seat + 1}"
        if st is not None and self.value_var is not None and self.has_value[c]:
            label += f"={st.cvars[c * self.ncvars + self.value_var]}"
        return label

    def show(self, value: Any, t: Type) -> Any:
        """A variable's value as people read it: players as P1.., cards by id."""
        if value is None:
            return None
        if t == PLAYER:
            return f"P{value + 1}"
        if isinstance(t, Card):
            return self.card_def_ids[value]
        return value

    def view(self, st: State, player: Optional[int]) -> dict:
        """What ``player`` may see (None: a spectator who sees only public things)."""
        zones = {}
        for zi, z in enumerate(self.zone_defs):
            base = self.zone_base[zi]
            if z.of_card is not None:
                seen: dict[str, int] = {}
                for k, host in enumerate(self.kind_cards.get(z.of_card, ())):
                    cards = st.zones[base + k]
                    hid = self.card_def_ids[host]
                    seen[hid] = seen.get(hid, 0) + 1
                    if cards:
                        label = f"{z.name}/{hid}" + (f"#{seen[hid]}" if seen[hid] > 1 else "")
                        zones[label] = [self.card_label(c, st) for c in cards] if z.visibility == "public" else {"hidden": len(cards)}
                continue
            seats = range(st.players) if z.per_player else [None]
            for p in seats:
                slot = base + (p or 0)
                cards = st.zones[slot]
                name = z.name if p is None else f"{z.name}/P{p + 1}"
                visible = z.visibility == "public" or (z.visibility == "owner" and p is not None and p == player)
                if visible and not (z.ordered and z.visibility != "public"):
                    zones[name] = [self.card_label(c, st) for c in cards]
                else:
                    zones[name] = {"hidden": len(cards)}
        out = {
            "round": st.round,
            "players": [{"seat": f"P{p + 1}", **{r: st.res[p * self.nres + i] for i, r in enumerate(self.res_names)},
                         **{v: self.show(st.pvars[p * self.npvars + i], self.pvar_types[i]) for v, i in self.pvar_index.items()
                            if v not in self.hidden_vars}}
                        for p in range(st.players)],
            "variables": {v: self.show(st.gvars[i], self.gvar_types[i]) for v, i in self.gvar_index.items()
                          if v not in self.hidden_vars},
            "zones": zones,
            "over": st.over,
        }
        if st.pending is not None:
            out["decision"] = {"player": f"P{st.pending.player + 1}", "prompt": st.pending.prompt}
            if player == st.pending.player:
                out["decision"]["options"] = st.pending.keys()
        if st.over:
            out["scores"] = st.scores
        return out




