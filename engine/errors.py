"""One error hierarchy, every error carrying where in the content it came from.

Location is data; rendering is separate (``render``), so the same problem can
be printed for a person (file:line:col, the source line and a caret) or
emitted as JSON for CI.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

# The error base and the language's errors live in the language (the dsl never
# imports the engine); they are the same classes here, re-exported.
from dsl.errors import (  # noqa: F401  (re-exports)
    UNKNOWN,
    ContentError,
    DslCheckError,
    DslSyntaxError,
    IllegalChoice,
    MeepleError,
    Refusal,
    RuleError,
    Span,
    location,
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
