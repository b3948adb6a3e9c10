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
placeholder whose code becomes the generated one in ``Module.finish``. A module that does
not compile (a defect of the generator's, or one of Python's own limits: nesting, size) is
an internal error (``GeneratedCodeError``) naming the function and the rule it was written
from; no other back end stands in for it.
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


def note_score(st: Any, rule: str, p: int, change: int) -> None:
    """A change of the score by ``rule`` for player ``p``, noted until the final scoring begins
    (``State.scored``: a dict never changed in place, so a copy of the state shares it safely;
    a change copies it, which costs the rules that scored so far, not the changes made)."""
    if st.played is None and change:
        noted = dict(st.scored)
        key = (rule, p)
        noted[key] = noted.get(key, 0) + change
        st.scored = noted


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


class GeneratedCodeError(RuntimeError):
    """The Python generated for a pack's rules did not compile: a defect of meeple's (the
    generator wrote what Python refuses, or met one of Python's own limits), never of the
    pack's. Not a ``MeepleError``: the command line reports it as an internal error."""


def _left_out(st, fr):  # pragma: no cover - nothing calls it
    """What a generated function left out of the module becomes (its every use is written
    into another function, so nothing calls it)."""
    raise RuntimeError("a generated function written into others was called on its own")


def _placeholder(st, fr):  # pragma: no cover - replaced before any game runs
    raise RuntimeError("generated rules used before the module was compiled")


def _cache(loc: list, slot: int, value: Any) -> Any:
    loc[slot] = value
    return value


_BUILTINS = {"len": len, "map": map, "list": list, "int": int, "str": str, "abs": abs, "range": range, "min": min, "max": max, "sum": sum, "bool": bool, "any": any, "all": all,
             "True": True, "False": False, "None": None}

_RUNTIME = {"_U": UNSET, "_me": _me, "_cache": _cache, "_div": divide, "_mod": remainder, "_range": number_range,
            "_move": _move, "_own": own_zone, "_wz": zone_to_write, "_spent": out_of_steps, "_negative": _negative, "_short": _short, "_Refusal": Refusal, "_uses": uses,
            "_join": join, "_counted": counted, "_big": overflow, "_ME": MeepleError, "_RF": RULE_FAULTS,
            "_named": named_error, "_NO_ANSWER": NO_ANSWER, "_Decision": Decision, "_no_chooser": no_such_chooser,
            "_Frame": Frame, "_call_direct": call_direct, "_charge": charge, "_used_once_more": used_once_more,
            "_picks_prompt": picks_prompt, "_scored": note_score}


class Module:
    """The generated functions of one pack, collected, then compiled at once (``finish``)."""

    def __init__(self, pack: str):
        self.filename = generated_file(pack)
        self.ns: dict[str, Any] = {"__builtins__": dict(_BUILTINS), **_RUNTIME}
        self.parts: list[_Part] = []            # the module's functions, in order
        self.placeholders: list[tuple[str, Any, _Part]] = []
        self._names = 0
        self._const_ids: dict[int, str] = {}
        self._keep: list = []                # keeps bound objects alive (ids stay unique)
        self.line_spans: dict[int, Any] = {}  # line of the module -> span of the rule it runs
        self.source = ""                      # the module, once ``finish`` compiled it
        self.rule = ""                        # the rule being written (a unit's name), for comments
        self.late_tables: list = []           # (made name, {card def: [helper names]}) bound after compiling
        self.late: list[tuple[str, Callable[[], Any]]] = []      # (made name, what makes its value) bound then too
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

    def linked(self, prefix: str, make: Callable[[], Any]) -> str:
        """A made name bound to ``make()`` when the module is compiled (``finish``): a value
        known only once every unit is compiled (a procedure's code unit, a hook's by card)."""
        name = self.fresh(prefix)
        self.late.append((name, make))
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

    def define(self, name: str, source: str, spans: Sequence = (), head: str = "") -> Fn:
        """Queue a generated function's source (``finish`` compiles the module) and
        give the function object that becomes it then: callers bind it now. ``spans``
        map its lines to the statements they were written from; ``head`` is its
        comment (where in the pack it comes from; by default, the rule being written)."""
        part = _Part(head or comment(self.rule), source, list(spans))
        self.parts.append(part)
        fn = _pytypes.FunctionType(_placeholder.__code__, self.ns, name)
        self.placeholders.append((name, fn, part))
        self.generated += 1
        return fn

    def add(self, head: str, source: str, spans: Sequence = ()) -> None:
        """A function that generated ones call by its made name, bound when the module runs
        (``spans``: the statements its lines run, as for ``define``)."""
        self.parts.append(_Part(head, source, list(spans)))

    def helper(self, name: str, source: str, head: str) -> None:
        """A function that generated ones call by its made name, handed out before the module is compiled."""
        part = _Part(head, source)
        self.parts.append(part)
        self.placeholders.append((name, _pytypes.FunctionType(_placeholder.__code__, self.ns, name), part))

    def instruction(self, prefix: str, body: list, last: str, head: str = "") -> Fn:
        """A generated instruction of (state, frame): ``body`` (with ``L``, the frame's
        locals) then ``last`` (the return of where to go); ``head``: its comment."""
        name = self.fresh(prefix)
        return self.define(name, self.function_source(name, [*body, last]), head=head)

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
        for name, make in self.late:
            self.ns[name] = make()
        for tname, (table, defs) in self.late_tables:      # per card: its definition's helpers, or None
            fns = {d: tuple(self.ns[h] for h in hs) for d, hs in table.items()}
            self.ns[tname] = [fns.get(d) for d in defs]
        for name, fn, _ in self.placeholders:
            fn.__code__ = self.ns[name].__code__
        linecache.cache[self.filename] = (len(source), None, source.splitlines(True), self.filename)
        self.source = source
        self.placeholders = []

    def _live(self, inlined: set) -> list[_Part]:
        """The parts to compile: a function written into every run that runs it is left out
        (its placeholder says so if it is ever called: ``_left_out``)."""
        live = []
        for name, fn, part in self.placeholders:
            if fn in inlined:
                part.dead = True
                fn.__code__ = _left_out.__code__
            else:
                live.append((name, fn, part))
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
        """Compile the module at once. If Python refuses it, the parts are compiled one by one
        (each at its line of the module) to name the first it refuses, and the error says which
        function of which rule, and why: an internal error, for a defect of the generator's."""
        try:
            exec(compile(source, self.filename, "exec"), self.ns)
            return
        except (SyntaxError, RecursionError, MemoryError, ValueError) as whole:
            why: BaseException = whole
            culprit: Optional[_Part] = None
            for part in parts:
                try:
                    compile("\n" * part.line + part.text, self.filename, "exec")
                except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
                    why, culprit = exc, part
                    break
        where = "" if culprit is None else \
            f" in {culprit.text.split('(', 1)[0].removeprefix('def ')} (line {culprit.line + 1}), written from {culprit.head.removeprefix('# ')}"
        raise GeneratedCodeError(f"meeple's generated Python for {self.filename} does not compile ({type(why).__name__}: {why})"
                                 f"{where}: a defect of meeple's, not of the pack") from why

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
