"""DSL text and where it starts in its file, so positions inside the text map
back to file, line and column.

The engine's YAML loader (``engine.yamlsrc``) records a ``TextOrigin`` for every
scalar and the pack model keeps each DSL snippet as a ``Source``; both are
re-exported there.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import Span


@dataclass(frozen=True, slots=True)
class TextOrigin:
    """Where a scalar's text starts, to map offsets inside it to the file."""

    file: str
    line: int      # 1-based line where the text starts
    col: int       # 1-based column where the text starts
    block: bool    # literal/folded block: every line shares ``col``
    folded: tuple[int, ...] = ()   # '>' blocks: the length of each source line folded into one


@dataclass(frozen=True, slots=True)
class Source:
    """A DSL snippet and where it starts in its YAML file."""

    text: str
    origin: TextOrigin
    span: Span
