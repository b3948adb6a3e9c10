"""An expression as Python source: the writer the others write through.

The checker (``meeple.dsl.compiler.Compiler``) walks every expression once, reports errors and
makes of it a tree of ``ir.Expr`` records (each node's type, its step plans, its parts);
each top-level expression (a condition, an amount, a choice's source ...) is then written
here from its record as one Python expression with its setup lines (``region``), each
node from its own record, found among the parts of its parent's (``record``). Why source and not a tree of closures: a closure tree pays a Python call
per node per evaluation; a comprehension's condition ``c.cost <= coins and not any(...)``
was a dozen calls per item. Generated, it is one loop with inline tests.

Each kind of node is written by a method ``g_KIND`` of this writer or of one of its
collaborators (``names``, ``operators``, ``walks``); a node none of them writes is an
internal error (``PyGen.top``; tests/test_node_kinds.py fails first). Within one region a pure call repeated (``holder(d)``
three times) is made once.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from .. import ast as A
from ..hoist import free_names
from .. import ir
from ..typesys import Type
from .context import CALLED, Ctx, Unsupported
from .module import Module
from .names import NameWriter
from .operators import OperatorWriter
from .walks import WalkWriter

if TYPE_CHECKING:
    from ..pygen import PyGen


class ExprWriter:
    """Writes checked expressions as Python source, through its collaborators by kind of node."""

    def __init__(self, shared: "PyGen", module: Module):
        self.shared = shared                  # the checker's tables and the compiler being run
        self.module = module
        self.g = shared.g
        self.at: list[ir.Expr] = []           # the records of the nodes being written, innermost last
        self.const, self.fresh = module.const, module.fresh
        self.dry = False                      # counting calls for sharing: nested comprehensions are skipped
        self.present: set[str] = set()        # made locals that hold a card for sure (walks over cards)
        # telling a fault (dsl/fault_watch.py ``Watch``): every node written through its watcher,
        # nothing shared or cached that would hide a node's value; None when writing the rules
        self.watching: Any = None
        self.names = NameWriter(self)
        self.operators = OperatorWriter(self)
        self.walks = WalkWriter(self)
        # kind of node -> the method writing it, whichever collaborator has it
        self.kinds: dict[str, Callable[[Ctx, Any], str]] = {
            name[2:]: getattr(writer, name)
            for writer in (self, self.names, self.operators, self.walks) for name in dir(type(writer)) if name.startswith("g_")}

    def region(self, ctx: Ctx, roots: list, write) -> tuple[list[str], str]:
        """Write an expression region, sharing repeated pure calls (``holder(d)``
        three times becomes one call): a first pass counts the calls' source,
        a second writes them through a per-region cache. Returns (setup lines, expr).
        Watching, nothing is shared: each call is a node of its own, watched."""
        saved = ctx.cse
        if self.watching is not None:
            ctx.cse = None
            try:
                return [], write()
            finally:
                ctx.cse = saved
        counting: dict[str, int] = {}
        ctx.cse = counting
        mark = len(self.module.parts)
        dry, self.dry = self.dry, True
        try:
            write()                           # dry run: counts calls (nested loops are not written)
        finally:
            self.dry = dry
        del self.module.parts[mark:]
        repeated = [s for s, n in counting.items() if n > 1 and not s.startswith(CALLED)]
        shared = {s: self.fresh("s") for s in repeated}
        used: set[str] = set()
        # the pack's functions called more than once here: their values worth a memo (gen/walks.py)
        again = {s[len(CALLED):] for s, n in counting.items() if n > 1 and s.startswith(CALLED)}
        ctx.cse = {"__share__": shared, "__used__": used, "__again__": again}
        out = write()
        ctx.cse = saved
        # a call counted twice may be written once after all (its text differs in the real run)
        return [f"{v} = _U" for v in shared.values() if v in used], out

    def shareable(self, ctx: Ctx, src: str) -> str:
        cse = ctx.cse
        # a call that charges the step budget runs each time, so the charge is the same (a walk inside
        # is never shared either: the counting pass writes it as '_dry(...)', unlike the real one)
        if cse is None or "_counted(" in src:
            return src
        shared = cse.get("__share__")
        if shared is None:
            cse[src] = cse.get(src, 0) + 1
            return src
        v = shared.get(src)
        if v is None:
            return src
        cse["__used__"].add(v)
        return f"({v} if {v} is not _U else ({v} := {src}))"

    def written(self, e: ir.Expr, write: Callable[[], Any]) -> Any:
        """``write()`` the top-level expression ``e``: its nodes' records are found from it."""
        saved, self.at = self.at, [e]
        try:
            return write()
        finally:
            self.at = saved

    def record(self, node: A.Node) -> ir.Expr:
        """The checked form of ``node``: the node being written or one of its parts."""
        found = self.at[-1].part(node) if self.at else None
        if found is None:
            raise Unsupported(type(node).__name__)
        return found

    def type_of(self, node: A.Node) -> Type:
        t = self.record(node).type
        if t is None:
            raise Unsupported(type(node).__name__)
        return t

    def gen(self, ctx: Ctx, n: A.Node) -> str:
        """Python source of one expression node (already checked), from its record; a list the
        checker charges by its length is charged as it is made (``meeple.dsl.types.counted``)."""
        self.at.append(self.record(n))
        method = self.kinds.get(type(n).__name__)        # looked up here, not in a call: a frame fewer a level
        if method is None:
            raise Unsupported(type(n).__name__)
        try:
            src = self.wrap(ctx, n, method(ctx, n))
            where = self.list_plan(n)
        finally:
            self.at.pop()
        if where is not None:
            src = f"_counted(st, {src}, {self.const(where)})"
        return src if self.watching is None else self.watching.node(self, ctx, n, src)

    def cached(self, ctx: Ctx, n: A.Node) -> bool:
        """Whether ``gen`` writes ``n`` through a cache."""
        return bool(((ctx.pyhoist and n in ctx.pyhoist) or (ctx.hoist and n in ctx.hoist))
                    and not self.type_of(n).is_collection)

    def wrap(self, ctx: Ctx, n: A.Node, src: str) -> str:
        """What ``gen`` adds around the source of ``n`` (its cache); also used for a node
        written by its parent in a loop (a chain's left side)."""
        if ctx.pyhoist and n in ctx.pyhoist and not self.type_of(n).is_collection:
            v = ctx.pyhoist.get(n)
            return f"({v} if {v} is not _U else ({v} := {src}))"
        if ctx.hoist and n in ctx.hoist and not self.type_of(n).is_collection:
            slot = ctx.hoist.get(n)
            c = self.fresh("c")
            return f"({c} if ({c} := L[{slot}]) is not _U else _cache(L, {slot}, {src}))"
        return src

    def me(self, ctx: Ctx) -> str:
        if ctx.me_bound:
            return "fr.me"
        m = self.fresh("t")
        return f"({m} if ({m} := fr.me) is not None and {m} >= 0 else _me(st, fr))"

    def g_Int(self, ctx, n):
        return self.const(n.value)

    def g_Str(self, ctx, n):
        return self.const(n.value)

    def g_Bool(self, ctx, n):
        return "True" if n.value else "False"

    def g_NoneLit(self, ctx, n):
        return "None"

    def g_Me(self, ctx, n):
        return self.me(ctx)

    def g_This(self, ctx, n):
        return "fr.this"

    def g_ListLit(self, ctx, n):
        return "[" + ", ".join(self.gen(ctx, i) for i in n.items) + "]"

    def test(self, ctx: Ctx, n: A.Node) -> str:
        """Source for a condition whose truth alone matters (an 'and' chain needs no bool());
        watching, the chain is a node of its own, so a fault names it."""
        if self.watching is None and isinstance(n, A.Binary) and n.op in ("and", "or") and not (ctx.hoist and n in ctx.hoist) \
                and not (ctx.pyhoist and n in ctx.pyhoist):
            self.at.append(self.record(n))        # its operands are its parts
            try:
                return self.chain(ctx, n)
            finally:
                self.at.pop()
        return self.gen(ctx, n)

    def chain(self, ctx: Ctx, n: A.Binary) -> str:
        return "(" + f" {n.op} ".join(self.test(ctx, node) for node in A.operands(n)) + ")"

    def g_Unary(self, ctx, n):
        if n.op == "not":
            return f"(not {self.test(ctx, n.operand)})"
        return f"(-{self.gen(ctx, n.operand)})"

    def g_Cond(self, ctx, n):
        return f"({self.gen(ctx, n.then)} if {self.test(ctx, n.test)} else {self.gen(ctx, n.other)})"

    def walk_plan(self, node: A.Node) -> tuple[int, Any]:
        """How the checker charges the walk ``node``: (factor, where); (0, None) when folded."""
        walk = self.record(node).plans.walk
        return walk if walk is not None else (0, None)

    def list_plan(self, node: A.Node) -> Optional[Any]:
        """Where the checker charges the list ``node`` gives by its length, or None (folded)."""
        return self.record(node).plans.counted

    @staticmethod
    def plain(src: str) -> bool:
        """Source that is a variable read: evaluating it twice costs nothing and gives the same."""
        return src.isidentifier() or (src.startswith("L[") and src[2:-1].isdigit())

    def bind(self, src: str) -> tuple[str, str]:
        """(first use, later uses) of a value used more than once."""
        if self.plain(src):
            return src, src
        t = self.fresh("t")
        return f"({t} := {src})", t

    def guard(self, a: str, a1: str) -> str:
        """'x is not None and ' before a test of x, unless x is an item of a walk over
        cards (a zone, a kind's cards), which is never none."""
        return "" if a in self.present else f"{a1} is not None and "
