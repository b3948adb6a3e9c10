"""Checking and compiling expressions of the effect language into closures.

Each ``x_<Node>`` method checks one kind of expression node against the pack's
vocabulary and returns ``(closure, type)``; closures take ``(state, frame)``. Names
are resolved here, once, to list indices. This checker has the names, fields, zones,
literals and conditionals, and dispatches every node (``expr``); the operators
(``meeple.dsl.operators``) and the calls (``meeple.dsl.calls``) are checkers of their own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from . import ast as A
from . import ir
from .errors import suggest
from .hoist import invariant_parts
from .types import UNSET, Fn, Unit, _bound_me, _me, card_zone_of
from .typesys import ANY, BOOL, CARD, INT, NONE, PLAYER, TEXT, AnyT, Card, Enum, EnumSet, List, Type, Zone, card_kind

if TYPE_CHECKING:
    from .compiler import Compiler


class ExpressionChecker:
    """Checks and compiles expressions: every node through ``expr``, which finds the checker of its kind."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against
        self.building: list[ir.ExprBuilder] = []      # the expressions being checked, innermost last
        self.begin()

    def as_list(self, fn: Fn, t: Type) -> Fn:
        """A closure giving a fresh list (zones are snapshotted)."""
        if isinstance(t, Zone):
            return lambda st, fr: st.zones[fn(st, fr)][:]
        return fn

    def read_list(self, fn: Fn, t: Type) -> Fn:
        """A closure giving a list only to be read at once (zones are not copied)."""
        if isinstance(t, Zone):
            return lambda st, fr: st.zones[fn(st, fr)]
        return fn

    def truth(self, unit: Unit, node: A.Node) -> Fn:
        fn, t = self.c.expr(unit, node)
        if t != BOOL and t != ANY:
            raise self.c.err(unit, node.pos, f"expected a condition (true/false), found {t.describe()}")
        return fn

    def number(self, unit: Unit, node: A.Node) -> Fn:
        fn, t = self.c.expr(unit, node)
        self.numeric(unit, node, t)
        return fn

    def numeric(self, unit: Unit, node: A.Node, t: Type) -> None:
        if t != INT and t != ANY:
            raise self.c.err(unit, node.pos, f"expected a number, found {t.describe()}")

    def player_expr(self, unit: Unit, node: A.Node) -> Fn:
        fn, t = self.c.expr(unit, node)
        if t != PLAYER and t != ANY:
            raise self.c.err(unit, node.pos, f"expected a player, found {t.describe()}")
        return fn

    def card_expr(self, unit: Unit, node: A.Node) -> tuple[Fn, Type]:
        fn, t = self.c.expr(unit, node)
        if not isinstance(t, (Card, AnyT)):
            raise self.c.err(unit, node.pos, f"expected a card, found {t.describe()}")
        return fn, t

    def zone_expr(self, unit: Unit, node: A.Node) -> tuple[Fn, Type]:
        if isinstance(node, A.Name) and unit.scope.lookup(node.name) is None and node.name not in self.g.known_names():
            raise self.c.err(unit, node.pos, f"unknown zone '{node.name}'", suggest(node.name, list(self.g.zone_index)))
        fn, t = self.c.expr(unit, node)
        if not isinstance(t, Zone):
            raise self.c.err(unit, node.pos, f"expected a zone, found {t.describe()}")
        return fn, t

    # ------------------------------------------------------------ expressions
    def begin(self) -> None:
        """A new text: its outermost expressions are gathered afresh (``ir.ExprBuilder``)."""
        self.building = [ir.ExprBuilder(None)]

    @property
    def around(self) -> ir.ExprBuilder:
        """The expression being checked (or the text's gathering): what the step planner
        decides of a node is noted here, and a part's record found."""
        return self.building[-1]

    def expr(self, unit: Unit, n: A.Node) -> tuple[Fn, Type]:
        """``n`` checked by the checker of its kind (``Compiler.x_kinds``), through its cache when
        it is a loop invariant, into its ``ir.Expr`` record (a part of the expression around
        it); when generating, the outermost expression written as Python (``PyGen.top``)."""
        method = self.c.x_kinds[type(n).__name__]
        gen = self.c.gen
        building = ir.ExprBuilder(n)
        self.building.append(building)
        if gen is not None:
            gen.depth += 1
        try:
            if unit.hoist is not None and n in unit.hoist:
                fn, t = self.cached(unit.hoist.get(n), *method(unit, n))
            else:
                fn, t = method(unit, n)
        finally:
            self.building.pop()
            if gen is not None:
                gen.depth -= 1
        record = building.done(t, fn)
        if gen is not None and gen.depth == 0:
            fn = gen.top(self.c, unit, record)
            record = ir.Expr(n, t, fn, record.plans, record.parts)
            if self.c.checking:         # an expression of a statement being fused: kept with it
                self.c.checking[-1].exprs.append(record)
        self.building[-1].parts.append(record)
        return fn, t

    def hoist_invariants(self, unit: Unit, var: str, roots: list, source: Fn) -> Fn:
        """Mark the parts of ``roots`` that do not read ``var`` for caching in ``unit``
        (see dsl/hoist.py); returns ``source`` wrapped to empty the caches before each walk."""
        parts = invariant_parts(roots, var, self.c.facts.impure)
        if not parts:
            return source
        caches = unit.hoist or ir.Caches()
        slots = []
        for node in parts:
            slot = unit.new_slot(known=True)      # a cache, emptied before each walk: dead across decisions
            caches = caches.plus(node, slot)
            slots.append(slot)
        unit.hoist = caches
        if len(slots) == 1:
            s0 = slots[0]

            def fresh1(st, fr):
                fr.locals[s0] = UNSET
                return source(st, fr)
            return fresh1
        every = tuple(slots)

        def fresh(st, fr):
            loc = fr.locals
            for s in every:
                loc[s] = UNSET
            return source(st, fr)
        return fresh

    @staticmethod
    def cached(slot: int, fn: Fn, t: Type) -> tuple[Fn, Type]:
        if t.is_collection and t != ANY:
            return fn, t            # lists are not shared between items: nothing may alias them

        def once(st, fr):
            loc = fr.locals
            v = loc[slot]
            if v is UNSET:
                v = loc[slot] = fn(st, fr)
            return v
        return once, t

    def x_Int(self, unit, n):
        v = n.value
        return (lambda st, fr: v), INT

    def x_Str(self, unit, n):
        v = n.value
        return (lambda st, fr: v), TEXT

    def x_Bool(self, unit, n):
        v = n.value
        return (lambda st, fr: v), BOOL

    def x_NoneLit(self, unit, n):
        return (lambda st, fr: None), NONE

    def x_Me(self, unit, n):
        return (_bound_me if unit.me_bound else _me), PLAYER

    def x_This(self, unit, n):
        return (lambda st, fr: fr.this), CARD

    def x_Name(self, unit, n):
        g = self.g
        name = n.name
        local = unit.scope.lookup(name)
        if local is not None:
            slot, t = local
            return (lambda st, fr: fr.locals[slot]), t
        if name in g.option_index:
            i = g.option_index[name]
            t = BOOL if isinstance(g.option_defaults[i], bool) else INT
            return (lambda st, fr: st.opts[i]), t
        if name in g.constants:
            table = g.constants[name]
            return (lambda st, fr: table[st.players]), INT
        if name in g.gvar_index:
            i = g.gvar_index[name]
            return (lambda st, fr: st.gvars[i]), g.gvar_types[i]
        if name in g.pvar_index:
            i, nv = g.pvar_index[name], g.npvars
            if unit.me_bound:
                return (lambda st, fr: st.pvars[fr.me * nv + i]), g.pvar_types[i]
            return (lambda st, fr: st.pvars[_me(st, fr) * nv + i]), g.pvar_types[i]
        if name in g.res_index:
            r, nr = g.res_index[name], g.nres
            if unit.me_bound:
                return (lambda st, fr: st.res[fr.me * nr + r]), INT
            return (lambda st, fr: st.res[_me(st, fr) * nr + r]), INT
        if name in g.zone_index:
            z = g.zone_defs[g.zone_index[name]]
            base = g.zone_base[g.zone_index[name]]
            if z.per_player:
                return (lambda st, fr: base + _me(st, fr)), Zone(z.holds)
            return (lambda st, fr: base), Zone(z.holds)
        if name in g.enum_of_value:
            return (lambda st, fr: name), Enum(g.enum_of_value[name])
        if name in g.enums:
            values = list(g.enums[name])
            self.c.steps.bounded(n, len(values))
            return (lambda st, fr: values), EnumSet(name)
        if name in g.kind_cards:
            ids = g.kind_cards[name]
            self.c.steps.bounded(n, len(ids))
            return self.c.steps.by_length(unit, n, lambda st, fr: ids[:], len(ids)), List(Card(name))
        if name == "players":
            self.c.steps.bounded(n, g.max_players)
            return self.c.steps.by_length(unit, n, lambda st, fr: list(range(st.players)), g.max_players), List(PLAYER)
        if name == "round":
            return (lambda st, fr: st.round), INT
        if name == "player_count":
            return (lambda st, fr: st.players), INT
        if name in g.card_index:
            raise self.c.err(unit, n.pos, f"'{name}' is a card id; compare with 'x is {name}'")
        known = unit.scope.all_names() + g.known_names()
        raise self.c.err(unit, n.pos, f"unknown name '{name}'", suggest(name, known))

    def x_Field(self, unit, n):
        g = self.g
        target, t = self.c.expr(unit, n.target)
        name = n.name
        if t == PLAYER:
            raise self.c.err(unit, n.pos, f"write '{name} of ...' for a player's {name}")
        if not isinstance(t, (Card, AnyT)):
            raise self.c.err(unit, n.target.pos, f"'.{name}' needs a card, found {t.describe()}")
        kind = card_kind(t)
        if name == "id":
            ids = g.card_def_ids
            return (lambda st, fr: ids[target(st, fr)]), TEXT
        if name == "name":
            names = g.card_names
            return (lambda st, fr: names[target(st, fr)]), TEXT
        fields = g.kind_fields.get(kind, {}) if kind else g.all_fields
        cvars = g.kind_cvars.get(kind, {}) if kind else g.all_cvars
        if name in fields:
            i = g.field_index[name]
            table = g.card_fields
            slot = self.local_slot(unit, n.target)
            if slot is not None:       # the common case, d.cost: one closure, not two
                return (lambda st, fr: table[fr.locals[slot]][i]), fields[name]
            return (lambda st, fr: table[target(st, fr)][i]), fields[name]
        if name in cvars:
            i, ncv = g.cvar_index[name], g.ncvars
            slot = self.local_slot(unit, n.target)
            if slot is not None:
                return (lambda st, fr: st.cvars[fr.locals[slot] * ncv + i]), cvars[name]
            return (lambda st, fr: st.cvars[target(st, fr) * ncv + i]), cvars[name]
        known = list(fields) + list(cvars) + ["id", "name"]
        what = f"{kind} cards" if kind else "cards"
        raise self.c.err(unit, n.pos, f"{what} have no field '{name}'", suggest(name, known))

    def local_slot(self, unit: Unit, node: A.Node) -> Optional[int]:
        if isinstance(node, A.Name):
            found = unit.scope.lookup(node.name)
            if found is not None:
                return found[0]
        return None

    def x_Of(self, unit, n):
        g = self.g
        name = n.name
        if n.scope in ("all", "others"):
            zi = g.zone_index.get(name)
            z = g.zone_defs[zi] if zi is not None else None
            if z is not None and z.of_card is not None and n.scope == "all":
                base, count = g.zone_base[zi], len(g.kind_cards.get(z.of_card, ()))

                def every_card(st, fr):
                    out = []
                    for s in range(base, base + count):
                        out += st.zones[s]
                    return out
                held = len(g.kind_cards.get(z.holds, ()))
                self.c.steps.bounded(n, held)
                return self.c.steps.by_length(unit, n, every_card, held), List(Card(z.holds))
            if z is None or not z.per_player:
                raise self.c.err(unit, n.pos, f"'{name} of {n.scope}' needs a zone each player has")
            base = g.zone_base[zi]
            if n.scope == "all":
                def fn(st, fr):
                    out = []
                    for p in range(st.players):
                        out += st.zones[base + p]
                    return out
            else:
                def fn(st, fr):
                    out = []
                    me = _me(st, fr)
                    for p in range(st.players):
                        if p != me:
                            out += st.zones[base + p]
                    return out
            held = len(g.kind_cards.get(z.holds, ()))
            self.c.steps.bounded(n, held)
            return self.c.steps.by_length(unit, n, fn, held), List(Card(z.holds))
        zi = g.zone_index.get(name)
        if zi is not None and g.zone_defs[zi].of_card is not None:
            z = g.zone_defs[zi]
            card, ct = self.card_expr(unit, n.target)
            if card_kind(ct) is not None and card_kind(ct) != z.of_card:
                raise self.c.err(unit, n.target.pos, f"'{name}' belongs to {z.of_card} cards, not to {card_kind(ct)} cards")
            zone_of = card_zone_of(g, zi, name)
            return (lambda st, fr: zone_of(card(st, fr))), Zone(z.holds)
        if name in g.kind_cards and any(g.card_defs[d].per_player for d in {g.card_def_index[c] for c in g.kind_cards[name]}):
            # 'pawn of p': that player's own pieces of the kind, wherever they are
            target = self.player_expr(unit, n.target)
            by_seat = g.seat_cards(name)
            held = len(g.kind_cards[name])
            self.c.steps.bounded(n, held)
            return self.c.steps.by_length(unit, n, lambda st, fr: by_seat[target(st, fr)][:], held), List(Card(name))
        target = self.player_expr(unit, n.target)
        if name in g.res_index:
            r, nr = g.res_index[name], g.nres
            return (lambda st, fr: st.res[target(st, fr) * nr + r]), INT
        if name in g.pvar_index:
            i, nv = g.pvar_index[name], g.npvars
            return (lambda st, fr: st.pvars[target(st, fr) * nv + i]), g.pvar_types[i]
        if name in g.zone_index:
            zi = g.zone_index[name]
            z = g.zone_defs[zi]
            if not z.per_player:
                raise self.c.err(unit, n.pos, f"'{name}' is a shared zone; write just '{name}'")
            base = g.zone_base[zi]
            return (lambda st, fr: base + target(st, fr)), Zone(z.holds)
        known = list(g.res_index) + list(g.pvar_index) + [z.name for z in g.zone_defs if z.per_player]
        raise self.c.err(unit, n.pos, f"players have no '{name}'", suggest(name, known))

    def x_ListLit(self, unit, n):
        items = [self.c.expr(unit, i) for i in n.items]
        fns = [f for f, _ in items]
        et = items[0][1] if items else ANY
        self.c.steps.bounded(n, len(fns))
        return (lambda st, fr: [f(st, fr) for f in fns]), List(et)

    def x_Unary(self, unit, n):
        if n.op == "not":
            f = self.truth(unit, n.operand)
            return (lambda st, fr: not f(st, fr)), BOOL
        f = self.number(unit, n.operand)
        return (lambda st, fr: -f(st, fr)), INT

    def x_Cond(self, unit, n):
        test = self.truth(unit, n.test)
        a, ta = self.c.expr(unit, n.then)
        b, tb = self.c.expr(unit, n.other)
        ba, bb = self.c.steps.bound(n.then, ta), self.c.steps.bound(n.other, tb)
        if ba is not None and bb is not None:
            self.c.steps.bounded(n, max(ba, bb))
        return (lambda st, fr: a(st, fr) if test(st, fr) else b(st, fr)), (ta if ta != NONE else tb)
