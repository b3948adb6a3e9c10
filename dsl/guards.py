"""Warnings of values that are none where none stops the game.

Some of the language's values are none when there is nothing to give:
``first(...)`` that finds nothing, ``random`` or ``top`` of an empty list or zone,
``min``/``max`` of no values, ``holder`` of a card in no player's zone, ``host`` of
a card on no card, a plain ``choose`` with nothing to choose. Used where a value is
needed (a field, a player's resource or zone, arithmetic, an order comparison, a
primitive's argument, a statement's amount, player or count), none stops the game
with a rule error (``meeple.dsl.faults`` tells it in words).

What the checker can see coming, it warns of (a warning, never an error):

- **always none**: one of those calls over a collection that is always empty: an
  empty list ``[]``, a walk whose condition is ``false``, or a zone nothing is ever
  put in (no card starts there and no rule moves, draws or swaps a card into it):
  the game stops the first time the text runs. On by default.
- **may be none** (``maybe=True``, ``meeple validate --maybe-none``): every use of
  such a value with no test of it written in the same text. Whether the pack's data
  always gives something (a lookup in a table of spaces, the holder of a card in a
  player's zone) the checker cannot know: the shipped packs have 111 such uses, none
  of which stopped a random game, so this list is asked for, not shown by default.

A test of the value is a guard: ``x is none``, ``x is not none``, ``x is some_card``,
``x == none``, ``x != none``, ``x in ZONE`` (a name ``x``), or the same call tested
so (``if first(...) is not none``), anywhere in the same text (the check is by text,
not by flow: it errs on the side of saying nothing).
"""
from __future__ import annotations

import re
from typing import Any, Iterator, Optional

from . import ast as A
from .parser import to_span
from .primitives import PRIMITIVES

__all__ = ["MAYBE_NONE", "Guards"]

# a call that may give none, and when
MAYBE_NONE = {
    "first": "finds nothing",
    "random": "has nothing to pick from",
    "top": "finds its zone empty",
    "min": "has no values",
    "max": "has no values",
    "holder": "is given a card in no player's zone",
    "host": "is given a card on no card",
}
# of those, the ones that give none exactly when their collection is empty
_OF_A_COLLECTION = ("first", "random", "top", "min", "max")
_ORDER = ("<", "<=", ">", ">=")
# the words of a text that may give an always-none value, and that may fill a zone
_PRODUCERS = re.compile(r"\b(?:first|random|top|min|max)\s*\(")
_FILLS = re.compile(r"\b(?:move|draw|swap)\b")


