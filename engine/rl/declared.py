"""What a pack's rules tell of the options they can offer, read from their syntax trees
before any game is played: the labels of every ``choose one``, and the numbers a
``choose n from A..B`` may offer (``range_keys``).

A range's ends are expressions; their bounds are worked out from what the declarations
bound: whole numbers written in the rules, constants (at any player count), resources
with a declared minimum and maximum, card fields (over every card of the pack), a zone's
size or a count over a zone (at most the cards of the kind it holds), ``lesser`` and
``greater``, arithmetic, ``if`` expressions, a local's every ``let`` and ``set`` in its
text, a procedure's parameter through every ``call`` of it, and a pack function's value
through its text, its parameters through every use of it. Where an end depends on
anything else (a variable without declared bounds, a number built up at play), the range
gives no keys here and the catalogue's random games have to meet them. A range of more
than ``MAX_RANGE`` numbers is left to them too (a bound that loose would mostly name
options no game offers).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Optional

from meeple.core.errors import MeepleError

MAX_RANGE = 100
Bound = tuple[Optional[int], Optional[int]]     # (least, most); None: not bounded that way
UNKNOWN: Bound = (None, None)


def walk(node: Any) -> Iterable[Any]:
    """Every node of a syntax tree (frozen dataclasses, tuples)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(n)
        elif dataclasses.is_dataclass(n):
            yield n
            stack.extend(getattr(n, f.name) for f in dataclasses.fields(n))


def unit_trees(game) -> list[tuple[str, tuple, Any]]:
    """(name, parameters, syntax tree) of every code unit of the rules (each parsed again
    from its text; one that does not parse alone is left out)."""
    from meeple.dsl.parser import parse
    out = []
    for code in game.codes:
        recipe = getattr(code, "recipe", None)
        if not recipe or recipe[0] != "unit":
            continue
        src = recipe[1]
        try:
            out.append((code.name, tuple(recipe[2]), parse(src.text, src.origin, "start")))
        except MeepleError:
            continue
    return out


def function_trees(game) -> dict[str, tuple[tuple, Any]]:
    """Each pack function: (its parameters as (name, None), its text's syntax tree); one
    whose text does not parse alone is left out."""
    from meeple.dsl.parser import parse
    out = {}
    for f in game.defn.functions:
        try:
            out[f.name] = (tuple((p.name, None) for p in f.params), parse(f.body.text, f.body.origin, "expr_start"))
        except MeepleError:
            continue
    return out


def choose_one_labels(trees: list) -> list[str]:
    """The labels of every ``choose one`` in the rules."""
    out: dict[str, None] = {}
    for _, _, tree in trees:
        for n in walk(tree):
            if type(n).__name__ == "ChooseOne":
                for o in n.options:
                    out[o.label] = None
    return list(out)


def _join(bounds: Iterable[Bound]) -> Bound:
    """The bound of a value that is any one of several."""
    got = list(bounds)
    if not got:
        return UNKNOWN
    los, his = [b[0] for b in got], [b[1] for b in got]
    return (None if None in los else min(los), None if None in his else max(his))  # type: ignore[type-var]


