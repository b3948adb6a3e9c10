"""Checking the operators of the effect language: 'and'/'or', comparisons, arithmetic,
ranges, 'is' and 'in'.

A chain of arithmetic is walked down its left side in a loop, so checking is linear and
never deep however long it is; the generator writes it operator by operator. A product past
``MAX_NUMBER`` and a list grown past ``MAX_ITEMS`` stop the rules (``meeple.dsl.types``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ast as A
from . import ir
from .errors import suggest
from .types import Unit
from .typesys import ANY, BOOL, INT, AnyT, Card, List, Type, Zone, compatible

if TYPE_CHECKING:
    from .compiler import Compiler


# A chain of arithmetic longer than this is one list made whole (its joins charged at the
# chain's end, not at each link's): the generator writes it as one loop over its operands.
_NESTED_CHAIN = 16


class OperatorChecker:
    """Checks 'is' (``x_Is``) and the binary operators (``x_Binary``)."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against

    def x_Is(self, unit, n):
        t = self.c.expr(unit, n.target).type
        if n.name is None:
            return BOOL
        if not isinstance(t, (Card, AnyT)):
            raise self.c.err(unit, n.target.pos, f"'is {n.name}' needs a card, found {t.describe()}")
        if n.name not in self.g.card_index:
            raise self.c.err(unit, n.name_pos, f"unknown card id '{n.name}'", suggest(n.name, list(self.g.card_index)))
        return BOOL

    def x_Binary(self, unit, n):
        op = n.op
        if op in ("and", "or"):
            for node in A.operands(n):        # a chain 'a and b and c' is checked as [a, b, c]
                self.c.truth(unit, node)
            return BOOL
        if op in ("in", "notin"):
            return self.membership(unit, n)
        if op == "..":
            self.c.exprs.number(unit, n.left)
            self.c.exprs.number(unit, n.right)
            ends = (n.left, n.right)
            bound = max(0, ends[1].value - ends[0].value + 1) if all(isinstance(e, A.Int) for e in ends) else None
            self.c.steps.bounded(n, bound)
            self.c.steps.by_length(unit, n, bound)
            return List(INT)
        if op in A.ARITH:
            return self.arith(unit, n)
        if op in ("<", "<=", ">", ">="):
            self.c.exprs.number(unit, n.left)
            self.c.exprs.number(unit, n.right)
            return BOOL
        ta = self.c.expr(unit, n.left).type
        tb = self.c.expr(unit, n.right).type
        if not (compatible(ta, tb) or compatible(tb, ta)):
            raise self.c.err(unit, n.pos, f"cannot compare {ta.describe()} with {tb.describe()}")
        if isinstance(ta, List) or isinstance(tb, List):      # lists compared item by item
            self.c.steps.by_length(unit, n.left, self.c.steps.bound(n.left, ta))
        return BOOL

    def arith(self, unit: Unit, n: A.Binary) -> Type:
        """A chain of arithmetic, ``a + b - c * d``: walked down its left side in a loop, each
        node checked once (so checking is linear, and never deep, however long the chain);
        each inner link's type and plans noted as a part of the chain's record."""
        nodes = A.spine(n)
        ta = self.c.expr(unit, nodes[-1].left).type
        flat = len(nodes) > _NESTED_CHAIN
        held = self.c.steps.bound(nodes[-1].left, ta)      # at most how many items the joined list holds so far
        joined = None
        for node in reversed(nodes):
            op = node.op
            joined = None            # a join charged by its length: where
            if op == "+":
                tb = self.c.expr(unit, node.right).type
                if isinstance(ta, List) and isinstance(tb, List):
                    if not (compatible(ta, tb) or compatible(tb, ta)):
                        raise self.c.err(unit, node.pos, f"cannot join {ta.describe()} and {tb.describe()}")
                    t = ta if ta != List(ANY) else tb
                    more = self.c.steps.bound(node.right, tb)
                    held = held + more if held is not None and more is not None else None
                    self.c.steps.bounded(node, held)
                    joined = self.c.steps.length_plan(unit, node, held)
                else:
                    # numbers: each side is checked, never again (checking stays linear in the text)
                    self.c.exprs.numeric(unit, node.left, ta)
                    self.c.exprs.numeric(unit, node.right, tb)
                    t = INT
            else:
                self.c.exprs.numeric(unit, node.left, ta)
                self.c.exprs.number(unit, node.right)
                t = INT
            if node is not n:
                self.c.exprs.around.typed(node, t)
            ta = t
        if joined is not None and not flat:     # the chain's list is charged as it is made
            self.c.exprs.around.counts = True
        return ta

    def membership(self, unit: Unit, n: A.Binary) -> Type:
        ta = self.c.expr(unit, n.left).type
        right = n.right
        g = self.g
        if isinstance(right, A.Of) and right.scope == "all" and right.name in g.zone_index \
                and g.zone_defs[g.zone_index[right.name]].of_card is not None:
            z = g.zone_defs[g.zone_index[right.name]]          # 'c in occupant of all': on any card's such zone
            self.c.exprs.around.resolved(right, List(Card(z.holds)), ir.Ref("card_zone_of_all", g.zone_index[right.name]))
            return BOOL
        if isinstance(right, A.Of) and right.scope in ("all", "others") and right.name in g.zone_index:
            z = g.zone_defs[g.zone_index[right.name]]
            if not z.per_player:
                raise self.c.err(unit, right.pos, f"'{right.name} of {right.scope}' needs a zone each player has")
            self.c.exprs.around.resolved(right, List(Card(z.holds)), ir.Ref("zone_of_" + right.scope, g.zone_index[right.name]))
            return BOOL
        tb = self.c.expr(unit, right).type
        if isinstance(tb, Zone):
            if not isinstance(ta, (Card, AnyT)):
                raise self.c.err(unit, n.left.pos, f"only cards are in zones, found {ta.describe()}")
            return BOOL
        if not tb.is_collection:
            raise self.c.err(unit, right.pos, f"'in' needs a zone or list, found {tb.describe()}")
        self.c.steps.by_length(unit, right, self.c.steps.bound(right, tb))      # a list is read item by item
        return BOOL
