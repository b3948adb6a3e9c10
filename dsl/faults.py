"""Faults of running rules, told in the language's words.

A value a rule computed may be unusable where it is used: ``first(...)`` found
nothing and its ``.value`` is read, ``random`` picks from an empty list, a divisor
is zero. The generated code does not test for these on the hot path: Python raises its own
error (``meeple.dsl.types.RULE_FAULTS``) or a helper raises ``RuleFault``, and
``meeple.dsl.types.named_error`` asks this module, once, after the fact, what it was.

How: the unit that faulted is checked again with a generator that writes it *watched*
(``meeple.dsl.fault_watch``): every expression node runs through a watcher of the
generated module that keeps its last value, and a fault in a node's own operation is
told there, at its own line and column, naming the part that gave the value it could not
use. The statement the fault was located at (the generated line table, or the
instruction's span) is run again, watched, on a copy of the state and frame as they were
at the fault, so the same values flow. Each statement is its own instruction here (no
run of statements is fused): a statement that never pauses is written alone, its blocks
left out (``RunWriter.lone``); the instructions of a statement that asks a player, and of
the control flow around statements, are generated as for the game. The checker makes no
function: what runs again is generated code only.
Nothing here runs unless a rule faults; a unit is checked again at most once.

The messages name expressions as written (``first(...)`` for a call's arguments):
"`first(x in hand where x.cost > 9).value`: `first(...)` found nothing, so
`.value` of none". A fault this cannot pin to an expression is still said in words
(``in_words``), never in Python's.
"""
from __future__ import annotations

from typing import Any, Optional

from . import ast as A
from . import ir
from .calls import CallChecker
from .compiler import Compiler
from .errors import MeepleError, RuleFault, Span
from .fault_watch import FAULTS, Told, Watch
from .fault_words import MISSING, NO_PLAYER, Words, keyword_of
from .gen.runs import fusable
from .interaction import InteractionChecker
from .parser import parse
from .pygen import PyGen
from .runtime import NO_ANSWER, Frame
from .statements import StatementChecker
from .types import Code, Unit, _jump, _Scope
from .typesys import Type
from .vocabulary import CompileResult

__all__ = ["explain", "explain_expression"]

# a statement that runs other rules (a procedure, a hook, handlers): only its own
# expressions are evaluated again, never the rules it would run
_RUNS_OTHERS = (A.CallProc, A.DoHook, A.Emit)


