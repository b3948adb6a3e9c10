"""A run of statements that never pauses (``meeple.dsl.gen.runs.fusable``) as one function:
native if/for/while, every loop charged steps as the checker planned, a line table
back to the YAML (each line written with the span of its statement).

The checker walks the run first, with ``PyGen.fusing`` set, and hands this writer the run
in its checked form (``meeple.dsl.ir.Stmt``: each statement's facts, such as slots and step
plans; its expressions as checked, whose source the generator wrote as they were
checked, ``PyGen.src_of``). A generated function takes ``(state, frame)``, reads and writes
the frame locals the checker gave out and raises the rules' errors. Its behaviour is
pinned by tests/closure_record.py (the records of the retired reference back end), so
saved games and logs stay what they were.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import ast as A
from .. import ir
from ..errors import UNMET
from ..runtime import Frame
from ..steps import Where
from ..types import MAX_NUMBER, STOP, Fn, Unit, order_key
from ..typesys import INT, AnyT, Card, List, Zone
from .module import Module, headline
from .runs import interpret

if TYPE_CHECKING:
    from ..pygen import PyGen


# Python compiles at most 20 loops inside one another in one function, and at most 100 levels
# of indentation: a body nested deeper than these (the language allows 64 levels) is written as
# a function of its own, called in its place (``RunWriter.apart``). A statement adds at most one
# loop and a few levels of its own.
_LOOPS_IN_ONE = 12
_DEPTH_IN_ONE = 40


class _Writer:
    """Lines of a generated run of statements, each with the span of its rule."""

    def __init__(self, comp: Any, unit: Unit):
        self.comp = comp
        self.unit = unit
        self.lines: list[tuple[int, str, Any]] = []
        self.loops = 0            # the loops around the lines being written

    def line(self, depth: int, text: str, span: Any) -> None:
        self.lines.append((depth, text, span))

    def span(self, s: A.Node) -> Any:
        return self.comp.span(self.unit, s.pos)


class RunWriter:
    """Writes runs of statements (``write``), each kind by its ``w_KIND`` method (every kind has
    one: tests/test_node_kinds.py)."""

    def __init__(self, shared: "PyGen", module: Module):
        self.shared = shared                  # the checker's tables and the compiler being run
        self.module = module
        self.g = shared.g
        self.const, self.fresh, self.function_source = module.const, module.fresh, module.function_source
        self.callers: dict[str, str] = {}      # procedure run in place -> made name of the function calling it
        self.step_names: dict[str, str] = {}   # procedure run in place -> the made name of its steps (see ``finish``)
        # writing a statement alone, to tell a fault (dsl/faults.py ``_Watching.alone``): its
        # blocks are left out (each returns at once): a statement's own part runs, no more
        self.lone = False

    def write(self, unit: Unit, run: tuple[ir.Stmt, ...], nxt: int) -> Fn:
        """Write a run of statements, in its checked form, as one instruction (a function of
        (state, frame) returning the next instruction, or STOP)."""
        w = _Writer(self.shared.comp, unit)
        for r in run:
            self.stmt(w, r, 1)
        name = self.fresh("i")
        body = ["    " * (depth - 1) + text for depth, text, _ in w.lines] + [f"return {nxt}"]
        source = self.function_source(name, body)
        first = source.count("\n") + 1 - len(body)     # the line of its first statement (after 'L = fr.locals', if any)
        spans = [(first + k, span) for k, (_, _, span) in enumerate(w.lines)]
        return self.module.define(name, source, spans, headline(self.module.rule, w.span(run[0].node)))

    def expr_src(self, w: "_Writer", r: ir.Stmt, node: A.Node, depth: int, span: Any, keep: bool = False) -> str:
        """An expression of the statement ``r`` being written, with its setup lines: written
        into the run, so its own generated function is left out of the module (``finish``)
        unless ``keep`` (something else calls it)."""
        fn = r.expr(node).fn
        found = self.shared.source_of(fn)
        if not keep:
            self.shared.inlined.add(fn)
        for line in found[0]:
            w.line(depth, line, span)
        return found[1]

    def stmt(self, w: "_Writer", r: ir.Stmt, depth: int) -> None:
        span = w.span(r.node)
        getattr(self, "w_" + type(r.node).__name__)(w, r, depth, span)

    def body(self, w: "_Writer", stmts: tuple[ir.Stmt, ...], depth: int, span: Any, loop: bool = False) -> None:
        """The statements of a block (``loop``: the body of a loop), in place or, nested deeper
        than Python compiles in one function, as a function of their own (``apart``)."""
        if self.lone:                  # a statement written alone: its block is not run
            w.line(depth, "return None", span)
            return
        if not stmts:
            w.line(depth, "pass", span)
            return
        if loop:
            w.loops += 1
        try:
            if w.loops > _LOOPS_IN_ONE or depth > _DEPTH_IN_ONE:
                self.apart(w, stmts, depth, span)
                return
            for b in stmts:
                self.stmt(w, b, depth)
        finally:
            if loop:
                w.loops -= 1

    def apart(self, w: "_Writer", stmts: tuple[ir.Stmt, ...], depth: int, span: Any) -> None:
        """A block written as a function of the module, called where it is: it reads the
        frame's locals (a run keeps its variables there; its made locals are its statements'
        own) and gives STOP on a 'stop', which the caller gives on in turn."""
        inner = _Writer(w.comp, w.unit)
        for b in stmts:
            self.stmt(inner, b, 1)
        name = self.fresh("j")
        body = [text if d == 1 else "    " * (d - 1) + text for d, text, _ in inner.lines]
        source = self.function_source(name, body)
        first = source.count("\n") + 1 - len(body)
        self.module.add(headline(self.module.rule, span), source, [(first + k, s) for k, (_, _, s) in enumerate(inner.lines)])
        w.line(depth, f"if {name}(st, fr) is not None:", span)
        w.line(depth + 1, f"return {STOP}", span)

    def charge(self, w: "_Writer", depth: int, n: str, factor: int, where: Where, span: Any) -> None:
        """Lines charging ``n`` items (source) ``factor`` steps each, as the checker decided
        for the statement at ``where`` (nothing when 0: its steps are folded)."""
        for line in self.module.charged(n, factor, self.const(where)):
            w.line(depth, line, span)

    def me_src(self) -> str:
        m = self.fresh("t")
        return f"({m} if ({m} := fr.me) is not None and {m} >= 0 else _me(st, fr))"

    def w_Let(self, w, r, depth, span):
        s = r.node
        w.line(depth, f"L[{r.facts.slot}] = {self.expr_src(w, r, s.value, depth, span)}", span)
        return True

    def w_Set(self, w, r, depth, span):
        s = r.node
        g = self.g
        x = self.fresh("x")
        w.line(depth, f"{x} = {self.expr_src(w, r, s.value, depth, span)}", span)
        target, vt = r.facts.target, r.facts.type
        kind = target[0]
        if vt == INT and kind != "local":      # a number kept in the game is bounded (MAX_NUMBER)
            w.line(depth, f"if {x} is not None and not {-MAX_NUMBER} <= {x} <= {MAX_NUMBER}:", span)
            w.line(depth + 1, f"_big({x})", span)
        if kind == "local":
            w.line(depth, f"L[{target[1]}] = {x}", span)
        elif kind == "gvar":
            w.line(depth, f"st.gvars[{target[1]}] = {x}", span)
        elif kind == "pvar":
            p = self.expr_src(w, r, target[2], depth, span)
            w.line(depth, f"st.pvars[{p} * {g.npvars} + {target[1]}] = {x}", span)
        elif kind == "res":
            k = target[1]
            p = self.fresh("p")
            w.line(depth, f"{p} = {self.expr_src(w, r, target[2], depth, span)}", span)
            self.clamp(w, x, k, depth, span)
            _scored(self, w, k, p, f"{x} - st.res[{p} * {g.nres} + {k}]", depth, span)
            w.line(depth, f"st.res[{p} * {g.nres} + {k}] = {x}", span)
        else:
            c = self.expr_src(w, r, target[2], depth, span)
            w.line(depth, f"st.cvars[{c} * {g.ncvars} + {target[1]}] = {x}", span)
        return True

    def clamp(self, w, x: str, r: int, depth: int, span) -> None:
        lo, hi = self.g.res_min[r], self.g.res_max[r]
        if lo is not None:
            w.line(depth, f"if {x} < {self.const(lo)}:", span)
            w.line(depth + 1, f"{x} = {self.const(lo)}", span)
        if hi is not None:
            w.line(depth, f"if {x} > {self.const(hi)}:", span)
            w.line(depth + 1, f"{x} = {self.const(hi)}", span)

    def w_Counter(self, w, r, depth, span):
        s = r.node
        if s.verb not in ("gain", "lose", "give"):
            return self.paid(w, r, depth, span)
        g = self.g
        k = g.res_index[s.resource]
        p, i, x = self.fresh("p"), self.fresh("i"), self.fresh("x")
        who = self.expr_src(w, r, s.other, depth, span) if s.verb == "give" else self.me_src()
        w.line(depth, f"{p} = {who}", span)
        w.line(depth, f"{i} = {p} * {g.nres} + {k}", span)
        amount = f"st.res[{i}]" if s.amount.expr is None else self.expr_src(w, r, s.amount.expr, depth, span)
        w.line(depth, f"{x} = {amount}", span)
        w.line(depth, f"if {x} < 0:", span)
        w.line(depth + 1, f"raise _negative({self.const(s.verb)}, {x}, {self.const(s.resource)})", span)
        w.line(depth, f"{x} = st.res[{i}] {'-' if s.verb == 'lose' else '+'} {x}", span)
        self.clamp(w, x, k, depth, span)
        if s.verb == "lose" and g.res_min[k] is None:       # unbounded that way: MAX_NUMBER bounds it
            w.line(depth, f"if {x} < {-MAX_NUMBER}:", span)
            w.line(depth + 1, f"_big({x})", span)
        elif s.verb != "lose" and g.res_max[k] is None:
            w.line(depth, f"if {x} > {MAX_NUMBER}:", span)
            w.line(depth + 1, f"_big({x})", span)
        _scored(self, w, k, p, f"{x} - st.res[{i}]", depth, span)
        w.line(depth, f"st.res[{i}] = {x}", span)
        return True

    def paid(self, w, r, depth, span) -> bool:
        """'pay', 'pay N to P', 'take N from P': the payer's whole
        amount when none is given; never negative; a payer kept at its minimum cannot pay
        (a taker takes what is there above it); the receiver's amount kept in its bounds."""
        s = r.node
        g = self.g
        k, verb = g.res_index[s.resource], s.verb
        lo = g.res_min[k]
        me, src, dst, i, have, x = (self.fresh(p) for p in ("p", "p", "p", "i", "x", "x"))
        w.line(depth, f"{me} = {self.me_src()}", span)
        other = self.expr_src(w, r, s.other, depth, span) if verb != "pay" else None
        payer, taker = (other, me) if verb == "take" else (me, other)
        w.line(depth, f"{src} = {payer}", span)
        if taker is not None:
            w.line(depth, f"{dst} = {taker}", span)
        w.line(depth, f"{i} = {src} * {g.nres} + {k}", span)
        w.line(depth, f"{have} = st.res[{i}]", span)
        amount = have if s.amount.expr is None else self.expr_src(w, r, s.amount.expr, depth, span)
        w.line(depth, f"{x} = {amount}", span)
        w.line(depth, f"if {x} < 0:", span)
        w.line(depth + 1, f"raise _negative({self.const(verb.replace('_to', ''))}, {x}, {self.const(s.resource)})", span)
        if lo is not None and verb == "take":
            w.line(depth, f"{x} = min({x}, {have} - {self.const(lo)})", span)
        elif lo is not None:
            w.line(depth, f"if {have} - {x} < {self.const(lo)}:", span)
            w.line(depth + 1, f"raise _short({src}, {x}, {self.const(s.resource)}, {have})", span)
        w.line(depth, f"if {have} - {x} < {-MAX_NUMBER}:", span)      # a resource without a minimum: MAX_NUMBER bounds it
        w.line(depth + 1, f"_big({have} - {x})", span)
        _scored(self, w, k, src, f"-{x}", depth, span)
        w.line(depth, f"st.res[{i}] = {have} - {x}", span)
        if taker is None:
            return True
        j, y = self.fresh("i"), self.fresh("x")
        w.line(depth, f"{j} = {dst} * {g.nres} + {k}", span)
        w.line(depth, f"{y} = st.res[{j}] + {x}", span)
        self.clamp(w, y, k, depth, span)
        w.line(depth, f"if not {-MAX_NUMBER} <= {y} <= {MAX_NUMBER}:", span)
        w.line(depth + 1, f"_big({y})", span)
        _scored(self, w, k, dst, f"{y} - st.res[{j}]", depth, span)
        w.line(depth, f"st.res[{j}] = {y}", span)
        return True

    def w_Move(self, w, r, depth, span):
        s = r.node
        t = r.facts.what
        what = self.expr_src(w, r, s.what, depth, span)
        cs, c, z = self.fresh("cs"), self.fresh("c"), self.fresh("z")
        if isinstance(t, Zone):
            w.line(depth, f"{cs} = st.zones[{what}][:]", span)
        elif isinstance(t, List) and isinstance(t.elem_t, (Card, AnyT)):
            w.line(depth, f"{cs} = {what}", span)
        else:
            w.line(depth, f"{c} = {what}", span)
            w.line(depth, f"{cs} = [] if {c} is None else [{c}]", span)
        factor, where, check = r.facts.factor, r.facts.where, r.facts.check
        self.charge(w, depth, f"len({cs})", factor, where, span)         # a step a card (unless folded)
        if check is not None:                # a move the checker cannot type: each card's kind is checked
            w.line(depth, f"{self.const(check)}({cs})", span)
        w.line(depth, f"{z} = {self.expr_src(w, r, s.to, depth, span)}", span)
        w.line(depth, f"for {c} in {cs}:", span)
        self.move(w, depth + 1, c, z, s.bottom, span)
        return True

    def move(self, w, depth: int, c: str, z: str, bottom: bool, span) -> None:
        """Lines moving the card ``c`` to the zone ``z`` (made names), to its top or its bottom,
        as ``meeple.dsl.types._move`` moves it: the same lists written, the same tracking."""
        if bottom:
            w.line(depth, f"_move(st, {c}, {z}, True)", span)
            return
        # a move to the top, written out (the commonest statement of all)
        o = self.fresh("o")
        w.line(depth, f"{o} = st.loc[{c}]", span)
        # copy-on-write (meeple.dsl.types.own_zone): a list not owned is copied first; owned, no call
        w.line(depth, f"(st.zones[{o}] if st.own[{o}] else _own(st, {o})).remove({c})", span)
        w.line(depth, f"(st.zones[{z}] if st.own[{z}] else _own(st, {z})).append({c})", span)
        w.line(depth, f"if {o} != {z}:", span)
        w.line(depth + 1, f"st.loc[{c}] = {z}", span)
        w.line(depth + 1, "if st.track is not None:", span)
        w.line(depth + 2, f"st.track.add(({z}, {c}))", span)

    def w_Draw(self, w, r, depth, span):
        """The top card of the source, as many times as counted or as it holds: each drawn as
        ``move`` moves a card; the source owned first (``zone_to_write``), before any card leaves it."""
        s = r.node
        factor, where = r.facts.factor, r.facts.where
        n, z, d, c = self.fresh("x"), self.fresh("z"), self.fresh("z"), self.fresh("c")
        w.line(depth, f"{n} = {self.expr_src(w, r, s.count, depth, span)}", span)
        w.line(depth, f"{z} = _wz(st, {self.expr_src(w, r, s.source, depth, span)})", span)
        w.line(depth, f"{d} = {self.expr_src(w, r, s.to, depth, span)}", span)
        w.line(depth, f"{n} = min({n}, len({z}))", span)
        self.charge(w, depth, f"max(0, {n})", factor, where, span)         # a step a card drawn (unless folded)
        w.line(depth, f"for _ in range({n}):", span)
        w.line(depth + 1, f"{c} = {z}[-1]", span)
        self.move(w, depth + 1, c, d, s.bottom, span)
        return True

    def w_If(self, w, r, depth, span):
        """'if', 'elif' and 'else' as Python writes them, however many 'elif's (no level of
        indentation each). A condition's setup lines only empty the caches of its shared
        calls (``ExprWriter.region``), so all are written first, before the 'if'."""
        s = r.node
        tests = [self.expr_src(w, r, cond, depth, span) for cond, _ in s.branches]
        for k, (test, (_, body)) in enumerate(zip(tests, s.branches)):
            w.line(depth, f"{'elif' if k else 'if'} {test}:", span)
            self.body(w, r.block(body), depth + 1, span)
        if s.orelse:
            w.line(depth, "else:", span)
            self.body(w, r.block(s.orelse), depth + 1, span)
        return True

    def w_ForEach(self, w, r, depth, span):
        """Charged as the checker planned (``ir.ForEach``): the filter's items, then the rounds."""
        s = r.node
        f = r.facts
        items, var, idx, zone, plan, where = f.items, f.var, f.idx, f.zone, f.plan, f.where
        v = self.fresh("v")
        if s.order is not None:      # a sorted walk: every test, then every key (each charged first), then a stable sort
            self.sorted_walk(w, r, depth, span, v)
        else:                        # the walk's items: a zone is copied first, so the body may move its cards
            src = self.expr_src(w, r, s.source, depth, span)
            seq = f"st.zones[{src}][:]" if zone else src
            if s.cond is None:
                w.line(depth, f"L[{items}] = {seq}", span)
            else:
                kept, walked = self.fresh("x"), self.fresh("x")
                w.line(depth, f"{walked} = {seq}", span)
                self.charge(w, depth, f"len({walked})", plan[0], where, span)
                w.line(depth, f"{kept} = []", span)
                w.line(depth, f"for {v} in {walked}:", span)
                w.line(depth + 1, f"L[{var}] = {v}", span)
                w.line(depth + 1, f"if {self.expr_src(w, r, s.cond, depth + 1, span)}:", span)
                w.line(depth + 2, f"{kept}.append({v})", span)
                w.line(depth, f"L[{items}] = {kept}", span)
            self.charge(w, depth, f"len(L[{items}])", plan[2], where, span)
            w.line(depth, f"L[{idx}] = 0", span)      # the index local reset, as saved frames expect
        w.line(depth, f"for {v} in L[{items}]:", span)
        w.line(depth + 1, f"L[{var}] = {v}", span)
        self.body(w, r.block(s.body), depth + 1, span, loop=True)
        w.line(depth, f"L[{items}] = None", span)
        return True

    def sorted_walk(self, w, r, depth: int, span, v: str) -> None:
        """The items of a 'for each ... by ORDER' kept by its condition and sorted by its order
        (none last, ties in place: ``order_key``), charged as the checker planned
        (``meeple.dsl.statements._walk_start``); the order's own function is kept (a re-deal of
        hidden cards sorts a paused walk's items again with it: ``Code.ordered_walks``)."""
        s, f = r.node, r.facts
        src = self.expr_src(w, r, s.source, depth, span)
        walked = self.fresh("x")
        w.line(depth, f"{walked} = st.zones[{src}]" if f.zone else f"{walked} = {src}", span)     # only read
        if s.cond is not None:
            kept = self.fresh("x")
            self.charge(w, depth, f"len({walked})", f.plan[0], f.where, span)
            w.line(depth, f"{kept} = []", span)
            w.line(depth, f"for {v} in {walked}:", span)
            w.line(depth + 1, f"L[{f.var}] = {v}", span)
            w.line(depth + 1, f"if {self.expr_src(w, r, s.cond, depth + 1, span)}:", span)
            w.line(depth + 2, f"{kept}.append({v})", span)
            walked = kept
        keyed, t = self.fresh("x"), self.fresh("t")
        self.charge(w, depth, f"len({walked})", f.plan[1], f.where, span)
        w.line(depth, f"{keyed} = []", span)
        w.line(depth, f"for {v} in {walked}:", span)
        w.line(depth + 1, f"L[{f.var}] = {v}", span)
        key = self.expr_src(w, r, s.order, depth + 1, span, keep=True)
        w.line(depth + 1, f"{keyed}.append(({key}, len({keyed}), {v}))", span)
        w.line(depth, f"{keyed}.sort(key={self.const(order_key)})", span)
        w.line(depth, f"L[{f.items}] = [{t}[2] for {t} in {keyed}]", span)
        self.charge(w, depth, f"len(L[{f.items}])", f.plan[2], f.where, span)
        w.line(depth, f"L[{f.idx}] = 0", span)

    def w_Shuffle(self, w, r, depth, span):
        s = r.node
        factor, where = r.facts.factor, r.facts.where
        if not factor:
            w.line(depth, f"st.shuffle(_wz(st, {self.expr_src(w, r, s.zone, depth, span)}))", span)
            return True
        z = self.fresh("z")
        w.line(depth, f"{z} = _wz(st, {self.expr_src(w, r, s.zone, depth, span)})", span)
        self.charge(w, depth, f"len({z})", factor, where, span)        # a step a card
        w.line(depth, f"st.shuffle({z})", span)
        return True

    def w_Swap(self, w, r, depth, span):
        """The two zones' lists trade places, each with its copy-on-write flag (a list keeps
        its owner), and every card's zone follows (no list is written)."""
        s = r.node
        factor, where = r.facts.factor, r.facts.where
        a, b, c = self.fresh("z"), self.fresh("z"), self.fresh("c")
        w.line(depth, f"{a} = {self.expr_src(w, r, s.a, depth, span)}", span)
        w.line(depth, f"{b} = {self.expr_src(w, r, s.b, depth, span)}", span)
        self.charge(w, depth, f"(len(st.zones[{a}]) + len(st.zones[{b}]))", factor, where, span)     # a step a card
        w.line(depth, f"st.zones[{a}], st.zones[{b}] = st.zones[{b}], st.zones[{a}]", span)
        w.line(depth, f"st.own[{a}], st.own[{b}] = st.own[{b}], st.own[{a}]", span)
        for z in (a, b):
            w.line(depth, f"for {c} in st.zones[{z}]:", span)
            w.line(depth + 1, f"st.loc[{c}] = {z}", span)
        return True

    def w_Roll(self, w, r, depth, span):
        """Each die, in order, given 1 + a draw below its faces from the game's generator
        (``rand_below``), so a seed gives the same rolls; a zone's dice are read in place (a roll
        moves no card), one die that is none rolls nothing."""
        s = r.node
        f = r.facts
        what = self.expr_src(w, r, s.dice, depth, span)
        c = self.fresh("c")
        value = f"st.cvars[{c} * {self.g.ncvars} + {f.value}] = 1 + st.rand_below({self.const(f.table)}[{c}][{f.faces}])"
        if isinstance(f.what, Zone) or (isinstance(f.what, List) and isinstance(f.what.elem_t, (Card, AnyT))):
            ds = self.fresh("cs")
            w.line(depth, f"{ds} = st.zones[{what}]" if isinstance(f.what, Zone) else f"{ds} = {what}", span)
            self.charge(w, depth, f"len({ds})", f.factor, f.where, span)       # a step a die (unless folded)
            w.line(depth, f"for {c} in {ds}:", span)
        else:
            w.line(depth, f"{c} = {what}", span)
            w.line(depth, f"if {c} is not None:", span)
        w.line(depth + 1, value, span)
        return True

    def w_Repeat(self, w, r, depth, span):
        """Every round charged as the loop starts (unless folded), as the checker planned."""
        s = r.node
        factor, where = r.facts.factor, r.facts.where
        count = self.expr_src(w, r, s.count, depth, span)
        if factor:
            n = self.fresh("x")
            w.line(depth, f"{n} = {count}", span)
            w.line(depth, f"if {n} > 0:", span)
            self.charge(w, depth + 1, n, factor, where, span)
            count = n
        w.line(depth, f"for _ in range({count}):", span)
        self.body(w, r.block(s.body), depth + 1, span, loop=True)
        return True

    def w_While(self, w, r, depth, span):
        """Charged each time the condition is tested, as the checker planned (``ir.While``)."""
        s = r.node
        steps, where = r.facts.steps, r.facts.where
        w.line(depth, "while True:", span)
        self.charge(w, depth + 1, str(steps), 1, where, span)
        w.line(depth + 1, f"if not {self.expr_src(w, r, s.cond, depth + 1, span)}:", span)
        w.line(depth + 2, "break", span)
        self.body(w, r.block(s.body), depth + 1, span, loop=True)
        return True

    def w_As(self, w, r, depth, span):
        s = r.node
        m = self.fresh("m")
        w.line(depth, f"{m} = fr.me", span)
        w.line(depth, f"fr.me = {self.expr_src(w, r, s.player, depth, span)}", span)
        self.body(w, r.block(s.body), depth, span)
        w.line(depth, f"fr.me = {m}", span)
        return True

    def w_Log(self, w, r, depth, span):
        s = r.node
        w.line(depth, f"st.events.append({self.const(s.text)})", span)
        return True

    def w_Require(self, w, r, depth, span):
        s = r.node
        message = s.message or UNMET
        w.line(depth, f"if not {self.expr_src(w, r, s.cond, depth, span)}:", span)
        w.line(depth + 1, f"raise _Refusal({self.const(message)})", span)
        return True

    def w_CallProc(self, w, r, depth, span):
        """A call of a procedure that never pauses (``inline_procedures``): a Python call,
        or, when its body does nothing, only its arguments (their errors still count)."""
        s = r.node
        args = [self.expr_src(w, r, a, depth, span) for a in s.args]
        if not self.shared.inline_procs[s.name]:
            # its run is charged as a call charges it (``Code.steps``), known once every
            # unit is compiled: a made name, written as its number by ``finish``
            steps = self.step_names.get(s.name)
            if steps is None:
                steps = self.step_names[s.name] = self.fresh("n")
            w.line(depth, f"if {steps}:", span)
            self.charge(w, depth + 1, steps, 1, Where(w.unit.origin, s.pos), span)
        if self.shared.inline_procs[s.name]:
            w.line(depth, f"({', '.join(args)},)" if args else "pass", span)
            return True
        made = self.callers.get(s.name)
        if made is None:
            made = self.callers[s.name] = self.fresh("p")
        w.line(depth, f"{made}(st, fr{''.join(', ' + a for a in args)})", span)
        return True

    def w_Stop(self, w, r, depth, span):
        s = r.node
        w.line(depth, f"return {STOP}", span)
        return True

    def write_callers(self) -> None:
        """One function per procedure that generated runs call in place: it makes the
        callee's frame (its parameters, then empty locals) and names the callee's
        errors as the run loop would (``named_error``), so a rule error says
        '(in procedure NAME)' wherever the procedure runs."""
        result = self.g.result
        for name, made in self.callers.items():
            ci = result.proc_code[name]
            code = result.codes[ci]
            nparams = len(self.g.proc_defs[name].params)
            params = [f"a{i}" for i in range(nparams)]
            rest = max(0, code.nlocals - nparams)
            loc = "[" + ", ".join(params + ["None"] * rest) + "]" if rest <= 32 else \
                  "[" + ", ".join(params) + f"] + [None] * {rest}"
            run = self.const(code.direct if code.direct is not None else interpret(code.instrs, STOP))
            span = self.const(code.spans[0] if code.spans else None)
            k = self.const(code)
            # One frame per procedure, reused: a procedure run in place is in no cycle of
            # calls, so it never runs twice at once, and no state keeps its frame.
            frame = self.const(Frame(ci, 0, [], -1, -1))
            lines = [f"def {made}(st, fr{''.join(', ' + p for p in params)}):",
                     f"    F = {frame}",
                     f"    F.locals = {loc}",
                     "    F.me = fr.me",
                     "    F.this = fr.this",
                     "    try:",
                     f"        {run}(st, F)",
                     "    except _ME as _err:",
                     f"        raise _named(st.game, _err, {k}, {span} if {span} is not None else _err.span, st, F)",
                     "    except _RF as _exc:",
                     f"        raise _named(st.game, _exc, {k}, {span}, st, F) from None"]
            self.module.helper(made, "\n".join(lines), headline(f"procedure {name}, run in place", code.recipe[1].span if code.recipe else None))


def _scored(writer: RunWriter, w: Any, k: int, p: str, change: str, depth: int, span: Any) -> None:
    """A change of the score (resource ``k`` when it is the score) noted with the rule making
    it, before it is written (``State.scored``: what made the score during play)."""
    if k == writer.g.score_res:
        w.line(depth, f"_scored(st, {writer.const(writer.module.rule)}, {p}, {change})", span)
