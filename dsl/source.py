"""DSL text and where it starts in its file, so positions inside the text map
back to file, line and column.

The engine's YAML loader (``meeple.loading.yamlsrc``) records a ``TextOrigin`` for every
scalar and the pack model keeps each DSL snippet as a ``Source``; both are
re-exported there.

A literal block scalar (``|``) holds its text line for line, each line at the
same column. A quoted, plain or folded (``>``) scalar is another matter:
escapes (``\\n``, ``\\"``, ``''``) and folded lines put the text's letters
elsewhere than where a count of lines and columns would. For those the origin
keeps the scalar as written (``raw``), and ``position`` reads it again as YAML
does, one letter at a time, when an error needs a place.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

from .errors import Span
from .limits import MAX_TEXT


@dataclass(frozen=True, slots=True)
class TextOrigin:
    """Where a scalar's text starts, to map offsets inside it to the file."""

    file: str
    line: int      # 1-based line where the text starts
    col: int       # 1-based column where the text starts
    block: bool    # a block scalar ('|' or '>'): every line of its source starts at ``col``
    # a scalar whose text is not its source as written (escapes, folded lines): the source
    # from its first char (a quote, if any; for '>', the start of the line after it)
    # to its last, its style and the text YAML made of it (the same string object)
    raw: str = field(default="", compare=False, repr=False)
    style: str = field(default="", compare=False, repr=False)      # '"', "'", '>' or '' (plain)
    text: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Source:
    """A DSL snippet and where it starts in its YAML file."""

    text: str
    origin: TextOrigin
    span: Span


# The longest source read again: a text of MAX_TEXT chars written with the longest
# escapes ('\U0001F600' for one char).
_MAX_RAW = 10 * MAX_TEXT + 2

_BREAKS = "\r\n\x85\u2028\u2029"
_ESCAPES = {"0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
            "r": "\r", "e": "\x1b", " ": " ", '"': '"', "\\": "\\", "/": "/", "N": "\x85", "_": "\xa0",
            "L": "\u2028", "P": "\u2029"}
_CODES = {"x": 2, "u": 4, "U": 8}


