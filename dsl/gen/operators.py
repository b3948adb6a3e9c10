"""Operators as Python source: comparisons, 'and'/'or', arithmetic, 'is', 'in'.

Bounded: a product past ``MAX_NUMBER`` and a list grown by
'+' (``_join``) are checked inline; a long chain of arithmetic is walked down its left
side in a loop, never deep, and written one operator after the other on a made local
(Python's parser takes 200 nested brackets at most). A card known to be one (an item of a walk over
cards, ``ExprWriter.present``) is tested without a none check.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ast as A
from ..types import MAX_NUMBER
from ..typesys import List, Zone
from .context import Ctx

if TYPE_CHECKING:
    from .expressions import ExprWriter

# A chain of arithmetic longer than this is written one operator after the other (``steps``).
_NESTED_CHAIN = 16


class OperatorWriter:
    """Writes 'is' (``g_Is``), binary operators (``g_Binary``), arithmetic chains and membership."""

    def __init__(self, x: "ExprWriter"):
        self.x = x
        self.g, self.gen, self.type_of, self.me, self.const, self.fresh = x.g, x.gen, x.type_of, x.me, x.const, x.fresh
        self.chain, self.bind, self.guard, self.present = x.chain, x.bind, x.guard, x.present
        self.list_plan, self.cached, self.wrap = x.list_plan, x.cached, x.wrap

    def g_Is(self, ctx, n):
        target = self.gen(ctx, n.target)
        if n.name is None:
            return f"({target} is {'not ' if n.negated else ''}None)"
        d = self.g.card_index[n.name]
        defs = self.const(self.g.card_def_index)
        if target in self.present:
            return f"({defs}[{target}] {'!=' if n.negated else '=='} {d})"
        t1, t = self.bind(target)
        if n.negated:
            return f"({t1} is None or {defs}[{t}] != {d})"
        return f"({t1} is not None and {defs}[{t}] == {d})"

    def g_Binary(self, ctx, n):
        op = n.op
        if op in ("and", "or"):
            # a chain of two gives an operand (Python's 'and'); of three or more, True or False
            nodes = A.operands(n)
            if len(nodes) == 2:
                return f"({self.gen(ctx, nodes[0])} {op} {self.gen(ctx, nodes[1])})"
            return f"(True if {self.chain(ctx, n)} else False)"
        if op in ("in", "notin"):
            return self.membership(ctx, n)
        if op == "..":
            return f"_range({self.gen(ctx, n.left)}, {self.gen(ctx, n.right)})"
        if op in A.ARITH:
            return self.arith(ctx, n)
        a, b = self.gen(ctx, n.left), self.gen(ctx, n.right)
        return f"({a} {op} {b})"

    def arith(self, ctx: Ctx, n: A.Binary) -> str:
        """A chain of arithmetic, walked down its left side in a loop (never deep, however
        long): a bracket per operator, or, past ``_NESTED_CHAIN`` operators, one step after
        the other (``steps``: Python's parser takes 200 nested brackets at most)."""
        if self.x.watching is not None:        # telling a fault: operator by operator
            return self.x.watching.chain(self.x, ctx, n)
        nodes = A.spine(n)
        if len(nodes) > _NESTED_CHAIN:
            return self.steps(ctx, n, nodes)
        src = self.gen(ctx, nodes[-1].left)
        for node in reversed(nodes):
            op = node.op
            b = self.gen(ctx, node.right)
            if op == "/":
                src = f"_div({src}, {b})"
            elif op == "%":
                src = f"_mod({src}, {b})"
            elif op == "+" and isinstance(self.type_of(node.right), List):
                src = f"_join({src}, {b})"      # the one way a list grows: bounded (MAX_ITEMS)
            elif op == "*":                     # the one way a number squares: bounded inline (MAX_NUMBER)
                t = self.fresh("t")
                src = f"({t} if {-MAX_NUMBER} <= ({t} := {src} * {b}) <= {MAX_NUMBER} else _big({t}))"
            else:
                src = f"({src} {op} {b})"
            if node is not n and self.list_plan(node) is not None:       # a join charged by its length
                src = f"_counted(st, {src}, {self.const(self.list_plan(node))})"
            if node is not n and self.cached(ctx, node):
                src = self.wrap(ctx, node, src)
        return src

    def steps(self, ctx: Ctx, n: A.Binary, nodes: list) -> str:
        """A long chain run flat (``OperatorChecker.arith``): one operator
        after the other on a made local, each a step of one tuple (``(t := a, t := t + b, ...)[-1]``),
        so nothing in it nests, however long (Python's parser takes 200 nested brackets at most,
        its compiler a few thousand operators in one expression); its links are not cached."""
        t = self.fresh("t")
        out = [f"{t} := {self.gen(ctx, nodes[-1].left)}"]
        for node in reversed(nodes):
            op, b = node.op, self.gen(ctx, node.right)
            if op == "/":
                out.append(f"{t} := _div({t}, {b})")
            elif op == "%":
                out.append(f"{t} := _mod({t}, {b})")
            elif op == "+" and isinstance(self.type_of(node.right), List):
                out.append(f"{t} := _join({t}, {b})")
            elif op == "*":
                out += [f"{t} := {t} * {b}", f"{t} := {t} if {-MAX_NUMBER} <= {t} <= {MAX_NUMBER} else _big({t})"]
            else:
                out.append(f"{t} := {t} {op} {b}")
            if node is not n and self.list_plan(node) is not None:       # a join charged by its length
                out.append(f"{t} := _counted(st, {t}, {self.const(self.list_plan(node))})")
        return f"({', '.join(out)})[-1]"

    def membership(self, ctx: Ctx, n: A.Binary) -> str:
        g = self.g
        neg = n.op == "notin"
        right = n.right
        a = self.gen(ctx, n.left)
        a1, t = self.bind(a)
        if isinstance(right, A.Of) and right.scope == "all" and right.name in g.zone_index \
                and g.zone_defs[g.zone_index[right.name]].of_card is not None:
            zi = g.zone_index[right.name]
            lo, hi = g.zone_base[zi], g.zone_base[zi] + len(g.kind_cards.get(g.zone_defs[zi].of_card, ()))
            test = f"({self.guard(a, a1)}{lo} <= st.loc[{t}] < {hi})"
            return f"(not {test})" if neg else test
        if isinstance(right, A.Of) and right.scope in ("all", "others") and right.name in g.zone_index:
            base = g.zone_base[g.zone_index[right.name]]
            if right.scope == "others":
                s = self.fresh("t")
                test = (f"({self.guard(a, a1)}{base} <= ({s} := st.loc[{t}]) < {base} + st.players"
                        f" and {self.const(g.slot_owner)}[{s}] != {self.me(ctx)})")
            else:
                test = f"({self.guard(a, a1)}{base} <= st.loc[{t}] < {base} + st.players)"
            return f"(not {test})" if neg else test
        tb = self.type_of(right)
        b = self.gen(ctx, right)
        if isinstance(tb, Zone):
            test = f"({self.guard(a, a1)}st.loc[{t}] == {b})"
            return f"(not {test})" if neg else test
        return f"({a} {'not in' if neg else 'in'} {b})"
