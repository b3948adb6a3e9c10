"""The one generated module of a pack: its made names, the values bound to them, its
functions' text, and the single ``compile()`` that makes them.

Safety: nothing of a pack's text is ever spliced into the source. Names in the source
are made here (``_e12``, ``_v3``, ``_k7``); every value a pack supplies (texts, enum
values, tables, closures) is bound to a made name in the module's namespace
(``Module.const``); integers enter as ``repr(int)``. The namespace has no builtins but
the few listed in ``_BUILTINS``. The one place a pack's words appear is a comment (a
file or rule name), one line with anything that could end it escaped (``comment``).

Readable: each function comes after a comment naming the rule it was written from and
its YAML file and line; a function reads the frame's locals (``L = fr.locals``) only
where it uses them; and the lines are registered with ``linecache`` under the pack's
name (``generated_file``), so a traceback through them shows them. A line table
(``Module.line_spans``) maps each line back to the statement it runs.

A function is handed out before the module is compiled (callers bind it at once): a
placeholder whose code becomes the generated one in ``Module.finish``, or its closure's
if the module cannot be compiled (Python's own limits).
"""
from __future__ import annotations

import linecache
import re
import types as _pytypes
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from ..errors import MeepleError, Refusal, RuleError
from ..interaction import no_such_chooser, picks_prompt
from ..runtime import NO_ANSWER, Decision, Frame
from ..steps import charge, counted, out_of_steps
from ..types import (RULE_FAULTS, UNSET, Fn, _me, _move, call_direct, divide, join, named_error, number_range, overflow,
                     own_zone, remainder, used_once_more, uses, zone_to_write)


def charge_lines(n: str, where: str) -> list[str]:
    """Lines taking ``n`` steps (source) from the state's budget, stopping the rules at
    ``where`` (a made name bound to a ``Where``) past it: ``meeple.dsl.types.charge`` written out."""
    return [f"if (_b := st.budget - {n}) < 0:",
            f"    raise _spent({where})",
            "st.budget = _b"]


def _negative(verb: str, n: int, name: str) -> RuleError:
    return RuleError(f"cannot {verb} a negative amount ({n} {name})")


def _short(payer: int, n: int, name: str, have: int) -> RuleError:
    return RuleError(f"P{payer + 1} cannot pay {n} {name} (has {have})")


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


def _cache(loc: list, slot: int, value: Any) -> Any:
    loc[slot] = value
    return value


_BUILTINS = {"len": len, "map": map, "list": list, "int": int, "str": str, "abs": abs, "range": range, "min": min, "max": max, "sum": sum, "bool": bool,
             "True": True, "False": False, "None": None}

_RUNTIME = {"_U": UNSET, "_me": _me, "_cache": _cache, "_div": divide, "_mod": remainder, "_range": number_range,
            "_move": _move, "_own": own_zone, "_wz": zone_to_write, "_spent": out_of_steps, "_negative": _negative, "_short": _short, "_Refusal": Refusal, "_uses": uses,
            "_join": join, "_counted": counted, "_big": overflow, "_ME": MeepleError, "_RF": RULE_FAULTS,
            "_named": named_error, "_NO_ANSWER": NO_ANSWER, "_Decision": Decision, "_no_chooser": no_such_chooser,
            "_Frame": Frame, "_call_direct": call_direct, "_charge": charge, "_used_once_more": used_once_more,
            "_picks_prompt": picks_prompt}


