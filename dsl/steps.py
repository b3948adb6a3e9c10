"""The step budget: how every loop the rules run is charged.

A state carries ``budget``, the steps left until the next choice. What takes steps
(docs/limits.md, "Steps"): each item a walk goes through (count, sum, min, max, any, every,
first, those, values over ``x in COLL``, a 'where' filter, a 'by' sort, a 'for each',
the options a 'choose ... where' or an action's 'with:' walks) and each statement of a
loop's round; each round of 'repeat' and each test of 'while'; each item of a list an
operation reads or makes whole (a range, a join, 'x in list', '==' of lists, sum of a
list, a kind's cards, 'ZONE of all'); each card moved, drawn, shuffled or rolled by a
statement acting on many; each card an 'emit' looks at; each procedure, hook or handler
run; each round of the game; the walks of a turn's first action menu. A loop is
charged when it starts, for every item it may walk, so nested loops multiply at once.

The checker (``StepPlanner``, one of the compiler's checkers) decides every charge, once,
into the records the generator writes from (``meeple.dsl.ir``): the generated source
charges at those places those amounts (tests/test_step_budget.py). A
walk it can bound (a zone holds cards of its kind only; the players; a written list)
to at most FOLD_MAX steps with what each item runs is *folded*: charged nothing when
it runs, its bound added to the charge of what repeats it (the walk, loop, call or
round around it). The hot path, made of such walks, pays nothing, and nothing repeats
uncharged; the price is that a folded walk counts as its bound, not its length.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Optional

from . import ast as A
from .errors import RuleError
from .typesys import Type, Zone

if TYPE_CHECKING:
    from .compiler import Compiler
    from .types import Unit

# Steps the rules may take between two choices, and in a setup, an end of the game or an
# evaluation. The shipped packs take at most 57,000 (benchmarks/steps.py; folded walks
# counted at their bounds, so an upper bound of the work); a runaway loop stops within
# a second.
STEP_BUDGET = 1_000_000
# The largest walk (its bound times what each item runs) folded rather than charged as it runs.
FOLD_MAX = 128
# A text run once a choice (an action's effect) is charged its statements and folded walks
# as it starts only past this many: below, what it does once is bounded by its text.
ONCE_FREE = 10_000

class Where:
    """Where a loop is written in a pack's text: made into a file position only when the
    step budget runs out there (rare), so loading a pack computes no span for its loops."""

    __slots__ = ("origin", "line", "col", "length")

    def __init__(self, origin: Any, pos: Any):
        self.origin = origin
        self.line, self.col, self.length = pos.line, pos.col, pos.length

    def span(self):
        from .parser import to_span
        return to_span(self.origin, self.line, self.col, self.length)


def out_of_steps(where: Any) -> RuleError:
    """The error of rules that ran past ``STEP_BUDGET``, located at the loop that went past it
    (``where``: a ``Where``, a span, or None)."""
    return RuleError(f"step budget of {STEP_BUDGET} exceeded (a loop that never ends, or a count over too many items?)",
                     where.span() if where.__class__ is Where else where)


def counted(st, items: Any, where: Any) -> Any:
    """``items`` (a list, or the number of them), charged a step each: a list the checker
    cannot bound, read or made whole (its length taken, see ``charge``)."""
    left = st.budget - len(items)
    st.budget = left
    if left < 0:
        raise out_of_steps(where)
    return items


def charge(st, n: int, where: Any) -> None:
    """Take ``n`` steps from the state's budget (``st.budget``, what is left of
    ``STEP_BUDGET`` until the next choice); past it, the rules stop at ``where``.
    Generated code writes these three lines inline; the runtime off the hot path calls this."""
    left = st.budget - n
    st.budget = left
    if left < 0:
        raise out_of_steps(where)


class _Apart:
    """A region compiled apart (a loop's body, a walk's test): the steps folded into it
    (``StepPlanner.fold``) are its own, read as ``steps`` afterwards, and not the
    region's around it."""

    __slots__ = ("comp", "outer", "steps")

    def __init__(self, comp: "Compiler"):
        self.comp = comp
        self.steps = 0

    def __enter__(self) -> "_Apart":
        self.outer, self.comp.folded = self.comp.folded, 0
        return self

    def __exit__(self, *exc: Any) -> Literal[False]:
        self.steps, self.comp.folded = self.comp.folded, self.outer
        return False


