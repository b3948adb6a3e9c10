"""Check DSL against a pack's vocabulary and compile it.

Statements become a flat list of instructions (functions returning the next
program counter), so a running effect is just (code, pc, locals): plain data
that can suspend on a choice, be cloned and be saved. Names are resolved
here, once, to list indices; the hot path never parses, walks a tree or looks
a name up in a dictionary.

The checker makes no function of what it checks: it types, resolves, plans the
step budget and records its conclusions (``meeple.dsl.ir``), and the generator is
the one back end. With a ``meeple.dsl.pygen.PyGen`` attached (games that will run),
every top-level expression is written as Python, every run of statements that never
pauses becomes one instruction written as Python (``fused``), each statement that
pauses an instruction of its own, and a unit that never pauses gets ``Code.direct``,
so its callers run it in place. Without one (``meeple validate``, ``cards``,
``diff``: ``generate=False``) the rules are checked only: each instruction is
``unwritten``, which no game runs (``Game`` refuses to start one).

The checking is done by checkers, one per concern, that share this compiler: its
vocabulary, the code unit being made and the instructions they append to it, the
expressions being checked (each into its ``meeple.dsl.ir.Expr`` record, with its type and
step plans: ``ExpressionChecker.around``) and the generator. Expressions
(``meeple.dsl.expressions``) with operators (``operators``) and calls (``calls``; the
pack's functions' facts: ``functions``), statements (``statements``), statements that
involve players or other code (``interaction``), and the step budget (``steps``). Each
finds another's through the compiler (``self.c.calls``), and every expression through
``Compiler.expr``, so a compiler that watches expressions (dsl/faults.py) sees them all.

Types are the objects of ``meeple.dsl.typesys``. A trailing '?' is not tracked: any value may be none.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from . import ast as A
from . import ir
from .calls import CallChecker
from .errors import DslCheckError, MeepleError, Span
from .expressions import ExpressionChecker
from .functions import FunctionFacts
from .interaction import InteractionChecker
from .operators import OperatorChecker
from .gen.runs import fusable, inline_procedures
from .parser import parse, to_span
from .pygen import PyGen
from .source import Source
from .statements import StatementChecker
from .steps import StepPlanner
from .types import CALL, SKIP, STOP, SUSPEND, Code, Fn, Items, Scope, Unit, _Scope, _jump, thread_jumps, unwritten
from .typesys import Type, Zone, compatible
from .vocabulary import CompileResult, Vocabulary

if TYPE_CHECKING:
    from .guards import Guards

__all__ = ["CALL", "SKIP", "STOP", "SUSPEND", "Code", "Compiler", "Scope", "Unit", "_Scope"]


class Compiler:
    """Compiles every DSL snippet of a game; collects every error it finds. It holds what
    the checkers share (the vocabulary, the code being made, the step plans, the generator)
    and the instructions they append; each concern is a checker of its own, made from the
    class named here (dsl/faults.py names watched ones)."""

    Expressions: type[ExpressionChecker] = ExpressionChecker
    Operators: type[OperatorChecker] = OperatorChecker
    Calls: type[CallChecker] = CallChecker
    Statements: type[StatementChecker] = StatementChecker
    Interaction: type[InteractionChecker] = InteractionChecker

    def __init__(self, vocab: Vocabulary, errors: list):
        self.g: Any = vocab                   # names are resolved against this, never against the engine
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
        self.proc_written: dict[str, int] = {}
        self.gen: Any = None                  # a meeple.dsl.pygen.PyGen while writing Python for running games
        # keep each text as checked (``CompileResult.texts``), for the rules-text renderer: a game
        # checked only does; a game to play keeps none (records held through play cost the
        # garbage collector: ~4.6% more instructions a decision, docs/architecture.md)
        self.keep = False
        # while a run of statements is checked for the generator (``fused``): the statements being
        # checked, innermost last, each gathering what its checkers conclude (``meeple.dsl.ir``)
        self.checking: list[ir.StmtBuilder] = []
        self._expanded = 0                    # parts the pack's functions expanded to in this text (``calls``)
        # the checkers, one per concern, sharing this compiler's tables and instructions
        self.steps = StepPlanner(self)
        self.facts = FunctionFacts(self)
        self.exprs = self.Expressions(self)
        self.ops = self.Operators(self)
        self.calls = self.Calls(self)
        self.statements = self.Statements(self)
        self.interaction = self.Interaction(self)
        # kind of node -> the method checking it, whichever checker has it
        self.x_kinds: dict[str, Callable] = _kinds("x_", self.exprs, self.ops, self.calls)
        self.s_kinds: dict[str, Callable] = _kinds("s_", self.statements, self.interaction)

    # ------------------------------------------------------------ entry points
    def plan_calls(self, procedures: dict[str, Source]) -> None:
        """Before any unit compiles: find the procedures a call may run in place (see
        ``meeple.dsl.pygen.inline_procedures``): the generator runs them so, and a call of
        one that folds no step is charged none (``settle_steps``). A text
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
        self.steps.count_calls(bodies)

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
        text = ir.StmtBuilder(None)          # the text's statements, as checked (``ir.Text``)
        self.checking.append(text)
        try:
            with self.steps.apart() as run:
                self.block(unit, body)
        finally:
            self.checking.pop()
        if self.keep and len(self.errors) == before:
            self.result.texts[src] = ir.Text(body, ir.run_of(text, body))
        self.guard(body, src, before)
        code = unit.code
        code.cost, code.statements = run.steps, self.steps.written(body)
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
        self.exprs.begin()
        unit = Unit(Code(name), src.origin, _Scope(), me_bound)
        unit.code.recipe = (kind, src, params, me_bound)
        for pname, ptype in params:
            unit.bind(unit.scope, pname, unit.new_slot(ptype), ptype)
        return unit

    def expression(self, name: str, src: Source, params: tuple = (), want: Optional[Type] = None,
                   me_bound: bool = False) -> tuple[Optional[Fn], Code]:
        """Compile one expression; returns (its generated function, or None when checking
        only or when it has errors; the code holding its locals)."""
        fn, code, _ = self.typed_expression(name, src, params, want, me_bound)
        return fn, code

    def typed_expression(self, name: str, src: Source, params: tuple = (), want: Optional[Type] = None,
                         me_bound: bool = False) -> tuple[Optional[Fn], Code, Optional[Type]]:
        """``expression``, with the type the checker gave it (None when it has errors): for
        a caller that shows the value as its type reads (``view: facts``' functions)."""
        unit = self._new_unit(name, src, params, me_bound, "expression")
        code = unit.code
        try:
            tree = parse(src.text, src.origin, "expr_start")
            with self.steps.apart() as run:
                e = self.expr(unit, tree)
            code.cost = run.steps
            if want is not None and not compatible(e.type, want):
                raise self.err(unit, tree.pos, f"expected {want.describe()} here, found {e.type.describe()}")
            if self.keep:
                self.result.texts[src] = ir.Text(tree, exprs=(e,))
            self.guard(tree, src, len(self.errors))
            return e.fn, code, e.type
        except MeepleError as err:
            self.errors.append(err)
            return None, code, None

    def binder(self, name: str, src: Source, params: tuple = ()) -> tuple[Optional[tuple], Code]:
        """Compile ``x in coll where cond`` (an action parameter): (its name, its slot, its
        type, its items (``Items``), its condition's generated function), None on errors."""
        unit = self._new_unit(name, src, params, True, "binder")
        code = unit.code
        try:
            comp = parse(src.text, src.origin, "binder_start")
            with self.steps.apart() as run:
                source = self.expr(unit, comp.source)
                st = source.type
                if not st.is_collection:
                    raise self.err(unit, comp.source.pos, f"'{comp.var}' must range over a zone or list, not {st.describe()}")
                et = st.elem()
                slot = unit.new_slot(et)
                unit.bind(unit.scope, comp.var, slot, et)
                self.exprs.hoist_invariants(unit, comp.var, [comp.cond])
                with self.steps.apart() as each:
                    checked = self.exprs.truth(unit, comp.cond) if comp.cond is not None else None
                    cond = checked.fn if checked is not None else None
                # the menu walks the parameter's items: folded, or charged as it starts (``fold``)
                code.walk = self.steps.walk(unit, comp, self.steps.bound(comp.source, st), each.steps)
            code.cost = run.steps
            fresh = unit.hoist.places() if unit.hoist else ()
            if self.gen is not None:     # what a generated action menu needs to walk it inline
                self.gen.binder_meta = (source.fn, st, fresh)
            if self.keep:
                self.result.texts[src] = ir.Text(comp, exprs=(source,) if checked is None else (source, checked))
            self.guard(comp, src, len(self.errors))
            return (comp.var, slot, et, Items(source.fn, isinstance(st, Zone), fresh), cond), code
        except MeepleError as err:
            self.errors.append(err)
            return None, code

    def written(self) -> None:
        """Compile what an expression's own generator wrote (an expression given outside the pack,
        in a game whose rules are generated: ``Game.checker``; a fault told, dsl/faults.py), every
        expression kept on its own; nothing when there is no generator."""
        if self.gen is not None:
            self.gen.inlined.clear()      # an expression is called on its own, never written into another
            self.gen.finish()

    # ------------------------------------------------------------ statements
    def block(self, unit: Unit, stmts: tuple) -> None:
        gen = self.gen
        if gen is None or gen.fusing:
            for s in stmts:
                self.checked(unit, s)
            return
            for s in stmts:
                self.checked(unit, s)
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
            self.checked(unit, stmts[i])
            i += 1

    def checked(self, unit: Unit, s: A.Node) -> None:
        """Check a statement, gathering what is concluded of it into its ``meeple.dsl.ir.Stmt``,
        kept by the statement (or run, or text) around it: the generator writes a run from
        them, the rules-text renderer reads a text's (``ir.Text``)."""
        building = ir.StmtBuilder(s)
        self.checking.append(building)
        try:
            self.s_kinds[type(s).__name__](unit, s)
        except MeepleError as err:
            self.errors.append(err)
        finally:
            self.checking.pop()
            self.checking[-1].stmts.append(building.done())

    def fused(self, unit: Unit, run: tuple) -> None:
        """Check a run of statements as usual (into scratch code, let go), then write it as
        one generated function from its checked form: native if/for/while, the frame's
        locals as its variables."""
        gen = self.gen
        code = unit.code
        saved = code.instrs, code.spans
        code.instrs, code.spans = [], []
        gen.fusing += 1
        before = len(self.errors)
        whole = ir.StmtBuilder(None)
        self.checking.append(whole)
        try:
            for s in run:
                self.checked(unit, s)
        finally:
            self.checking.pop()
            gen.fusing -= 1
            code.instrs, code.spans = saved
        if self.checking:               # the run's statements are the text's (or a statement's) too
            self.checking[-1].stmts.extend(whole.stmts)
        if len(self.errors) > before:
            self.emit(unit, run[0].pos, _jump(self.here(unit) + 1))
            return
        pc = self.here(unit)
        fn = gen.statements(self, unit, ir.run_of(whole, run), pc + 1)
        code.instrs.append(fn)
        code.spans.append(self.span(unit, run[0].pos))

    def note(self, facts: ir.Facts) -> None:
        """What the checker concluded of the statement being checked, for the generator (only
        while a run is checked for fusing): its facts."""
        if self.checking and facts is not None:
            self.checking[-1].facts = facts

    def writer(self) -> Optional[PyGen]:
        """The generator, when the statement being compiled becomes an instruction of its
        own that it may write (not while a run of statements is checked for fusing: the
        run is then written whole); else None."""
        gen = self.gen
        return gen if gen is not None and not gen.fusing else None

    def emit(self, unit: Unit, pos: A.Pos, op: Optional[Fn]) -> int:
        """Append the instruction ``op`` (None: none was written, ``unwritten`` stands in).
        Returns its pc."""
        code = unit.code
        code.instrs.append(unwritten if op is None else op)
        code.spans.append(self.span(unit, pos))
        return len(code.instrs) - 1

    def plain(self, unit: Unit, pos: A.Pos) -> None:
        """The instruction of a statement that never pauses: it is part of a run, written
        whole (``fused``), or the rules are checked only; either way it is never run as such."""
        self.emit(unit, pos, None)

    def branch(self, cond: ir.Expr, yes: int, no: int, counted: Optional[tuple] = None) -> Fn:
        """An instruction going to ``yes`` if ``cond`` holds, else to ``no``, generated with
        the condition written in it (``unwritten`` when nothing is generated here).
        ``counted``: a loop's head, charging (steps, where) at each test."""
        gen = self.writer()
        return gen.branch(cond.fn, yes, no, counted) if gen is not None else unwritten

    def placeholder(self, unit: Unit, pos: A.Pos) -> int:
        """An instruction patched in later (``patch``); ``unwritten`` until then."""
        return self.emit(unit, pos, None)

    def patch(self, unit: Unit, pc: int, op: Callable) -> None:
        unit.code.instrs[pc] = op

    def here(self, unit: Unit) -> int:
        return len(unit.code.instrs)

    # ------------------------------------------------------------ helpers
    def err(self, unit: Unit, pos: A.Pos, message: str, hint: Optional[str] = None) -> DslCheckError:
        return DslCheckError(message, to_span(unit.origin, pos.line, pos.col, pos.length), hint)

    def span(self, unit: Unit, pos: A.Pos) -> Span:
        return to_span(unit.origin, pos.line, pos.col, pos.length)

    # ------------------------------------------------------------ every checker's way in
    def expr(self, unit: Unit, n: A.Node) -> ir.Expr:
        """An expression checked and typed into its record (``ExpressionChecker.expr``): every
        checker asks here, so a compiler that watches expressions (dsl/faults.py) sees them all."""
        return self.exprs.expr(unit, n)

    def truth(self, unit: Unit, node: A.Node) -> ir.Expr:
        return self.exprs.truth(unit, node)

    def settle_steps(self) -> None:
        """Once every unit is compiled (``StepPlanner.settle_steps``)."""
        self.steps.settle_steps()



def _kinds(prefix: str, *checkers: Any) -> dict[str, Callable]:
    """Kind of node -> the bound method named ``prefix + kind`` of whichever checker has it."""
    return {name[len(prefix):]: getattr(c, name) for c in checkers for name in dir(type(c)) if name.startswith(prefix)}
