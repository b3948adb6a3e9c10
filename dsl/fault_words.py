"""Faults said in the language's words (``meeple.dsl.faults``): the expression as written,
the part of it that gave none and what it did to give it ('`first(...)` found nothing, so
`.value` of none'), a value as a message shows it (a card by its id, a player as P1), and
the item of the walk the fault happened in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from . import ast as A
from .errors import RuleFault, Span, in_words
from .hoist import free_names
from .parser import to_span
from .typesys import PLAYER, Card, Type

if TYPE_CHECKING:
    from .faults import _Watching

MISSING = object()
NO_PLAYER = "no current player here (use 'as PLAYER:' or 'of PLAYER')"
_LONGEST = 60          # an expression named in a message is cut to this many chars


class Words:
    """A fault said in the language's words: the expression as written, the part of it that
    gave none and what it did to give it, the item of the walk it was in."""

    def __init__(self, c: "_Watching"):
        self.c = c
        self.g = c.g

    def item(self, n: A.Node, context: tuple, fr: Any) -> str:
        """' (for c = copper)': the item of the innermost walk ``n`` reads, as it was."""
        scope, walks = context
        names = free_names(n)
        for var in reversed(walks):
            found = scope.lookup(var)
            if found is not None and var in names:
                return f" (for {var} = {self.shown(fr.locals[found[0]], found[1])})"
        return ""

    def told(self, n: A.Node, origin: Any, exc: BaseException, st: Any, fr: Any) -> tuple[str, Span]:
        """A watched expression's own operation failed: what, in words, at its place."""
        text, span = self.text_of(n, origin), self.span_of(n, origin)
        if isinstance(exc, RuleFault):
            return f"`{text}`: {exc.message}", span
        if isinstance(n, (A.Name, A.Me, A.Of)) and (fr.me is None or not 0 <= fr.me < st.players) \
                and not (isinstance(n, A.Of) and n.scope == "player"):
            return f"`{text}`: {NO_PLAYER}", span
        culprit = self.culprit(n)
        if culprit is not None:
            return f"`{text}`: {self.none_phrase(culprit, origin, st)}, so {_operation(n)}", span
        return f"`{text}`: {in_words(exc)}", span

    def arith_told(self, node: A.Binary, left: A.Node, v: Any, w: Any, exc: BaseException, origin: Any) -> tuple[str, Span]:
        text, span = self.text_of(node, origin), self.span_of(node, origin)
        if isinstance(exc, RuleFault):
            zero = w == 0 and node.op in ("/", "%") and not isinstance(node.right, A.Int)
            return f"`{text}`: {exc.message}" + (f" (`{self.text_of(node.right, origin)}` is 0)" if zero else ""), span
        culprit = left if v is None else node.right if w is None else None
        if culprit is not None:
            return f"`{text}`: {self.none_phrase(culprit, origin, None)}, so {_operation(node)}", span
        return f"`{text}`: {in_words(exc)}", span

    def culprit(self, n: A.Node) -> Optional[A.Node]:
        """The first part of ``n`` whose value, just given, was none."""
        for part in _parts(n):
            if self.c.seen.get(part, MISSING) is None:
                return part
        return None

    def none_phrase(self, n: A.Node, origin: Any, st: Any, whole: bool = False) -> str:
        """How a part that gave none is named: what it did to give it. A call is named
        short ('`first(...)`': the expression it is part of was named whole) unless ``whole``."""
        text = self.text_of(n, origin)
        if isinstance(n, A.Call):
            name = f"`{text}`" if whole else f"`{n.func}(...)`" if n.args else f"`{n.func}()`"
            why = _NONE_BECAUSE.get(n.func) if n.func not in self.g.function_defs else None
            return f"{name} {why}" if why else f"{name} gave none"
        if isinstance(n, A.Field):
            card = self.c.seen.get(n.target, MISSING)
            kind = self.kind_of(card)
            if kind is not None and n.name not in self.g.kind_fields.get(kind, {}) \
                    and n.name not in self.g.kind_cvars.get(kind, {}):
                return f"`{text}` is none ({kind} cards have no '{n.name}')"
        return f"`{text}` is none"

    def kind_of(self, card: Any) -> Optional[str]:
        g = self.g
        if card.__class__ is not int or not 0 <= card < len(g.card_def_index):
            return None
        return g.card_defs[g.card_def_index[card]].kind

    def shown(self, v: Any, t: Type) -> str:
        """A value as a message shows it: a card by its id, a player as P1, P2..."""
        if v is None:
            return "none"
        if isinstance(t, Card) and self.kind_of(v) is not None:
            return self.g.card_def_ids[v]
        if t == PLAYER and v.__class__ is int:
            return f"P{v + 1}"
        return f'"{v}"' if isinstance(v, str) else str(v)

    def text_of(self, n: A.Node, origin: Any) -> str:
        """The text of ``n`` as written (on one line, blanks closed up, cut when long)."""
        text = self.c.texts.get(origin)
        if text is None:
            return type(n).__name__.lower()
        lines = text.split("\n")
        (l0, c0), (l1, c1) = (n.pos.line, n.pos.col), _end(n)
        if l0 == l1:
            written = lines[l0 - 1][c0 - 1:c1 - 1]
        else:
            written = " ".join([lines[l0 - 1][c0 - 1:], *lines[l0:l1 - 1], lines[l1 - 1][:c1 - 1]])
        written = _closed(written, lines, l1, c1)
        written = " ".join(written.split())
        return written if len(written) <= _LONGEST else written[:_LONGEST - 3] + "..."

    def span_of(self, n: A.Node, origin: Any) -> Span:
        l0, c0 = n.pos.line, n.pos.col
        l1, c1 = _end(n)
        return to_span(origin, l0, c0, (c1 - c0) if l1 == l0 else 1)


