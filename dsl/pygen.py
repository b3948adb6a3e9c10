"""Generating Python source for checked rules: the fast back end.

The checker (``ExpressionCompiler``) walks every expression once, reports
errors and gives each node its type; with a ``PyGen`` attached it also hands
every *top-level* expression (a condition, an amount, a choice's source ...)
to this module, which writes it as one Python function; every run of
statements that never pauses (``statements``: native if/for/while, a loop
budget, a line table back to the YAML); and one menu per action group
(``menu``). All of a pack goes into one module, compiled with a single
``compile()``.

Why source and not closures: a closure tree pays a Python call per node per
evaluation; a comprehension's condition ``c.cost <= coins and not any(...)``
was a dozen calls per item. Generated, it is one loop with inline tests.

Safety: nothing of a pack's text is ever spliced into the source. Names in
the source are made here (``_e12``, ``_v3``, ``_k7``); every value a pack
supplies (texts, enum values, tables, closures) is bound to a made name in the
module's namespace; integers enter as ``repr(int)``. The namespace has no
builtins but the few listed in ``_BUILTINS``. The one place a pack's words
appear is a comment (a file or rule name), one line with anything that
could end it escaped (``comment``).

Readable: the module is meant to be read (``meeple compile PACK``). Each function
comes after a comment naming the rule it was written from and its YAML file and
line; a function reads the frame's locals (``L = fr.locals``), and a walk takes
the values it is passed, only where they are used; a function whose every run is
written into another (an expression inside a run of statements, a branch's test)
is left out; and the lines are registered with ``linecache`` under the pack's name
(``generated_file``), so a traceback through them shows them.

Compatibility: a generated function takes ``(state, frame)`` like a closure,
reads and writes the same frame locals (including the comprehension caches of
``dsl/hoist.py``), and raises the same errors, so the instruction layout,
saved games and logs are the same with either back end. A node this module
does not know how to write is evaluated by its closure instead (only where it
reads no variable that exists only in generated code).
"""
from __future__ import annotations

import linecache
import re
import types as _pytypes
from dataclasses import dataclass, field
from keyword import iskeyword
from typing import Any, Callable, Optional, Sequence

from . import ast as A
from .hoist import free_names, invariant_parts
from .parser import to_span
from .primitives import PRIMITIVES
from .errors import MeepleError, Refusal, RuleError
from .interaction import ACTION_KIND, ACTION_PROMPT, CHOOSE_KIND, no_such_chooser
from .runtime import NO_ANSWER, Decision, Frame
from .steps import Where, counted, counted_branch, out_of_steps
from .types import (MAX_NUMBER, RULE_FAULTS, SKIP, STOP, SUSPEND, UNSET, Fn, Unit, _branch, _me, _move,
                    card_zone_of, divide, join, named_error, number_range, order_key, overflow, own_zone,
                    remainder, uses, zone_to_write)
from .typesys import BOOL, INT, AnyT, Card, List, Type, Zone, card_kind

__all__ = ["PyGen", "fusable", "generated_file"]

# statements that may pause (ask a player) or run other code (a new frame): they end a run
_PAUSING = (A.Choose, A.ChooseOne, A.CallProc, A.DoHook, A.Emit, A.PlayActions)

# Every kind of node of dsl/ast.py is written here by a method named for it ('g_' for an
# expression, 'w_' for a statement of a run) or is one of these, with what runs it instead.
# tests/test_node_kinds.py fails on a kind of node that is neither (a new node must be
# written here or say why not), and on a name here that is no kind of node.
WRITTEN_ELSEWHERE = {
    "Comprehension": "written by the call that walks it (count, any, first, ...: ``aggregate``)",
    "Amount": "written by its statement (``w_Counter``)",
    "Option": "a branch of its 'choose one', which runs as closures",
    "Draw": "its closure, called from the generated run of statements",
    "Swap": "its closure, called from the generated run of statements",
    "Roll": "its closure, called from the generated run of statements",
    "Choose": "an instruction that asks a player (``choose``; with a where-clause or 'up to', the closures')",
    "ChooseOne": "the closures' instructions (it asks a player)",
    "DoHook": "the closures' instruction (it runs a card's hook, a unit of its own)",
    "Emit": "the closures' instruction (it runs the handlers of an event, units of their own)",
    "PlayActions": "an instruction that asks a player (``play_actions``) and the group's menu (``menu``)",
}


def fusable(s: A.Node, inline: Any = ()) -> bool:
    """Whether a statement runs to its end without pausing, so that it can be
    written as plain Python together with its neighbours. ``inline``: the
    procedures a call may run in place (``inline_procedures``)."""
    if isinstance(s, _PAUSING):
        return isinstance(s, A.CallProc) and s.name in inline
    if isinstance(s, A.If):
        return all(fusable(b, inline) for _, body in s.branches for b in body) and all(fusable(b, inline) for b in s.orelse)
    if isinstance(s, (A.ForEach, A.Repeat, A.While, A.As)):
        return all(fusable(b, inline) for b in s.body)
    return True


# A procedure is run in place only when the calls below it are at most this deep:
# generated calls are Python calls, and a deep chain must not reach Python's own limit.
INLINE_DEPTH = 16


def _walk_statements(stmts: tuple):
    for s in stmts:
        yield s
        if isinstance(s, A.If):
            for _, body in s.branches:
                yield from _walk_statements(body)
            yield from _walk_statements(s.orelse)
        elif isinstance(s, (A.ForEach, A.Repeat, A.While, A.As)):
            yield from _walk_statements(s.body)
        elif isinstance(s, A.ChooseOne):
            for o in s.options:
                yield from _walk_statements(o.body)


def inline_procedures(bodies: dict) -> dict:
    """The procedures that never pause, even through the procedures they call, and
    are in no cycle of calls: a call to one is written as a plain Python call
    inside its caller's generated run (no instruction of its own, no trip through
    the run loop). ``bodies``: name -> parsed statements (None if it did not
    parse). Returns name -> True when its body does nothing at all (a call to it
    is dropped, its arguments still evaluated), else False."""
    calls: dict = {}
    for name, body in bodies.items():
        if body is None:
            continue
        names = set()
        for s in _walk_statements(body):
            if isinstance(s, A.CallProc):
                names.add(s.name)
            elif isinstance(s, _PAUSING):
                break
        else:
            calls[name] = names
    height: dict = {}
    changed = True
    while changed:                      # from the leaves up: every callee settled first
        changed = False
        for name, callees in calls.items():
            if name in height or not all(c in height for c in callees):
                continue
            h = 1 + max((height[c] for c in callees), default=0)
            if h <= INLINE_DEPTH:
                height[name] = h
                changed = True
    return {name: all(isinstance(s, A.Stop) for s in bodies[name]) for name in height}


def charge_lines(n: str, where: str) -> list[str]:
    """Lines taking ``n`` steps (source) from the state's budget, stopping the rules at
    ``where`` (a made name bound to a ``Where``) past it: ``meeple.dsl.types.charge`` written out."""
    return [f"if (_b := st.budget - {n}) < 0:",
            f"    raise _spent({where})",
            "st.budget = _b"]


def _negative(verb: str, n: int, name: str) -> RuleError:
    return RuleError(f"cannot {verb} a negative amount ({n} {name})")


def _interpret(instrs: list, nxt: int) -> Fn:
    """A run of checked statements as their closures, for when its generated
    source cannot be compiled (Python's own limits)."""
    n = len(instrs)

    def run(st, fr):
        pc = 0                  # the loops among them charge the step budget themselves
        while pc < n:
            pc = instrs[pc](st, fr)
            if pc < 0:
                return pc
        return nxt
    return run

def generated_file(pack: str) -> str:
    """The file name a pack's generated module is compiled under, and registered with
    ``linecache`` by (as Jinja registers its templates), so tracebacks (``meeple --debug``,
    the ``traceback`` module) show the generated lines. In angle brackets: no file of
    that name is ever looked for. A pack compiled again replaces its lines."""
    return f"<meeple:{pack} rules>"


def comment(text: str) -> str:
    """A comment line of the generated source. Its text comes from the pack (file and
    rule names), so whatever could end the line or trouble the compiler (a newline,
    a NUL, anything that does not print) is written as its escape: a comment stays
    one comment line, however its names are spelled."""
    return "# " + "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def headline(rule: str, span: Any) -> str:
    """A function's comment: the rule it was written from and where that is in the pack."""
    return comment(f"{span.file}:{span.line}: {rule}" if span is not None else rule)