class Module:
    """The generated functions of one pack, collected, then compiled at once (``finish``)."""

    def __init__(self, pack: str):
        self.filename = generated_file(pack)
        self.ns: dict[str, Any] = {"__builtins__": dict(_BUILTINS), **_RUNTIME}
        self.parts: list[_Part] = []            # the module's functions, in order
        self.placeholders: list[tuple[str, Any, Optional[Fn], _Part]] = []
        self._names = 0
        self._const_ids: dict[int, str] = {}
        self._keep: list = []                # keeps bound objects alive (ids stay unique)
        self.fallbacks = 0
        self.line_spans: dict[int, Any] = {}  # line of the module -> span of the rule it runs
        self.source = ""                      # the module, once ``finish`` compiled it
        self.rule = ""                        # the rule being written (a unit's name), for comments
        self.late_tables: list = []           # (made name, {card def: [helper names]}) bound after compiling
        self.why: list[str] = []            # why each fallback happened (for tests and tuning)
        self.generated = 0

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

    # ------------------------------------------------------------ functions
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

    def add(self, head: str, source: str) -> None:
        """A function that generated ones call by its made name, bound when the module runs."""
        self.parts.append(_Part(head, source))

    def helper(self, name: str, source: str, head: str) -> None:
        """A function that generated ones call by its made name (no closure stands in for it)."""
        part = _Part(head, source)
        self.parts.append(part)
        self.placeholders.append((name, _pytypes.FunctionType(_placeholder.__code__, self.ns, name), None, part))

    def instruction(self, prefix: str, body: list, last: str, fallback: Fn, head: str = "") -> Fn:
        """A generated instruction of (state, frame): ``body`` (with ``L``, the frame's
        locals) then ``last`` (the return of where to go); ``head``: its comment."""
        name = self.fresh(prefix)
        return self.define(name, self.function_source(name, [*body, last]), fallback, head=head)

    def charged(self, n: str, factor: int, where: str) -> list[str]:
        """``charge_lines`` for ``n`` items charged ``factor`` steps each (none when 0: folded)."""
        if not factor:
            return []
        return charge_lines(n if factor == 1 else f"{n} * {factor}", where)

    # ------------------------------------------------------------ compiling
    def finish(self, inlined: set, steps: Callable[[], dict[str, int]]) -> None:
        """Compile every generated function at once, put each in its place, and register
        the module's lines with ``linecache`` under ``self.filename``. ``inlined``: the
        functions written into the runs that run them (left out); ``steps()``: each
        procedure's steps by the made name standing for them (``_settle_steps``)."""
        parts = self._live(inlined)
        self.parts = []
        if not parts:
            return
        found = steps()
        if found:        # each procedure's steps, known now (``Compiler.settle_steps``), as a number
            for part in parts:
                if "_n" in part.text:
                    part.text, part.spans = _settle_steps(part.text, part.spans, found)
        source = self._place(parts)
        self._compile(source, parts)
        for tname, (table, defs) in self.late_tables:      # per card: its definition's helpers, or None
            fns = {d: tuple(self.ns[h] for h in hs) for d, hs in table.items()}
            self.ns[tname] = [fns.get(d) for d in defs]
        for name, fn, _, _ in self.placeholders:
            fn.__code__ = self.ns[name].__code__
        linecache.cache[self.filename] = (len(source), None, source.splitlines(True), self.filename)
        self.source = source
        self.placeholders = []

    def _live(self, inlined: set) -> list[_Part]:
        """The parts to compile: a function written into every run that runs it is left out,
        and its placeholder becomes a call of its closure (``_via``)."""
        live = []
        for name, fn, closure, part in self.placeholders:
            if fn in inlined:
                # written into the run of statements that runs it: only that run's closures (its
                # stand-in if the module cannot be compiled) hold it, and they may run its closure
                part.dead = True
                fn.__code__, fn.__defaults__ = _via.__code__, (closure,)
            else:
                live.append((name, fn, closure, part))
        self.placeholders = live
        return [part for part in self.parts if not part.dead]

    def _place(self, parts: list[_Part]) -> str:
        """The module's text: each function after its comment, one blank line between;
        each part learns its line, and the line table its statements' lines."""
        chunks, line = [], 1
        for part in parts:
            part.line = line
            for at, span in part.spans:
                self.line_spans[line + 1 + at] = span
            chunks.append(f"{part.head}\n{part.text}")
            line += part.text.count("\n") + 3
        return "\n\n".join(chunks) + "\n"

    def _compile(self, source: str, parts: list[_Part]) -> None:
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
                self._give_way()

    def _give_way(self) -> None:
        """Every generated function replaced by a call of its closure."""
        self.line_spans = {}
        for name, fn, closure, _ in self.placeholders:
            k = self.const(closure if closure is not None else _unreached)
            exec(compile(f"def {name}(*a):\n    return {k}(*a)\n", "<meeple stand-in>", "exec"), self.ns)
            self.fallbacks += 1
        self.late_tables = []
        self.why.append("a generated group did not compile: every rule runs as its closure")

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