class Guards:
    """The warnings of one pack's texts: each text is looked at as it compiles
    (``look``); the warnings that hold only if a zone is never filled wait for the
    whole pack (``warnings``: the zones some rule fills are known only then)."""

    def __init__(self, zones: Any, functions: Any, maybe: bool = False):
        self.zones = zones                  # the pack's zone names
        self.functions = functions          # the pack's function names (not primitives, even if named so)
        self.maybe = maybe
        self.filled: set[str] = set()        # zones some rule puts cards in
        # (said if always none, said if it may be, span, the zones that must stay empty for 'always')
        self.found: list[tuple[Optional[str], Optional[str], Any, frozenset]] = []

    def look(self, body: Any, text: str, origin: Any) -> None:
        """Note the warnings of one parsed text (statements, or an expression). Most texts
        call none of first, random, top, min, max and fill no zone: their words say so,
        and they are not walked."""
        fills = _FILLS.search(text) is not None
        if not self.maybe and not fills and _PRODUCERS.search(text) is None:
            return
        nodes = list(_walk(body))
        if fills:
            self.filled |= _filled(nodes)
        bound = _bound_names(nodes)
        certain = self._certain_names(nodes, bound)
        maybe = _maybe_names(nodes, self.functions) if self.maybe else {}
        tested_names, tested_shapes = _guards(nodes)
        seen: set = set()
        for use, what, node in _uses(nodes):
            if not isinstance(node, (A.Call, A.Name)):       # only calls and names are ever none here
                continue
            why = self._always_none(node, certain, bound)
            why_maybe = self._maybe_none(node, maybe) if self.maybe else None
            if why is None and why_maybe is None:
                continue
            if (isinstance(node, A.Name) and node.name in tested_names) or (tested_shapes and _shape(node) in tested_shapes):
                continue
            key = (node.pos.line, node.pos.col, what)
            if key in seen:
                continue
            written = _text(text, node)
            always = f"`{written}` is always none ({why[0]}), and {what} of none stops the game" if why else None
            test = written if len(written) <= 24 else "it"
            maybe_said = (f"`{written}` may be none ({why_maybe}), and {what} of none stops the game: "
                          f"test `{test} is not none` first") if why_maybe else None
            if always or maybe_said:
                seen.add(key)
                self.found.append((always, maybe_said, _span(origin, node), why[1] if why else frozenset()))

    def warnings(self, started: Any) -> list[tuple[str, Any]]:
        """(message, span) of every warning of the pack; ``started``: the zones cards start in.
        A value always none only while some zones stay empty is, when one of them is
        filled after all, a value that may be none."""
        full = self.filled | set(started)
        out = []
        for always, maybe_said, span, empty in self.found:
            said = always if always and not empty & full else maybe_said
            if said:
                out.append((said, span))
        return out

    # ------------------------------------------------------------ what is none
    def _empty(self, n: A.Node, bound: set) -> Optional[tuple[str, frozenset]]:
        """Why ``n``, a collection, is always empty (and the zones that must stay empty
        for it), or None."""
        if isinstance(n, A.ListLit) and not n.items:
            return "the list `[]` is empty", frozenset()
        if isinstance(n, A.Comprehension):
            if isinstance(n.cond, A.Bool) and not n.cond.value:
                return "its condition is false", frozenset()
            return self._empty(n.source, bound)
        if isinstance(n, A.Call) and n.func in ("those", "values") and n.func not in self.functions and len(n.args) == 1:
            return self._empty(n.args[0], bound)
        name = n.name if isinstance(n, (A.Name, A.Of)) else None
        if name in self.zones and not (isinstance(n, A.Name) and name in bound):
            return (f"nothing is ever put in `{name}`: no card starts there and no rule moves, draws or swaps "
                    f"one there"), frozenset((name,))
        return None

    def _always_none(self, n: A.Node, certain: dict, bound: set) -> Optional[tuple[str, frozenset]]:
        if isinstance(n, A.Name) and n.name in certain:
            return certain[n.name]
        if isinstance(n, A.Call) and n.func in _OF_A_COLLECTION and n.func not in self.functions and len(n.args) == 1:
            empty = self._empty(n.args[0], bound)
            if empty is not None:
                return empty
        return None

    def _certain_names(self, nodes: list, bound: set) -> dict:
        """Local names every 'let' of which gives an always-none value."""
        lets: dict[str, list] = {}
        for n in nodes:
            if isinstance(n, A.Let):
                lets.setdefault(n.name, []).append(n.value)
        out = {}
        for name, values in lets.items():
            whys = [self._always_none(v, {}, bound) for v in values]
            if all(whys):
                out[name] = (f"`let {name} = {values[0].func}(...)`: {whys[0][0]}", frozenset().union(*(w[1] for w in whys)))  # type: ignore[index]  # all(whys): none of them is None
        return out

    def _maybe_none(self, n: A.Node, names: dict) -> Optional[str]:
        if isinstance(n, A.Call) and n.func in MAYBE_NONE and n.func not in self.functions:
            return f"`{n.func}(...)` {MAYBE_NONE[n.func]}"
        if isinstance(n, A.Name) and n.name in names:
            return names[n.name]
        return None


def _walk(body: Any) -> Iterator[A.Node]:
    """Every node of ``body``, with a stack (a chain of operators is as long as its text);
    the fields that may hold nodes are found once per kind of node."""
    stack = list(body) if isinstance(body, tuple) else [body]
    while stack:
        n = stack.pop()
        if not isinstance(n, A.Node):
            if isinstance(n, tuple):
                stack.extend(n)
            continue
        yield n
        kind = n.__class__
        fields = _FIELDS.get(kind)
        if fields is None:
            fields = _FIELDS[kind] = tuple(f for f in kind.__slots__ if f not in ("pos", "name_pos"))
        for f in fields:
            v = getattr(n, f)
            if v.__class__ is tuple or isinstance(v, A.Node):
                stack.append(v)


_FIELDS: dict[type, tuple] = {}


def _filled(nodes: list) -> set[str]:
    """The zones a text puts cards in (by name: a move, a draw, either side of a swap)."""
    out = set()
    for n in nodes:
        places = (n.to,) if isinstance(n, (A.Move, A.Draw)) else (n.a, n.b) if isinstance(n, A.Swap) else ()
        for place in places:
            if isinstance(place, (A.Name, A.Of)):
                out.add(place.name)
    return out


