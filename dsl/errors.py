"""The error base and the language's errors, every one carrying where in the
content it came from.

These live in the language because the parser, the checks and the compiled
rules raise them; the engine re-exports them from ``meeple.core.errors`` beside its
own errors (pack loading, usage) and the rendering (``meeple.core.errors.render``).
Location is data: a ``Span``.
"""
from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Optional, overload


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


def location(span: Span) -> str:
    file = printable(span.file)
    return f"{file}:{span.line}:{span.col}" if span.line else file


# Code points that print as nothing, move the cursor or turn the text around (controls,
# format code points such as the bidirectional overrides U+202A-U+202E and U+2066-U+2069,
# line and paragraph separators, surrogates, private use): messages show them escaped.
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Co", "Zl", "Zp"))


@overload
def printable(text: str) -> str: ...
@overload
def printable(text: None) -> None: ...
def printable(text: Optional[str]) -> Optional[str]:  # noqa: E302
    """``text`` with every code point that does not print as itself written as Python
    writes it in a string (``\\n``, ``\\x1b``, ``\\u202e``): content text echoed in a
    message cannot move the terminal's cursor or reorder what a person reads."""
    if not isinstance(text, str) or text.isprintable():
        return text
    return "".join(_escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if unicodedata.category(ch) not in _HIDDEN:
        return ch
    shown = repr(ch)[1:-1]
    return shown if shown != ch else f"\\u{ord(ch):04x}"


class MeepleError(Exception):
    """Base of every error meeple reports to a person."""

    kind = "error"
    named = False      # a rule error already says which rules it happened in

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None):
        # Messages echo content text (names, ids, values): never a raw control code.
        message, hint = printable(message), printable(hint)
        super().__init__(message)
        self.message = message
        self.span = span or UNKNOWN
        self.hint = hint

    def __str__(self) -> str:  # pragma: no cover - convenience
        # The first line of ``meeple.core.errors.render(err, with_excerpt=False)``.
        head = f"{location(self.span)}: error: {self.message}"
        return f"{head}; {self.hint}" if self.hint else head


class ContentError(MeepleError):
    """A pack file is malformed: YAML syntax, schema, unknown reference."""


class DslSyntaxError(ContentError):
    """DSL text does not parse."""


class DslCheckError(ContentError):
    """DSL text parses but refers to something the pack does not define."""


class RuleError(MeepleError):
    """A rule could not be carried out at run time (step budget, bad value).

    Raised while a game runs, it is told the game's seed and the number of choices
    made before it (the engine adds both to the message), which reproduce it."""

    seed: Optional[int] = None       # the game's seed
    choice: Optional[int] = None     # choices made before the error (0: before the first)


class RuleFault(RuleError):
    """A value a rule computed cannot be used: a division by zero, a number or a
    list too large, a player or a current player who is not there, a card of
    another kind. Raised inside an expression (or by the statement using its
    value); the run loop has ``meeple.dsl.faults`` name the expression that made it,
    as it does for Python's own errors (``meeple.dsl.types.RULE_FAULTS``)."""


class IllegalChoice(MeepleError):
    """A choice that is not among the legal options; the state is untouched.

    ``code`` names the reason in words that do not change with the message's
    text (scenario files match it with ``refused:``): not_legal, not_a_choice,
    needs_choice, per_turn, unmet, nothing_to_choose, not_available,
    ambiguous (a key that fits several options: 'white_die' for
    'white_die@P1=5' and 'white_die@P2=4'), out_of_range, no_decision; None
    for other illegal choices."""

    code: Optional[str] = None
    # the message as the engine's catalogue has it, and its values: a screen says it in
    # its reader's language (meeple.core.catalogue); None: the message is all there is
    words: Optional[tuple[str, dict]] = None

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None, code: Optional[str] = None,
                 words: Optional[tuple[str, dict]] = None):
        super().__init__(message, span, hint)
        self.code = code
        self.words = words


# what a ``require`` with no message of its own says: the engine's words, which a play
# screen says in its language (meeple.core.catalogue), as it says a pack's message in the pack's
UNMET = "a requirement does not hold"


class Refusal(IllegalChoice):
    """A ``require`` in an effect failed: the choice that led there is refused
    and the state is put back as it was before it. Its code is derived from the
    message (``require_code``) unless one is given."""

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None, code: Optional[str] = None):
        super().__init__(message, span, hint, code or require_code(message))


def require_code(message: str) -> str:
    """The code of a ``require``'s refusal: its message in lower case, every run of other
    symbols than a-z and 0-9 one underscore ("Too late!" -> too_late);
    'require' for a message with none of those."""
    return "_".join("".join(ch if "a" <= ch <= "z" or "0" <= ch <= "9" else " " for ch in message.lower()).split()) or "require"


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """A did-you-mean hint, as click does for unknown options."""
    # Names from YAML may be numbers, booleans or null: compare their text, never fail.
    close = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def in_words(exc: BaseException) -> str:
    """What a Python error means, said without Python's words: for a fault no
    expression could be pinned to."""
    text = str(exc)
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, (TypeError, AttributeError)) and "None" in text:
        return "a value that is none was used where a value is needed"
    if isinstance(exc, TypeError):
        return "a value of the wrong kind was used"
    if isinstance(exc, (IndexError, KeyError)):
        return "a number out of range was used (no such player, card or place)"
    return "a value out of range was used"
