"""Checking and compiling expressions of the effect language into closures.

Each ``x_<Node>`` method checks one kind of expression node against the
pack's vocabulary and returns ``(closure, type)``; closures take
``(state, frame)``. Names are resolved here, once, to list indices.
"""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Optional

from .errors import DslCheckError, MeepleError, Span, suggest
from .limits import MAX_DEPTH, MAX_EXPANSION

from . import ast as A
from .parser import parse, to_span
from .primitives import PRIMITIVES
from .hoist import invariant_parts
from .steps import StepPlanner, charge, counted, counting
from .types import UNSET, Fn, Unit, _Scope, _bound_me, _me, card_zone_of, divide, join, number_range, product, remainder
from .typesys import (ANY, BOOL, CARD, ELEM, INT, NONE, PLAYER, TEXT, AnyT, Card, Enum, EnumSet, List, Type, Zone,
                      card_kind, compatible)


# A chain of arithmetic longer than this runs as a loop over its operands (see ``arith``).
_NESTED_CHAIN = 16
_ARITH = {"+": operator.add, "-": operator.sub, "*": product, "/": divide, "%": remainder}   # * bounded (MAX_NUMBER)


class _SelfUse(DslCheckError):
    """A function that uses itself: reported wherever it shows."""


class _TooMuch(DslCheckError):
    """Functions expanded beyond MAX_DEPTH levels or MAX_EXPANSION parts: reported wherever it shows."""


