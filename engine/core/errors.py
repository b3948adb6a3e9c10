"""One error hierarchy, every error carrying where in the content it came from.

Location is data; rendering is separate (``render``), so the same problem can
be printed for a person (file:line:col, the source line and a caret) or
emitted as JSON for CI.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

# The error base and the language's errors live in the language (the dsl never
# imports the engine); they are the same classes here, re-exported.
from meeple.dsl.errors import (  # noqa: F401  (re-exports)
    UNKNOWN,
    ContentError,
    DslCheckError,
    DslSyntaxError,
    IllegalChoice,
    MeepleError,
    Refusal,
    RuleError,
    RuleFault,
    Span,
    location,
    printable,
    suggest,
)


class UsageError(MeepleError):
    """The command line asked for something that does not exist."""


@dataclass(slots=True)
class Problem:
    """A warning (never fails validation), e.g. a provisional value."""

    message: str
    span: Span
    kind: str = "warning"


@dataclass
class Problems:
    """Collects every problem of a load, so all are reported at once."""

    errors: list[MeepleError] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    # names declared by parts of files left out for their own errors (engine/loading/salvage.py),
    # and the errors held back because they only say one of those names is unknown
    left_out: set[str] = field(default_factory=set)
    hidden: list[MeepleError] = field(default_factory=list)
    # the game's declarations (types, zones, names) have errors: its rules are not compiled
    declarations_broken: bool = False

    def add(self, err: MeepleError) -> None:
        if self.left_out and self.follows_from_left_out(err):
            self.hidden.append(err)
        else:
            self.errors.append(err)

    def extend(self, errs: Iterable[MeepleError]) -> None:
        for err in errs:
            self.add(err)

    def follows_from_left_out(self, err: MeepleError) -> bool:
        """Whether ``err`` only says that a name declared in a left-out part is unknown
        ('unknown zone 'hand'', ''bonus' is not a hook of coin', 'no card 'gem'...')."""
        return any(name in self.left_out for name in _MISSING_NAME.findall(err.message))

    def __bool__(self) -> bool:
        return bool(self.errors)


# the name an error says is missing: "unknown card kind 'coin'", "'cost' is not a field of
# coin", "there is no card 'gem' to remove", "cannot set 'passed': not a variable"
_MISSING_NAME = re.compile(r"(?:unknown [\w ]*?'|'(?=[^']+' is not a )|\bno [\w ]*?'|cannot set ')([^']+)'")


class PackInvalid(MeepleError):
    """Raised when a pack has errors; carries all of them."""

    def __init__(self, problems: Problems):
        super().__init__(f"{len(problems.errors)} error(s) in pack")
        self.problems = problems


# The text of every file the loader read, by the name its spans carry: excerpts come
# from here only, so an error never prints a line of a file that is not part of a pack
# (a span naming any other path gets no excerpt).
_sources: dict[str, str] = {}
_source_lines: dict[str, list[str]] = {}

# An excerpt shows at most this many chars of its line, around the caret.
EXCERPT_WIDTH = 160


def remember_source(file: str, text: str) -> None:
    """Keep a pack file's text (as read) for the excerpts of errors located in it."""
    _sources[file] = text
    _source_lines.pop(file, None)


def _source_line(file: str, line: int) -> str | None:
    lines = _source_lines.get(file)
    if lines is None:
        text = _sources.get(file)
        if text is None:
            return None
        lines = _source_lines[file] = text.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def _excerpt(src: str, col: int, length: int) -> tuple[str, str]:
    """The source line and its caret line, with non-printing code points escaped (the caret
    moves with them) and a long line cut to EXCERPT_WIDTH chars around the caret."""
    length = max(1, min(length, max(1, len(src) - col + 1)))
    past = max(0, col - 1 - len(src))           # a place just after the line's end
    before = printable(src[:col - 1])
    marked = printable(src[col - 1:col - 1 + length])
    after = printable(src[col - 1 + length:])
    if len(before) + len(marked) + len(after) > EXCERPT_WIDTH:
        marked = marked[:EXCERPT_WIDTH // 2]
        keep = (EXCERPT_WIDTH - len(marked)) // 2
        if len(before) > keep:
            before = "..." + before[len(before) - keep + 3:]
        after = after[:max(0, EXCERPT_WIDTH - len(before) - len(marked) - 3)] + "..."
    return before + marked + after, " " * (len(before) + past) + "^" * max(1, len(marked) if src else length)


def render(err: MeepleError | Problem, with_excerpt: bool = True) -> str:
    """``file:line:col: message; hint`` then the source line and a caret."""
    span = err.span
    message = printable(err.message)
    hint = getattr(err, "hint", None)
    severity = getattr(err, 'kind', 'error') if isinstance(err, Problem) else 'error'
    # An error that belongs to no file (a usage error: a name refused on the command
    # line) says just what is wrong, never a made-up place such as '<unknown>'.
    head = f"{severity}: {message}" if span == UNKNOWN else f"{location(span)}: {severity}: {message}"
    if hint:
        head += f"; {printable(hint)}"
    if not with_excerpt or not span.line:
        return head
    src = _source_line(span.file, span.line)
    if src is None:
        return head
    line, caret = _excerpt(src, span.col, span.length)
    return f"{head}\n    {line}\n    {caret}"


def as_json(err: MeepleError | Problem) -> dict:
    span = err.span
    return {
        "severity": "warning" if isinstance(err, Problem) else "error",
        "type": type(err).__name__,
        "file": printable(span.file),
        "line": span.line,
        "col": span.col,
        "message": printable(err.message),
        "hint": printable(getattr(err, "hint", None)),
    }
