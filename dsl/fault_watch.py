"""Expressions written watched, for telling a fault (``meeple.dsl.faults``).

When a rule faults, the unit is checked again with a generator (``meeple.dsl.pygen.PyGen``)
that writes every expression node through a *watcher* (``Watch.node``): a function of the
module bound to a made name that runs the node's own source, notes the value it gave at the
node's place (``faults.Seen``) and, when the node's own operation fails, says what went
wrong in the language's words (``meeple.dsl.fault_words.Words``), at the node's line and
column. Chains of arithmetic are run operator by operator (``Watch.chain``) and the items of
``sum``/``min``/``max`` are checked for none (``Watch.number``, ``Watch.numbers``), so a
fault names the operator, or the item, it happened at. This is the generated watched
variant of the unit: the checker only checks, so the values told are the generated code's own.

What the generator does for speed and would hide a node's value is not done when watching
(``ExprWriter.watching``): repeated calls are not shared, a walk's parts are not cached in
made locals, 'ZONE of all' is joined as a list, an ``and`` chain is written node by node.
"""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Callable, Optional

from . import ast as A
from .errors import RuleFault, Span, location
from .hoist import free_names
from .types import RULE_FAULTS, divide, join, product, remainder
from .typesys import ANY, INT, List, Type

if TYPE_CHECKING:
    from .gen.context import Ctx
    from .gen.expressions import ExprWriter

__all__ = ["FAULTS", "Told", "Watch"]

FAULTS = (*RULE_FAULTS, RuleFault)
# an operator of a chain of arithmetic run alone (* bounded by MAX_NUMBER, / and % by zero told)
_ARITH = {"+": operator.add, "-": operator.sub, "*": product, "/": divide, "%": remainder}


class Told(Exception):
    """A fault told by a watched expression: passes every watcher further out."""

    def __init__(self, message: str, span: Span):
        super().__init__(message)
        self.message = message
        self.span = span
        self.via = False      # the pack function it happened in is named


class _Node:
    """The watcher of one node: runs its source, notes its value, tells its own fault."""

    __slots__ = ("c", "place", "n", "origin", "called", "var", "type")

    def __init__(self, c: Any, place: int, n: A.Node, origin: Any, called: Optional[str], var: Optional[str],
                 t: Optional[Type]):
        self.c, self.place, self.n, self.origin, self.called = c, place, n, origin, called
        self.var, self.type = var, t

    def __call__(self, st: Any, fr: Any, run: Callable[[], Any], item: Optional[Callable[[], Any]] = None) -> Any:
        try:
            v = run()
        except Told as told:
            if self.called is not None and not told.via:      # a fault inside a pack function: where it was used
                told.message += f" (in function {self.called}, used at {location(self.c.words.span_of(self.n, self.origin))})"
                told.via = True
            raise
        except FAULTS as exc:
            words = self.c.words
            message, span = words.told(self.n, self.origin, exc, st, fr)
            if item is not None:
                message += f" (for {self.var} = {words.shown(item(), self.type)})"
            raise Told(message, span) from None
        self.c.seen.note(self.place, v)
        return v


class _Chain:
    """A chain of arithmetic run operator by operator, each noted and told at its own place."""

    __slots__ = ("c", "origin", "left0", "steps")

    def __init__(self, c: Any, origin: Any, left0: A.Node, steps: list):
        self.c, self.origin, self.left0, self.steps = c, origin, left0, steps

    def __call__(self, first: Callable[[], Any], rights: tuple) -> Any:
        v, left = first(), self.left0
        seen, told = self.c.seen, self.c.words.arith_told
        for (node, f, place), b in zip(self.steps, rights):
            w = b()
            try:
                v = f(v, w)
            except FAULTS as exc:
                raise Told(*told(node, left, v, w, exc, self.origin)) from None
            seen.note(place, v)
            left = node
        return v


class _Number:
    """An item's value for sum/min/max, told when it is none."""

    __slots__ = ("c", "agg", "node", "origin", "var", "type")

    def __init__(self, c: Any, agg: A.Call, node: A.Node, origin: Any, var: str, t: Type):
        self.c, self.agg, self.node, self.origin, self.var, self.type = c, agg, node, origin, var, t

    def __call__(self, st: Any, v: Any, item: Any) -> Any:
        if v is None:
            words = self.c.words
            raise Told(f"`{words.text_of(self.agg, self.origin)}`: {words.none_phrase(self.node, self.origin, st)}, so "
                       f"`{self.agg.func}(...)` of none (for {self.var} = {words.shown(item, self.type)})",
                       words.span_of(self.node, self.origin))
        return v