class ExpressionCompiler(StepPlanner):
    """Expression half of the compiler; ``Compiler`` adds statements. It also plans how
    every walk and whole-list operation is charged to the step budget (``meeple.dsl.steps``)."""

    g: Any
    gen: Any = None       # a meeple.dsl.pygen.PyGen while generating Python for running games
    if TYPE_CHECKING:       # the statement half, which ``Compiler`` mixes in beside this one
        def call_args(self, unit: Unit, pos: A.Pos, what: str, params: tuple, args: tuple) -> list[Fn]: ...
    # ------------------------------------------------------------ helpers
    def err(self, unit: Unit, pos: A.Pos, message: str, hint: Optional[str] = None) -> DslCheckError:
        return DslCheckError(message, to_span(unit.origin, pos.line, pos.col, pos.length), hint)

    def span(self, unit: Unit, pos: A.Pos) -> Span:
        return to_span(unit.origin, pos.line, pos.col, pos.length)

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
        fn, t = self.expr(unit, node)
        if t != BOOL and t != ANY:
            raise self.err(unit, node.pos, f"expected a condition (true/false), found {t.describe()}")
        return fn

    def number(self, unit: Unit, node: A.Node) -> Fn:
        fn, t = self.expr(unit, node)
        self.numeric(unit, node, t)
        return fn

    def numeric(self, unit: Unit, node: A.Node, t: Type) -> None:
        if t != INT and t != ANY:
            raise self.err(unit, node.pos, f"expected a number, found {t.describe()}")

    def player_expr(self, unit: Unit, node: A.Node) -> Fn:
        fn, t = self.expr(unit, node)
        if t != PLAYER and t != ANY:
            raise self.err(unit, node.pos, f"expected a player, found {t.describe()}")
        return fn

    def card_expr(self, unit: Unit, node: A.Node) -> tuple[Fn, Type]:
        fn, t = self.expr(unit, node)
        if not isinstance(t, (Card, AnyT)):
            raise self.err(unit, node.pos, f"expected a card, found {t.describe()}")
        return fn, t

    def zone_expr(self, unit: Unit, node: A.Node) -> tuple[Fn, Type]:
        if isinstance(node, A.Name) and unit.scope.lookup(node.name) is None and node.name not in self.g.known_names():
            raise self.err(unit, node.pos, f"unknown zone '{node.name}'", suggest(node.name, list(self.g.zone_index)))
        fn, t = self.expr(unit, node)
        if not isinstance(t, Zone):
            raise self.err(unit, node.pos, f"expected a zone, found {t.describe()}")
        return fn, t

    # ------------------------------------------------------------ expressions
    def expr(self, unit: Unit, n: A.Node) -> tuple[Fn, Type]:
        method = getattr(self, "x_" + type(n).__name__)
        gen = self.gen
        if gen is None:
            if unit.hoist is not None and id(n) in unit.hoist:
                return self.cached(unit.hoist[id(n)], *method(unit, n))
            return method(unit, n)
        # generating: check and type every node, then write the outermost as Python
        gen.depth += 1
        try:
            if unit.hoist is not None and id(n) in unit.hoist:
                fn, t = self.cached(unit.hoist[id(n)], *method(unit, n))
            else:
                fn, t = method(unit, n)
        finally:
            gen.depth -= 1
        gen.types[id(n)] = t
        if gen.depth == 0:
            fn = gen.top(self, unit, n, t, fn)
        return fn, t

    def function_tree(self, fdef: Any) -> Optional[A.Node]:
        """A pack function's parsed body, parsed once per compile."""
        trees = self.__dict__.setdefault("_function_trees", {})
        if fdef.name not in trees:
            try:
                trees[fdef.name] = parse(fdef.body.text, fdef.body.origin, "expr_start")
            except MeepleError:
                trees[fdef.name] = None
        return trees[fdef.name]

    # ------------------------------------------------------------ loop invariants
    def impure(self, func: str) -> bool:
        """Whether a call may have side effects (then it is never evaluated once for many items)."""
        prim = PRIMITIVES.get(func)
        if prim is not None:
            return not prim.pure
        if func not in self.g.function_defs:
            return True
        # a function using itself is an error anyway (and counts as impure)
        return self.over_functions(func, "_impure_functions", lambda f, inner: self.function_facts(f)[3] or any(inner), True)

    def function_facts(self, name: str) -> tuple[int, int, tuple, bool]:
        """Of a pack function's body, once: (levels of nesting, nodes, the pack functions it
        calls (once per call), whether it calls anything impure but those)."""
        facts = self.__dict__.setdefault("_function_facts", {})
        if name not in facts:
            fdef = self.g.function_defs.get(name)
            tree = self.function_tree(fdef) if fdef is not None else None
            if tree is None:
                facts[name] = (0, 0, (), True)
                return facts[name]
            size, calls, own = 0, [], False
            stack = [tree]
            while stack:
                node = stack.pop()
                size += 1
                if isinstance(node, A.Call):
                    if node.func in self.g.function_defs:
                        calls.append(node.func)
                    else:
                        prim = PRIMITIVES.get(node.func)
                        own = own or prim is None or not prim.pure
                stack.extend(A.child_nodes(node))
            facts[name] = (A.depth(tree), size, tuple(calls), own)
        return facts[name]

    def over_functions(self, name: str, key: str, combine: Any, in_cycle: Any) -> Any:
        """A fact of a function made from its own and those of the functions it calls
        (``combine(name, [their facts])``), found once each, with a stack: a chain of
        functions calling each other may be as long as the pack. A function met again
        while it is being worked out (it uses itself) gives ``in_cycle``."""
        memo = self.__dict__.setdefault(key, {})
        if name in memo:
            return memo[name]
        active: set[str] = set()
        stack = [name]
        while stack:
            f = stack[-1]
            if f in memo:
                stack.pop()
                continue
            calls = self.function_facts(f)[2]
            if f not in active:
                active.add(f)
                stack.extend(g for g in calls if g not in memo and g not in active)
                continue
            memo[f] = combine(f, [memo.get(g, in_cycle) for g in calls])
            active.discard(f)
            stack.pop()
        return memo[name]

    def expanded_size(self, name: str) -> int:
        """Nodes of a function's body with the bodies of the functions it uses copied in at
        every call (up to just over MAX_EXPANSION: it is only compared with that)."""
        return self.over_functions(name, "_expanded_sizes",
                                   lambda f, inner: min(MAX_EXPANSION + 1, self.function_facts(f)[1] + sum(inner)), 0)

    def expanded_levels(self, name: str) -> int:
        """Levels of nesting of a function's body with the bodies of the functions it uses
        (counted whole, one inside the other)."""
        return self.over_functions(name, "_expanded_levels", lambda f, inner: self.function_facts(f)[0] + max(inner, default=0), 0)

    def hoist_invariants(self, unit: Unit, var: str, roots: list, source: Fn) -> Fn:
        """Mark the parts of ``roots`` that do not read ``var`` for caching in ``unit``
        (see dsl/hoist.py); returns ``source`` wrapped to empty the caches before each walk."""
        parts = invariant_parts(roots, var, self.impure)
        if not parts:
            return source
        unit.hoist = dict(unit.hoist or {})
        slots = []
        for node in parts:
            slot = unit.new_slot(known=True)      # a cache, emptied before each walk: dead across decisions
            unit.hoist[id(node)] = slot
            slots.append(slot)
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
            self.bounded(n, len(values))
            return (lambda st, fr: values), EnumSet(name)
        if name in g.kind_cards:
            ids = g.kind_cards[name]
            self.bounded(n, len(ids))
            return self.by_length(unit, n, lambda st, fr: ids[:], len(ids)), List(Card(name))
        if name == "players":
            self.bounded(n, g.max_players)
            return self.by_length(unit, n, lambda st, fr: list(range(st.players)), g.max_players), List(PLAYER)
        if name == "round":
            return (lambda st, fr: st.round), INT
        if name == "player_count":
            return (lambda st, fr: st.players), INT
        if name in g.card_index:
            raise self.err(unit, n.pos, f"'{name}' is a card id; compare with 'x is {name}'")
        known = unit.scope.all_names() + g.known_names()
        raise self.err(unit, n.pos, f"unknown name '{name}'", suggest(name, known))

    def x_Field(self, unit, n):
        g = self.g
        target, t = self.expr(unit, n.target)
        name = n.name
        if t == PLAYER:
            raise self.err(unit, n.pos, f"write '{name} of ...' for a player's {name}")
        if not isinstance(t, (Card, AnyT)):
            raise self.err(unit, n.target.pos, f"'.{name}' needs a card, found {t.describe()}")
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
        raise self.err(unit, n.pos, f"{what} have no field '{name}'", suggest(name, known))

    def operand(self, unit: Unit, node: A.Node) -> Optional[tuple]:
        """How a comparison operand reads, when it is one of the cheap shapes:
        ('const', v), ('local', slot), ('field', slot, i) for x.field of a local
        card, ('cvar', slot, i) for a card variable of a local card; else None.
        Mirrors x_Name / x_Field (call it after they checked the node)."""
        g = self.g
        if isinstance(node, (A.Int, A.Str, A.Bool)):
            return ("const", node.value)
        if isinstance(node, A.NoneLit):
            return ("const", None)
        if isinstance(node, A.Name):
            local = unit.scope.lookup(node.name)
            if local is not None:
                return ("local", local[0])
            name = node.name
            if name in g.enum_of_value and not (name in g.option_index or name in g.constants or name in g.gvar_index
                                                or name in g.pvar_index or name in g.res_index or name in g.zone_index):
                return ("const", name)
            return None
        if isinstance(node, A.Field) and node.name not in ("id", "name") and isinstance(node.target, A.Name):
            local = unit.scope.lookup(node.target.name)
            if local is None:
                return None
            slot, t = local
            kind = card_kind(t)
            fields = g.kind_fields.get(kind, {}) if kind else g.all_fields
            cvars = g.kind_cvars.get(kind, {}) if kind else g.all_cvars
            if node.name in fields:             # the same order as x_Field: a kind's fields, then its variables
                return ("field", slot, g.field_index[node.name])
            if node.name in cvars:
                return ("cvar", slot, g.cvar_index[node.name])
        return None

    def fused_equality(self, unit: Unit, n: A.Binary) -> Optional[Fn]:
        """``d.colour == yellow``, ``s.column == col``, ``t.colour == d.colour`` as one
        closure rather than three: these comparisons fill every condition."""
        left, right = self.operand(unit, n.left), self.operand(unit, n.right)
        if left is None or right is None:
            return None
        if left[0] == "const" and right[0] != "const":
            left, right = right, left
        table, ncv = self.g.card_fields, self.g.ncvars
        neg = n.op == "!="
        kind = left[0]
        if right[0] == "const":
            k = right[1]
            if kind == "field":
                s, i = left[1], left[2]
                if neg:
                    return lambda st, fr: table[fr.locals[s]][i] != k
                return lambda st, fr: table[fr.locals[s]][i] == k
            if kind == "cvar":
                s, i = left[1], left[2]
                if neg:
                    return lambda st, fr: st.cvars[fr.locals[s] * ncv + i] != k
                return lambda st, fr: st.cvars[fr.locals[s] * ncv + i] == k
            if kind == "local":
                s = left[1]
                if neg:
                    return lambda st, fr: fr.locals[s] != k
                return lambda st, fr: fr.locals[s] == k
            return None
        if kind == "field" and right[0] == "field":
            s1, i1, s2, i2 = left[1], left[2], right[1], right[2]
            if neg:
                return lambda st, fr: table[fr.locals[s1]][i1] != table[fr.locals[s2]][i2]
            return lambda st, fr: table[fr.locals[s1]][i1] == table[fr.locals[s2]][i2]
        if kind == "field" and right[0] == "local":
            s1, i1, s2 = left[1], left[2], right[1]
            if neg:
                return lambda st, fr: table[fr.locals[s1]][i1] != fr.locals[s2]
            return lambda st, fr: table[fr.locals[s1]][i1] == fr.locals[s2]
        if kind == "cvar" and right[0] == "local":
            s1, i1, s2 = left[1], left[2], right[1]
            if neg:
                return lambda st, fr: st.cvars[fr.locals[s1] * ncv + i1] != fr.locals[s2]
            return lambda st, fr: st.cvars[fr.locals[s1] * ncv + i1] == fr.locals[s2]
        return None

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
                self.bounded(n, held)
                return self.by_length(unit, n, every_card, held), List(Card(z.holds))
            if z is None or not z.per_player:
                raise self.err(unit, n.pos, f"'{name} of {n.scope}' needs a zone each player has")
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
            self.bounded(n, held)
            return self.by_length(unit, n, fn, held), List(Card(z.holds))
        zi = g.zone_index.get(name)
        if zi is not None and g.zone_defs[zi].of_card is not None:
            z = g.zone_defs[zi]
            card, ct = self.card_expr(unit, n.target)
            if card_kind(ct) is not None and card_kind(ct) != z.of_card:
                raise self.err(unit, n.target.pos, f"'{name}' belongs to {z.of_card} cards, not to {card_kind(ct)} cards")
            zone_of = card_zone_of(g, zi, name)
            return (lambda st, fr: zone_of(card(st, fr))), Zone(z.holds)
        if name in g.kind_cards and any(g.card_defs[d].per_player for d in {g.card_def_index[c] for c in g.kind_cards[name]}):
            # 'pawn of p': that player's own pieces of the kind, wherever they are
            target = self.player_expr(unit, n.target)
            by_seat = g.seat_cards(name)
            held = len(g.kind_cards[name])
            self.bounded(n, held)
            return self.by_length(unit, n, lambda st, fr: by_seat[target(st, fr)][:], held), List(Card(name))
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
                raise self.err(unit, n.pos, f"'{name}' is a shared zone; write just '{name}'")
            base = g.zone_base[zi]
            return (lambda st, fr: base + target(st, fr)), Zone(z.holds)
        known = list(g.res_index) + list(g.pvar_index) + [z.name for z in g.zone_defs if z.per_player]
        raise self.err(unit, n.pos, f"players have no '{name}'", suggest(name, known))

    def x_Comprehension(self, unit, n):
        raise self.err(unit, n.pos, "a 'x in ... where ...' form belongs inside count(), sum(), any(), every(), first(), those(), min() or max()")

    def comprehension(self, unit: Unit, n: A.Node) -> tuple[Fn, int, Optional[Fn], Optional[Fn], Type, Type, Optional[int], int]:
        """(source list fn, var slot, cond, value, element type, value type, at most how many
        items the source holds (None: unknown), the steps folded into each item's test and value)."""
        if isinstance(n, A.Comprehension):
            if not n.var:
                raise self.err(unit, n.pos, "write 'x in collection where condition'")
            src, st_ = self.expr(unit, n.source)
            if not st_.is_collection:
                raise self.err(unit, n.source.pos, f"expected a zone or list, found {st_.describe()}")
            et = st_.elem()
            inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
            slot = inner.new_slot(et)
            inner.bind(inner.scope, n.var, slot, et)
            source = self.hoist_invariants(inner, n.var, [n.cond, n.value], self.read_list(src, st_))
            with self.apart() as each:
                cond = self.truth(inner, n.cond) if n.cond is not None else None
                value, vt = self.expr(inner, n.value) if n.value is not None else (None, et)
            return source, slot, cond, value, et, vt, self.bound(n.source, st_), each.steps
        src, st_ = self.expr(unit, n)
        if not st_.is_collection:
            raise self.err(unit, n.pos, f"expected a zone or list, found {st_.describe()}")
        return self.read_list(src, st_), -1, None, None, st_.elem(), st_.elem(), self.bound(n, st_), 0

    def x_Call(self, unit, n):
        fdef = self.g.function_defs.get(n.func)
        if fdef is not None:
            return self.inline_function(unit, n, fdef)
        prim = PRIMITIVES.get(n.func)
        if prim is None:
            raise self.err(unit, n.pos, f"unknown function '{n.func}'", suggest(n.func, list(PRIMITIVES)))
        if prim.fn is None:
            return self.aggregate(unit, n)
        args, types = [], []
        if not prim.variadic and len(n.args) != len(prim.params):
            raise self.err(unit, n.pos, f"{n.func}() takes {len(prim.params)} argument(s), given {len(n.args)}")
        if prim.variadic and len(n.args) < len(prim.params):       # lesser() of nothing has no value
            raise self.err(unit, n.pos, f"{n.func}() takes at least {len(prim.params)} argument(s), given {len(n.args)}")
        for i, a in enumerate(n.args):
            want = prim.params[min(i, len(prim.params) - 1)]
            fn, t = self.expr(unit, a)
            if isinstance(want, Zone):
                if not isinstance(t, Zone):
                    raise self.err(unit, a.pos, f"{n.func}() needs a zone, found {t.describe()}")
            elif not compatible(t, want):
                raise self.err(unit, a.pos, f"{n.func}() needs {want.describe()}, found {t.describe()}")
            if isinstance(want, List):        # a list the primitive reads whole (top_sum, tier, ...)
                fn = self.by_length(unit, a, fn, self.bound(a, t))
            args.append(fn)
            types.append(t)
        if n.func == "turn_order":
            self.bounded(n, self.g.max_players)
        ret = prim.returns
        if ret == ELEM:
            ret = types[0].elem()
        f = prim.fn
        if prim.needs_state:
            if len(args) == 1:
                a0 = args[0]
                return (lambda st, fr: f(st, a0(st, fr))), ret
            if len(args) == 2:
                a0, a1 = args
                return (lambda st, fr: f(st, a0(st, fr), a1(st, fr))), ret
            return (lambda st, fr: f(st, *[a(st, fr) for a in args])), ret
        if len(args) == 1:
            a0 = args[0]
            return (lambda st, fr: f(a0(st, fr))), ret
        if len(args) == 2:
            a0, a1 = args
            return (lambda st, fr: f(a0(st, fr), a1(st, fr))), ret
        return (lambda st, fr: f(*[a(st, fr) for a in args])), ret

    def inline_function(self, unit: Unit, n: A.Call, fdef: Any):
        """A pack's function: its body is compiled here, its parameters are new
        locals of the caller set from the arguments (the body sees nothing else)."""
        if fdef.name in getattr(self.g, "broken_functions", ()):
            return (lambda st, fr: None), ANY      # its errors are reported at its definition
        inlining = getattr(self, "_inlining", ())
        if fdef.name in inlining:
            err = self.err(unit, n.pos, f"function '{fdef.name}' uses itself (functions are expanded where used)")
            raise _SelfUse(err.message, err.span)
        levels = self.expanded_levels(fdef.name)
        if levels > MAX_DEPTH:
            err = self.err(unit, n.pos, f"function '{fdef.name}' nests too deeply: with the functions it uses, expanded "
                           f"where used, it has {levels} levels of nesting, more than {MAX_DEPTH}",
                           "use fewer functions inside one another")
            raise _TooMuch(err.message, err.span, err.hint)
        if not inlining:        # the outermost use: its whole expansion counts, known before expanding anything
            self._expanded = getattr(self, "_expanded", 0) + self.expanded_size(fdef.name)
        if not inlining and self._expanded > MAX_EXPANSION:
            err = self.err(unit, n.pos, f"functions expand to more than {MAX_EXPANSION:,} parts in this text "
                           f"(a function's body is copied wherever it is used, and '{fdef.name}' is used too often)",
                           "use fewer functions inside one another, or a 'let' for a value used many times")
            raise _TooMuch(err.message, err.span, err.hint)
        args = self.call_args(unit, n.pos, f"function '{fdef.name}'", fdef.params, n.args)
        inner = Unit(unit.code, fdef.body.origin, _Scope(), unit.me_bound)
        pairs_list = []
        for p, node, arg in zip(fdef.params, n.args, args):
            local = unit.scope.lookup(node.name) if isinstance(node, A.Name) else None
            if local is not None:
                # an argument that is already a local: the parameter reads its slot (no copy;
                # expressions never assign, so it cannot change while the body runs)
                inner.bind(inner.scope, p.name, local[0], self.g.type_of(p.type))
                continue
            slot = inner.new_slot(self.g.type_of(p.type))
            inner.bind(inner.scope, p.name, slot, self.g.type_of(p.type))
            pairs_list.append((slot, arg))
        self._inlining = inlining + (fdef.name,)
        try:
            tree = self.function_tree(fdef)
            if tree is None:
                return (lambda st, fr: None), ANY
            body, t = self.expr(inner, tree)
            self.bounded(n, self.bound(tree, t))
        except (_SelfUse, _TooMuch):
            raise
        except MeepleError:
            # the function's own text is checked, and its errors reported, once where it is defined
            return (lambda st, fr: None), ANY
        finally:
            self._inlining = inlining
        pairs = tuple(pairs_list)
        if not pairs:
            return body, t
        if len(pairs) == 1:
            (s0, a0), = pairs

            def call1(st, fr):
                fr.locals[s0] = a0(st, fr)
                return body(st, fr)
            return call1, t

        def call(st, fr):
            loc = fr.locals
            for slot, arg in pairs:
                loc[slot] = arg(st, fr)
            return body(st, fr)
        return call, t

    def aggregate(self, unit: Unit, n: A.Call):
        if len(n.args) != 1:
            raise self.err(unit, n.pos, f"{n.func}() takes one collection, e.g. {n.func}(c in hand where ...)")
        src, slot, cond, value, et, vt, bound, inner = self.comprehension(unit, n.args[0])
        kind = n.func
        if kind in ("sum", "min", "max") and value is None and et != INT:
            raise self.err(unit, n.args[0].pos, f"{kind}() needs numbers: write {kind}(x.field for x in ...)")
        if kind in ("sum", "min", "max") and value is not None and vt != INT and vt != ANY:
            raise self.err(unit, n.args[0].pos, f"{kind}() needs numbers, found {vt.describe()}")
        if kind in ("those", "values"):
            self.bounded(n, bound)
        # a walk (and a plain list read whole: sum, max, any of true/false...) is folded, or
        # charged its items as it starts (``fold``); count, first, any of a list read no item
        truthy = et == BOOL
        walks = slot >= 0 or kind in ("sum", "min", "max", "those", "values") or (truthy and kind in ("any", "every"))
        factor, where = self.walk(unit, n, bound, inner) if walks else (0, None)
        if factor:
            src = _charged(src, factor, where)
        if kind in ("count", "sum", "min", "max", "those", "values"):
            return self.gathered(unit, n, kind, src, slot, cond, value, et, vt)
        return self.searched(unit, n, kind, src, slot, cond, et)

    def gathered(self, unit: Unit, n: A.Call, kind: str, src: Fn, slot: int, cond: Optional[Fn], value: Optional[Fn],
                 et: Type, vt: Type) -> tuple[Fn, Type]:
        """An aggregate over every item kept (count, sum, min, max, those, values): the items
        kept by the condition (each as its value, if any) as a list, then the aggregate of it."""
        def items(st, fr):
            seq = src(st, fr)
            if slot < 0:
                return list(seq)
            loc = fr.locals
            out = []
            for x in seq:
                loc[slot] = x
                if cond is None or cond(st, fr):
                    out.append(value(st, fr) if value is not None else x)
            return out

        if kind == "count":
            if cond is None:
                return (lambda st, fr: len(src(st, fr))), INT
            return (lambda st, fr: len(items(st, fr))), INT
        if kind == "sum":
            return (lambda st, fr: sum(items(st, fr))), INT
        if kind == "min":
            return (lambda st, fr: min(items(st, fr), default=None)), INT
        if kind == "max":
            return (lambda st, fr: max(items(st, fr), default=None)), INT
        if kind == "those":
            if value is not None:
                raise self.err(unit, n.args[0].pos, "those() keeps items: write those(x in ... where ...); values() maps them")
            return items, List(et)
        if value is None:
            raise self.err(unit, n.args[0].pos, "values() needs a value per item: values(coins of p for p in players)")
        return items, List(vt)

    def searched(self, unit: Unit, n: A.Call, kind: str, src: Fn, slot: int, cond: Optional[Fn], et: Type) -> tuple[Fn, Type]:
        """An aggregate that stops at the first item deciding it (any, every, first)."""
        truthy = et == BOOL
        # Without a condition, any/every/first read true/false items as conditions
        # and any other item as present (player 0 and card 0 are items, not false).
        if cond is None:
            test = (lambda st, fr: bool(fr.locals[slot])) if truthy and kind != "first" else (lambda st, fr: True)
        else:
            test = cond
        if slot < 0:                     # a plain collection: any(xs), every(xs), first(xs)
            if kind == "any":
                return ((lambda st, fr: any(src(st, fr))) if truthy else (lambda st, fr: len(src(st, fr)) > 0)), BOOL
            if kind == "every":
                return ((lambda st, fr: all(src(st, fr))) if truthy else (lambda st, fr: True)), BOOL
            return (lambda st, fr: next(iter(src(st, fr)), None)), et

        if kind == "any":
            def any_(st, fr):
                loc = fr.locals
                for x in src(st, fr):
                    loc[slot] = x
                    if test(st, fr):
                        return True
                return False
            return any_, BOOL
        if kind == "every":
            def every_(st, fr):
                loc = fr.locals
                for x in src(st, fr):
                    loc[slot] = x
                    if not test(st, fr):
                        return False
                return True
            return every_, BOOL
        if kind == "first":
            def first_(st, fr):
                loc = fr.locals
                for x in src(st, fr):
                    loc[slot] = x
                    if test(st, fr):
                        return x
                return None
            return first_, et
        raise self.err(unit, n.pos, f"unknown aggregate {kind}")   # pragma: no cover

    def x_ListLit(self, unit, n):
        items = [self.expr(unit, i) for i in n.items]
        fns = [f for f, _ in items]
        et = items[0][1] if items else ANY
        self.bounded(n, len(fns))
        return (lambda st, fr: [f(st, fr) for f in fns]), List(et)

    def x_Unary(self, unit, n):
        if n.op == "not":
            f = self.truth(unit, n.operand)
            return (lambda st, fr: not f(st, fr)), BOOL
        f = self.number(unit, n.operand)
        return (lambda st, fr: -f(st, fr)), INT

    def x_Cond(self, unit, n):
        test = self.truth(unit, n.test)
        a, ta = self.expr(unit, n.then)
        b, tb = self.expr(unit, n.other)
        ba, bb = self.bound(n.then, ta), self.bound(n.other, tb)
        if ba is not None and bb is not None:
            self.bounded(n, max(ba, bb))
        return (lambda st, fr: a(st, fr) if test(st, fr) else b(st, fr)), (ta if ta != NONE else tb)

    def x_Is(self, unit, n):
        target, t = self.expr(unit, n.target)
        if n.name is None:
            if n.negated:
                return (lambda st, fr: target(st, fr) is not None), BOOL
            return (lambda st, fr: target(st, fr) is None), BOOL
        if not isinstance(t, (Card, AnyT)):
            raise self.err(unit, n.target.pos, f"'is {n.name}' needs a card, found {t.describe()}")
        if n.name not in self.g.card_index:
            raise self.err(unit, n.name_pos, f"unknown card id '{n.name}'", suggest(n.name, list(self.g.card_index)))
        d = self.g.card_index[n.name]
        defs = self.g.card_def_index
        if n.negated:
            def is_not(st, fr):
                c = target(st, fr)
                return c is None or defs[c] != d
            return is_not, BOOL

        def is_(st, fr):
            c = target(st, fr)
            return c is not None and defs[c] == d
        return is_, BOOL

    def x_Binary(self, unit, n):
        op = n.op
        if op in ("and", "or"):
            # a chain 'a and b and c' becomes one closure over [a, b, c], not a tree of pairs
            parts = [self.truth(unit, node) for node in A.operands(n)]
            if len(parts) == 2:
                a, b = parts
                if op == "and":
                    return (lambda st, fr: a(st, fr) and b(st, fr)), BOOL
                return (lambda st, fr: a(st, fr) or b(st, fr)), BOOL
            fns = tuple(parts)
            if op == "and":
                def all_of(st, fr):
                    for f in fns:
                        if not f(st, fr):
                            return False
                    return True
                return all_of, BOOL

            def any_of(st, fr):
                for f in fns:
                    if f(st, fr):
                        return True
                return False
            return any_of, BOOL
        if op in ("in", "notin"):
            return self.membership(unit, n)
        if op == "..":
            a, b = self.number(unit, n.left), self.number(unit, n.right)
            ends = (n.left, n.right)
            bound = max(0, ends[1].value - ends[0].value + 1) if all(isinstance(e, A.Int) for e in ends) else None
            self.bounded(n, bound)
            return self.by_length(unit, n, lambda st, fr: number_range(a(st, fr), b(st, fr)), bound), List(INT)
        if op in A.ARITH:
            return self.arith(unit, n)
        if op in ("<", "<=", ">", ">="):
            a = self.number(unit, n.left)
            b = self.number(unit, n.right)
            if isinstance(n.right, A.Int):
                k = n.right.value
                fast = {"<": lambda st, fr: a(st, fr) < k, "<=": lambda st, fr: a(st, fr) <= k,
                        ">": lambda st, fr: a(st, fr) > k, ">=": lambda st, fr: a(st, fr) >= k}
                return fast[op], BOOL
            if op == "<":
                return (lambda st, fr: a(st, fr) < b(st, fr)), BOOL
            if op == "<=":
                return (lambda st, fr: a(st, fr) <= b(st, fr)), BOOL
            if op == ">":
                return (lambda st, fr: a(st, fr) > b(st, fr)), BOOL
            return (lambda st, fr: a(st, fr) >= b(st, fr)), BOOL
        a, ta = self.expr(unit, n.left)
        b, tb = self.expr(unit, n.right)
        if not (compatible(ta, tb) or compatible(tb, ta)):
            raise self.err(unit, n.pos, f"cannot compare {ta.describe()} with {tb.describe()}")
        if isinstance(ta, List) or isinstance(tb, List):      # lists compared item by item
            a = self.by_length(unit, n.left, a, self.bound(n.left, ta))
            return ((lambda st, fr: a(st, fr) == b(st, fr)) if op == "==" else (lambda st, fr: a(st, fr) != b(st, fr))), BOOL
        fused = self.fused_equality(unit, n)
        if fused is not None:
            return fused, BOOL
        if op == "==":
            return (lambda st, fr: a(st, fr) == b(st, fr)), BOOL
        return (lambda st, fr: a(st, fr) != b(st, fr)), BOOL

    def arith(self, unit: Unit, n: A.Binary):
        """A chain of arithmetic, ``a + b - c * d``: walked down its left side in a loop, each
        node checked and compiled once (so compiling is linear, and never deep, however long
        the chain). A chain longer than ``_NESTED_CHAIN`` runs as one loop over its operands
        rather than as closures inside closures (which would recurse as deep as it is long)."""
        nodes = A.spine(n)
        a, ta = self.expr(unit, nodes[-1].left)
        flat = len(nodes) > _NESTED_CHAIN
        steps = []
        gen = self.gen
        held = self.bound(nodes[-1].left, ta)      # at most how many items the joined list holds so far
        for node in reversed(nodes):
            op = node.op
            joined = None            # a join charged by its length: where
            if op == "+":
                b, tb = self.expr(unit, node.right)
                if isinstance(ta, List) and isinstance(tb, List):
                    if not (compatible(ta, tb) or compatible(tb, ta)):
                        raise self.err(unit, node.pos, f"cannot join {ta.describe()} and {tb.describe()}")
                    t = ta if ta != List(ANY) else tb
                    more = self.bound(node.right, tb)
                    held = held + more if held is not None and more is not None else None
                    self.bounded(node, held)
                    joined = self.length_plan(unit, node, held)
                else:
                    # numbers: each side is checked, never compiled again (compiling stays linear in the text)
                    self.numeric(unit, node.left, ta)
                    self.numeric(unit, node.right, tb)
                    t = INT
            else:
                self.numeric(unit, node.left, ta)
                b = self.number(unit, node.right)
                t = INT
            if flat:          # a join of lists is bounded (MAX_ITEMS), as a product is (MAX_NUMBER)
                steps.append((join if isinstance(t, List) else _ARITH[op], b, joined))
            else:
                a = self.arith_step(op, a, b, node.right, t)
                if joined is not None:
                    a = counting(a, joined)
                if node is not n:            # what ``expr`` does for a node it is given
                    if unit.hoist is not None and id(node) in unit.hoist:
                        a, t = self.cached(unit.hoist[id(node)], a, t)
            if gen is not None and node is not n:
                gen.types[id(node)] = t
            ta = t
        if not flat:
            return a, ta
        first, every = a, tuple(steps)

        def chain(st, fr):
            v = first(st, fr)
            for f, b, joined in every:
                v = f(v, b(st, fr))
                if joined is not None:
                    counted(st, v, joined)
            return v
        return chain, ta

    @staticmethod
    def arith_step(op: str, a: Fn, b: Fn, right: A.Node, t: Type) -> Fn:
        """One operator of a chain as a closure (both sides are checked)."""
        if op == "+" and isinstance(t, List):     # the one way a list grows: bounded (MAX_ITEMS)
            return lambda st, fr: join(a(st, fr), b(st, fr))
        if op in ("+", "-", "*") and isinstance(right, A.Int):
            k = right.value
            if op == "+":
                return lambda st, fr: a(st, fr) + k
            if op == "-":
                return lambda st, fr: a(st, fr) - k
            return lambda st, fr: product(a(st, fr), k)
        if op == "+":
            return lambda st, fr: a(st, fr) + b(st, fr)
        if op == "-":
            return lambda st, fr: a(st, fr) - b(st, fr)
        if op == "*":         # the one operation that can square a number: bounded (MAX_NUMBER)
            return lambda st, fr: product(a(st, fr), b(st, fr))
        if op == "/":         # both back ends evaluate the left side first, then the right
            return lambda st, fr: divide(a(st, fr), b(st, fr))
        return lambda st, fr: remainder(a(st, fr), b(st, fr))

    def membership(self, unit: Unit, n: A.Binary):
        a, ta = self.expr(unit, n.left)
        neg = n.op == "notin"
        right = n.right
        g = self.g
        if isinstance(right, A.Of) and right.scope == "all" and right.name in g.zone_index \
                and g.zone_defs[g.zone_index[right.name]].of_card is not None:
            zi = g.zone_index[right.name]
            lo, hi = g.zone_base[zi], g.zone_base[zi] + len(g.kind_cards.get(g.zone_defs[zi].of_card, ()))

            def on_some_card(st, fr):      # 'c in occupant of all': on any card's such zone, in O(1)
                c = a(st, fr)
                return (c is not None and lo <= st.loc[c] < hi) != neg
            return on_some_card, BOOL
        if isinstance(right, A.Of) and right.scope in ("all", "others") and right.name in g.zone_index:
            zi = g.zone_index[right.name]
            if not g.zone_defs[zi].per_player:
                raise self.err(unit, right.pos, f"'{right.name} of {right.scope}' needs a zone each player has")
            base, others = g.zone_base[zi], right.scope == "others"
            owner = g.slot_owner

            def inzones(st, fr):
                c = a(st, fr)
                if c is None:
                    return neg
                slot = st.loc[c]
                ok = base <= slot < base + st.players and (not others or owner[slot] != _me(st, fr))
                return ok != neg
            return inzones, BOOL
        b, tb = self.expr(unit, right)
        if isinstance(tb, Zone):
            if not isinstance(ta, (Card, AnyT)):
                raise self.err(unit, n.left.pos, f"only cards are in zones, found {ta.describe()}")
            def in_zone(st, fr):
                c = a(st, fr)
                return (c is not None and st.loc[c] == b(st, fr)) != neg
            return in_zone, BOOL
        if not tb.is_collection:
            raise self.err(unit, right.pos, f"'in' needs a zone or list, found {tb.describe()}")
        b = self.by_length(unit, right, b, self.bound(right, tb))      # a list is read item by item
        return (lambda st, fr: (a(st, fr) in b(st, fr)) != neg), BOOL


def _charged(plain: Fn, factor: int, where: Any) -> Fn:
    """A walk's items, charged ``factor`` steps each as the walk starts."""
    def src(st, fr):
        seq = plain(st, fr)
        charge(st, len(seq) * factor, where)
        return seq
    return src
