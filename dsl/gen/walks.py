"""Calls as Python source: primitives, the pack's functions (expanded in place), and walks.

A walk (``count``, ``any``, ``first``, ``sum`` ... over a comprehension) is a helper function
of the module with a loop, its condition and value written inline; the parts of them that do
not depend on the item are evaluated once per walk (``invariant_parts``), and 'ZONE of all'
is walked seat by seat instead of joining the zones into a new list. A walk is charged steps
as the checker planned (its plan: ``walk_plan``, ``list_plan``).

A pack's function that walks something, called in a top-level expression, keeps its value in
the evaluation's memo (``_mo``, a dict made as the evaluation starts; an action menu makes one
for the whole menu): called again with the same arguments, for the same player and card, it
gives the value it gave, walking nothing. Expressions change nothing, so within one evaluation
(or one menu) the same call gives the same value; only a pure function whose arguments are no
lists (a key must be hashable) and whose walks charge no step as they run (a charge folded into
the walk around it, or none) is kept, so the steps charged and every value are what they were
without it. A list it gives may be given twice within the evaluation: an expression only reads
its lists, and the memo is gone before any statement could change one (``let`` keeps the list,
the memo does not outlive the evaluation). Telling a fault keeps nothing.
"""
from __future__ import annotations

import re
from keyword import iskeyword
from typing import TYPE_CHECKING, Any, Optional

from .. import ast as A
from ..hoist import invariant_parts
from ..ir import Caches
from ..parser import to_span
from ..primitives import PRIMITIVES
from ..typesys import BOOL, Type, Zone
from .context import CALLED, Ctx, Unsupported
from .module import charge_lines, headline

if TYPE_CHECKING:
    from .expressions import ExprWriter

MEMO_MAKE = "_mo = {}"                   # the evaluation's memo, made before it starts
MEMO_USE = re.compile(r"\b_mo\b")
_CHARGES = re.compile(r"_counted\(|st\.budget|_charge\(")     # a walk charged as it runs

# what a walk does with each item it keeps: kind -> (its head's lines, what it does, what it returns)
_GATHER = {
    "count": (["    n = 0"], ["n += 1"], "n"),
    "sum": (["    n = 0"], ["n += {item}"], "n"),
    "min": (["    out = []"], ["out.append({item})"], "min(out, default=None)"),
    "max": (["    out = []"], ["out.append({item})"], "max(out, default=None)"),
    "those": (["    out = []"], ["out.append({item})"], "out"),
    "values": (["    out = []"], ["out.append({item})"], "out"),
    "any": ([], ["return True"], "False"),
    "every": ([], None, "True"),
    "first": ([], ["return {var}"], "None"),
}