class _Reader:
    """The scalar as written, read as PyYAML's scanner reads it (``scan_flow_scalar``,
    ``scan_plain``), keeping for every char it makes the file position it came from."""

    def __init__(self, raw: str, line: int, col: int):
        self.raw, self.i, self.line, self.col = raw + "\0", 0, line, col
        self.chars: list[str] = []
        self.where: list[tuple[int, int]] = []

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.raw[j] if j < len(self.raw) else "\0"

    def forward(self, n: int = 1) -> None:
        for _ in range(n):
            ch = self.raw[self.i]
            self.i += 1
            if ch in "\n\x85\u2028\u2029" or (ch == "\r" and self.peek() != "\n"):
                self.line, self.col = self.line + 1, 1
            elif ch != "\ufeff":
                self.col += 1

    def emit(self, text: str, at: tuple[int, int]) -> None:
        for ch in text:
            self.chars.append(ch)
            self.where.append(at)

    def here(self) -> tuple[int, int]:
        return self.line, self.col

    def line_break(self) -> str:
        ch = self.peek()
        if ch in "\r\n\x85":
            self.forward(2 if self.raw[self.i:self.i + 2] == "\r\n" else 1)
            return "\n"
        self.forward()
        return ch

    def breaks(self, spaces: str) -> list[tuple[str, tuple[int, int]]]:
        out = []
        while True:
            while self.peek() in spaces:
                self.forward()
            if self.peek() in _BREAKS:
                at = self.here()
                out.append((self.line_break(), at))
            else:
                return out

    def folded(self, spaces: str) -> None:
        """A line break and the blank lines after it: one space, or the breaks themselves."""
        at = self.here()
        first = self.line_break()
        rest = self.breaks(spaces)
        if first != "\n":
            self.emit(first, at)
        elif not rest:
            self.emit(" ", at)
        for ch, where in rest:
            self.emit(ch, where)

    def quoted(self, double: bool) -> None:
        quote = self.peek()
        self.forward()
        self.non_spaces(double)
        while self.peek() != quote:
            if self.peek() == "\0":
                raise ValueError("the quotes do not close")
            start = self.i
            while self.peek() in " \t":
                self.forward()
            if self.peek() in _BREAKS:
                self.folded(" \t")
            else:
                for k, ch in enumerate(self.raw[start:self.i]):
                    self.emit(ch, (self.line, self.col - (self.i - start) + k))
            self.non_spaces(double)

    def non_spaces(self, double: bool) -> None:
        while True:
            ch = self.peek()
            while ch not in "'\"\\\0 \t" + _BREAKS:
                self.emit(ch, self.here())
                self.forward()
                ch = self.peek()
            at = self.here()
            if not double and ch == "'" and self.peek(1) == "'":
                self.emit("'", at)
                self.forward(2)
            elif (double and ch == "'") or (not double and ch in '"\\'):
                self.emit(ch, at)
                self.forward()
            elif double and ch == "\\":
                self.forward()
                ch = self.peek()
                if ch in _ESCAPES:
                    self.emit(_ESCAPES[ch], at)
                    self.forward()
                elif ch in _CODES:
                    n = _CODES[ch]
                    self.emit(chr(int(self.raw[self.i + 1:self.i + 1 + n], 16)), at)
                    self.forward(1 + n)
                elif ch in _BREAKS:
                    self.line_break()
                    for brk, where in self.breaks(" \t"):
                        self.emit(brk, where)
                else:
                    raise ValueError(f"unknown escape \\{ch}")
            else:
                return

    def folded_block(self, indent: int) -> None:
        """A '>' block scalar's lines (the source starts on the line after the '>'), folded
        as PyYAML's ``scan_block_scalar`` folds them; ``indent``: the spaces before its text."""
        breaks = []
        while self.peek() in " " + _BREAKS:          # blank lines before the text are line breaks
            if self.peek() == " ":
                self.forward()
            else:
                at = self.here()
                breaks.append((self.line_break(), at))
        while self.col - 1 == indent and self.peek() != "\0":
            for ch, where in breaks:
                self.emit(ch, where)
            leading_non_space = self.peek() not in " \t"
            while self.peek() not in "\0" + _BREAKS:
                self.emit(self.peek(), self.here())
                self.forward()
            at = self.here()
            line_break = self.line_break() if self.peek() != "\0" else ""
            breaks = []
            while True:
                while self.col - 1 < indent and self.peek() == " ":
                    self.forward()
                if self.peek() not in _BREAKS or self.peek() == "\0":
                    break
                where = self.here()
                breaks.append((self.line_break(), where))
            if self.col - 1 == indent and self.peek() != "\0":
                if line_break == "\n" and leading_non_space and self.peek() not in " \t":
                    if not breaks:
                        self.emit(" ", at)
                else:
                    self.emit(line_break, at)
            else:
                if line_break:
                    self.emit(line_break, at)
                break

    def plain(self) -> None:
        pending: list[tuple[str, tuple[int, int]]] = []
        while self.peek() != "\0":
            if self.peek() in " \t" + _BREAKS:
                raise ValueError("a plain scalar does not start or end with a space")
            for ch, where in pending:
                self.emit(ch, where)
            while self.peek() not in "\0 \t" + _BREAKS:
                self.emit(self.peek(), self.here())
                self.forward()
            mark = len(self.chars)
            start = self.i
            while self.peek() == " ":
                self.forward()
            if self.peek() in _BREAKS:
                self.folded(" ")
            else:
                for k, ch in enumerate(self.raw[start:self.i]):
                    self.emit(ch, (self.line, self.col - (self.i - start) + k))
            pending = list(zip(self.chars[mark:], self.where[mark:]))     # only kept if more text follows
            del self.chars[mark:], self.where[mark:]


@lru_cache(maxsize=64)
def _read(raw: str, style: str, text: str, line: int, col: int) -> Optional[tuple[list[str], list[tuple[int, int]]]]:
    reader = _Reader(raw, line, 1 if style == ">" else col)
    try:
        if style in ('"', "'"):
            reader.quoted(style == '"')
        elif style == ">":
            reader.folded_block(col - 1)
        else:
            reader.plain()
    except (ValueError, IndexError):
        return None
    made = "".join(reader.chars)
    if made != text and not (style == ">" and made.rstrip("\n") == text.rstrip("\n")):      # '>-', '>+' keep other ends
        return None         # read otherwise than YAML did: no place is better than a wrong one
    return reader.chars, reader.where + [reader.here()]


def position(origin: TextOrigin, line: int, col: int) -> Optional[tuple[int, int]]:
    """The file (line, column) of the char at (line, col) of a quoted or plain scalar's
    text (just after its end for a place past it), or None when it cannot be told."""
    if len(origin.raw) > _MAX_RAW:
        return None             # a text this long is refused for its length: its start will do
    quote = 1 if origin.style in ('"', "'") else 0      # for '>', col is where its lines' text starts
    found = _read(origin.raw, origin.style, origin.text, origin.line, origin.col - quote)
    if found is None:
        return None
    chars, where = found
    offset, at_line = 0, 1
    while at_line < line:
        try:
            offset = chars.index("\n", offset) + 1
        except ValueError:
            return None
        at_line += 1
    end = len(chars)
    try:
        end = chars.index("\n", offset)
    except ValueError:
        pass
    return where[min(offset + col - 1, end)]