def _arith(op: str, a: Bound, b: Bound) -> Bound:
    if None in a or None in b:
        return UNKNOWN
    (a0, a1), (b0, b1) = a, b
    if op == "+":
        return (a0 + b0, a1 + b1)  # type: ignore[operator]
    if op == "-":
        return (a0 - b1, a1 - b0)  # type: ignore[operator]
    if op == "*":
        corners = [x * y for x in (a0, a1) for y in (b0, b1)]  # type: ignore[operator]
        return (min(corners), max(corners))
    if op == "/" and b0 > 0:  # type: ignore[operator]
        corners = [x // y for x in (a0, a1) for y in (b0, b1)]  # type: ignore[operator]
        return (min(corners), max(corners))
    return UNKNOWN


class Bounds:
    """Bounds of the rules' whole-number expressions (see the module's docstring)."""

    def __init__(self, game, trees: list):
        v = game.vocab
        self.constants = {name: (min(by.values()), max(by.values())) for name, by in v.constants.items()
                          if by and all(x.__class__ is int for x in by.values())}
        self.resources = {name: (lo, hi) for name, lo, hi in zip(v.res_names, v.res_min, v.res_max)}
        self.fields: dict[str, Bound] = {}
        for name, i in v.field_index.items():
            values = [row[i] for row in v.card_fields]
            if values and all(x.__class__ is int for x in values):
                self.fields[name] = (min(values), max(values))
        self.zone_cards = {z.name: len(v.kind_cards.get(z.holds, ())) if z.holds else v.ncards for z in game.defn.zones}
        self.ncards = v.ncards
        self.trees = trees
        self.locals: dict[str, dict[str, list]] = {}     # unit -> local -> the expressions given it
        self.calls: dict[str, list] = {}                 # procedure -> (caller, arguments) of each call
        self.params: dict[str, tuple] = {}
        self.functions = function_trees(game)           # name -> its text's tree (a unit 'function NAME')
        for name, params, tree in [*trees, *((f"function {n}", p, t) for n, (p, t) in self.functions.items())]:
            self.params[name] = tuple(p for p, _ in params)
            given = self.locals.setdefault(name, {})
            for n in walk(tree):
                kind = type(n).__name__
                if kind == "Let":
                    given.setdefault(n.name, []).append(n.value)
                elif kind == "Set" and type(n.target).__name__ == "Name":
                    given.setdefault(n.target.name, []).append(n.value)
                elif kind == "CallProc":
                    self.calls.setdefault(f"procedure {n.name}", []).append((name, n.args))
                elif kind == "Call" and n.func in self.functions:
                    self.calls.setdefault(f"function {n.func}", []).append((name, n.args))
        self._busy: set = set()

    def name(self, unit: str, name: str) -> Bound:
        key = (unit, name)
        if key in self._busy:       # a local set from itself (n = n + 1): not bounded here
            return UNKNOWN
        self._busy.add(key)
        try:
            given = self.locals.get(unit, {}).get(name)
            params = self.params.get(unit, ())
            if name in params:
                at = params.index(name)
                sites = self.calls.get(unit, [])
                return _join(self.of(caller, args[at]) if at < len(args) else UNKNOWN for caller, args in sites) \
                    if sites else UNKNOWN
            if given:
                return _join(self.of(unit, e) for e in given)
            if name in self.constants:
                return self.constants[name]
            return self.resources.get(name, UNKNOWN)
        finally:
            self._busy.discard(key)

    def size(self, unit: str, zone: Any) -> Bound:
        """A zone's size: at most the cards of the kind it holds (any card, if not a zone named)."""
        kind = type(zone).__name__
        name = zone.name if kind in ("Name", "Of") else zone.source.name if kind == "Comprehension" \
            and type(zone.source).__name__ in ("Name", "Of") else None
        return (0, self.zone_cards.get(name, self.ncards) if name is not None else self.ncards)

    def of(self, unit: str, e: Any) -> Bound:
        """The bound of expression ``e`` in the text of ``unit``."""
        kind = type(e).__name__
        if kind == "Int":
            return (e.value, e.value)
        if kind == "Name":
            return self.name(unit, e.name)
        if kind == "Of":
            return self.resources.get(e.name, UNKNOWN)
        if kind == "Field":
            return self.fields.get(e.name, UNKNOWN)
        if kind == "Unary" and e.op == "-":
            lo, hi = self.of(unit, e.operand)
            return (None if hi is None else -hi, None if lo is None else -lo)
        if kind == "Binary":
            return _arith(e.op, self.of(unit, e.left), self.of(unit, e.right))
        if kind == "Cond":
            return _join((self.of(unit, e.then), self.of(unit, e.other)))
        if kind == "Call":
            return self.call(unit, e)
        return UNKNOWN

    def call(self, unit: str, e: Any) -> Bound:
        if e.func in ("size", "count") and len(e.args) == 1:
            return self.size(unit, e.args[0])
        if e.func in self.functions:        # its text's bound, its parameters joined over every use
            key = ("function", e.func)
            if key in self._busy:
                return UNKNOWN
            self._busy.add(key)
            try:
                return self.of(f"function {e.func}", self.functions[e.func][1])
            finally:
                self._busy.discard(key)
        args = [self.of(unit, a) for a in e.args]
        if not args:
            return UNKNOWN
        los, his = [a[0] for a in args], [a[1] for a in args]
        if e.func == "lesser":       # at most the least of the most; at least the least of all
            known = [h for h in his if h is not None]
            return (None if None in los else min(los), min(known) if known else None)  # type: ignore[type-var]
        if e.func == "greater":
            known = [lo for lo in los if lo is not None]
            return (max(known) if known else None, None if None in his else max(his))  # type: ignore[type-var]
        return UNKNOWN

    def range_keys(self) -> list[str]:
        """The keys of the numbers every ``choose n from A..B`` (and list of numbers) may offer,
        where the declarations bound them (see the module's docstring)."""
        out: dict[str, None] = {}
        for name, _, tree in self.trees:
            for n in walk(tree):
                if type(n).__name__ != "Choose":
                    continue
                src = n.source
                kind = type(src).__name__
                if kind == "Binary" and src.op == "..":
                    lo, hi = self.of(name, src.left)[0], self.of(name, src.right)[1]
                elif kind == "ListLit" and src.items and all(type(i).__name__ == "Int" for i in src.items):
                    out.update((str(i.value), None) for i in src.items)
                    continue
                else:
                    continue
                if lo is not None and hi is not None and 0 <= hi - lo < MAX_RANGE:
                    out.update((str(x), None) for x in range(lo, hi + 1))
        return list(out)
