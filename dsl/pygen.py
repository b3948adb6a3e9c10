"""Generating Python source for checked rules: the fast back end.

The checker (``meeple.dsl.compiler.Compiler``) walks every expression once, reports
errors and gives each node its type; with a ``PyGen`` attached it also hands
every *top-level* expression (a condition, an amount, a choice's source ...)
to the back end, which writes it as one Python function; every run of
statements that never pauses (``statements``: native if/for/while, a loop
budget, a line table back to the YAML); and one menu per action group
(``menu``). All of a pack goes into one module, compiled with a single
``compile()``.

``PyGen`` is the compiler's one way in: it takes what the checker concluded (the
types of a top-level expression's nodes; a run of statements in its checked form,
``meeple.dsl.ir``) and hands the writing to collaborators, each owning one
concern (``meeple.dsl.gen``): the module and its names (``gen/module.py``: why
no text of a pack is ever code, and how the module is made readable),
expressions (``gen/expressions.py``: why source and not closures, with
``gen/names.py``, ``gen/operators.py`` and ``gen/walks.py``), runs of statements
(``gen/statements.py``: how the games are pinned to their records), the
instructions that ask a player (``gen/instructions.py``) and the groups'
menus (``gen/menus.py``). A node the back end does not know how to write is
an internal error (``GeneratedCodeError``), as is a module Python does not compile:
nothing else runs in the generated code's place.
"""
from __future__ import annotations

from typing import Any

from . import ast as A
from . import ir
from .errors import location
from .gen.context import Ctx, Unsupported
from .gen.expressions import ExprWriter
from .gen.instructions import InstructionWriter
from .gen.menus import MenuWriter
from .gen.module import GeneratedCodeError, Module, headline
from .gen.names import NameWriter
from .gen.operators import OperatorWriter
from .gen.pausing import PauseWriter
from .gen.statements import RunWriter
from .gen.walks import MEMO_MAKE, MEMO_USE, WalkWriter
from .types import Fn, Unit

__all__ = ["PyGen", "WRITERS", "WRITTEN_ELSEWHERE"]

# Every kind of node of dsl/ast.py is written by a method named for it ('g_' for an
# expression, 'w_' for a statement of a run, 'i_' for a statement that is an instruction of its
# own: it pauses or runs other code) of one of the ``WRITERS``, or is one of these, with what
# writes it instead. tests/test_node_kinds.py fails on a kind of node that is neither (a new node
# must be written or say why not), and on a name here that is no kind of node.
WRITERS = (ExprWriter, NameWriter, OperatorWriter, WalkWriter, RunWriter, PauseWriter)
WRITTEN_ELSEWHERE = {
    "Comprehension": "written by the call that walks it (count, any, first, ...: ``aggregate``)",
    "Amount": "written by its statement (``w_Counter``)",
    "Option": "a branch of its 'choose one' (``i_ChooseOne``): its body is laid out after the question",
}