@dataclass
class _Part:
    """One function of the generated module: its comment line (where in the pack it comes
    from), its source, and the spans of the statements its lines run (line within it, span)."""

    head: str
    text: str
    spans: list = field(default_factory=list)
    dead: bool = False      # written into others wherever it runs: left out of the module
    line: int = 0           # the module line of its comment, once ``finish`` places it


# A word of generated source naming the frame's locals (``L = fr.locals`` is written only then)
_READS_L = re.compile(r"\bL\b")


_STEPS_TEST = re.compile(r"( *)if (_n\d+):$")


def _settle_steps(text: str, spans: list, steps: dict[str, int]) -> tuple[str, list]:
    """A function's source with its procedures' steps (``PyGen.step_names``) written in as
    numbers, known once every unit is compiled: a call's charge ``if _n3:`` (its lines below
    it) loses its test when the procedure has steps and goes when it has none. Returns the
    source and its spans (line within it, span), renumbered."""
    lines = text.split("\n")
    out: list[str] = []
    moved: dict[int, int] = {}        # line before -> line after (a line left out has none)
    i = 0
    while i < len(lines):
        found = _STEPS_TEST.match(lines[i])
        if found is None:
            moved[i] = len(out)
            out.append(lines[i])
            i += 1
            continue
        pad, n = found.group(1), steps[found.group(2)]
        i += 1
        while i < len(lines) and lines[i].startswith(pad + "    "):
            if n:
                moved[i] = len(out)
                out.append(re.sub(r"\b_n\d+\b", str(n), lines[i][4:]))
            i += 1
    return "\n".join(out), [(moved[at], span) for at, span in spans if at in moved]


def _via(st, fr, _closure=None):    # pragma: no cover - only a module that failed to compile runs these
    """What a generated function left out of the module becomes (its every run is written
    into another function): a call of its closure. Only the closures standing in for the
    function it is written into hold it, and they run only when the module cannot be compiled."""
    return _closure(st, fr)


def _placeholder(st, fr):  # pragma: no cover - replaced before any game runs
    raise RuntimeError("generated rules used before the module was compiled")


def _unreached(*args: Any) -> Any:  # pragma: no cover - only generated runs call these, and they gave way too
    raise RuntimeError("a generated procedure call ran after its rules fell back to closures")


_ME_ATTR = re.compile(r"(?<![\w.])fr\.me\b")


def _engine_menu(group: str) -> Callable:
    """A group's listing by the engine (``Game.action_options``): what runs where no
    generated menu does."""
    return lambda st, fr, used: st.game.action_options(st, fr, group, used)


# the start of a generated question: an answer, if there is one, is taken (once)
_ANSWERED = ["ans = st.answer",
             "if ans is not _NO_ANSWER:",
             "    st.answer = _NO_ANSWER"]


def _current_chooser(name: str) -> list[str]:
    """Lines putting the frame's player in ``name``, refused as the closures refuse it
    (no current player, or not one of this game's)."""
    return [f"{name} = fr.me",
            f"if {name} is None or not 0 <= {name} < st.players:",
            "    raise _no_chooser(st, _me(st, fr))"]


def _then(action: Fn, nxt: int) -> Fn:
    def run(st, fr):
        action(st, fr)
        return nxt
    return run


def _cache(loc: list, slot: int, value: Any) -> Any:
    loc[slot] = value
    return value


_BUILTINS = {"len": len, "map": map, "list": list, "int": int, "str": str, "abs": abs, "range": range, "min": min, "max": max, "sum": sum, "bool": bool,
             "True": True, "False": False, "None": None}

_RUNTIME = {"_U": UNSET, "_me": _me, "_cache": _cache, "_div": divide, "_mod": remainder, "_range": number_range,
            "_move": _move, "_own": own_zone, "_wz": zone_to_write, "_spent": out_of_steps, "_negative": _negative, "_Refusal": Refusal, "_uses": uses,
            "_join": join, "_counted": counted, "_big": overflow, "_ME": MeepleError, "_RF": RULE_FAULTS,
            "_named": named_error, "_NO_ANSWER": NO_ANSWER, "_Decision": Decision, "_no_chooser": no_such_chooser}


# A chain of arithmetic longer than this is written without a bracket per operator.
_NESTED_CHAIN = 16


class _Unsupported(Exception):
    """A node this back end does not write; its closure is used instead."""


class _Ctx:
    """Where a piece of source is being written: the code unit (its frame locals),
    the variables that live only in generated code, and the caches in force."""

    __slots__ = ("unit", "py", "hoist", "pyhoist", "me_bound", "cse")

    def __init__(self, unit: Optional[Unit], py: dict, hoist: Optional[dict], pyhoist: dict, me_bound: bool):
        self.unit = unit
        self.py = py              # DSL name -> (python name, type), innermost wins
        self.hoist = hoist        # the unit's comprehension caches (frame slots), by node id
        self.pyhoist = pyhoist    # this region's caches held in python locals, by node id
        self.me_bound = me_bound
        self.cse: Optional[dict] = None           # source text -> python local, for repeated calls in one region


class _Writer:
    """Lines of a generated run of statements, each with the span of its rule."""

    def __init__(self, comp: Any, unit: Unit):
        self.comp = comp
        self.unit = unit
        self.lines: list[tuple[int, str, Any]] = []
        self.fallback: Any = None

    def line(self, depth: int, text: str, span: Any) -> None:
        self.lines.append((depth, text, span))

    def span(self, s: A.Node) -> Any:
        return self.comp.span(self.unit, s.pos)


