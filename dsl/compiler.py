"""Check DSL against a pack's vocabulary and compile it.

Statements become a flat list of instructions (functions returning the next
program counter), so a running effect is just (code, pc, locals): plain data
that can suspend on a choice, be cloned and be saved. Names are resolved
here, once, to list indices; the hot path never parses, walks a tree or looks
a name up in a dictionary.

Two back ends share this one checker. Closures (expressions as nested
closures, one instruction per statement) are what ``meeple validate`` builds
and what tests keep as the reference. With a ``meeple.dsl.pygen.PyGen`` attached
(games that will run), every top-level expression is also written as Python,
every run of statements that never pauses becomes one instruction written as
Python (``fused``), and a unit that never pauses gets ``Code.direct``, so its
callers run it in place.

Types (for checks and for picking the right closure) are the objects of
``meeple.dsl.typesys``. A trailing '?' is not tracked: any value may be none.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from .errors import MeepleError, Refusal, RuleError, suggest
from .runtime import Frame
from .source import Source

from . import ast as A
from .expressions import ExpressionCompiler
from .interaction import InteractionCompiler
from .parser import parse
from .gen.runs import fusable, inline_procedures, then
from .pygen import PyGen
from .steps import Where, charge, counted_branch
from .types import (CALL, MAX_NUMBER, SKIP, STOP, SUSPEND, Code, Fn, Scope, Unit, _Scope, _branch, _jump, _me, _move, bounded,
                    order_key, thread_jumps, too_big, zone_to_write)
from .typesys import ANY, INT, PLAYER, AnyT, Card, List, Type, Zone, card_kind, compatible
from .vocabulary import CompileResult, Vocabulary

if TYPE_CHECKING:
    from .guards import Guards

__all__ = ["CALL", "SKIP", "STOP", "SUSPEND", "Code", "Compiler", "Scope", "Unit", "_Scope"]

class Compiler(ExpressionCompiler, InteractionCompiler):
    """Compiles every DSL snippet of a game; collects every error it finds."""

    def __init__(self, vocab: Vocabulary, errors: list):
        self.g = vocab                        # names are resolved against this, never against the engine
        self.errors = errors
        self.result: CompileResult = vocab.result     # what compiling produces goes here
        self.codes: list[Code] = self.result.codes
        # procedures a generated run calls in place (``meeple.dsl.pygen.inline_procedures``);
        # set before the units are compiled, when generating
        self.inline: dict[str, bool] = {}
        # the warnings of values that are none where none stops the game (dsl/guards.py), when
        # the caller asks for them (it knows the pack's zones and functions)
        self.guards: Optional["Guards"] = None
        # how walks and whole lists are charged to the step budget (``meeple.dsl.steps.StepPlanner``)
        self.folded = 0
        self.walks: dict[int, tuple] = {}
        self.lists: dict[int, tuple] = {}
        self.bounds: dict[int, tuple] = {}
        self.proc_written: dict[str, int] = {}

    # ------------------------------------------------------------ entry points
    def plan_calls(self, procedures: dict[str, Source]) -> None:
        """Before any unit compiles: find the procedures a call may run in place (see
        ``meeple.dsl.pygen.inline_procedures``): the generator runs them so, and with either back
        end a call of one that folds no step is charged none (``settle_steps``). A text
        that does not parse is left out here; compiling it reports the error."""
        bodies: dict[str, Optional[tuple]] = {}
        for name, src in procedures.items():
            try:
                bodies[name] = parse(src.text, src.origin, "start")
            except MeepleError:
                bodies[name] = None
        self.inline = inline_procedures(bodies)
        if self.gen is not None:
            self.gen.inline_procs = self.inline
        self.count_calls(bodies)

    def unit(self, name: str, src: Source, params: tuple = (), me_bound: bool = False) -> int:
        """Compile statements; params are (name, type) bound to locals 0.."""
        index = len(self.codes)
        unit = self._new_unit(name, src, params, me_bound)
        self.codes.append(unit.code)
        try:
            body = parse(src.text, src.origin, "start")
        except MeepleError as err:
            self.errors.append(err)
            return index
        before = len(self.errors)
        with self.apart() as run:
            self.block(unit, body)
        self.guard(body, src, before)
        code = unit.code
        code.cost, code.statements = run.steps, self.written(body)
        thread_jumps(code)
        if self.gen is not None and len(code.instrs) == 1 and all(fusable(s, self.inline) for s in body):
            code.direct = code.instrs[0]
        return index

    def guard(self, body: Any, src: Source, before: int) -> None:
        """Warn of the values in a text that may be none where none stops the game
        (dsl/guards.py), once it compiled without errors (or they would be noise)."""
        if self.guards is not None and len(self.errors) == before:
            self.guards.look(body, src.text, src.origin)

    def _new_unit(self, name: str, src: Source, params: tuple, me_bound: bool, kind: str = "unit") -> Unit:
        """A fresh code unit whose first locals are the parameters (and a new text: the
        budget of parts its functions expand to starts again). ``kind`` ('unit',
        'expression', 'binder') is kept with what it is made of, so that a fault while
        it runs can be told in the language's words (dsl/faults.py compiles it again)."""
        self._expanded = 0
        unit = Unit(Code(name), src.origin, _Scope(), me_bound)
        unit.code.recipe = (kind, src, params, me_bound)
        for pname, ptype in params:
            unit.bind(unit.scope, pname, unit.new_slot(ptype), ptype)
        return unit

    def expression(self, name: str, src: Source, params: tuple = (), want: Optional[Type] = None,
                   me_bound: bool = False) -> tuple[Optional[Fn], Code]:
        """Compile one expression; returns (closure, code holding its locals)."""
        unit = self._new_unit(name, src, params, me_bound, "expression")
        code = unit.code
        try:
            tree = parse(src.text, src.origin, "expr_start")
            with self.apart() as run:
                fn, t = self.expr(unit, tree)
            code.cost = run.steps
            if want is not None and not compatible(t, want):
                raise self.err(unit, tree.pos, f"expected {want.describe()} here, found {t.describe()}")
            self.guard(tree, src, len(self.errors))
            return fn, code
        except MeepleError as err:
            self.errors.append(err)
            return None, code

    def binder(self, name: str, src: Source, params: tuple = ()) -> tuple[Optional[tuple], Code]:
        """Compile ``x in coll where cond`` (an action parameter)."""
        unit = self._new_unit(name, src, params, True, "binder")
        code = unit.code
        try:
            comp = parse(src.text, src.origin, "binder_start")
            with self.apart() as run:
                source, st = self.expr(unit, comp.source)
                if not st.is_collection:
                    raise self.err(unit, comp.source.pos, f"'{comp.var}' must range over a zone or list, not {st.describe()}")
                et = st.elem()
                slot = unit.new_slot(et)
                unit.bind(unit.scope, comp.var, slot, et)
                raw = source
                source = self.hoist_invariants(unit, comp.var, [comp.cond], self.as_list(source, st))
                with self.apart() as each:
                    cond = self.truth(unit, comp.cond) if comp.cond is not None else None
                # the menu walks the parameter's items: folded, or charged as it starts (``fold``)
                code.walk = self.walk(unit, comp, self.bound(comp.source, st), each.steps)
            code.cost = run.steps
            if self.gen is not None:     # what a generated action menu needs to walk it inline
                self.gen.binder_meta = (raw, st, tuple(unit.hoist.values()) if unit.hoist else ())
            self.guard(comp, src, len(self.errors))
            return (comp.var, slot, et, source, cond), code
        except MeepleError as err:
            self.errors.append(err)
            return None, code

    # ------------------------------------------------------------ statements
    def block(self, unit: Unit, stmts: tuple) -> None:
        gen = self.gen
        if gen is None or gen.fusing:
            for s in stmts:
                if gen is not None:
                    gen.current = s
                try:
                    getattr(self, "s_" + type(s).__name__)(unit, s)
                except MeepleError as err:
                    self.errors.append(err)
            return
        # generating: each run of statements that never pauses becomes one instruction
        i = 0
        while i < len(stmts):
            j = i
            while j < len(stmts) and fusable(stmts[j], self.inline):
                j += 1
            if j > i:
                self.fused(unit, stmts[i:j])
                i = j
                continue
            try:
                getattr(self, "s_" + type(stmts[i]).__name__)(unit, stmts[i])
            except MeepleError as err:
                self.errors.append(err)
            i += 1

    def fused(self, unit: Unit, run: tuple) -> None:
        """Check a run of statements as usual (into scratch code), then write it as one
        generated function: native if/for/while, the frame's locals as its variables."""
        gen = self.gen
        code = unit.code
        saved = code.instrs, code.spans
        code.instrs, code.spans = [], []
        gen.fusing += 1
        before = len(self.errors)
        try:
            for s in run:
                gen.current = s
                try:
                    getattr(self, "s_" + type(s).__name__)(unit, s)
                except MeepleError as err:
                    self.errors.append(err)
        finally:
            gen.fusing -= 1
            scratch = code.instrs
            code.instrs, code.spans = saved
        if len(self.errors) > before:
            gen.forget()
            self.emit(unit, run[0].pos, _jump)
            return
        pc = self.here(unit)
        fn = gen.statements(self, unit, run, pc + 1, scratch)
        code.instrs.append(fn)
        code.spans.append(self.span(unit, run[0].pos))

    def writer(self) -> Optional[PyGen]:
        """The generator, when the statement being compiled becomes an instruction of its
        own that it may write (not while a run of statements is checked for fusing: the
        run is then written whole); else None."""
        gen = self.gen
        return gen if gen is not None and not gen.fusing else None

    def emit(self, unit: Unit, pos: A.Pos, make: Callable[[int], Callable]) -> int:
        """Append an instruction; ``make(next_pc)`` builds it. Returns its pc."""
        code = unit.code
        pc = len(code.instrs)
        code.instrs.append(None)
        code.spans.append(self.span(unit, pos))
        code.instrs[pc] = make(pc + 1)
        return pc

    def simple(self, unit: Unit, pos: A.Pos, action: Callable[[Any, Frame], None]) -> None:
        if self.gen is not None and self.gen.fusing:
            self.gen.actions.setdefault(id(self.gen.current), action)
        def make(nxt):
            def op(st, fr):
                action(st, fr)
                return nxt
            return op
        self.emit(unit, pos, make)

    def branch(self, cond: Fn, yes: int, no: int, counted: Optional[tuple] = None) -> Fn:
        """An instruction going to ``yes`` if ``cond`` holds, else to ``no``: generated
        with the condition written in it where the condition was generated (one call
        fewer a test), else the closure. ``counted``: a loop's head, charging (steps,
        where) at each test."""
        gen = self.writer()
        made = gen.branch(cond, yes, no, counted) if gen is not None else None
        if made is not None:
            return made
        return _branch(cond, yes, no) if counted is None else counted_branch(cond, yes, no, counted)

    def placeholder(self, unit: Unit, pos: A.Pos) -> int:
        code = unit.code
        code.instrs.append(None)
        code.spans.append(self.span(unit, pos))
        return len(code.instrs) - 1

    def patch(self, unit: Unit, pc: int, op: Callable) -> None:
        unit.code.instrs[pc] = op

    def here(self, unit: Unit) -> int:
        return len(unit.code.instrs)

    def s_Counter(self, unit, s):
        g = self.g
        if s.resource not in g.res_index:
            raise self.err(unit, s.resource_pos, f"unknown resource '{s.resource}'", suggest(s.resource, list(g.res_index)))
        r, nr = g.res_index[s.resource], g.nres
        lo, hi = g.res_min[r], g.res_max[r]
        name = s.resource
        other = self.player_expr(unit, s.other) if s.other is not None else None
        amount = self.number(unit, s.amount.expr) if s.amount.expr is not None else None
        verb = s.verb

        def clamp(v):
            if lo is not None and v < lo:
                v = lo
            if hi is not None and v > hi:
                v = hi
            if not -MAX_NUMBER <= v <= MAX_NUMBER:
                raise too_big(v)
            return v

        if verb in ("gain", "lose", "give"):
            sign = -1 if verb == "lose" else 1

            def act(st, fr):
                p = other(st, fr) if verb == "give" else _me(st, fr)
                i = p * nr + r
                n = st.res[i] if amount is None else amount(st, fr)
                if n < 0:
                    raise RuleError(f"cannot {verb} a negative amount ({n} {name})")
                st.res[i] = clamp(st.res[i] + sign * n)
        elif verb in ("pay", "pay_to", "take"):
            def act(st, fr):
                me = _me(st, fr)
                if verb == "take":
                    src, dst = other(st, fr), me
                else:
                    src, dst = me, (other(st, fr) if verb == "pay_to" else None)
                si = src * nr + r
                have = st.res[si]
                n = have if amount is None else amount(st, fr)
                if n < 0:
                    raise RuleError(f"cannot {verb.replace('_to', '')} a negative amount ({n} {name})")
                if verb == "take":
                    n = min(n, have - (lo or 0)) if lo is not None else n
                elif lo is not None and have - n < lo:
                    raise RuleError(f"P{src + 1} cannot pay {n} {name} (has {have})")
                if have - n < -MAX_NUMBER:          # a resource without a minimum: MAX_NUMBER bounds it
                    raise too_big(have - n)
                st.res[si] = have - n
                if dst is not None:
                    di = dst * nr + r
                    st.res[di] = clamp(st.res[di] + n)
        else:  # pragma: no cover
            raise self.err(unit, s.pos, f"unknown verb {verb}")
        self.simple(unit, s.pos, act)

    def assign_target(self, unit: Unit, target: A.Node, vt: Type) -> Callable[[Any, Frame, Any], None]:
        g = self.g
        if isinstance(target, A.Name):
            name = target.name
            local = unit.scope.lookup(name)
            if local is not None:
                slot = local[0]
                self._target: tuple = ("local", slot)     # what was assigned, for pygen: (kind, index[, whose])

                def setl(st, fr, v):
                    fr.locals[slot] = v
                return setl
            if name in g.gvar_index:
                i = g.gvar_index[name]
                self.check_assign(unit, target, vt, g.gvar_types[i])
                self._target = ("gvar", i)

                def setg(st, fr, v):
                    st.gvars[i] = v
                return setg
            if name in g.pvar_index or name in g.res_index:
                return self.assign_target(unit, A.Of(name, A.Me(target.pos), "player", target.pos, target.pos), vt)
            raise self.err(unit, target.pos, f"cannot set '{name}': not a variable (declare it, or use 'let')",
                           suggest(name, list(g.gvar_index) + list(g.pvar_index) + list(g.res_index)))
        if isinstance(target, A.Of) and target.scope == "player":
            p = self.player_expr(unit, target.target)  # type: ignore[arg-type]  # a player's variable has a target
            name = target.name
            if name in g.pvar_index:
                i, nv = g.pvar_index[name], g.npvars
                self.check_assign(unit, target, vt, g.pvar_types[i])
                self._target = ("pvar", i, target.target)

                def setp(st, fr, v):
                    st.pvars[p(st, fr) * nv + i] = v
                return setp
            if name in g.res_index:
                self.check_assign(unit, target, vt, INT)
                r, nr = g.res_index[name], g.nres
                lo, hi = g.res_min[r], g.res_max[r]
                self._target = ("res", r, target.target)

                def setr(st, fr, v):
                    if lo is not None and v < lo:
                        v = lo
                    if hi is not None and v > hi:
                        v = hi
                    st.res[p(st, fr) * nr + r] = v
                return setr
            raise self.err(unit, target.pos, f"players have no variable '{name}'", suggest(name, list(g.pvar_index) + list(g.res_index)))
        if isinstance(target, A.Field):
            c, t = self.card_expr(unit, target.target)
            kind = card_kind(t)
            cvars = g.kind_cvars.get(kind) if kind else g.all_cvars
            if target.name not in cvars:
                raise self.err(unit, target.pos, f"cannot set '{target.name}': not a card variable", suggest(target.name, list(cvars)))
            i, ncv = g.cvar_index[target.name], g.ncvars
            self._target = ("cvar", i, target.target)

            def setc(st, fr, v):
                st.cvars[c(st, fr) * ncv + i] = v
            return setc
        raise self.err(unit, target.pos, "cannot set this: set a variable, 'name of player' or 'card.variable'")

    def check_assign(self, unit, target, have: Type, want: Type) -> None:
        if not compatible(have, want):
            raise self.err(unit, target.pos, f"'{getattr(target, 'name', '?')}' holds {want.describe()}, not {have.describe()}")

    def s_Set(self, unit, s):
        value, vt = self.expr(unit, s.value)
        setter = self.assign_target(unit, s.target, vt)
        if self.gen is not None and self.gen.fusing:
            self.gen.info[id(s)] = (self._target, vt)
        if vt == INT and self._target[0] != "local":     # a number kept in the game is bounded (MAX_NUMBER)
            self.simple(unit, s.pos, lambda st, fr: setter(st, fr, bounded(value(st, fr))))
            return
        self.simple(unit, s.pos, lambda st, fr: setter(st, fr, value(st, fr)))

    def s_Let(self, unit, s):
        try:
            value, vt = self.expr(unit, s.value)
        except MeepleError:
            # keep the name known, so one mistake is reported once, not at every use
            if s.name not in unit.scope.names:
                unit.bind(unit.scope, s.name, unit.new_slot(ANY), ANY)
            raise
        existing = unit.scope.names.get(s.name)
        slot = existing[0] if existing else unit.new_slot(vt)
        unit.bind(unit.scope, s.name, slot, vt)
        if self.gen is not None and self.gen.fusing:
            self.gen.info[id(s)] = slot

        def act(st, fr):
            fr.locals[slot] = value(st, fr)
        self.simple(unit, s.pos, act)

    def cards_of(self, unit: Unit, node: A.Node, verb: str = "move") -> tuple[Fn, str, int, Optional[Where]]:
        """A closure giving the card ids a move acts on, their kind ('' when unknown), and how
        the cards are charged to the step budget when they are many (a zone, a list): (factor,
        where) as ``walk`` decides, (0, None) for one card."""
        fn, t = self.expr(unit, node)
        if self.gen is not None and self.gen.fusing:
            self.gen.info[id(node)] = t
        if isinstance(t, (Card, AnyT)):
            return (lambda st, fr: (lambda c: [] if c is None else [c])(fn(st, fr))), card_kind(t) or "", 0, None
        if isinstance(t, Zone):
            fn, kind = (lambda f: lambda st, fr: st.zones[f(st, fr)][:])(fn), t.kind or ""
        elif isinstance(t, List) and isinstance(t.elem_t, (Card, AnyT)):
            kind = card_kind(t.elem_t) or ""
        else:
            raise self.err(unit, node.pos, f"expected cards to {verb}, found {t.describe()}")
        return (fn, kind, *self.walk(unit, node, self.bound(node, t), 0))

    def kind_check(self, holds: Optional[str]) -> Optional[Callable]:
        """For a move the checker cannot type: a test that each card moved is of the kind the
        zone holds (a zone holds its kind only, which bounds every walk of it; see ``bound``)."""
        if holds is None:
            return None
        g = self.g
        kinds = [g.card_defs[d].kind for d in g.card_def_index]
        ids = g.card_def_ids

        def check(cards: list) -> None:
            for c in cards:
                if kinds[c] != holds:
                    raise RuleError(f"card {ids[c]} is a {kinds[c]} card: it cannot go into a zone of {holds} cards")
        return check

    def s_Move(self, unit, s):
        what, kind, factor, where = self.cards_of(unit, s.what)
        dest, dt = self.zone_expr(unit, s.to)
        if kind and dt.kind != kind:
            raise self.err(unit, s.to.pos, f"zone holds {dt.kind} cards, not {kind} cards")
        bottom = s.bottom
        check = None if kind else self.kind_check(dt.kind)
        if self.gen is not None and self.gen.fusing:
            self.gen.info[id(s)] = (factor, where, check)

        def act(st, fr):
            cards = what(st, fr)
            if factor:                   # a step a card (``fold``)
                charge(st, len(cards) * factor, where)
            if check is not None:
                check(cards)
            z = dest(st, fr)
            for c in cards:
                _move(st, c, z, bottom)
        self.simple(unit, s.pos, act)

    def s_Draw(self, unit, s):
        count = self.number(unit, s.count)
        src, st_ = self.zone_expr(unit, s.source)
        dest, dt = self.zone_expr(unit, s.to)
        if st_ != dt:
            raise self.err(unit, s.to.pos, f"cannot draw {st_.kind} cards into a zone of {dt.kind} cards")
        bottom = s.bottom
        most = self.bound(s.source, st_)
        if isinstance(s.count, A.Int) and most is not None:
            most = min(most, max(0, s.count.value))
        factor, where = self.walk(unit, s, most, 0)       # a step a card drawn (``fold``)

        def act(st, fr):
            n = count(st, fr)
            z = zone_to_write(st, src(st, fr))      # owned before the moves: they then write this very list
            d = dest(st, fr)
            if factor:
                charge(st, max(0, min(n, len(z))) * factor, where)
            for _ in range(min(n, len(z))):
                _move(st, z[-1], d, bottom)
        self.simple(unit, s.pos, act)

    def s_Shuffle(self, unit, s):
        zone, zt = self.zone_expr(unit, s.zone)
        factor, where = self.walk(unit, s, self.bound(s.zone, zt), 0)      # a step a card (``fold``)
        if self.gen is not None and self.gen.fusing:
            self.gen.info[id(s)] = (factor, where)

        def act(st, fr):
            z = zone_to_write(st, zone(st, fr))
            if factor:
                charge(st, len(z) * factor, where)
            st.shuffle(z)
        self.simple(unit, s.pos, act)

    def s_Swap(self, unit, s):
        a, ta = self.zone_expr(unit, s.a)
        b, tb = self.zone_expr(unit, s.b)
        if ta != tb:
            raise self.err(unit, s.pos, f"cannot swap {ta.describe()} with {tb.describe()}")
        both = self.bound(s.a, ta)
        factor, where = self.walk(unit, s, 2 * both if both is not None else None, 0)    # a step a card (``fold``)

        def act(st, fr):
            za, zb = a(st, fr), b(st, fr)
            if factor:
                charge(st, (len(st.zones[za]) + len(st.zones[zb])) * factor, where)
            st.zones[za], st.zones[zb] = st.zones[zb], st.zones[za]
            st.own[za], st.own[zb] = st.own[zb], st.own[za]     # each list keeps its owner
            for c in st.zones[za]:
                st.loc[c] = za
            for c in st.zones[zb]:
                st.loc[c] = zb
        self.simple(unit, s.pos, act)

    def s_If(self, unit, s):
        jumps_to_end = []
        for cond_node, body in s.branches:
            cond = self.truth(unit, cond_node)
            test = self.placeholder(unit, cond_node.pos)
            self.block(unit, body)
            jumps_to_end.append(self.placeholder(unit, s.pos))
            self.patch(unit, test, self.branch(cond, test + 1, self.here(unit)))
        self.block(unit, s.orelse)
        end = self.here(unit)
        for j in jumps_to_end:
            self.patch(unit, j, _jump(end))

    def s_ForEach(self, unit, s):
        src, st_ = self.expr(unit, s.source)
        if not st_.is_collection:
            raise self.err(unit, s.source.pos, f"'for each' needs a zone or list, found {st_.describe()}")
        source = self.as_list(src, st_)
        et = st_.elem()
        items_slot, idx_slot = unit.new_slot(List(et)), unit.new_slot(INT)
        var_slot = unit.new_slot(et)
        inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
        inner.bind(inner.scope, s.var, var_slot, et)
        with self.apart() as tested:
            cond = self.truth(inner, s.cond) if s.cond is not None else None
        order = None
        with self.apart() as keyed:
            if s.order is not None:
                order = self.expr(inner, s.order)[0]
        where = Where(unit.origin, s.pos)
        # the factors its filter, its sort and its rounds charge each item by (``fold``), decided
        # once the body is compiled: the start is patched in then
        plan = [0, 0, 0]

        init = _walk_start(source, cond, order, plan, where, var_slot, items_slot, idx_slot)
        gen = self.writer()
        fusing = self.gen is not None and self.gen.fusing
        if fusing:
            self.gen.actions[id(s)] = init
        start = self.placeholder(unit, s.pos)
        if order is not None:
            unit.code.ordered_walks.append((items_slot, idx_slot, var_slot, order))
        head = self.placeholder(unit, s.pos)
        unit_scope = unit.scope
        unit.scope = inner.scope
        with self.apart() as body:
            self.block(unit, s.body)
        unit.scope = unit_scope
        self.emit(unit, s.pos, lambda nxt: _jump(head))
        end = self.here(unit)
        bound = self.bound(s.source, st_)
        plan[:] = [self.fold(bound, tested.steps) if cond is not None else 0,
                   self.fold(bound, keyed.steps) if order is not None else 0,
                   self.fold(bound, body.steps + self.written(s.body))]
        if fusing:
            self.gen.info[id(s)] = (items_slot, var_slot, idx_slot, isinstance(st_, Zone), tuple(plan), where)
        made = gen.walk_init(src, isinstance(st_, Zone), cond, order, var_slot, items_slot, idx_slot, init,
                             tuple(plan), where) if gen else None
        self.patch(unit, start, made(start + 1) if made is not None else then(init, start + 1))

        self.patch(unit, head, _walk_step(idx_slot, items_slot, var_slot, head, end))

    def s_Repeat(self, unit, s):
        count = self.number(unit, s.count)
        slot = unit.new_slot(INT)
        where = Where(unit.origin, s.pos)
        plan = [0]           # the factor of its rounds (``fold``), decided once the body is compiled

        def init(st, fr):
            n = count(st, fr)
            if n > 0 and plan[0]:            # every round charged as the loop starts
                charge(st, n * plan[0], where)
            fr.locals[slot] = n
        if self.gen is not None and self.gen.fusing:
            self.gen.actions[id(s)] = init
        start = self.placeholder(unit, s.pos)
        head = self.placeholder(unit, s.pos)
        with self.apart() as body:
            self.block(unit, s.body)
        self.emit(unit, s.pos, lambda nxt: _jump(head))
        end = self.here(unit)
        plan[0] = self.fold(max(0, s.count.value) if isinstance(s.count, A.Int) else None, body.steps + self.written(s.body))
        if self.gen is not None and self.gen.fusing:
            self.gen.info[id(s)] = (plan[0], where)
        self.patch(unit, start, then(init, start + 1))

        def loop(st, fr):
            left = fr.locals[slot]
            if left <= 0:
                return end
            fr.locals[slot] = left - 1
            return head + 1
        self.patch(unit, head, loop)

    def s_While(self, unit, s):
        with self.apart() as each:          # a test and a round, charged together at each test
            cond = self.truth(unit, s.cond)
            head = self.placeholder(unit, s.pos)
            self.block(unit, s.body)
        self.emit(unit, s.pos, lambda nxt: _jump(head))
        where = Where(unit.origin, s.pos)
        steps = 1 + each.steps + self.written(s.body)
        if self.gen is not None and self.gen.fusing:
            self.gen.info[id(s)] = (steps, where)
        self.patch(unit, head, self.branch(cond, head + 1, self.here(unit), (steps, where)))

    def s_As(self, unit, s):
        who = self.player_expr(unit, s.player)
        saved = unit.new_slot(PLAYER)

        def enter(st, fr):
            fr.locals[saved] = fr.me
            fr.me = who(st, fr)

        def leave(st, fr):
            fr.me = fr.locals[saved]
        gen = self.writer()
        found = gen.src_of.get(who) if gen is not None else None
        if found is not None:       # a body that pauses: entering and leaving are instructions, generated
            self.emit(unit, s.pos, gen.op([*found[0], f"L[{saved}] = fr.me", f"fr.me = {found[1]}"], enter, gen.where_of.get(who, "")))
        else:
            self.simple(unit, s.pos, enter)
        was = unit.me_bound
        unit.me_bound = True
        self.block(unit, s.body)
        unit.me_bound = was
        if found is not None:
            self.emit(unit, s.pos, gen.op([f"fr.me = L[{saved}]"], leave, gen.where_of.get(who, "")))
        else:
            self.simple(unit, s.pos, leave)

    def s_Log(self, unit, s):
        text = s.text
        self.simple(unit, s.pos, lambda st, fr: st.events.append(text))

    def s_Require(self, unit, s):
        cond = self.truth(unit, s.cond)
        message = s.message or "a requirement does not hold"

        def act(st, fr):
            if not cond(st, fr):
                raise Refusal(message)
        self.result.uses_require = True
        self.simple(unit, s.pos, act)

    def s_Stop(self, unit, s):
        self.emit(unit, s.pos, lambda nxt: (lambda st, fr: STOP))