class PyGen:
    """Collects the generated functions of one pack and compiles them once."""

    def __init__(self, game: Any, pack: str = "pack"):
        self.g = game
        self.depth = 0
        self.comp: Any = None                 # the compiler being run (set by each call into the back end)
        self.where_of: dict[Any, str] = {}    # generated function -> its comment (instructions inlining it reuse it)
        self.inlined: set = set()             # generated functions written into a run of statements
        self.fusing = 0                       # while a run of statements is checked to be written whole
        self.src_of: dict[Any, tuple] = {}    # generated function -> (setup lines, expression), to inline it
        self.binder_meta: Any = None
        self.inline_procs: dict[str, bool] = {}    # the procedures run in place (``inline_procedures``)
        self.module = Module(pack)
        self.expressions = ExprWriter(self, self.module)
        self.runs = RunWriter(self, self.module)
        self.menus = MenuWriter(self, self.module)
        self.instructions = InstructionWriter(self, self.module)
        self.pausing = PauseWriter(self, self.module, self.menus.menu_names)
        # the compiler's other calls, each answered by the collaborator that writes it
        self.branch = self.instructions.branch
        self.op = self.instructions.op
        self.walk_init = self.instructions.walk_init
        self.menu = self.menus.menu
        self.locate = self.module.locate

    # ------------------------------------------------------------ what the module made
    @property
    def source(self) -> str:
        return self.module.source

    @property
    def filename(self) -> str:
        return self.module.filename

    @property
    def line_spans(self) -> dict[int, Any]:
        return self.module.line_spans

    @property
    def generated(self) -> int:
        return self.module.generated

    # ------------------------------------------------------------ entry
    def top(self, comp: Any, unit: Unit, e: ir.Expr) -> Fn:
        """Generate the checked expression ``e`` as a function of (state, frame); returns a
        function object that becomes the generated one when ``finish`` compiles the module."""
        self.comp = comp
        node = e.node
        m = self.module
        m.rule = unit.code.name
        try:
            ctx = Ctx(unit, {}, unit.hoist, ir.Caches(), unit.me_bound)
            # an action's 'with' is evaluated for each item of one menu: its memo serves them all
            ctx.memo = "menu" if unit.code.recipe and unit.code.recipe[0] == "binder" else "once"
            x = self.expressions
            body = x.written(e, lambda: x.region(ctx, [node], lambda: x.gen(ctx, node)))
            if MEMO_USE.search(body[1]):      # the evaluation's memo, made as it starts (see gen/walks.py)
                body = ([MEMO_MAKE, *body[0]], body[1])
        except (Unsupported, RecursionError) as exc:
            raise GeneratedCodeError(f"meeple's generator cannot write an expression of {m.rule} at "
                                     f"{location(comp.span(unit, node.pos))} ({type(exc).__name__}: {exc}): "
                                     "a defect of meeple's, not of the pack") from exc
        name = m.fresh("e")
        head = headline(m.rule, comp.span(unit, node.pos))
        fn = m.define(name, m.function_source(name, [*body[0], f"return {body[1]}"]), head=head)
        self.src_of[fn] = tuple(body[0]), body[1]
        self.where_of[fn] = head
        return fn

    def source_of(self, fn: Fn) -> tuple:
        """(setup lines, expression) of the generated expression ``fn``, to write it into the
        instruction using it; every expression the checker made is generated, so one that is
        not is a defect of the generator's (an internal error)."""
        found = self.src_of.get(fn)
        if found is None:
            raise GeneratedCodeError(f"meeple's generator was handed an expression it did not write, in {self.module.rule}: "
                                     "a defect of meeple's, not of the pack")
        return found

    def statements(self, comp: Any, unit: Unit, run: tuple[ir.Stmt, ...], nxt: int) -> Fn:
        """Write a run of statements, in its checked form, as one instruction (a function of
        (state, frame) returning the next instruction, or STOP)."""
        self.comp = comp
        self.module.rule = unit.code.name
        return self.runs.write(unit, run, nxt)

    def head(self, comp: Any, unit: Unit, pos: A.Pos) -> str:
        """The comment of an instruction written for the statement at ``pos`` of ``unit``."""
        return headline(unit.code.name, comp.span(unit, pos))

    def finish(self) -> None:
        """Compile every generated function at once, put each in its place, and register
        the module's lines with ``linecache`` (``Module.finish``)."""
        self.runs.write_callers()
        self.menus.listed_by_engine()
        self.module.finish(self.inlined, self.steps)

    def steps(self) -> dict[str, int]:
        """Each procedure run in place's steps, known once every unit is compiled
        (``Compiler.settle_steps``), by the made name its calls' charges were written with."""
        if not self.runs.step_names:
            return {}
        codes, procs = self.g.result.codes, self.g.result.proc_code
        return {made: codes[procs[name]].steps for name, made in self.runs.step_names.items()}