def _bound_names(nodes: list) -> set[str]:
    """Names a text binds itself (they are not the pack's zones)."""
    out = set()
    for n in nodes:
        if isinstance(n, A.Let):
            out.add(n.name)
        elif isinstance(n, (A.ForEach, A.Choose, A.Comprehension)) and n.var:
            out.add(n.var)
    return out


def _maybe_names(nodes: list, functions: Any) -> dict[str, str]:
    """Local names that may hold none: bound by 'let' to a maybe-none call, or by a
    plain 'choose' (none when nothing may be chosen)."""
    out: dict[str, str] = {}
    for n in nodes:
        if isinstance(n, A.Let):
            call = n.value
            if isinstance(call, A.Call) and call.func in MAYBE_NONE and call.func not in functions:
                out[n.name] = f"`let {n.name} = {call.func}(...)` {MAYBE_NONE[call.func]}"
        elif isinstance(n, A.Choose) and n.up_to is None and not n.optional:
            out[n.var] = f"`choose {n.var}` has nothing to choose"
    return out


def _guards(nodes: list) -> tuple[set, set]:
    """The names, and the shapes of other expressions, that the text tests against none
    (or against a card id, or for being in a zone: tests that are none-safe)."""
    names, shapes = set(), set()
    for n in nodes:
        tested = None
        if isinstance(n, A.Is):
            tested = n.target
        elif isinstance(n, A.Binary) and n.op in ("==", "!="):
            if isinstance(n.right, A.NoneLit):
                tested = n.left
            elif isinstance(n.left, A.NoneLit):
                tested = n.right
        elif isinstance(n, A.Binary) and n.op in ("in", "notin"):
            tested = n.left
        if tested is None:
            continue
        if isinstance(tested, A.Name):
            names.add(tested.name)
        shapes.add(_shape(tested))
    return names, shapes


def _uses(nodes: list) -> Iterator[tuple[A.Node, str, A.Node]]:
    """(the node using a value, what it does with it, the value's node) for every place
    where a none value stops the game."""
    for n in nodes:
        if isinstance(n, A.Field):
            yield n, f"`.{n.name}`", n.target
        elif isinstance(n, A.Of) and n.scope == "player" and n.target is not None:
            yield n, f"`{n.name} of`", n.target
        elif isinstance(n, A.Binary) and (n.op in A.ARITH or n.op in _ORDER or n.op == ".."):
            yield n, f"`{n.op}`", n.left
            yield n, f"`{n.op}`", n.right
        elif isinstance(n, A.Unary) and n.op == "-":
            yield n, "`-`", n.operand
        elif isinstance(n, A.Call) and n.func in PRIMITIVES and PRIMITIVES[n.func].fn is not None:
            for a in n.args:
                yield n, f"`{n.func}(...)`", a
        elif isinstance(n, A.Counter):
            verb = {"pay_to": "pay ... to"}.get(n.verb, n.verb)
            if n.amount.expr is not None:
                yield n, f"`{verb}`", n.amount.expr
            if n.other is not None:
                yield n, f"`{verb}`", n.other
        elif isinstance(n, (A.Repeat, A.Draw)):
            yield n, f"`{'repeat' if isinstance(n, A.Repeat) else 'draw'}`", n.count
        elif isinstance(n, A.As):
            yield n, "`as`", n.player


def _shape(n: Any) -> Any:
    """A node as a comparable value without its place in the text."""
    if isinstance(n, A.Node):
        return (type(n).__name__,) + tuple(_shape(getattr(n, f)) for f in n.__slots__ if f not in ("pos", "name_pos"))
    if isinstance(n, tuple):
        return tuple(_shape(x) for x in n)
    return n


def _text(text: str, n: A.Node) -> str:
    lines = text.split("\n")
    line = lines[n.pos.line - 1] if n.pos.line - 1 < len(lines) else ""
    written = line[n.pos.col - 1:n.pos.col - 1 + n.pos.length]
    if n.pos.length == 1 and isinstance(n, A.Call):       # written over several lines
        written = line[n.pos.col - 1:].rstrip() + " ..."
    return " ".join(written.split())


def _span(origin: Any, n: A.Node) -> Any:
    return to_span(origin, n.pos.line, n.pos.col, n.pos.length)
