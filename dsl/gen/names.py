"""Names, fields and zones as Python source: what a name of the pack reads.

Every name the checker resolved is an index by now: a local is a slot of the frame
(``L[3]``), a player's variable a cell of ``st.pvars``, a zone a number, a card's field a
row of the pack's table, bound to a made name (``meeple.dsl.gen.module``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..types import card_zone_of
from .. import ir
from ..typesys import Card
from .context import Ctx, Unsupported

if TYPE_CHECKING:
    from .expressions import ExprWriter


class NameWriter:
    """Writes names (``g_Name``), fields (``g_Field``) and 'X of Y' (``g_Of``)."""

    def __init__(self, x: "ExprWriter"):
        self.x = x
        self.g, self.gen, self.type_of, self.me, self.const, self.fresh = x.g, x.gen, x.type_of, x.me, x.const, x.fresh
        self.card_zones: dict[int, Any] = {}     # zone -> its ``card_zone_of``, made once per module

    def ref(self) -> ir.Ref:
        """What the checker resolved the node being written to (its record's ``ref``): the
        generator never looks a name up again, so it cannot read a name otherwise than the
        checker typed it (a local shadowing a pack's name, say)."""
        ref = self.x.at[-1].ref
        if ref is None:
            raise Unsupported(type(self.x.at[-1].node).__name__)
        return ref

    def g_Name(self, ctx, n):
        g = self.g
        ref = self.ref()
        what, i = ref.what, ref.index
        if what == "local":
            if n.name in ctx.py:             # a walk's variable or an expanded function's parameter
                return ctx.py[n.name][0]
            if ctx.unit is None:
                raise Unsupported(n.name)
            return f"L[{i}]"
        if what == "option":
            return f"st.opts[{i}]"
        if what == "constant":
            return f"{self.const(g.constants[i])}[st.players]"
        if what == "gvar":
            return f"st.gvars[{i}]"
        if what == "pvar":
            return f"st.pvars[{self.me(ctx)} * {g.npvars} + {i}]"
        if what == "res":
            return f"st.res[{self.me(ctx)} * {g.nres} + {i}]"
        if what == "zone":
            base = g.zone_base[i]
            return f"({base} + {self.me(ctx)})" if g.zone_defs[i].per_player else str(base)
        if what == "enum_value":
            return self.const(n.name)
        if what == "enum":
            return self.const(list(g.enums[i]))
        if what == "kind":
            return f"{self.const(g.kind_cards[i])}[:]"
        if what == "builtin":
            return {"players": "list(range(st.players))", "round": "st.round", "player_count": "st.players"}[i]
        raise Unsupported(n.name)

    def g_Field(self, ctx, n):
        g = self.g
        ref = self.ref()
        target = self.gen(ctx, n.target)
        if ref.what == "card_text":
            table = g.card_def_ids if ref.index == "id" else g.card_names
            return f"{self.const(table)}[{target}]"
        if ref.what == "field":
            return f"{self.const(g.card_fields)}[{target}][{ref.index}]"
        if ref.what == "cvar":
            return f"st.cvars[{target} * {g.ncvars} + {ref.index}]"
        raise Unsupported(n.name)

    def g_Of(self, ctx, n):
        g = self.g
        ref = self.ref()
        what, zi = ref.what, ref.index
        if what == "card_zone_of_all":
            base = g.zone_base[zi]
            count = len(g.kind_cards.get(g.zone_defs[zi].of_card, ()))
            return f"[c for s in range({base}, {base + count}) for c in st.zones[s]]"
        if what == "zone_of_all":
            return f"[c for p in range(st.players) for c in st.zones[{g.zone_base[zi]} + p]]"
        if what == "zone_of_others":
            me = self.fresh("m")
            # bracketed: it may be an operand ('hand of others + ...')
            return (f"([c for p in range(st.players) if p != {me} for c in st.zones[{g.zone_base[zi]} + p]] "
                    f"if ({me} := _me(st, fr)) is not None else [])")
        if what == "card_zone":
            if self.type_of(n.target) == Card(g.zone_defs[zi].of_card):
                # the checker knows the card is of the zone's kind: no test needed
                return f"({g.zone_base[zi]} + {self.const(g.kind_pos)}[{self.gen(ctx, n.target)}])"
            return f"{self.const(self.card_zone(zi, n.name))}({self.gen(ctx, n.target)})"
        if what == "pieces":
            # 'pawn of p': a player's own pieces of a kind
            return f"{self.const(g.seat_cards(zi))}[{self.gen(ctx, n.target)}][:]"
        target = self.gen(ctx, n.target)
        if what == "res":
            return f"st.res[{target} * {g.nres} + {zi}]"
        if what == "pvar":
            return f"st.pvars[{target} * {g.npvars} + {zi}]"
        if what == "zone":
            return f"({g.zone_base[zi]} + {target})"
        raise Unsupported(n.name)

    def card_zone(self, zi: int, name: str):
        """``card_zone_of`` for this zone, made once per module."""
        made = self.card_zones
        if zi not in made:
            made[zi] = card_zone_of(self.g, zi, name)
        return made[zi]