class Seen:
    """What the watched expressions gave as they ran again. Each watched expression (a node
    written through one watcher; a node may be written more than once: a pack function's body
    at each use) is given a place when written; its value is noted there as it runs, and a
    node's value is the one last noted at any of its places (the words read it only to tell
    a fault, so looking it up may walk every place)."""

    __slots__ = ("nodes", "values")

    def __init__(self) -> None:
        self.nodes: list[A.Node] = []            # place -> the node watched there
        self.values: dict[int, Any] = {}         # place -> its last value, the last noted last

    def place(self, node: A.Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def note(self, place: int, value: Any) -> None:
        self.values.pop(place, None)
        self.values[place] = value

    def get(self, node: A.Node, default: Any) -> Any:
        """The value ``node`` last gave, or ``default`` when it gave none yet."""
        nodes, values = self.nodes, self.values
        for place in reversed(values):
            if nodes[place] is node:
                return values[place]
        return default

    def clear(self) -> None:
        self.values.clear()


def explain(game: Any, exc: BaseException, code: Code, where: Span, st: Any, fr: Any) -> Optional[tuple[str, Span]]:
    """(message, span) of a fault of ``code`` located at ``where``, in the language's
    words, or None when it cannot be told (the caller then says it plainly)."""
    try:
        watched: Any = code.faults     # None (not yet looked), False (cannot tell) or a _Watching
        if watched is None:
            watched = code.faults = _Watching.of(game.vocab, code) or False
        if not watched:
            return None
        site = watched.sites.get(where) or watched.whole
        if site is None:
            return None
        return watched.replay(site, exc, st, fr)
    except Exception:         # noqa: BLE001 - telling a fault must never hide it
        return None


def explain_expression(vocab: Any, src: Any, tree: A.Node, names: dict, nlocals: int, exc: BaseException,
                       st: Any, fr: Any) -> Optional[tuple[str, Span]]:
    """(message, span) of a fault of an expression compiled on its own (a scenario's
    expectation): ``tree`` parsed from ``src``, with ``names`` (name -> (slot, type))
    bound to the frame's locals, evaluated again, watched, on ``fr``. None when it
    cannot be told."""
    try:
        self = _Watching(vocab)
        self.texts[src.origin] = src.text
        unit = Unit(Code("expression"), src.origin, _Scope())
        unit.code.nlocals = nlocals
        unit.scope.names.update(names)
        self.whole = self.site = _Site(tree, src.origin, None, 0)
        self.expr(unit, tree)
        self.site = None
        self.nlocals = unit.code.nlocals
        self.written()
        return self.replay(self.whole, exc, st, fr)
    except Exception:         # noqa: BLE001 - telling a fault must never hide it
        return None


class _Site:
    """A statement (or a whole expression) of the unit compiled again: its node, its
    instructions' range in the watched code (the ranges of the statements nested in
    it excluded) and its top-level expressions, in the order they were compiled."""

    __slots__ = ("node", "origin", "code", "start", "end", "inner", "exprs", "usage", "alone")

    def __init__(self, node: A.Node, origin: Any, code: Optional[Code], start: int):
        self.node = node
        self.origin = origin
        self.code = code
        self.start = start
        self.end = start
        self.inner: list[tuple[int, int]] = []
        self.exprs: list[tuple[A.Node, Any, Type]] = []
        self.usage = -1          # 'play actions': the slot of the actions used this turn
        self.alone: Any = None   # a statement that never pauses: its own part, written alone

    def own(self) -> set:
        pcs = set(range(self.start, self.end))
        for a, b in self.inner:
            pcs.difference_update(range(a, b))
        return pcs


class _WatchedCalls(CallChecker):
    """Pack functions' texts kept, to name them and their parts."""

    c: "_Watching"

    def inline_function(self, unit: Unit, n: A.Call, fdef: Any):
        self.c.texts[fdef.body.origin] = fdef.body.text
        self.c.functions[fdef.body.origin] = fdef.name
        return super().inline_function(unit, n, fdef)


class _WatchedStatements(StatementChecker):
    """The item of each 'for each' named in what is told."""

    c: "_Watching"

    def s_ForEach(self, unit: Unit, s: A.ForEach):
        self.c.walking.append(s.var)
        try:
            super().s_ForEach(unit, s)
        finally:
            self.c.walking.pop()


class _WatchedInteraction(InteractionChecker):
    """The item of each 'choose' named; the slot of a 'play actions' kept."""

    c: "_Watching"

    def s_Choose(self, unit: Unit, s: A.Choose):
        self.c.walking.append(s.var)
        try:
            super().s_Choose(unit, s)
        finally:
            self.c.walking.pop()

    def s_PlayActions(self, unit: Unit, s: A.PlayActions):
        super().s_PlayActions(unit, s)
        self.c.site.usage = unit.code.nlocals - 1  # type: ignore[union-attr]  # its last slot: the actions used this turn


class _Watching(Compiler):
    """The checker again, every expression written watched (see the module's text).
    Slots are given out exactly as when the unit was first compiled (the same checks
    in the same order), so the watched code reads the frame the fault left. The ``_Watched``
    checkers keep what the words name (the items walked, a pack function's text); ``Words``
    (dsl/fault_words.py) says what went wrong."""

    Calls = _WatchedCalls
    Statements = _WatchedStatements
    Interaction = _WatchedInteraction

    def __init__(self, vocab: Any):
        super().__init__(vocab, [])
        self.result = CompileResult()           # never the game's: nothing of it changes
        self.codes = self.result.codes
        self.seen = Seen()                       # what each watched expression last gave
        self.texts: dict[Any, str] = {}          # origin -> the text it starts
        self.functions: dict[Any, str] = {}      # origin of a pack function's body -> its name
        self.sites: dict[Span, _Site] = {}
        self.whole: Optional[_Site] = None       # an expression unit: the one site
        self.site: Optional[_Site] = None
        self._depth = 0
        self.walking: list[str] = []               # the items of the walks being compiled, innermost last
        self.nlocals = 0
        self.binding: Optional[tuple] = None     # an action's 'with': (its item's slot, the items, the condition)
        self.alone_sites: list[_Site] = []       # the sites of statements written alone (``alone``)
        self.words = Words(self)                 # how a fault is told
        # every outermost expression written watched, in a module of its own (never the pack's)
        self.gen = PyGen(vocab, "fault")
        self.gen.expressions.watching = Watch(self)

    @classmethod
    def of(cls, vocab: Any, code: Code) -> Optional["_Watching"]:
        """``code`` compiled again, watched; None for a unit it cannot tell of."""
        if code.recipe is None:
            return None
        kind, src, params, me_bound = code.recipe
        self = cls(vocab)
        self.texts[src.origin] = src.text
        if kind == "binder":       # an action's 'with': its items walked, its condition tested on each
            tree = parse(src.text, src.origin, "binder_start")
            self.whole = self.site = _Site(tree, src.origin, None, 0)
            self.walking.append(tree.var)
            made, watched = self.binder(code.name, src, params)
            if made is None:
                return None
            self.binding = (made[1], made[3], made[4])
            self.site = None
            self.nlocals = watched.nlocals
            self.written()
            return self
        unit = self._new_unit(code.name, src, params, me_bound)
        if kind == "unit":
            self.block(unit, parse(src.text, src.origin, "start"))
        else:
            tree = parse(src.text, src.origin, "expr_start")
            self.whole = self.site = _Site(tree, unit.origin, None, 0)
            self.expr(unit, tree)
            self.site = None
        self.nlocals = unit.code.nlocals
        self.written()
        return self

    # ------------------------------------------------------------ compiling, watched
    def block(self, unit: Unit, stmts: tuple) -> None:
        """Each statement a site of its own: one that never pauses is written alone (``alone``),
        one that pauses (or holds one that does) is compiled into instructions as usual."""
        for s in stmts:
            code = unit.code
            site = _Site(s, unit.origin, code, len(code.instrs))
            self.sites.setdefault(self.span(unit, s.pos), site)
            if isinstance(s, A.If):      # a condition's fault is located at the condition
                for cond, _ in s.branches:
                    self.sites.setdefault(self.span(unit, cond.pos), site)
            outer, self.site = self.site, site
            try:
                if self.gen.fusing:          # inside a statement written alone: checked into its record
                    self.alone_sites.append(site)
                    self.checked(unit, s)
                elif fusable(s):
                    self.alone_sites.append(site)
                    self.alone(unit, s)
                else:
                    self.s_kinds[type(s).__name__](unit, s)
            except MeepleError:
                pass
            finally:
                self.site = outer
            site.end = len(code.instrs)
            if outer is not None:
                outer.inner.append((site.start, site.end))

    def alone(self, unit: Unit, s: A.Node) -> None:
        """A statement that never pauses, checked into its ``ir.Stmt`` (with the statements in
        it) as for a run; it and each statement in it written alone, its blocks left out
        (``RunWriter.lone``): what runs when its site is told is the statement's own part."""
        gen, code = self.gen, unit.code
        saved = code.instrs, code.spans
        code.instrs, code.spans = [], []
        gen.fusing += 1
        whole = ir.StmtBuilder(None)
        self.checking.append(whole)
        try:
            self.checked(unit, s)
        finally:
            self.checking.pop()
            gen.fusing -= 1
            code.instrs, code.spans = saved
        self.emit(unit, s.pos, _jump(self.here(unit) + 1))
        records = list(whole.stmts)
        gen.runs.lone = True
        try:
            while records:
                r = records.pop()
                records.extend(r.stmts)
                for site in self.alone_sites:
                    if site.node is r.node:
                        site.alone = gen.runs.write(unit, (r,), 0)
        finally:
            gen.runs.lone = False

    def expr(self, unit: Unit, n: A.Node) -> ir.Expr:
        """Checked as usual; an outermost expression is written by the watching generator
        (``fault_watch.Watch``), and kept with the statement it is part of."""
        self._depth += 1
        try:
            e = super().expr(unit, n)
        finally:
            self._depth -= 1
        if self._depth == 0 and self.site is not None:
            self.site.exprs.append((n, e.fn, e.type))
        return e

    # ------------------------------------------------------------ running again
    def replay(self, site: _Site, exc: BaseException, st: Any, fr: Any) -> Optional[tuple[str, Span]]:
        """Run ``site`` again, watched, on copies of ``st`` and ``fr``: (message, span)
        of the first fault it meets, or None."""
        self.seen.clear()
        copy = st.clone()
        copy.pending, copy.answer = None, NO_ANSWER
        frame = Frame(fr.code, fr.pc, fr.locals + [None] * max(0, self.nlocals - len(fr.locals)), fr.me, fr.this)
        try:
            if self.binding is not None:
                slot, source, cond = self.binding
                for x in source(copy, frame):
                    frame.locals[slot] = x
                    if cond is not None:
                        cond(copy, frame)
            elif site.alone is not None:
                site.alone(copy, frame)
            elif site.code is None or isinstance(site.node, _RUNS_OTHERS):
                for _, fn, _ in site.exprs:
                    fn(copy, frame)
            elif isinstance(site.node, A.PlayActions):
                told = self.menu_told(site, copy, frame)
                if told is not None:
                    return told
                _run_own(site, copy, frame)      # the decision it poses (a current player?)
            else:
                _run_own(site, copy, frame)
        except Told as told:
            return told.message, told.span
        except FAULTS as own:
            return self.statement_told(site, own, copy, frame)
        except MeepleError:
            return None
        return None

    @staticmethod
    def menu_told(site: _Site, st: Any, fr: Any) -> Optional[tuple[str, Span]]:
        """'play actions': its end test, watched, then the group's menu listed by the
        engine's reference listing (``action_options``), which tells a fault of an
        action's 'when' or 'with' itself (it asks ``explain`` of that expression)."""
        for _, fn, _ in site.exprs:
            if fn(st, fr):
                return None
        try:
            st.game.action_options(st, fr, site.node.group, fr.locals[site.usage])  # type: ignore[attr-defined]  # a PlayActions site
        except MeepleError as err:
            return err.message, err.span
        return None

    def statement_told(self, site: _Site, exc: BaseException, st: Any, fr: Any) -> Optional[tuple[str, Span]]:
        """A statement's own use of a value failed: the first of its expressions that
        gave none (or a list holding none), or a missing current player."""
        s = site.node
        for n, _, t in site.exprs:
            v = self.seen.get(n, MISSING)
            if v is None:
                return (f"{self.words.none_phrase(n, site.origin, st, whole=True)}, but `{keyword_of(s)}` needs {t.describe()}",
                        self.words.span_of(n, site.origin))
            if isinstance(v, list) and None in v:
                return (f"`{self.words.text_of(n, site.origin)}` holds none, but `{keyword_of(s)}` needs cards",
                        self.words.span_of(n, site.origin))
        text, span = self.words.text_of(s, site.origin), self.words.span_of(s, site.origin)
        if isinstance(exc, RuleFault):          # a bound of what the statement keeps (a resource too large)
            return f"`{text}`: {exc.message}", span
        if fr.me is None or not 0 <= fr.me < st.players:
            return f"`{text}`: {NO_PLAYER}", span
        return None


def _run_own(site: _Site, st: Any, fr: Any) -> None:
    """The statement's own instructions (a loop's head, an 'if''s tests), not the
    statements nested in it; a bounded number of them (a 'while' with an empty body)."""
    own, instrs = site.own(), site.code.instrs  # type: ignore[union-attr]  # a site of a statement has its code
    pc = site.start
    for _ in range(1000):
        if pc not in own:
            return
        pc = instrs[pc](st, fr)
        if pc < 0:
            return