class _Numbers:
    """The items of sum/min/max, told when one is none."""

    __slots__ = ("c", "agg", "node", "origin")

    def __init__(self, c: Any, agg: A.Call, node: A.Node, origin: Any):
        self.c, self.agg, self.node, self.origin = c, agg, node, origin

    def __call__(self, items: Any) -> Any:
        if items is not None and None in items:
            words = self.c.words
            raise Told(f"`{words.text_of(self.agg, self.origin)}`: `{words.text_of(self.node, self.origin)}` holds none, "
                       f"so `{self.agg.func}(...)` of none", words.span_of(self.node, self.origin))
        return items


class Watch:
    """How the generator writes a node watched (``ExprWriter.watching``), for the compiler
    ``c`` checking the faulting unit again (its ``seen``, ``words``, ``walking``)."""

    def __init__(self, c: Any):
        self.c = c
        self.walks: list[str] = []        # the comprehensions being written, innermost last

    def origin(self, x: "ExprWriter", ctx: "Ctx") -> Any:
        """The text the node being written is in: a pack function's body, or the unit's."""
        within = x.walks.within
        return within[-1][1] if within else ctx.unit.origin  # type: ignore[union-attr]  # outside a function: a unit

    def node(self, x: "ExprWriter", ctx: "Ctx", n: A.Node, src: str) -> str:
        """The source of ``n`` run through its watcher."""
        c = self.c
        called = n.func if isinstance(n, A.Call) and n.func in c.g.function_defs else None
        var, t, item = self.item(ctx, n)
        w = x.const(_Node(c, c.seen.place(n), n, self.origin(x, ctx), called, var, t))
        return f"{w}(st, fr, lambda: {src}" + (f", lambda: {item})" if item is not None else ")")

    def item(self, ctx: "Ctx", n: A.Node) -> tuple[Optional[str], Optional[Type], Optional[str]]:
        """(name, type, source) of the item of the innermost walk ``n`` reads, if any."""
        names = free_names(n)
        for var in reversed([*self.c.walking, *self.walks]):
            if var not in names:
                continue
            if var in ctx.py:
                py, t = ctx.py[var]
                return var, t, py
            found = ctx.unit.scope.lookup(var) if ctx.unit is not None else None
            if found is not None:
                return var, found[1], f"fr.locals[{found[0]}]"
        return None, None, None

    def chain(self, x: "ExprWriter", ctx: "Ctx", n: A.Binary) -> str:
        """A chain of arithmetic, operator by operator (``_Chain``)."""
        nodes = A.spine(n)
        left0 = nodes[-1].left
        first = x.gen(ctx, left0)
        ta = x.type_of(left0)
        steps, rights = [], []
        for node in reversed(nodes):
            rights.append(x.gen(ctx, node.right))
            tb = x.type_of(node.right)
            if node.op == "+" and isinstance(ta, List) and isinstance(tb, List):
                t, f = (ta if ta != List(ANY) else tb), join
            else:
                t, f = INT, _ARITH[node.op]
            steps.append((node, f, self.c.seen.place(node)))
            ta = t
        made = x.const(_Chain(self.c, self.origin(x, ctx), left0, steps))
        return f"{made}(lambda: {first}, ({''.join(f'lambda: {b}, ' for b in rights)}))"

    def number(self, x: "ExprWriter", ctx: "Ctx", agg: A.Call, arg: A.Comprehension, value: str, var: str, t: Type) -> str:
        """An item's value of sum/min/max, checked for none (``_Number``)."""
        assert arg.value is not None, "an item's value is checked only where the walk has one"
        made = x.const(_Number(self.c, agg, arg.value, self.origin(x, ctx), arg.var, t))
        return f"{made}(st, {value}, {var})"

    def numbers(self, x: "ExprWriter", ctx: "Ctx", agg: A.Call, node: A.Node, items: str) -> str:
        """The items of sum/min/max, checked for none (``_Numbers``)."""
        made = x.const(_Numbers(self.c, agg, node, self.origin(x, ctx)))
        return f"{made}({items})"
