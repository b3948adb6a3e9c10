"""Checking and compiling the operators of the effect language: 'and'/'or', comparisons,
arithmetic, ranges, 'is' and 'in'.

The commonest comparisons (``d.colour == yellow``) are fused into one closure
(``fused_equality``); a chain of arithmetic is walked down its left side in a loop, so
compiling is linear and never deep however long it is, and a chain longer than
``_NESTED_CHAIN`` runs as one loop over its operands. A product past ``MAX_NUMBER`` and a
list grown past ``MAX_ITEMS`` stop the rules, with either back end.
"""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Optional

from . import ast as A
from .errors import suggest
from .steps import counted, counting
from .types import Fn, Unit, _me, divide, join, number_range, product, remainder
from .typesys import ANY, BOOL, INT, AnyT, Card, List, Type, Zone, card_kind, compatible

if TYPE_CHECKING:
    from .compiler import Compiler


# A chain of arithmetic longer than this runs as a loop over its operands (see ``arith``).
_NESTED_CHAIN = 16
_ARITH = {"+": operator.add, "-": operator.sub, "*": product, "/": divide, "%": remainder}   # * bounded (MAX_NUMBER)


class OperatorChecker:
    """Checks and compiles 'is' (``x_Is``) and the binary operators (``x_Binary``)."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against

    def x_Is(self, unit, n):
        target, t = self.c.expr(unit, n.target)
        if n.name is None:
            if n.negated:
                return (lambda st, fr: target(st, fr) is not None), BOOL
            return (lambda st, fr: target(st, fr) is None), BOOL
        if not isinstance(t, (Card, AnyT)):
            raise self.c.err(unit, n.target.pos, f"'is {n.name}' needs a card, found {t.describe()}")
        if n.name not in self.g.card_index:
            raise self.c.err(unit, n.name_pos, f"unknown card id '{n.name}'", suggest(n.name, list(self.g.card_index)))
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
            parts = [self.c.truth(unit, node) for node in A.operands(n)]
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
            a, b = self.c.exprs.number(unit, n.left), self.c.exprs.number(unit, n.right)
            ends = (n.left, n.right)
            bound = max(0, ends[1].value - ends[0].value + 1) if all(isinstance(e, A.Int) for e in ends) else None
            self.c.steps.bounded(n, bound)
            return self.c.steps.by_length(unit, n, lambda st, fr: number_range(a(st, fr), b(st, fr)), bound), List(INT)
        if op in A.ARITH:
            return self.arith(unit, n)
        if op in ("<", "<=", ">", ">="):
            a = self.c.exprs.number(unit, n.left)
            b = self.c.exprs.number(unit, n.right)
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
        a, ta = self.c.expr(unit, n.left)
        b, tb = self.c.expr(unit, n.right)
        if not (compatible(ta, tb) or compatible(tb, ta)):
            raise self.c.err(unit, n.pos, f"cannot compare {ta.describe()} with {tb.describe()}")
        if isinstance(ta, List) or isinstance(tb, List):      # lists compared item by item
            a = self.c.steps.by_length(unit, n.left, a, self.c.steps.bound(n.left, ta))
            return ((lambda st, fr: a(st, fr) == b(st, fr)) if op == "==" else (lambda st, fr: a(st, fr) != b(st, fr))), BOOL
        fused = self.fused_equality(unit, n)
        if fused is not None:
            return fused, BOOL
        if op == "==":
            return (lambda st, fr: a(st, fr) == b(st, fr)), BOOL
        return (lambda st, fr: a(st, fr) != b(st, fr)), BOOL

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

    def arith(self, unit: Unit, n: A.Binary):
        """A chain of arithmetic, ``a + b - c * d``: walked down its left side in a loop, each
        node checked and compiled once (so compiling is linear, and never deep, however long
        the chain). A chain longer than ``_NESTED_CHAIN`` runs as one loop over its operands
        rather than as closures inside closures (which would recurse as deep as it is long)."""
        nodes = A.spine(n)
        a, ta = self.c.expr(unit, nodes[-1].left)
        flat = len(nodes) > _NESTED_CHAIN
        steps = []
        held = self.c.steps.bound(nodes[-1].left, ta)      # at most how many items the joined list holds so far
        for node in reversed(nodes):
            op = node.op
            joined = None            # a join charged by its length: where
            if op == "+":
                b, tb = self.c.expr(unit, node.right)
                if isinstance(ta, List) and isinstance(tb, List):
                    if not (compatible(ta, tb) or compatible(tb, ta)):
                        raise self.c.err(unit, node.pos, f"cannot join {ta.describe()} and {tb.describe()}")
                    t = ta if ta != List(ANY) else tb
                    more = self.c.steps.bound(node.right, tb)
                    held = held + more if held is not None and more is not None else None
                    self.c.steps.bounded(node, held)
                    joined = self.c.steps.length_plan(unit, node, held)
                else:
                    # numbers: each side is checked, never compiled again (compiling stays linear in the text)
                    self.c.exprs.numeric(unit, node.left, ta)
                    self.c.exprs.numeric(unit, node.right, tb)
                    t = INT
            else:
                self.c.exprs.numeric(unit, node.left, ta)
                b = self.c.exprs.number(unit, node.right)
                t = INT
            if flat:          # a join of lists is bounded (MAX_ITEMS), as a product is (MAX_NUMBER)
                steps.append((join if isinstance(t, List) else _ARITH[op], b, joined))
            else:
                a = self.arith_step(op, a, b, node.right, t)
                if joined is not None:
                    a = counting(a, joined)
                if node is not n:            # what ``expr`` does for a node it is given
                    if unit.hoist is not None and node in unit.hoist:
                        a, t = self.c.exprs.cached(unit.hoist.get(node), a, t)
            if node is not n:
                self.c.exprs.around.typed(node, t)
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
        a, ta = self.c.expr(unit, n.left)
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
                raise self.c.err(unit, right.pos, f"'{right.name} of {right.scope}' needs a zone each player has")
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
        b, tb = self.c.expr(unit, right)
        if isinstance(tb, Zone):
            if not isinstance(ta, (Card, AnyT)):
                raise self.c.err(unit, n.left.pos, f"only cards are in zones, found {ta.describe()}")
            def in_zone(st, fr):
                c = a(st, fr)
                return (c is not None and st.loc[c] == b(st, fr)) != neg
            return in_zone, BOOL
        if not tb.is_collection:
            raise self.c.err(unit, right.pos, f"'in' needs a zone or list, found {tb.describe()}")
        b = self.c.steps.by_length(unit, right, b, self.c.steps.bound(right, tb))      # a list is read item by item
        return (lambda st, fr: (a(st, fr) in b(st, fr)) != neg), BOOL
