"""Names, fields and zones as Python source: what a name of the pack reads.

Every name the checker resolved is an index by now: a local is a slot of the frame
(``L[3]``), a player's variable a cell of ``st.pvars``, a zone a number, a card's field a
row of the pack's table, bound to a made name (``meeple.dsl.gen.module``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..types import card_zone_of
from ..typesys import Card, List, card_kind
from .context import Ctx, Unsupported

if TYPE_CHECKING:
    from .expressions import ExprWriter


class NameWriter:
    """Writes names (``g_Name``), fields (``g_Field``) and 'X of Y' (``g_Of``)."""

    def __init__(self, x: "ExprWriter"):
        self.x = x
        self.g, self.gen, self.type_of, self.me, self.const, self.fresh = x.g, x.gen, x.type_of, x.me, x.const, x.fresh
        self.card_zones: dict[int, Any] = {}     # zone -> its ``card_zone_of``, made once per module

    def local(self, ctx: Ctx, name: str) -> Optional[str]:
        if name in ctx.py:
            return ctx.py[name][0]
        if ctx.unit is not None:
            found = ctx.unit.scope.lookup(name)
            if found is not None:
                return f"L[{found[0]}]"
        return None

    def g_Name(self, ctx, n):
        g = self.g
        name = n.name
        loc = self.local(ctx, name)
        if loc is not None:
            return loc
        if name in g.option_index:
            return f"st.opts[{g.option_index[name]}]"
        if name in g.constants:
            return f"{self.const(g.constants[name])}[st.players]"
        if name in g.gvar_index:
            return f"st.gvars[{g.gvar_index[name]}]"
        if name in g.pvar_index:
            return f"st.pvars[{self.me(ctx)} * {g.npvars} + {g.pvar_index[name]}]"
        if name in g.res_index:
            return f"st.res[{self.me(ctx)} * {g.nres} + {g.res_index[name]}]"
        if name in g.zone_index:
            z = g.zone_defs[g.zone_index[name]]
            base = g.zone_base[g.zone_index[name]]
            if z.per_player:
                return f"({base} + {self.me(ctx)})"
            return str(base)
        if name in g.enum_of_value:
            return self.const(name)
        if name in g.enums:
            return self.const(list(g.enums[name]))
        if name in g.kind_cards:
            return f"{self.const(g.kind_cards[name])}[:]"
        if name == "players":
            return "list(range(st.players))"
        if name == "round":
            return "st.round"
        if name == "player_count":
            return "st.players"
        raise Unsupported(name)

    def g_Field(self, ctx, n):
        g = self.g
        t = self.type_of(n.target)
        target = self.gen(ctx, n.target)
        name = n.name
        if name == "id":
            return f"{self.const(g.card_def_ids)}[{target}]"
        if name == "name":
            return f"{self.const(g.card_names)}[{target}]"
        kind = card_kind(t)
        fields = g.kind_fields.get(kind, {}) if kind else g.all_fields
        cvars = g.kind_cvars.get(kind, {}) if kind else g.all_cvars
        if name in fields:
            return f"{self.const(g.card_fields)}[{target}][{g.field_index[name]}]"
        if name in cvars:
            return f"st.cvars[{target} * {g.ncvars} + {g.cvar_index[name]}]"
        raise Unsupported(name)

    def g_Of(self, ctx, n):
        g = self.g
        name = n.name
        if n.scope != "player":
            zi = g.zone_index.get(name)
            z = g.zone_defs[zi] if zi is not None else None
            if z is None:
                raise Unsupported(name)
            base = g.zone_base[zi]
            if z.of_card is not None:
                count = len(g.kind_cards.get(z.of_card, ()))
                return f"[c for s in range({base}, {base + count}) for c in st.zones[s]]"
            if n.scope == "all":
                return f"[c for p in range(st.players) for c in st.zones[{base} + p]]"
            me = self.fresh("m")
            # bracketed: it may be an operand ('hand of others + ...')
            return (f"([c for p in range(st.players) if p != {me} for c in st.zones[{base} + p]] "
                    f"if ({me} := _me(st, fr)) is not None else [])")
        zi = g.zone_index.get(name)
        if zi is not None and g.zone_defs[zi].of_card is not None:
            if self.type_of(n.target) == Card(g.zone_defs[zi].of_card):
                # the checker knows the card is of the zone's kind: no test needed
                return f"({g.zone_base[zi]} + {self.const(g.kind_pos)}[{self.gen(ctx, n.target)}])"
            return f"{self.const(self.card_zone(zi, name))}({self.gen(ctx, n.target)})"
        if name in g.kind_cards and self.type_of(n) == List(Card(name)):
            # 'pawn of p': a player's own pieces of a kind
            return f"{self.const(g.seat_cards(name))}[{self.gen(ctx, n.target)}][:]"
        target = self.gen(ctx, n.target)
        if name in g.res_index:
            return f"st.res[{target} * {g.nres} + {g.res_index[name]}]"
        if name in g.pvar_index:
            return f"st.pvars[{target} * {g.npvars} + {g.pvar_index[name]}]"
        if zi is not None:
            return f"({g.zone_base[zi]} + {target})"
        raise Unsupported(name)

    def card_zone(self, zi: int, name: str):
        """``card_zone_of`` for this zone, made once per module."""
        made = self.card_zones
        if zi not in made:
            made[zi] = card_zone_of(self.g, zi, name)
        return made[zi]