def _walk_start(source: Fn, cond: Optional[Fn], order: Optional[Fn], plan: list, where: Where,
                var_slot: int, items_slot: int, idx_slot: int) -> Fn:
    """The start of a 'for each' walked by instructions: its items, kept by its condition and
    sorted by its order (a stable sort, none last), into the frame's locals. ``plan``: the
    factors of the filter, the sort and the rounds, filled in once the body is compiled."""
    def init(st, fr):
        # charged as it starts: the filter's items, the sort's, then the rounds
        items = source(st, fr)
        loc = fr.locals
        if cond is not None:
            if plan[0]:
                charge(st, len(items) * plan[0], where)
            kept = []
            for x in items:
                loc[var_slot] = x
                if cond(st, fr):
                    kept.append(x)
            items = kept
        if order is not None:
            if plan[1]:
                charge(st, len(items) * plan[1], where)
            keyed = []
            for i, x in enumerate(items):
                loc[var_slot] = x
                keyed.append((order(st, fr), i, x))
            keyed.sort(key=order_key)
            items = [k[2] for k in keyed]
        if plan[2]:
            charge(st, len(items) * plan[2], where)
        loc[items_slot] = items
        loc[idx_slot] = 0
    return init


def _walk_step(idx_slot: int, items_slot: int, var_slot: int, head: int, end: int) -> Fn:
    """The head of a 'for each' walked by instructions: the next item into the variable and
    on into the body, or, past the last, the items let go and on to ``end``."""
    def loop(st, fr):
        loc = fr.locals
        i = loc[idx_slot]
        items = loc[items_slot]
        if i >= len(items):
            loc[items_slot] = None
            return end
        loc[var_slot] = items[i]
        loc[idx_slot] = i + 1
        return head + 1
    return loop
