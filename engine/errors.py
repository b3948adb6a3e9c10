"""One error hierarchy, every error carrying where in the content it came from.

Location is data; rendering is separate (``render``), so the same problem can
be printed for a person (file:line:col, the source line and a caret) or
emitted as JSON for CI.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a content file: 1-based line and column, and a length."""

    file: str
    line: int
    col: int
    length: int = 1

    def shifted(self, line_offset: int, col_offset: int, length: int | None = None) -> "Span":
        return Span(self.file, self.line + line_offset, col_offset, self.length if length is None else length)


UNKNOWN = Span("<unknown>", 0, 0, 0)


class MeepleError(Exception):
    """Base of every error meeple reports to a person."""

    kind = "error"

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span or UNKNOWN
        self.hint = hint

    def __str__(self) -> str:  # pragma: no cover - convenience
        return render(self, with_excerpt=False)


class ContentError(MeepleError):
    """A pack file is malformed: YAML syntax, schema, unknown reference."""


class DslSyntaxError(ContentError):
    """DSL text does not parse."""


class DslCheckError(ContentError):
    """DSL text parses but refers to something the pack does not define."""


class RuleError(MeepleError):
    """A rule could not be carried out at run time (step budget, bad value)."""


class IllegalChoice(MeepleError):
    """A choice that is not among the legal options; the state is untouched."""


class Refusal(IllegalChoice):
    """A ``require`` in an effect failed: the choice that led there is refused
    and the state is put back as it was before it."""


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

    def add(self, err: MeepleError) -> None:
        self.errors.append(err)

    def extend(self, errs: Iterable[MeepleError]) -> None:
        self.errors.extend(errs)

    def __bool__(self) -> bool:
        return bool(self.errors)


class PackInvalid(MeepleError):
    """Raised when a pack has errors; carries all of them."""

    def __init__(self, problems: Problems):
        super().__init__(f"{len(problems.errors)} error(s) in pack")
        self.problems = problems


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """A did-you-mean hint, as click does for unknown options."""
    # Names from YAML may be numbers, booleans or null: compare their text, never fail.
    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


_source_cache: dict[str, list[str]] = {}


def _source_line(file: str, line: int) -> str | None:
    lines = _source_cache.get(file)
    if lines is None:
        try:
            lines = Path(file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            lines = []
        _source_cache[file] = lines
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def location(span: Span) -> str:
    return f"{span.file}:{span.line}:{span.col}" if span.line else span.file


def render(err: MeepleError | Problem, with_excerpt: bool = True) -> str:
    """``file:line:col: message; hint`` then the source line and a caret."""
    span = err.span
    message = err.message
    hint = getattr(err, "hint", None)
    head = f"{location(span)}: {getattr(err, 'kind', 'error') if isinstance(err, Problem) else 'error'}: {message}"
    if hint:
        head += f"; {hint}"
    if not with_excerpt or not span.line:
        return head
    src = _source_line(span.file, span.line)
    if src is None:
        return head
    caret = " " * (span.col - 1) + "^" * max(1, min(span.length, max(1, len(src) - span.col + 1)))
    return f"{head}\n    {src}\n    {caret}"


def as_json(err: MeepleError | Problem) -> dict:
    span = err.span
    return {
        "severity": "warning" if isinstance(err, Problem) else "error",
        "type": type(err).__name__,
        "file": span.file,
        "line": span.line,
        "col": span.col,
        "message": err.message,
        "hint": getattr(err, "hint", None),
    }
