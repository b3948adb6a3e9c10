"""Which rule is running: the named step of the rules (a procedure with a ``name:``, an
action, a card's hook or handler, a section of the flow) behind each change a choice
makes, for the narration ``meeple play`` prints ('Income: P1 coins +2').

Nothing here runs while games are simulated. A view that wants to tell what a choice
did applies that choice under ``RuleCauses.watch``, which follows the generated rules
with ``sys.settrace`` line by line: each generated line maps back to its YAML statement
(the generated module's line table), the statement to the code unit whose text holds
it, and the unit, if it is not named itself, to the nearest named unit that called it
(the Python frames of the generated rules, then the run loop's frames). Each time that
named unit changes, the caller is told, so it can look at the state between two named
steps. The rules run exactly as without it: tracing only watches.
"""
from __future__ import annotations

import bisect
import sys
import weakref
from dataclasses import dataclass
from typing import Any, Callable, Optional

from meeple.loading.model import Names


@dataclass(frozen=True)
class Cause:
    """A named step of the rules: its kind ('procedure', 'action', 'card', 'flow', 'score part'), its
    id (a procedure's, an action's, a card's or a scoring part's id, 'setup' / 'round' / 'scoring') and its
    declared names (None for a section of the flow: the view has its own words)."""

    kind: str
    id: str
    names: Optional[Names]


class RuleCauses:
    """The code units of one compiled game with the named step each stands for, and the
    YAML lines each unit's text covers. Made once per game (``of``): a narrator is made
    for every step a page tells, and tries every option of a hidden choice."""

    @staticmethod
    def of(game: Any) -> "RuleCauses":
        """The one ``RuleCauses`` of ``game`` (kept while the game lives)."""
        got = _made.get(game)
        if got is None:
            got = _made[game] = RuleCauses(game)
        return got

    def __init__(self, game: Any):
        codes = game.codes
        self.causes: list[Optional[Cause]] = [None] * len(codes)
        procs = {p.name: p for p in game.defn.procedures}
        for name, u in game.proc_code.items():
            p = procs.get(name)
            if p is not None and p.names is not None:
                self.causes[u] = Cause("procedure", name, p.names)
        defs = game.vocab.card_defs
        for table in (game.hook_code, game.handler_code):
            for (di, _), u in table.items():
                self.causes[u] = Cause("card", defs[di].id, defs[di].names)
        for a in game.actions:
            listed = game.defn.actions if a.card_def < 0 else defs[a.card_def].actions
            d = next((x for x in listed if x.id == a.id and (a.card_def >= 0 or x.group == a.group)), None)
            self.causes[a.effect] = Cause("action", a.id, d.names if d is not None else Names((("en", a.name),)))
        c = game.compiled
        for section, u in (("setup", c.setup_code), ("round", c.round_code)):
            self.causes[u] = Cause("flow", section, None)
        for part, u in zip(game.defn.scoring, c.scoring_codes):     # a named part under its name
            self.causes[u] = Cause("flow", "scoring", None) if part.names is None else Cause("score part", part.id, part.names)
        # (file, line) -> code unit, from the text each unit was compiled from
        self.unit_of_line: dict[tuple[str, int], int] = {}
        for u, code in enumerate(codes):
            recipe = code.recipe
            if recipe is None or recipe[0] != "unit":
                continue
            src = recipe[1]
            first = src.origin.line
            for line in range(first, first + src.text.count("\n") + 1):
                self.unit_of_line.setdefault((src.origin.file, line), u)
        gen = game.pygen
        self.filename = gen.filename if gen is not None else None
        # the generated module's lines that run a statement, sorted: a line inside a
        # statement reads the one that starts it
        spans = gen.line_spans if gen is not None else {}
        self.lines = sorted(spans)
        self.line_units = [self._unit_of_span(spans[n]) for n in self.lines]

    def _unit_of_span(self, span: Any) -> Optional[int]:
        return self.unit_of_line.get((span.file, span.line)) if span is not None else None

    def unit_at(self, lineno: int, first: int) -> Optional[int]:
        """The code unit a line of the generated module runs a statement of, or None: the
        statement the line is in, or starts, within the function starting at line ``first``."""
        i = bisect.bisect_right(self.lines, lineno) - 1
        return self.line_units[i] if i >= 0 and self.lines[i] >= first else None

    def cause(self, frame: Any, st: Any) -> Optional[Cause]:
        """The nearest named step running at a generated Python frame: its own unit, the
        units of the generated frames that called it, then the run loop's frames."""
        f = frame
        while f is not None:
            if f.f_code.co_filename == self.filename:
                u = self.unit_at(f.f_lineno, f.f_code.co_firstlineno)
                if u is not None and self.causes[u] is not None:
                    return self.causes[u]
            f = f.f_back
        return self.resting(st)

    def resting(self, st: Any) -> Optional[Cause]:
        """The nearest named step among the run loop's frames (innermost first)."""
        for fr in reversed(st.frames):
            c = self.causes[fr.code] if 0 <= fr.code < len(self.causes) else None
            if c is not None:
                return c
        return None

    def watch(self, st: Any, run: Callable[[], Any], step: Callable[[Optional[Cause]], None]) -> Any:
        """``run()`` (which plays a choice on ``st``), calling ``step(cause)`` each time the
        named step running is about to change, with the one that ran until then (the
        state then holds what it did); and once at the end, with the last. Returns what
        ``run`` returns. A previous tracer (a coverage tool's) is put back afterwards."""
        filename = self.filename
        running: list[Optional[Cause]] = [self.resting(st)]      # the named step running
        last_unit: list[Optional[int]] = [-2]                     # the unit of the last line traced
        failed: list[BaseException] = []     # an error of ``step``: never raised into the rules, raised after them

        def line(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                u = self.unit_at(frame.f_lineno, frame.f_code.co_firstlineno)
                if u != last_unit[0]:
                    last_unit[0] = u
                    now = self.cause(frame, st)
                    if now != running[0] and not failed:
                        try:
                            step(running[0])
                        except Exception as err:       # the watcher's fault, not the rules': the game goes on
                            failed.append(err)
                        running[0] = now
            return line

        def call(frame: Any, event: str, arg: Any) -> Any:
            return line if frame.f_code.co_filename == filename else None

        before = sys.gettrace()
        sys.settrace(call)
        try:
            result = run()
        finally:
            sys.settrace(before)
        if failed:
            raise failed[0]
        step(running[0])
        return result


_made: "weakref.WeakKeyDictionary[Any, RuleCauses]" = weakref.WeakKeyDictionary()