class PyGen:
    """Collects the generated functions of one pack and compiles them once."""

    def __init__(self, game: Any, pack: str = "pack"):
        self.g = game
        self.filename = generated_file(pack)
        self.ns: dict[str, Any] = {"__builtins__": dict(_BUILTINS), **_RUNTIME}
        self.parts: list[_Part] = []            # the module's functions, in order
        self.placeholders: list[tuple[str, Any, Optional[Fn], "_Part"]] = []
        self.types: dict[int, Type] = {}    # node id -> type, filled by the checker
        self.depth = 0
        self.comp: Any = None
        self._names = 0
        self._const_ids: dict[int, str] = {}
        self._keep: list = []                # keeps bound objects alive (ids stay unique)
        self.fallbacks = 0
        self.dry = False                      # counting calls for sharing: nested comprehensions are skipped
        self.present: set[str] = set()        # made locals that hold a card for sure (walks over cards)
        self.line_spans: dict[int, Any] = {}  # line of the module -> span of the rule it runs
        self.source = ""                      # the module, once ``finish`` compiled it
        self.rule = ""                        # the rule being written (a unit's name), for comments
        self.within: list[tuple[str, Any]] = []   # pack functions being expanded: (name, origin of their text)
        self.where_of: dict[Any, str] = {}    # generated function -> its comment (instructions inlining it reuse it)
        self.inlined: set = set()             # generated functions written into a run of statements
        # while a run of statements is checked (``fusing``): what the writer needs of it
        self.fusing = 0
        self.current: Any = None
        self.info: dict[int, Any] = {}
        self.actions: dict[int, Fn] = {}
        self.last_src: dict[int, tuple] = {}
        self.src_of: dict[Any, tuple] = {}    # generated function -> (setup lines, expression), to inline it
        self.binder_meta: Any = None
        self.late_tables: list = []           # (made name, {card def: [helper names]}) bound after compiling
        self.why: list[str] = []            # why each fallback happened (for tests and tuning)
        self.generated = 0
        self.callers: dict[str, str] = {}      # procedure run in place -> made name of the function calling it
        self.inline_procs: dict[str, bool] = {}    # the procedures run in place (``inline_procedures``)
        self.menu_names: dict[str, str] = {}       # action group -> the made name its menu is called by
        self.step_names: dict[str, str] = {}       # procedure run in place -> the made name of its steps (see ``finish``)

    # ------------------------------------------------------------ names
    def fresh(self, prefix: str) -> str:
        self._names += 1
        return f"_{prefix}{self._names}"

    def const(self, value: Any) -> str:
        """A made name bound to ``value`` in the module (never its text)."""
        if type(value) is int and -10**18 < value < 10**18:      # a huge one is bound like any other value
            return repr(value) if value >= 0 else f"({value!r})"
        if value is None or value is True or value is False:
            return repr(value)
        key = id(value)
        name = self._const_ids.get(key)
        if name is None:
            name = self.fresh("k")
            self._const_ids[key] = name
            self._keep.append(value)
            self.ns[name] = value
        return name

    # ------------------------------------------------------------ entry
    def top(self, comp: Any, unit: Unit, node: A.Node, t: str, closure: Fn) -> Fn:
        """Generate ``node`` as a function of (state, frame); returns a function
        object that becomes the generated one when ``finish`` compiles the module."""
        self.comp = comp
        self.rule = unit.code.name
        mark = len(self.parts)
        try:
            ctx = _Ctx(unit, {}, unit.hoist, {}, unit.me_bound)
            body = self.region(ctx, [node], lambda: self.gen(ctx, node))
        except (_Unsupported, RecursionError) as exc:
            del self.parts[mark:]         # its walks' helpers, written meanwhile
            self.fallbacks += 1
            self.why.append(f"{type(exc).__name__}: {exc}")
            if self.fusing:
                self.last_src[id(node)] = ((), f"{self.const(closure)}(st, fr)", None)
            return closure
        finally:
            self.types.clear()
        name = self.fresh("e")
        head = headline(self.rule, comp.span(unit, node.pos))
        fn = self.define(name, self.function_source(name, [*body[0], f"return {body[1]}"]), closure, head=head)
        if self.fusing:
            self.last_src[id(node)] = tuple(body[0]), body[1], fn
        self.src_of[fn] = tuple(body[0]), body[1]
        self.where_of[fn] = head
        return fn

    @staticmethod
    def function_source(name: str, body: list[str]) -> str:
        """A generated function of (state, frame) whose ``body`` lines (unindented) may read
        the frame's locals as ``L``: ``L = fr.locals`` is written first only when they do."""
        lines = [f"def {name}(st, fr):"]
        if any(_READS_L.search(line) for line in body):
            lines.append("    L = fr.locals")
        return "\n".join(lines + ["    " + line for line in body])

    def define(self, name: str, source: str, fallback: Optional[Fn], spans: Sequence = (), head: str = "") -> Fn:
        """Queue a generated function's source (``finish`` compiles the module) and
        give the function object that becomes it then: callers bind it now.
        ``fallback`` runs in its place if the module cannot be compiled; ``spans``
        map its lines to the statements they were written from; ``head`` is its
        comment (where in the pack it comes from; by default, the rule being written)."""
        part = _Part(head or comment(self.rule), source, list(spans))
        self.parts.append(part)
        fn = _pytypes.FunctionType(_placeholder.__code__, self.ns, name)
        self.placeholders.append((name, fn, fallback, part))
        self.generated += 1
        return fn

    def instruction(self, prefix: str, body: list, last: str, fallback: Fn, head: str = "") -> Fn:
        """A generated instruction of (state, frame): ``body`` (with ``L``, the frame's
        locals) then ``last`` (the return of where to go); ``head``: its comment."""
        name = self.fresh(prefix)
        return self.define(name, self.function_source(name, [*body, last]), fallback, head=head)

    def branch(self, cond: Fn, yes: int, no: int, counted: Optional[tuple] = None) -> Optional[Fn]:
        """A branch instruction (see ``Compiler.branch``) with a generated condition's
        source written in it, or None when the condition is not generated. ``counted``:
        the head of a loop, which charges (steps, where) each test."""
        found = self.src_of.get(cond)
        if found is None:
            return None
        self.inlined.add(cond)        # only the closure standing in for this instruction holds it
        head = self.where_of.get(cond, "")
        if counted is None:
            return self.instruction("b", list(found[0]), f"return {yes} if ({found[1]}) else {no}", _branch(cond, yes, no), head)
        return self.instruction("b", charge_lines(str(counted[0]), self.const(counted[1])) + list(found[0]),
                                f"return {yes} if ({found[1]}) else {no}", counted_branch(cond, yes, no, counted), head)

    def op(self, body: list, action: Fn, head: str = "") -> Callable[[int], Fn]:
        """``make(next)`` for ``Compiler.emit``: an instruction running the generated
        lines ``body`` (with ``L``, the frame's locals) then going to the next one;
        ``action(st, fr)`` is what runs instead if the module cannot be compiled;
        ``head``: its comment."""
        return lambda nxt: self.instruction("s", body, f"return {nxt}", _then(action, nxt), head)

    def play_actions(self, until: Fn, usage: int, group: str, resume: Callable, nxt: int,
                     asking: Fn) -> Optional[Fn]:
        """The instruction of 'play actions GROUP until COND', generated: the answer
        taken by the compiler's ``resume``, then the end test written in, the group's
        generated menu called by name and the decision posed, in one function
        (``pausing``'s op, its offer, the test's and the chooser's calls, as one).
        None when the end test is not generated. ``asking`` (the compiler's
        instruction) runs instead if the module cannot be compiled."""
        found = self.src_of.get(until)
        if found is None:
            return None
        self.inlined.add(until)       # only the closure standing in for this instruction holds it
        menu = self.menu_names.get(group)
        if menu is None:
            menu = self.menu_names[group] = self.fresh("k")     # bound to the group's menu by ``menu``
        lines = [*_ANSWERED,
                 f"    to = {self.const(resume)}(st, fr, ans)",
                 "    if to is not None:",
                 "        return to",
                 *found[0],
                 f"if {found[1]}:",
                 f"    return {nxt}",
                 f"used = L[{usage}]",
                 f"opts, texts = {menu}(st, fr, used)",
                 "if not opts:",
                 f"    return {nxt}",
                 *_current_chooser("me"),
                 f"st.pending = _Decision(me, {self.const(ACTION_PROMPT)}, None, {self.const(ACTION_KIND)}, used, opts, "
                 "st.game.action_describer, texts)"]
        return self.instruction("pa", lines, f"return {SUSPEND}", asking, self.where_of.get(until, ""))

    def choose(self, source: Fn, zone: bool, who: Optional[Fn], slot: int, optional: bool, decision: Optional[Callable],
               describer: Any, prompt: str, nxt: int, asking: Fn) -> Optional[Fn]:
        """The instruction of 'choose X from SOURCE [by PLAYER]' (one pick, no where-clause),
        generated: the answer taken, else the options (a zone or list copied once), the
        chooser and the decision written in one function. ``decision(st, who, prompt,
        values, kind)`` makes the decision when its labels read the state (else it is
        made in place); ``who`` is None for the current player. None when the source or
        the chooser is not generated; ``asking`` runs instead if the module cannot be compiled."""
        found = self.src_of.get(source)
        chooser = self.src_of.get(who) if who is not None else None
        if found is None or (who is not None and chooser is None):
            return None
        self.inlined.update((source, who) if who is not None else (source,))     # held by ``asking`` only
        skip = self.const(SKIP)
        lines = [*_ANSWERED,
                 f"    if ans == {skip}:",            # 'may choose' declined: the effect ends
                 f"        return {STOP}",
                 f"    L[{slot}] = ans",
                 f"    return {nxt}",
                 *found[0],
                 f"opts = st.zones[{found[1]}][:]" if zone else f"opts = list({found[1]})",
                 "if not opts:"]           # nothing to choose: 'may' ends the effect, a plain choose goes on with none
        lines += [f"    return {STOP}"] if optional else [f"    L[{slot}] = None", f"    return {nxt}"]
        if optional:
            lines.append(f"opts.append({skip})")
        if chooser is not None:
            lines += [*chooser[0], f"who = {chooser[1]}",
                      "if who.__class__ is not int or not 0 <= who < st.players:",
                      "    raise _no_chooser(st, who)"]
        else:
            lines += _current_chooser("who")
        kind = self.const(CHOOSE_KIND)
        if decision is not None:
            lines.append(f"st.pending = {self.const(decision)}(st, who, {self.const(prompt)}, opts, {kind})")
        else:
            lines.append(f"st.pending = _Decision(who, {self.const(prompt)}, None, {kind}, None, opts, "
                         f"{self.const(describer)}, None)")
        return self.instruction("q", lines, f"return {SUSPEND}", asking, self.where_of.get(source, ""))

    def walk_init(self, source: Fn, zone: bool, cond: Optional[Fn], order: Optional[Fn], var: int, items: int,
                  idx: int, closure: Fn, plan: tuple, where: Where) -> Optional[Callable[[int], Fn]]:
        """The first instruction of a 'for each' whose body pauses (so it walks by
        instructions), generated: its items, kept by its condition and sorted by its
        order (a stable sort, none last), into the frame's locals as the closure
        puts them, with the source, condition and order written in it (no call per
        item), each walk charged as the closure charges it (``plan``: the factors of
        the filter, the sort and the rounds; 0 for one folded). Returns ``make(next)``
        for ``Compiler.emit``, or None when a part is not generated. ``closure(st, fr)``
        is the compiler's start, which runs instead if the module cannot be compiled."""
        found = self.src_of.get(source)
        test = self.src_of.get(cond) if cond is not None else None
        key = self.src_of.get(order) if order is not None else None
        if found is None or (cond is not None and test is None) or (order is not None and key is None):
            return None
        # the source and the test are held by ``closure`` only (the order also re-sorts the walk's
        # items when hidden cards are dealt again: ``Code.ordered_walks``)
        self.inlined.update((source, cond) if cond is not None else (source,))

        at = self.const(where)

        def make(nxt: int) -> Fn:
            lines = list(found[0])
            if test is None and key is None:   # a zone is copied (the walk outlives changes to it); a list is kept as given
                lines.append(f"L[{items}] = st.zones[{found[1]}][:]" if zone else f"L[{items}] = {found[1]}")
            else:                 # only read while the kept ones are picked: no copy
                seq = f"st.zones[{found[1]}]" if zone else found[1]
                v, kept, walked = self.fresh("v"), self.fresh("x"), self.fresh("x")
                lines.append(f"{walked} = {seq}")
                if test is not None:          # as the closure does: every test, then every key (each charged first)
                    lines += self.charged(f"len({walked})", plan[0], at)
                    lines += [f"{kept} = []", f"for {v} in {walked}:", f"    L[{var}] = {v}"]
                    lines += ["    " + line for line in test[0]]
                    lines += [f"    if {test[1]}:", f"        {kept}.append({v})"]
                    walked = kept
                if key is not None:
                    keyed, t = self.fresh("x"), self.fresh("t")
                    lines += self.charged(f"len({walked})", plan[1], at)
                    lines += [f"{keyed} = []", f"for {v} in {walked}:", f"    L[{var}] = {v}"]
                    lines += ["    " + line for line in key[0]]
                    lines += [f"    {keyed}.append(({key[1]}, len({keyed}), {v}))",
                              f"{keyed}.sort(key={self.const(order_key)})"]
                    walked = f"[{t}[2] for {t} in {keyed}]"
                lines.append(f"L[{items}] = {walked}")
            lines += self.charged(f"len(L[{items}])", plan[2], at)      # and the rounds
            lines.append(f"L[{idx}] = 0")
            return self.instruction("w", lines, f"return {nxt}", _then(closure, nxt), self.where_of.get(source, ""))
        return make

    def charged(self, n: str, factor: int, where: str) -> list[str]:
        """``charge_lines`` for ``n`` items charged ``factor`` steps each (none when 0: folded)."""
        if not factor:
            return []
        return charge_lines(n if factor == 1 else f"{n} * {factor}", where)

    def finish(self) -> None:
        """Compile every generated function at once, put each in its place, and register
        the module's lines with ``linecache`` under ``self.filename``."""
        self.write_callers()
        for group, made in self.menu_names.items():      # a group given no generated menu lists by the engine
            self.ns.setdefault(made, _engine_menu(group))
        live = []
        for name, fn, closure, part in self.placeholders:
            if fn in self.inlined:
                # written into the run of statements that runs it: only that run's closures (its
                # stand-in if the module cannot be compiled) hold it, and they may run its closure
                part.dead = True
                fn.__code__, fn.__defaults__ = _via.__code__, (closure,)
            else:
                live.append((name, fn, closure, part))
        self.placeholders = live
        parts = [part for part in self.parts if not part.dead]
        self.parts = []
        if not parts:
            return
        if self.step_names:        # each procedure's steps, known now (``Compiler.settle_steps``), as a number
            codes, procs = self.g.result.codes, self.g.result.proc_code
            steps = {made: codes[procs[name]].steps for name, made in self.step_names.items()}
            for part in parts:
                if "_n" in part.text:
                    part.text, part.spans = _settle_steps(part.text, part.spans, steps)
        chunks, line = [], 1
        for part in parts:         # each function after its comment, one blank line between
            part.line = line
            for at, span in part.spans:
                self.line_spans[line + 1 + at] = span
            chunks.append(f"{part.head}\n{part.text}")
            line += part.text.count("\n") + 3
        source = "\n\n".join(chunks) + "\n"
        try:
            exec(compile(source, self.filename, "exec"), self.ns)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            # Python's own limits (nesting, size): compile function by function, each at its
            # line of the module. Generated functions call helpers written as other functions
            # (a statement run calls the walks of the expressions it inlines), so if any does
            # not compile, every generated function gives way to its closure: the closures are
            # the reference back end, and no generated code is left to call a helper that is missing.
            failed = False
            for part in parts:
                try:
                    exec(compile("\n" * part.line + part.text, self.filename, "exec"), self.ns)
                except (SyntaxError, RecursionError, MemoryError, ValueError):
                    failed = True
            if failed:
                self.line_spans = {}
                for name, fn, closure, _ in self.placeholders:
                    k = self.const(closure if closure is not None else _unreached)
                    exec(compile(f"def {name}(*a):\n    return {k}(*a)\n", "<meeple stand-in>", "exec"), self.ns)
                    self.fallbacks += 1
                self.late_tables = []
                self.why.append("a generated group did not compile: every rule runs as its closure")
        for tname, (table, defs) in self.late_tables:      # per card: its definition's helpers, or None
            fns = {d: tuple(self.ns[h] for h in hs) for d, hs in table.items()}
            self.ns[tname] = [fns.get(d) for d in defs]
        for name, fn, _, _ in self.placeholders:
            fn.__code__ = self.ns[name].__code__
        linecache.cache[self.filename] = (len(source), None, source.splitlines(True), self.filename)
        self.source = source
        self.placeholders = []

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
            run = self.const(code.direct if code.direct is not None else _interpret(code.instrs, STOP))
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
            part = _Part(headline(f"procedure {name}, run in place", code.recipe[1].span if code.recipe else None), "\n".join(lines))
            self.parts.append(part)
            self.placeholders.append((made, _pytypes.FunctionType(_placeholder.__code__, self.ns, made), None, part))

    def locate(self, tb: Any) -> Any:
        """The span of the innermost generated statement in a traceback, or None."""
        found = None
        spans = self.line_spans
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == self.filename:
                span = spans.get(tb.tb_lineno)
                if span is not None:
                    found = span
            tb = tb.tb_next
        return found

    # ------------------------------------------------------------ statements
    def forget(self) -> None:
        self.info.clear()
        self.actions.clear()
        self.last_src.clear()

    def statements(self, comp: Any, unit: Unit, run: tuple, nxt: int, scratch: list) -> Fn:
        """Write a checked run of statements as one instruction (a function of
        (state, frame) returning the next instruction, or STOP)."""
        self.comp = comp
        self.rule = unit.code.name
        w = _Writer(comp, unit)
        w.fallback = _interpret(scratch, nxt)
        try:
            for s in run:
                self.stmt(w, s, 1)
        finally:
            self.forget()
        name = self.fresh("i")
        body = ["    " * (depth - 1) + text for depth, text, _ in w.lines] + [f"return {nxt}"]
        source = self.function_source(name, body)
        first = source.count("\n") + 1 - len(body)     # the line of its first statement (after 'L = fr.locals', if any)
        spans = [(first + k, span) for k, (_, _, span) in enumerate(w.lines)]
        return self.define(name, source, w.fallback, spans, headline(self.rule, w.span(run[0])))

    def expr_src(self, w: "_Writer", node: A.Node, depth: int, span: Any) -> str:
        """An expression of a statement being written, with its setup lines: written into
        the run, so its own generated function is left out of the module (``finish``)."""
        setup, src, fn = self.last_src[id(node)]
        if fn is not None:
            self.inlined.add(fn)
        for line in setup:
            w.line(depth, line, span)
        return src

    def stmt(self, w: "_Writer", s: A.Node, depth: int) -> None:
        span = w.span(s)
        method = getattr(self, "w_" + type(s).__name__, None)
        if method is None or not method(w, s, depth, span):
            action = self.actions[id(s)]
            w.line(depth, f"{self.const(action)}(st, fr)", span)

    def body(self, w: "_Writer", stmts: tuple, depth: int, span: Any) -> None:
        if not stmts:
            w.line(depth, "pass", span)
        for b in stmts:
            self.stmt(w, b, depth)

    def charge(self, w: "_Writer", depth: int, n: str, factor: int, where: Where, span: Any) -> None:
        """Lines charging ``n`` items (source) ``factor`` steps each, as the checker decided
        for the statement at ``where`` (nothing when 0: its steps are folded)."""
        for line in self.charged(n, factor, self.const(where)):
            w.line(depth, line, span)

    def me_src(self) -> str:
        m = self.fresh("t")
        return f"({m} if ({m} := fr.me) is not None and {m} >= 0 else _me(st, fr))"

    # ------------------------------------------------------------ action menus
    def menu(self, group: str, rule_actions: list, granted: dict, live_slots: list, defs: list,
             nlocals: int, ncards: int, frame: type) -> Fn:
        """One function listing a group's legal actions for the frame's player:
        rule actions, then actions granted by cards in the player's live zones,
        each with its per-turn limit, its 'when' and its parameter walked inline.
        Options are [key, label, [action, card, value]] as the closures make them."""
        name = self.fresh("g")
        every = list(rule_actions) + [a for acts in granted.values() for a in acts]
        texts = any(a.binder is not None and a.shown for a in every)
        scratch = frame(-1, 0, [None] * nlocals, -1, -1)     # one per menu: menus never run inside each other
        lines = [f"def {name}(st, fr, used):",
                 "    me, this = fr.me, fr.this",
                 f"    fr = {self.const(scratch)}",
                 "    fr.me, fr.this = me, this",
                 "    L = fr.locals",
                 "    out = []",
                 f"    tx = {'[]' if texts else 'None'}"]
        header = len(lines)
        for a in rule_actions:
            self.menu_action(lines, 1, a, "None", ncards, texts)
        helpers = []
        if granted:
            table = {}
            for d, acts in granted.items():
                fns = []
                for a in acts:
                    hname = self.fresh("m")
                    body = [f"def {hname}(st, fr, L, out, tx, used, _c):"]
                    self.menu_action(body, 1, a, "_c", ncards, texts)
                    body.append("    return")
                    helpers.append((hname, "\n".join(body[:1] + body[2:]), body[1].strip()))
                    fns.append(hname)
                table[d] = fns
            tname = self.fresh("k")
            lines += [f"    for _s in {self.const(live_slots)}[fr.me]:",
                      "        for _c in st.zones[_s]:",
                      f"            _acts = {tname}[_c]",
                      "            if _acts is not None:",
                      "                fr.this = _c",
                      "                for _m in _acts:",
                      "                    _m(st, fr, L, out, tx, used, _c)"]
            self.late_tables.append((tname, (table, defs)))
        lines.append("    return out, tx")
        # the menu's own lines read the chooser as the local 'me' (it never changes while a
        # menu is made; the walks it calls read the frame's)
        lines = lines[:header] + [_ME_ATTR.sub("me", line) for line in lines[header:]]
        if not any(_READS_L.search(line) for line in lines[header:]):
            lines.remove("    L = fr.locals")
        # what runs instead if the generated module cannot be compiled: the engine's own menu
        made = self.define(name, "\n".join(lines), _engine_menu(group),
                           head=comment(f"the menu of action group '{group}': the actions a player may take"))
        for hname, text, head in helpers:     # each card action's part of it (``late_tables`` lists them by card)
            self.parts.append(_Part(head, text))
        if group in self.menu_names:      # the generated 'play actions' of the group call it by this name
            self.ns[self.menu_names[group]] = made
        return made

    def inline(self, lines: list, depth: int, fn: Fn) -> str:
        found = self.src_of.get(fn)
        if found is None:
            return f"{self.const(fn)}(st, fr)"
        for setup in found[0]:
            lines.append("    " * depth + setup)
        return found[1]

    def menu_action(self, lines: list, depth: int, a: Any, card: str, ncards: int, texts: bool) -> None:
        """One action's options appended to ``out`` (and, when the menu keeps snapshots,
        ``texts``: a None for each option that has none), after a comment naming it."""
        ind = "    " * depth
        code = self.g.result.codes[a.effect]
        rule = f"action {a.id}" if a.card_def < 0 else f"action {a.id} of card {self.g.card_defs[a.card_def].id}"
        lines.append(ind + headline(rule, code.recipe[1].span if code.recipe else None))
        if a.per_turn is not None:
            key = f"{a.index * (ncards + 1)} + {card} + 1" if card != "None" else str(a.index * (ncards + 1))
            lines.append(f"{ind}if _uses(used, {key}) < {self.const(a.per_turn)}:")
            depth += 1
            ind = "    " * depth
        if a.when is not None:
            lines.append(f"{ind}if {self.inline(lines, depth, a.when)}:")
            depth += 1
            ind = "    " * depth
        if a.binder is None:
            lines.append(f"{ind}out.append(({a.index}, {card}, None))")
            if texts:
                lines.append(f"{ind}tx.append(None)")
            return
        _, slot, _, source, cond = a.binder
        meta = a.menu_meta
        if meta is not None and meta[0] in self.src_of:
            raw, st_, hoist = meta
            for h in hoist:
                lines.append(f"{ind}L[{h}] = _U")
            seq = self.inline(lines, depth, raw)
            if isinstance(st_, Zone):
                seq = f"st.zones[{seq}]"
            elif seq.endswith("[:]"):       # a kind's cards: the menu only reads them, no copy
                seq = seq[:-3]
        else:
            seq = f"{self.const(source)}(st, fr)"
        factor, where = a.walk
        if factor:               # the parameter's walk charged as ``Game.action_options`` charges it (unless folded)
            lines.append(f"{ind}_xs = {seq}")
            lines += [ind + line for line in self.charged("len(_xs)", factor, self.const(where))]
            seq = "_xs"
        lines.append(f"{ind}for _x in {seq}:")
        ind2 = "    " * (depth + 1)
        lines.append(f"{ind2}L[{slot}] = _x")      # the walks the condition calls read it there
        if cond is not None:
            mark = len(lines)
            test = self.inline(lines, depth + 1, cond)
            # the condition's own reads of the item take the loop's local
            item = re.compile(rf"(?<![\w\]])L\[{slot}\]")
            lines[mark:] = [item.sub("_x", line) for line in lines[mark:]]
            lines.append(f"{ind2}if not {item.sub('_x', test)}:")
            lines.append(f"{ind2}    continue")
        lines.append(f"{ind2}out.append(({a.index}, {card}, _x))")
        if a.shown:              # what labels read of the state (a die's value) is kept with the decision
            ncv = self.g.ncvars
            snap = ", ".join(f"st.cvars[_x * {ncv} + {i}]" for i in a.shown)
            lines.append(f"{ind2}tx.append(({snap},))")
        elif texts:
            lines.append(f"{ind2}tx.append(None)")

    def w_Let(self, w, s, depth, span):
        w.line(depth, f"L[{self.info[id(s)]}] = {self.expr_src(w, s.value, depth, span)}", span)
        return True

    def w_Set(self, w, s, depth, span):
        g = self.g
        x = self.fresh("x")
        w.line(depth, f"{x} = {self.expr_src(w, s.value, depth, span)}", span)
        target, vt = self.info[id(s)]
        kind = target[0]
        if vt == INT and kind != "local":      # a number kept in the game is bounded (MAX_NUMBER)
            w.line(depth, f"if {x} is not None and not {-MAX_NUMBER} <= {x} <= {MAX_NUMBER}:", span)
            w.line(depth + 1, f"_big({x})", span)
        if kind == "local":
            w.line(depth, f"L[{target[1]}] = {x}", span)
        elif kind == "gvar":
            w.line(depth, f"st.gvars[{target[1]}] = {x}", span)
        elif kind == "pvar":
            p = self.expr_src(w, target[2], depth, span)
            w.line(depth, f"st.pvars[{p} * {g.npvars} + {target[1]}] = {x}", span)
        elif kind == "res":
            r = target[1]
            p = self.expr_src(w, target[2], depth, span)
            self.clamp(w, x, r, depth, span)
            w.line(depth, f"st.res[{p} * {g.nres} + {r}] = {x}", span)
        else:
            c = self.expr_src(w, target[2], depth, span)
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

    def w_Counter(self, w, s, depth, span):
        if s.verb not in ("gain", "lose", "give"):
            return False
        g = self.g
        r = g.res_index[s.resource]
        p, i, x = self.fresh("p"), self.fresh("i"), self.fresh("x")
        who = self.expr_src(w, s.other, depth, span) if s.verb == "give" else self.me_src()
        w.line(depth, f"{p} = {who}", span)
        w.line(depth, f"{i} = {p} * {g.nres} + {r}", span)
        amount = f"st.res[{i}]" if s.amount.expr is None else self.expr_src(w, s.amount.expr, depth, span)
        w.line(depth, f"{x} = {amount}", span)
        w.line(depth, f"if {x} < 0:", span)
        w.line(depth + 1, f"raise _negative({self.const(s.verb)}, {x}, {self.const(s.resource)})", span)
        w.line(depth, f"{x} = st.res[{i}] {'-' if s.verb == 'lose' else '+'} {x}", span)
        self.clamp(w, x, r, depth, span)
        if s.verb == "lose" and g.res_min[r] is None:       # unbounded that way: MAX_NUMBER bounds it
            w.line(depth, f"if {x} < {-MAX_NUMBER}:", span)
            w.line(depth + 1, f"_big({x})", span)
        elif s.verb != "lose" and g.res_max[r] is None:
            w.line(depth, f"if {x} > {MAX_NUMBER}:", span)
            w.line(depth + 1, f"_big({x})", span)
        w.line(depth, f"st.res[{i}] = {x}", span)
        return True

    def w_Move(self, w, s, depth, span):
        t = self.info[id(s.what)]
        what = self.expr_src(w, s.what, depth, span)
        cs, c, z = self.fresh("cs"), self.fresh("c"), self.fresh("z")
        if isinstance(t, Zone):
            w.line(depth, f"{cs} = st.zones[{what}][:]", span)
        elif isinstance(t, List) and isinstance(t.elem_t, (Card, AnyT)):
            w.line(depth, f"{cs} = {what}", span)
        else:
            w.line(depth, f"{c} = {what}", span)
            w.line(depth, f"{cs} = [] if {c} is None else [{c}]", span)
        factor, where, check = self.info[id(s)]
        self.charge(w, depth, f"len({cs})", factor, where, span)         # a step a card (unless folded)
        if check is not None:                # a move the checker cannot type: each card's kind is checked
            w.line(depth, f"{self.const(check)}({cs})", span)
        w.line(depth, f"{z} = {self.expr_src(w, s.to, depth, span)}", span)
        w.line(depth, f"for {c} in {cs}:", span)
        if s.bottom:
            w.line(depth + 1, f"_move(st, {c}, {z}, True)", span)
            return True
        # a move to the top, written out (the commonest statement of all)
        o = self.fresh("o")
        w.line(depth + 1, f"{o} = st.loc[{c}]", span)
        # copy-on-write (meeple.dsl.types.own_zone): a list not owned is copied first; owned, no call
        w.line(depth + 1, f"(st.zones[{o}] if st.own[{o}] else _own(st, {o})).remove({c})", span)
        w.line(depth + 1, f"(st.zones[{z}] if st.own[{z}] else _own(st, {z})).append({c})", span)
        w.line(depth + 1, f"if {o} != {z}:", span)
        w.line(depth + 2, f"st.loc[{c}] = {z}", span)
        w.line(depth + 2, "if st.track is not None:", span)
        w.line(depth + 3, f"st.track.add(({z}, {c}))", span)
        return True

    def w_If(self, w, s, depth, span):
        d = depth
        for k, (cond, body) in enumerate(s.branches):
            if k:
                w.line(d, "else:", span)
                d += 1
            w.line(d, f"if {self.expr_src(w, cond, d, span)}:", span)
            self.body(w, body, d + 1, span)
        if s.orelse:
            w.line(d, "else:", span)
            self.body(w, s.orelse, d + 1, span)
        return True

    def w_ForEach(self, w, s, depth, span):
        """Charged as the closure's start charges it: the filter's items, then the rounds."""
        items, var, idx, zone, plan, where = self.info[id(s)]
        v = self.fresh("v")
        if s.order is not None:      # sorted walks keep their closure (a stable sort with none last), which charges
            w.line(depth, f"{self.const(self.actions[id(s)])}(st, fr)", span)
        else:                        # the walk's items, as the closure takes them: a zone is copied first
            src = self.expr_src(w, s.source, depth, span)
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
                w.line(depth + 1, f"if {self.expr_src(w, s.cond, depth + 1, span)}:", span)
                w.line(depth + 2, f"{kept}.append({v})", span)
                w.line(depth, f"L[{items}] = {kept}", span)
            self.charge(w, depth, f"len(L[{items}])", plan[2], where, span)
            w.line(depth, f"L[{idx}] = 0", span)      # the locals as the closures leave them
        w.line(depth, f"for {v} in L[{items}]:", span)
        w.line(depth + 1, f"L[{var}] = {v}", span)
        self.body(w, s.body, depth + 1, span)
        w.line(depth, f"L[{items}] = None", span)
        return True

    def w_Shuffle(self, w, s, depth, span):
        factor, where = self.info[id(s)]
        if not factor:
            w.line(depth, f"st.shuffle(_wz(st, {self.expr_src(w, s.zone, depth, span)}))", span)
            return True
        z = self.fresh("z")
        w.line(depth, f"{z} = _wz(st, {self.expr_src(w, s.zone, depth, span)})", span)
        self.charge(w, depth, f"len({z})", factor, where, span)        # a step a card
        w.line(depth, f"st.shuffle({z})", span)
        return True

    def w_Repeat(self, w, s, depth, span):
        """Every round charged as the loop starts (unless folded), as the closure charges them."""
        factor, where = self.info[id(s)]
        count = self.expr_src(w, s.count, depth, span)
        if factor:
            n = self.fresh("x")
            w.line(depth, f"{n} = {count}", span)
            w.line(depth, f"if {n} > 0:", span)
            self.charge(w, depth + 1, n, factor, where, span)
            count = n
        w.line(depth, f"for _ in range({count}):", span)
        self.body(w, s.body, depth + 1, span)
        return True

    def w_While(self, w, s, depth, span):
        """Charged each time the condition is tested, as the closure's head charges it."""
        steps, where = self.info[id(s)]
        w.line(depth, "while True:", span)
        self.charge(w, depth + 1, str(steps), 1, where, span)
        w.line(depth + 1, f"if not {self.expr_src(w, s.cond, depth + 1, span)}:", span)
        w.line(depth + 2, "break", span)
        self.body(w, s.body, depth + 1, span)
        return True

    def w_As(self, w, s, depth, span):
        m = self.fresh("m")
        w.line(depth, f"{m} = fr.me", span)
        w.line(depth, f"fr.me = {self.expr_src(w, s.player, depth, span)}", span)
        self.body(w, s.body, depth, span)
        w.line(depth, f"fr.me = {m}", span)
        return True

    def w_Log(self, w, s, depth, span):
        w.line(depth, f"st.events.append({self.const(s.text)})", span)
        return True

    def w_Require(self, w, s, depth, span):
        message = s.message or "a requirement does not hold"
        w.line(depth, f"if not {self.expr_src(w, s.cond, depth, span)}:", span)
        w.line(depth + 1, f"raise _Refusal({self.const(message)})", span)
        return True

    def w_CallProc(self, w, s, depth, span):
        """A call of a procedure that never pauses (``inline_procedures``): a Python call,
        or, when its body does nothing, only its arguments (their errors still count)."""
        args = [self.expr_src(w, a, depth, span) for a in s.args]
        if not self.inline_procs[s.name]:
            # its run is charged as the closure's call charges it (``Code.steps``), known once every
            # unit is compiled: a made name, written as its number by ``finish``
            steps = self.step_names.get(s.name)
            if steps is None:
                steps = self.step_names[s.name] = self.fresh("n")
            w.line(depth, f"if {steps}:", span)
            self.charge(w, depth + 1, steps, 1, Where(w.unit.origin, s.pos), span)
        if self.inline_procs[s.name]:
            w.line(depth, f"({', '.join(args)},)" if args else "pass", span)
            return True
        made = self.callers.get(s.name)
        if made is None:
            made = self.callers[s.name] = self.fresh("p")
        w.line(depth, f"{made}(st, fr{''.join(', ' + a for a in args)})", span)
        return True

    def w_Stop(self, w, s, depth, span):
        w.line(depth, f"return {STOP}", span)
        return True

    # ------------------------------------------------------------ regions and caches
    def region(self, ctx: _Ctx, roots: list, write) -> tuple[list[str], str]:
        """Write an expression region, sharing repeated pure calls (``holder(d)``
        three times becomes one call): a first pass counts the calls' source,
        a second writes them through a per-region cache. Returns (setup lines, expr)."""
        saved = ctx.cse
        counting: dict[str, int] = {}
        ctx.cse = counting
        mark = len(self.parts)
        dry, self.dry = self.dry, True
        try:
            write()                           # dry run: counts calls (nested loops are not written)
        finally:
            self.dry = dry
        del self.parts[mark:]
        repeated = [s for s, n in counting.items() if n > 1]
        shared = {s: self.fresh("s") for s in repeated}
        used: set[str] = set()
        ctx.cse = {"__share__": shared, "__used__": used}
        out = write()
        ctx.cse = saved
        # a call counted twice may be written once after all (its text differs in the real run)
        return [f"{v} = _U" for v in shared.values() if v in used], out

    def _shareable(self, ctx: _Ctx, src: str) -> str:
        cse = ctx.cse
        # a call that charges the step budget runs each time, as its closure does (a walk inside
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

    # ------------------------------------------------------------ expressions
    def type_of(self, node: A.Node) -> Type:
        t = self.types.get(id(node))
        if t is None:
            raise _Unsupported(type(node).__name__)
        return t

    def gen(self, ctx: _Ctx, n: A.Node) -> str:
        """Python source of one expression node (already checked); a list the checker
        charges by its length is charged as it is made (``meeple.dsl.types.counted``)."""
        src = self.wrap(ctx, n, self._gen(ctx, n))
        where = self.list_plan(n)
        return src if where is None else f"_counted(st, {src}, {self.const(where)})"

    def cached(self, ctx: _Ctx, n: A.Node) -> bool:
        """Whether ``gen`` writes ``n`` through a cache."""
        key = id(n)
        return bool(((ctx.pyhoist and key in ctx.pyhoist) or (ctx.hoist and key in ctx.hoist))
                    and not self.type_of(n).is_collection)

    def wrap(self, ctx: _Ctx, n: A.Node, src: str) -> str:
        """What ``gen`` adds around the source of ``n`` (its cache); also used for a node
        written by its parent in a loop (a chain's left side)."""
        key = id(n)
        if ctx.pyhoist and key in ctx.pyhoist and not self.type_of(n).is_collection:
            v = ctx.pyhoist[key]
            return f"({v} if {v} is not _U else ({v} := {src}))"
        if ctx.hoist and key in ctx.hoist and not self.type_of(n).is_collection:
            slot = ctx.hoist[key]
            c = self.fresh("c")
            return f"({c} if ({c} := L[{slot}]) is not _U else _cache(L, {slot}, {src}))"
        return src

    def _gen(self, ctx: _Ctx, n: A.Node) -> str:
        method = getattr(self, "g_" + type(n).__name__, None)
        if method is None:
            return self.fallback(ctx, n)
        return method(ctx, n)

    def fallback(self, ctx: _Ctx, n: A.Node) -> str:
        """Evaluate ``n`` with its closure: only where it reads no generated-only variable."""
        if free_names(n) & set(ctx.py) or ctx.unit is None:
            raise _Unsupported(type(n).__name__)
        comp = self.comp
        self.depth += 1
        folded = comp.folded          # compiled again here: its steps were counted when it was checked
        try:
            fn, _ = getattr(comp, "x_" + type(n).__name__)(ctx.unit, n)
        finally:
            self.depth -= 1
            comp.folded = folded
        return f"{self.const(fn)}(st, fr)"

    def me(self, ctx: _Ctx) -> str:
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

    def local(self, ctx: _Ctx, name: str) -> Optional[str]:
        if name in ctx.py:
            return ctx.py[name][0]
        if ctx.unit is not None:
            found = ctx.unit.scope.lookup(name)
            if found is not None:
                return f"L[{found[0]}]"
        return None

    def g_Name(self, ctx, n):
        g = self.g
        name = n.name
        loc = self.local(ctx, name)
        if loc is not None:
            return loc
        if name in g.option_index:
            return f"st.opts[{g.option_index[name]}]"
        if name in g.constants:
            return f"{self.const(g.constants[name])}[st.players]"
        if name in g.gvar_index:
            return f"st.gvars[{g.gvar_index[name]}]"
        if name in g.pvar_index:
            return f"st.pvars[{self.me(ctx)} * {g.npvars} + {g.pvar_index[name]}]"
        if name in g.res_index:
            return f"st.res[{self.me(ctx)} * {g.nres} + {g.res_index[name]}]"
        if name in g.zone_index:
            z = g.zone_defs[g.zone_index[name]]
            base = g.zone_base[g.zone_index[name]]
            if z.per_player:
                return f"({base} + {self.me(ctx)})"
            return str(base)
        if name in g.enum_of_value:
            return self.const(name)
        if name in g.enums:
            return self.const(list(g.enums[name]))
        if name in g.kind_cards:
            return f"{self.const(g.kind_cards[name])}[:]"
        if name == "players":
            return "list(range(st.players))"
        if name == "round":
            return "st.round"
        if name == "player_count":
            return "st.players"
        raise _Unsupported(name)

    def g_Field(self, ctx, n):
        g = self.g
        t = self.type_of(n.target)
        target = self.gen(ctx, n.target)
        name = n.name
        if name == "id":
            return f"{self.const(g.card_def_ids)}[{target}]"
        if name == "name":
            return f"{self.const(g.card_names)}[{target}]"
        kind = card_kind(t)
        fields = g.kind_fields.get(kind, {}) if kind else g.all_fields
        cvars = g.kind_cvars.get(kind, {}) if kind else g.all_cvars
        if name in fields:
            return f"{self.const(g.card_fields)}[{target}][{g.field_index[name]}]"
        if name in cvars:
            return f"st.cvars[{target} * {g.ncvars} + {g.cvar_index[name]}]"
        raise _Unsupported(name)

    def g_Of(self, ctx, n):
        g = self.g
        name = n.name
        if n.scope != "player":
            zi = g.zone_index.get(name)
            z = g.zone_defs[zi] if zi is not None else None
            if z is None:
                raise _Unsupported(name)
            base = g.zone_base[zi]
            if z.of_card is not None:
                count = len(g.kind_cards.get(z.of_card, ()))
                return f"[c for s in range({base}, {base + count}) for c in st.zones[s]]"
            if n.scope == "all":
                return f"[c for p in range(st.players) for c in st.zones[{base} + p]]"
            me = self.fresh("m")
            # bracketed: it may be an operand ('hand of others + ...')
            return (f"([c for p in range(st.players) if p != {me} for c in st.zones[{base} + p]] "
                    f"if ({me} := _me(st, fr)) is not None else [])")
        zi = g.zone_index.get(name)
        if zi is not None and g.zone_defs[zi].of_card is not None:
            if self.type_of(n.target) == Card(g.zone_defs[zi].of_card):
                # the checker knows the card is of the zone's kind: no test needed
                return f"({g.zone_base[zi]} + {self.const(g.kind_pos)}[{self.gen(ctx, n.target)}])"
            return f"{self.const(self.card_zone(zi, name))}({self.gen(ctx, n.target)})"
        if name in g.kind_cards and self.type_of(n) == List(Card(name)):
            # 'pawn of p': a player's own pieces of a kind
            return f"{self.const(g.seat_cards(name))}[{self.gen(ctx, n.target)}][:]"
        target = self.gen(ctx, n.target)
        if name in g.res_index:
            return f"st.res[{target} * {g.nres} + {g.res_index[name]}]"
        if name in g.pvar_index:
            return f"st.pvars[{target} * {g.npvars} + {g.pvar_index[name]}]"
        if zi is not None:
            return f"({g.zone_base[zi]} + {target})"
        raise _Unsupported(name)

    def walk_plan(self, node: A.Node) -> tuple[int, Any]:
        """How the checker charges the walk ``node``: (factor, where); (0, None) when folded."""
        found = self.comp.walks.get(id(node))
        return (found[1], found[2]) if found is not None and found[0] is node else (0, None)

    def list_plan(self, node: A.Node) -> Optional[Any]:
        """Where the checker charges the list ``node`` gives by its length, or None (folded)."""
        found = self.comp.lists.get(id(node))
        return found[1] if found is not None and found[0] is node else None

    def seats_base(self, ctx: _Ctx, node: A.Node) -> Optional[int]:
        """The first slot of ``ZONE of all`` (a per-player zone, every seat's), which a
        walk reads seat by seat instead of joining the zones into a new list; else None."""
        if not isinstance(node, A.Of) or node.scope != "all" or (ctx.pyhoist and id(node) in ctx.pyhoist):
            return None
        zi = self.g.zone_index.get(node.name)
        if zi is None or self.g.zone_defs[zi].of_card is not None:
            return None
        return self.g.zone_base[zi]

    def card_zone(self, zi: int, name: str):
        """``card_zone_of`` for this zone, made once per module."""
        made = self.__dict__.setdefault("_card_zones", {})
        if zi not in made:
            made[zi] = card_zone_of(self.g, zi, name)
        return made[zi]

    def g_ListLit(self, ctx, n):
        return "[" + ", ".join(self.gen(ctx, i) for i in n.items) + "]"

    def test(self, ctx: _Ctx, n: A.Node) -> str:
        """Source for a condition whose truth alone matters (an 'and' chain needs no bool())."""
        if isinstance(n, A.Binary) and n.op in ("and", "or") and not (ctx.hoist and id(n) in ctx.hoist) \
                and not (ctx.pyhoist and id(n) in ctx.pyhoist):
            return self.chain(ctx, n)
        return self.gen(ctx, n)

    def chain(self, ctx: _Ctx, n: A.Binary) -> str:
        return "(" + f" {n.op} ".join(self.test(ctx, node) for node in A.operands(n)) + ")"

    def g_Unary(self, ctx, n):
        if n.op == "not":
            return f"(not {self.test(ctx, n.operand)})"
        return f"(-{self.gen(ctx, n.operand)})"

    def g_Cond(self, ctx, n):
        return f"({self.gen(ctx, n.then)} if {self.test(ctx, n.test)} else {self.gen(ctx, n.other)})"

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
            # a chain of two gives an operand, as the closure does; of three or more, True or False
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

    def arith(self, ctx: _Ctx, n: A.Binary) -> str:
        """A chain of arithmetic, walked down its left side in a loop (never deep, however
        long). A long chain of + - * is written without a bracket per operator: Python's
        parser takes 200 nested brackets at most."""
        nodes = A.spine(n)
        flat = len(nodes) > _NESTED_CHAIN
        src = self.gen(ctx, nodes[-1].left)
        level = 0                       # of the operators in ``src`` written without brackets: 1 + -, 2 * (0: none)
        for node in reversed(nodes):
            op = node.op
            b = self.gen(ctx, node.right)
            if op == "/":
                src, level = f"_div({src}, {b})", 0
            elif op == "%":
                src, level = f"_mod({src}, {b})", 0
            elif op == "+" and isinstance(self.type_of(node.right), List):
                src, level = f"_join({src}, {b})", 0      # the one way a list grows: bounded (MAX_ITEMS)
            elif op == "*":                               # the one way a number squares: bounded inline (MAX_NUMBER)
                t = self.fresh("t")
                if level:                                 # a flat '+'/'-' written so far binds looser than '*'
                    src = f"({src})"
                src, level = f"({t} if {-MAX_NUMBER} <= ({t} := {src} * {b}) <= {MAX_NUMBER} else _big({t}))", 0
            elif not flat:
                src = f"({src} {op} {b})"
            else:
                prec = 2 if op == "*" else 1
                if level and level < prec:
                    src = f"({src})"
                src = f"{src} {op} {b}"
                level = prec
            if node is not n and self.list_plan(node) is not None:       # a join charged by its length
                src, level = f"_counted(st, {src}, {self.const(self.list_plan(node))})", 0
            if node is not n and self.cached(ctx, node):
                if level:
                    src, level = f"({src})", 0
                src = self.wrap(ctx, node, src)
        return f"({src})" if level else src

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

    def membership(self, ctx: _Ctx, n: A.Binary) -> str:
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

    # ------------------------------------------------------------ calls
    def g_Call(self, ctx, n):
        g = self.g
        fdef = g.function_defs.get(n.func)
        if fdef is not None:
            return self.function(ctx, n, fdef)
        prim = PRIMITIVES[n.func]
        if prim.fn is None:
            return self.aggregate(ctx, n)
        args = [self.gen(ctx, a) for a in n.args]
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
        return self._shareable(ctx, src) if prim.pure else src

    def function(self, ctx: _Ctx, n: A.Call, fdef: Any) -> str:
        """A pack's function, expanded here: its parameters become made locals set
        from the arguments (an argument that is already a plain variable is used by name)."""
        comp = self.comp
        if fdef.name in getattr(self.g, "broken_functions", ()):
            return "None"
        tree = comp.function_tree(fdef)
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
        body_ctx = _Ctx(None, inner, None, {}, ctx.me_bound)
        # its parameters are made locals of the enclosing function, so the region's sharing of
        # repeated calls reaches into the body (a parameter's name differs at every expansion)
        body_ctx.cse = ctx.cse
        self.within.append((f"function {fdef.name}", fdef.body.origin))     # its walks' comments name it
        try:
            body = self.gen(body_ctx, tree)
        finally:
            self.within.pop()
        if not params:
            return body
        # each parameter is a made local bound once, in order, before the body (no lambda to build per call)
        binds = ", ".join(f"({p} := {v})" for p, v in zip(params, values))
        return f"({binds}, {body})[-1]"

    def aggregate(self, ctx: _Ctx, n: A.Call) -> str:
        kind = n.func
        arg = n.args[0]
        factor, where = self.walk_plan(n)
        if not isinstance(arg, A.Comprehension):
            t = self.type_of(arg)
            src = self.gen(ctx, arg)
            if isinstance(t, Zone):
                src = f"st.zones[{src}]"
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
            raise _Unsupported(kind)
        # a helper function with a loop: the condition and value are written inline
        st_ = self.type_of(arg.source)
        every_seat = self.seats_base(ctx, arg.source)
        seq = self.gen(ctx, arg.source) if every_seat is None else str(every_seat)
        if self.dry:
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
        # the walk's helper takes the made locals it reads; True, False and None are no names
        passed = sorted({v for v, _ in ctx.py.values() if v.isidentifier() and not iskeyword(v)})
        inner_py = dict(ctx.py)
        inner_py[arg.var] = (var, et)
        parts = invariant_parts([arg.cond, arg.value], arg.var, self.comp.impure)
        pyhoist = {id(p): self.fresh("h") for p in parts}
        inner = _Ctx(ctx.unit, inner_py, None, pyhoist, ctx.me_bound)
        cond_value: list = [None, None]

        def write():
            cond_value[0] = self.test(inner, arg.cond) if arg.cond is not None else None
            cond_value[1] = self.gen(inner, arg.value) if arg.value is not None else None
            return ""
        setup, _ = self.region(inner, [arg.cond, arg.value], write)
        cond, value = cond_value
        name = self.fresh("a")
        # the walked sequence is written in the caller's region (it may read the caller's shared
        # calls and cached parts, which are locals there): evaluated there, passed in
        items = self.fresh("x")
        head: list[str] = []
        # charged as the closures charge it: the cards of every seat's zone, when the checker
        # charges 'ZONE of all' by its length (the closures make that list), then the walk
        walked = f"len({items})" if every_seat is None else f"sum(map(len, st.zones[{items}:{items} + st.players]))"
        listed = self.list_plan(arg.source) if every_seat is not None else None
        if listed is not None:
            head += ["    " + line for line in charge_lines(walked, self.const(listed))]
        head += ["    " + line for line in self.charged(walked, factor, self.const(where))]
        head += [f"    {h} = _U" for h in pyhoist.values()]
        body: list[str] = []
        reset = [f"        {s}" for s in setup]
        item = value if value is not None else var
        if kind == "count":
            head.append("    n = 0")
            act, tail = ["n += 1"], "n"
        elif kind in ("sum",):
            head.append("    n = 0")
            act, tail = [f"n += {item}"], "n"
        elif kind in ("min", "max", "those", "values"):
            head.append("    out = []")
            act = [f"out.append({item})"]
            tail = {"min": "min(out, default=None)", "max": "max(out, default=None)"}.get(kind, "out")
        elif kind == "any":
            act, tail = ["return True"], "False"
        elif kind == "every":
            act, tail = None, "True"
        elif kind == "first":
            act, tail = [f"return {var}"], "None"
        else:
            raise _Unsupported(kind)
        if cond is None and kind in ("any", "every", "first"):
            cond = f"bool({var})" if et == BOOL and kind != "first" else "True"
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
        body.append(f"    return {tail}")
        text = "\n".join(head + body)
        # it takes what it reads: the state, the frame, its locals, the walked items, the made locals
        takes = [p for p in ("st", "fr", "L") if re.search(rf"\b{p}\b", text)] + [items] + \
                [p for p in passed if re.search(rf"\b{p}\b", text)]
        if self.within:
            rule, origin = self.within[-1]
        else:
            rule, origin = self.rule, ctx.unit.origin if ctx.unit is not None else None
        span = to_span(origin, n.pos.line, n.pos.col, n.pos.length) if origin is not None else None
        self.parts.append(_Part(headline(f"{kind}(...) in {rule}", span), f"def {name}({', '.join(takes)}):\n{text}"))
        return f"{name}({', '.join(seq if p == items else p for p in takes)})"