class StepPlanner:
    """The checker's half of the budget (one of the compiler's checkers). The compiler holds
    the tables it fills, which the generator reads too: ``folded`` counts the steps of the
    region being compiled that need no charge of their own (see ``fold``). What it decides of
    an expression node goes into the node's ``ir.Plans``, in its record (``ir.ExprBuilder.plan``,
    on the expression being checked or a part of it): a walk node its factor (0: folded; else its items are charged
    that many steps each when it runs) and where it is; a node whose list is charged by its
    length when it is read or made, where; a list, what the checker knows of its size;
    ``proc_written`` (procedure run in place -> the statements a run of it runs, those of
    the procedures it runs in place counted in: ``written``, known before any unit compiles,
    ``count_calls``)."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against

    def apart(self) -> _Apart:
        return _Apart(self.c)

    def written(self, stmts: tuple) -> int:
        """The statements a run of these statements runs at most, those of the loops inside
        them left out (each of them charges its own rounds), those of a procedure run in place
        counted in: a loop's round is charged them, and a call its callee's, so a long body
        repeated is no cheaper than a long walk."""
        n = 0
        for s in stmts:
            n += 1
            if isinstance(s, A.If):
                n += sum(self.written(body) for _, body in s.branches) + self.written(s.orelse)
            elif isinstance(s, A.As):
                n += self.written(s.body)
            elif isinstance(s, A.ChooseOne):
                n += sum(self.written(o.body) for o in s.options)
            elif isinstance(s, A.CallProc):
                n += self.c.proc_written.get(s.name, 0)
        return n

    def count_calls(self, bodies: dict) -> None:
        """``proc_written`` for the procedures run in place (the compiler's ``inline``: in no cycle of
        calls), from their parsed bodies, each after those it calls."""
        self.c.proc_written = {}
        calls = {name: {s.name for s in A.statements_in(bodies[name]) if isinstance(s, A.CallProc)} for name in self.c.inline}
        left = set(self.c.inline)
        while left:
            ready = [name for name in left if not (calls[name] & left)]
            for name in sorted(ready):
                self.c.proc_written[name] = self.written(bodies[name])
            left -= set(ready)

    def bound(self, node: A.Node, t: Type) -> Optional[int]:
        """At most how many items the collection ``node`` (of type ``t``) holds when it runs,
        when the checker can tell: a zone holds cards of its kind only (a move the checker
        cannot type is checked when it runs), the players, a written list..."""
        if isinstance(t, Zone):
            return len(self.g.kind_cards.get(t.kind, ())) if t.kind is not None else None
        found = self.c.exprs.around.find(node)
        return found.plans.bound if found is not None else None

    def bounded(self, node: A.Node, bound: Optional[int]) -> None:
        """Note that the list ``node`` gives holds at most ``bound`` items (None: unknown)."""
        if bound is not None:
            self.c.exprs.around.plan(node, bound=bound)

    def fold(self, bound: Optional[int], inner: int = 0) -> int:
        """How a walk of at most ``bound`` items, each running ``inner`` folded steps, is
        charged. Bounded to at most FOLD_MAX steps, it is folded: its steps are added to the
        region (``folded``), charged with whatever repeats the region, and it costs nothing
        when it runs (0). Else it is charged when it starts: its items, ``1 + inner`` steps
        each (the factor returned)."""
        if bound is not None and bound * (1 + inner) <= FOLD_MAX:
            self.c.folded += bound * (1 + inner)
            return 0
        return 1 + inner

    def walk(self, unit: Unit, node: A.Node, bound: Optional[int], inner: int) -> tuple[int, Where]:
        """``fold`` for the walk ``node``, its decision kept for the generator: (factor, where)."""
        plan = self.fold(bound, inner), Where(unit.origin, node.pos)
        self.c.exprs.around.plan(node, walk=plan)
        return plan

    def by_length(self, unit: Unit, node: A.Node, bound: Optional[int]) -> None:
        """``node``'s list read or made whole by one operation: folded when it is bounded,
        else charged a step an item as it is read (``counted``; the generator writes the
        charge from the plan, ``lists``). A list already charged as it is made (its record
        ``counts``: a list made, then read whole) is charged once."""
        around = self.c.exprs.around
        found = around.find(node) if node is not around.node else None
        if found is not None and found.counts:
            return
        if self.length_plan(unit, node, bound) is not None and node is around.node:
            around.counts = True

    def length_plan(self, unit: Unit, node: A.Node, bound: Optional[int]) -> Optional[Where]:
        """``by_length``'s decision: None when folded, else where the list is charged."""
        if not self.fold(bound):
            return None
        where = Where(unit.origin, node.pos)
        self.c.exprs.around.plan(node, counted=where)
        return where

    def settle_steps(self) -> None:
        """Once every unit is compiled: the steps a run of each procedure, hook and handler
        is charged where it is called (``Code.steps``): one, its statements and the steps
        folded into it. A procedure run in place (in no cycle of calls) that folds none is
        charged nothing at its call: its statements count in wherever the call does (a
        loop's round, the caller's run; see ``written``)."""
        result = self.c.result
        for name, ci in result.proc_code.items():
            code = self.c.codes[ci]
            code.steps = 0 if name in self.c.inline and not code.cost else 1 + code.cost + code.statements
        for ci in (*result.hook_code.values(), *result.handler_code.values()):
            self.c.codes[ci].steps = 1 + self.c.codes[ci].cost + self.c.codes[ci].statements