class WalkWriter:
    """Writes calls (``g_Call``): a primitive inline, a pack's function expanded, a walk as a helper."""

    def __init__(self, x: "ExprWriter"):
        self.x = x
        self.g, self.gen, self.type_of, self.me, self.const, self.fresh = x.g, x.gen, x.type_of, x.me, x.const, x.fresh
        self.module = x.module
        self.present = x.present
        self.within: list[tuple[str, Any]] = []   # pack functions being expanded: (name, origin of their text)
        self.walked = 0                           # walks written so far: whether a function's body walks
        self.charging = 0                         # walks charged as they run written so far (no memo then)
        self.memo_ids: dict[str, int] = {}        # pack function -> its number in a memo's keys

    def g_Call(self, ctx, n):
        g = self.g
        fdef = g.function_defs.get(n.func)
        if fdef is not None:
            return self.function(ctx, n, fdef)
        prim = PRIMITIVES[n.func]
        if prim.fn is None:
            return self.aggregate(ctx, n)
        args = []
        for a in n.args:       # a loop, not a comprehension: a frame fewer a level of nesting
            args.append(self.gen(ctx, a))
        name = n.func
        if name == "holder":
            t = self.fresh("t")
            src = f"(None if ({t} := {self.const(g.slot_owner)}[st.loc[{args[0]}]]) < 0 else {t})"
        elif name == "size":
            at = self.type_of(n.args[0])
            src = f"len(st.zones[{args[0]}])" if isinstance(at, Zone) else f"len({args[0]})"
        elif name == "next_player":
            src = f"(({args[0]} + 1) % st.players)"
        elif name in ("greater", "lesser"):
            src = args[0] if len(args) == 1 else f"{'max' if name == 'greater' else 'min'}({', '.join(args)})"
        elif name == "abs":
            src = f"abs({args[0]})"
        elif prim.needs_state:
            src = f"{self.const(prim.fn)}(st, {', '.join(args)})"
        else:
            src = f"{self.const(prim.fn)}({', '.join(args)})"
        return self.x.shareable(ctx, src) if prim.pure else src

    def function(self, ctx: Ctx, n: A.Call, fdef: Any) -> str:
        """A pack's function, expanded here: its parameters become made locals set
        from the arguments (an argument that is already a plain variable is used by name)."""
        comp = self.x.shared.comp
        if fdef.name in getattr(self.g, "broken_functions", ()):
            return "None"
        tree = comp.facts.function_tree(fdef)
        if tree is None:
            return "None"
        inner = {}
        params, values = [], []
        for p, node in zip(fdef.params, n.args):
            src = self.gen(ctx, node)
            if src.isidentifier() or (src.startswith("L[") and src[2:-1].isdigit()):
                # a variable by name, or true / false / none as written (never a name to pass on)
                inner[p.name] = (src, self.g.type_of(p.type))
                continue
            v = self.fresh("v")
            inner[p.name] = (v, self.g.type_of(p.type))
            params.append(v)
            values.append(src)
        body_ctx = Ctx(None, inner, None, Caches(), ctx.me_bound)
        # its parameters are made locals of the enclosing function, so the region's sharing of
        # repeated calls reaches into the body (a parameter's name differs at every expansion)
        body_ctx.cse = ctx.cse
        body_ctx.memo = ctx.memo
        if ctx.cse is not None and "__share__" not in ctx.cse:      # the counting pass: calls by name
            ctx.cse[CALLED + fdef.name] = ctx.cse.get(CALLED + fdef.name, 0) + 1
        self.within.append((f"function {fdef.name}", fdef.body.origin))     # its walks' comments name it
        walked, charging = self.walked, self.charging
        try:
            body = self.gen(body_ctx, tree)
        finally:
            self.within.pop()
        names = [inner[p.name][0] for p in fdef.params]
        if self.walked > walked and self.charging == charging and self.memoized(ctx, fdef, names, body):
            return self.remembered(fdef, names, params, values, body)
        if not params:
            return body
        # each parameter is a made local bound once, in order, before the body (no lambda to build per call)
        binds = ", ".join(f"({p} := {v})" for p, v in zip(params, values))
        return f"({binds}, {body})[-1]"

    def memoized(self, ctx: Ctx, fdef: Any, names: list[str], body: str) -> bool:
        """Whether this call of ``fdef`` keeps its value in the evaluation's memo (module docstring):
        when it may be asked again, in a menu (unless an argument is a frame local as it is,
        such as the item: no two items are the same) or by another call of it in the expression."""
        if not ctx.memo or self.x.watching is not None:
            return False
        if ctx.memo == "menu":
            # no argument: the same for every item, cached for the walk already (dsl/hoist.py)
            if not names or any(v.startswith("L[") for v in names):
                return False
        elif ctx.cse is None or fdef.name not in ctx.cse.get("__again__", ()):
            return False
        if self.x.shared.comp.facts.impure(fdef.name) or _CHARGES.search(body):
            return False
        return not any(self.g.type_of(p.type).is_collection for p in fdef.params)

    def remembered(self, fdef: Any, names: list[str], params: list[str], values: list[str], body: str) -> str:
        """The call through the memo: its key is the function, the arguments, and the frame's
        player and card when the body reads the frame; on a miss the body runs and is kept."""
        fid = self.memo_ids.setdefault(fdef.name, len(self.memo_ids))
        given = dict(zip(params, values))
        parts = [str(fid)] + [f"({v} := {given[v]})" if v in given else v for v in names]
        if re.search(r"\bfr\b", body):
            parts += ["fr.me", "fr.this"]
        r, k = self.fresh("r"), self.fresh("k")
        return f"({r} if ({r} := _mo.get(({k} := ({', '.join(parts)},)), _U)) is not _U else _mo.setdefault({k}, {body}))"

    def seats_base(self, ctx: Ctx, node: A.Node) -> Optional[int]:
        """The first slot of ``ZONE of all`` (a per-player zone, every seat's), which a
        walk reads seat by seat instead of joining the zones into a new list; else None."""
        if not isinstance(node, A.Of) or node.scope != "all" or (ctx.pyhoist and node in ctx.pyhoist) \
                or self.x.watching is not None:     # telling a fault: the joined list is a node, watched
            return None
        zi = self.g.zone_index.get(node.name)
        if zi is None or self.g.zone_defs[zi].of_card is not None:
            return None
        return self.g.zone_base[zi]

    def aggregate(self, ctx: Ctx, n: A.Call) -> str:
        kind = n.func
        arg = n.args[0]
        factor, where = self.x.walk_plan(n)
        self.walked += 1
        if factor:
            self.charging += 1
        if not isinstance(arg, A.Comprehension):
            return self.whole(ctx, n, arg, factor, where)
        return self.walk(ctx, n, kind, arg, factor, where)

    def whole(self, ctx: Ctx, n: A.Call, arg: A.Node, factor: int, where: Any) -> str:
        """A walk over a list as it is (no comprehension): a builtin over it."""
        kind = n.func
        t = self.type_of(arg)
        src = self.gen(ctx, arg)
        if isinstance(t, Zone):
            src = f"st.zones[{src}]"
        watching = self.x.watching
        if watching is not None and kind in ("sum", "min", "max"):
            src = watching.numbers(self.x, ctx, n, arg, src)
        if factor:          # a list read whole, charged a step an item (the checker's plan)
            src = f"_counted(st, {src}, {self.const(where)})"
        truthy = t.elem() == BOOL
        if kind == "count":
            return f"len({src})"
        if kind in ("sum", "min", "max"):
            return {"sum": f"sum({src})", "min": f"min({src}, default=None)", "max": f"max({src}, default=None)"}[kind]
        if kind in ("those", "values"):
            return f"list({src})"
        if kind == "any":
            return f"any({src})" if truthy else f"(len({src}) > 0)"
        if kind == "every":
            return f"all({src})" if truthy else "True"
        if kind == "first":
            s = self.fresh("t")
            return f"({s}[0] if len({s} := {src}) else None)"      # the test runs first: it binds the list
        raise Unsupported(kind)

    def walk(self, ctx: Ctx, n: A.Call, kind: str, arg: A.Comprehension, factor: int, where: Any) -> str:
        """A walk over a comprehension: a helper function with a loop, the condition and value written inline."""
        watching = self.x.watching
        if watching is None:
            return self.walk_over(ctx, n, kind, arg, factor, where)
        watching.walks.append(arg.var)
        try:
            return self.walk_over(ctx, n, kind, arg, factor, where)
        finally:
            watching.walks.pop()

    def walk_over(self, ctx: Ctx, n: A.Call, kind: str, arg: A.Comprehension, factor: int, where: Any) -> str:
        st_ = self.type_of(arg.source)
        every_seat = self.seats_base(ctx, arg.source)
        seq = self.gen(ctx, arg.source) if every_seat is None else str(every_seat)
        if self.x.dry:
            # a dry run counts the calls of this region only; the loop's own region is
            # written once, in the real run (so nesting costs linear time, not 2^depth)
            return f"_dry({seq})"
        cards = seq.endswith("[:]") or every_seat is not None    # a kind's cards or a seat's pieces: never none
        if cards and every_seat is None:
            seq = seq[:-3]          # a walk only reads: no copy (expressions never change anything)
        if isinstance(st_, Zone):
            seq = f"st.zones[{seq}]"
            cards = True
        et = st_.elem()
        var = self.fresh("v")
        if cards:
            self.present.add(var)
        passed, setup, cond, value, pyhoist = self.inside(ctx, arg, var, et)
        name = self.fresh("a")
        # the walked sequence is written in the caller's region (it may read the caller's shared
        # calls and cached parts, which are locals there): evaluated there, passed in
        items = self.fresh("x")
        head = self.charges(arg, items, every_seat, factor, where) + [f"    {h} = _U" for h in pyhoist.places()]
        if kind not in _GATHER:
            raise Unsupported(kind)
        start, act, tail = _GATHER[kind]
        head += start
        watching = self.x.watching
        numbers = watching is not None and kind in ("sum", "min", "max")
        if numbers and value is not None:
            value = watching.number(self.x, ctx, n, arg, value, var, et)
        elif numbers:
            seq = watching.numbers(self.x, ctx, n, arg, seq)
        item = value if value is not None else var
        act = [a.format(item=item, var=var) for a in act] if act is not None else None
        if cond is None and kind in ("any", "every", "first"):
            cond = f"bool({var})" if et == BOOL and kind != "first" else "True"
        body = self.loop(kind, var, items, every_seat, setup, cond, act)
        body.append(f"    return {tail}")
        return self.helper(ctx, n, f"{kind}(...)", name, items, passed, seq, "\n".join(head + body))

    def inside(self, ctx: Ctx, arg: A.Comprehension, var: str, et: Type) -> tuple[list[str], list[str], Optional[str], Optional[str], Caches]:
        """The walk's condition and value, written in a region of their own (the item a made
        local, the parts that do not depend on it cached in made locals): (the made locals of
        the caller it reads, the region's setup lines, condition, value, the cached parts)."""
        # the walk's helper takes the made locals it reads; True, False and None are no names
        passed = sorted({v for v, _ in ctx.py.values() if v.isidentifier() and not iskeyword(v)})
        inner_py = dict(ctx.py)
        inner_py[arg.var] = (var, et)
        parts = invariant_parts([arg.cond, arg.value], arg.var, self.x.shared.comp.facts.impure) \
            if self.x.watching is None else ()      # telling a fault: each part watched each time
        pyhoist = Caches(tuple((p, self.fresh("h")) for p in parts))
        inner = Ctx(ctx.unit, inner_py, None, pyhoist, ctx.me_bound)
        cond_value: list = [None, None]

        def write():
            cond_value[0] = self.x.test(inner, arg.cond) if arg.cond is not None else None
            cond_value[1] = self.gen(inner, arg.value) if arg.value is not None else None
            return ""
        setup, _ = self.x.region(inner, [arg.cond, arg.value], write)
        return passed, setup, cond_value[0], cond_value[1], pyhoist

    def charges(self, arg: A.Comprehension, items: str, every_seat: Optional[int], factor: int, where: Any) -> list[str]:
        """The walk's charges, as the checker planned: the cards of every seat's zone, when the
        checker charges 'ZONE of all' by its length (the list of every seat's cards), then the walk."""
        head: list[str] = []
        walked = f"len({items})" if every_seat is None else f"sum(map(len, st.zones[{items}:{items} + st.players]))"
        listed = self.x.list_plan(arg.source) if every_seat is not None else None
        if listed is not None:
            head += ["    " + line for line in charge_lines(walked, self.const(listed))]
        head += ["    " + line for line in self.module.charged(walked, factor, self.const(where))]
        return head

    def loop(self, kind: str, var: str, items: str, every_seat: Optional[int], setup: list[str], cond: Optional[str],
             act: Optional[list[str]]) -> list[str]:
        """The walk's loop: over the items passed in, or over every seat's zone in turn ('ZONE of
        all', no list made); the region's caches reset for each item; the kept ones gathered."""
        body: list[str] = []
        reset = [f"        {s}" for s in setup]
        if every_seat is not None:      # 'ZONE of all': each seat's zone walked in turn, no list made
            p = self.fresh("p")
            body.append(f"    for {p} in range(st.players):")
            body.append(f"        for {var} in st.zones[{items} + {p}]:")
            reset = ["    " + line for line in reset]
        else:
            body.append(f"    for {var} in {items}:")
        body += reset
        pad = "    " if every_seat is not None else ""
        if kind == "every":
            body.append(f"{pad}        if not ({cond}):")
            body.append(f"{pad}            return False")
        elif cond is not None:
            body.append(f"{pad}        if {cond}:")
            body += [f"{pad}            " + a for a in act]  # type: ignore[union-attr]  # set unless kind is every
        else:
            body += [f"{pad}        " + a for a in act]  # type: ignore[union-attr]  # set unless kind is every
        return body

    def helper(self, ctx: Ctx, n: A.Call, what: str, name: str, items: str, passed: list[str], seq: str, text: str) -> str:
        """The walk's helper, added to the module after a comment naming the rule (or the pack's
        function being expanded) it is in; returns the call of it, in the caller's region."""
        # it takes what it reads: the state, the frame, its locals, the walked items, the made locals
        takes = [p for p in ("st", "fr", "L") if re.search(rf"\b{p}\b", text)] + [items] + \
                [p for p in passed if re.search(rf"\b{p}\b", text)]
        if self.within:
            rule, origin = self.within[-1]
        else:
            rule, origin = self.module.rule, ctx.unit.origin if ctx.unit is not None else None
        span = to_span(origin, n.pos.line, n.pos.col, n.pos.length) if origin is not None else None
        self.module.add(headline(f"{what} in {rule}", span), f"def {name}({', '.join(takes)}):\n{text}")
        return f"{name}({', '.join(seq if p == items else p for p in takes)})"