_NONE_BECAUSE = {
    "first": "found nothing",
    "random": "had nothing to pick from",
    "top": "found the zone empty",
    "min": "had no values",
    "max": "had no values",
    "holder": "is none (the card is in no player's zone)",
    "host": "is none (the card lies on no card)",
}


def _parts(n: A.Node) -> list:
    """The parts of an expression its own operation uses, in the order they are evaluated."""
    if isinstance(n, A.Call):
        return [a.source if isinstance(a, A.Comprehension) else a for a in n.args]
    if isinstance(n, (A.Field, A.Is)):
        return [n.target]
    if isinstance(n, A.Of):
        return [n.target] if n.target is not None else []
    if isinstance(n, A.Unary):
        return [n.operand]
    if isinstance(n, A.Binary):
        return [n.left, n.right]
    return []


def _operation(n: A.Node) -> str:
    """What an expression does with its parts, as written, done to none ('`.value` of
    none', '`score of` none', '`+` of none')."""
    if isinstance(n, A.Field):
        return f"`.{n.name}` of none"
    if isinstance(n, A.Of):
        return f"`{n.name} of` none"
    if isinstance(n, A.Call):
        return f"`{n.func}(...)` of none"
    if isinstance(n, A.Binary):
        return f"`{'not in' if n.op == 'notin' else n.op}` of none"
    if isinstance(n, A.Unary):
        return f"`{n.op}` of none"
    return f"`{type(n).__name__.lower()}` of none"


def keyword_of(s: A.Node) -> str:
    """How a statement starts, as written."""
    if isinstance(s, A.Counter):
        return {"pay_to": "pay ... to"}.get(s.verb, s.verb)
    return _KEYWORDS.get(type(s).__name__, type(s).__name__.lower())


_KEYWORDS = {"ChooseOne": "choose one", "CallProc": "call", "DoHook": "do", "PlayActions": "play actions",
             "ForEach": "for each"}


def _end(n: A.Node) -> tuple[int, int]:
    """(line, column just after) the end of ``n``'s text: the furthest end of its parts
    (a node written over several lines has a length of 1)."""
    best = (n.pos.line, n.pos.col + n.pos.length)
    stack = [n]
    while stack:
        node = stack.pop()
        end = (node.pos.line, node.pos.col + node.pos.length)
        if end > best:
            best = end
        stack.extend(c for c in A.child_nodes(node) if not isinstance(c, _BODIES) and (not isinstance(c, A.Amount) or c.expr is not None))
    return best


# the statements inside a statement (and an option's): a statement's text is its head
_BODIES = (A.Counter, A.Set, A.Let, A.Move, A.Draw, A.Shuffle, A.Swap, A.Roll, A.Choose, A.ChooseOne, A.CallProc,
           A.DoHook, A.Emit, A.PlayActions, A.Log, A.Require, A.Stop, A.If, A.ForEach, A.Repeat, A.While, A.As, A.Option)


def _closed(written: str, lines: list, line: int, col: int) -> str:
    """``written`` with the brackets its parts leave open closed as the text closes them
    (a call over several lines ends after its last argument)."""
    open_ = written.count("(") - written.count(")") + written.count("[") - written.count("]")
    rest = lines[line - 1][col - 1:] if line - 1 < len(lines) else ""
    for ch in rest:
        if open_ <= 0:
            break
        if ch in ")]":
            written += ch
            open_ -= 1
        elif not ch.isspace():
            break
    return written
