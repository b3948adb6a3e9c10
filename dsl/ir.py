"""The checked form of the rules: what the checker concluded, handed to the Python generator
and to the rules-text renderer (dsl/phrases.py, which reads a text's records, ``Text``, and
what each name resolved to, ``Ref``).

The checker (``meeple.dsl.compiler.Compiler`` and its checkers) decides, once, what every
statement and expression means: the local slot a ``let`` writes, what a ``set`` assigns to,
how a walk is charged to the step budget, which parts of a condition are cached for a
walk. The generator (``meeple.dsl.gen``) writes Python from those decisions and decides
nothing of its own about them. This module is the form in which the one hands its
conclusions to the other, instead of tables keyed by ``id(node)`` that each side reached
into:

- a run of statements that never pauses is checked into a tree of ``Stmt`` records (the
  statement, the typed facts of its kind, its expressions as checked, the statements
  inside it), which ``gen/statements.py`` writes from;
- a walk's cached parts are a ``Caches`` (the parts and the frame slot of each), which the
  expression checker fills and the generator reads;
- an expression is checked into a tree of ``Expr`` records (the node, its type, the
  generated function of an outermost one, its step ``Plans``: at most how many items, how its walk or its whole list is
  charged, and the records of its parts), which the step planner reads as it checks (the
  bound of a part) and ``gen/expressions.py`` writes from, part by part.

Syntax trees may be shared between compiles (``meeple.dsl.treecache``), so nothing is
written onto a node: a record holds its node, and a node's record is found by identity
(``is``) among the parts of the record around it, which a node shared by another text (or
a pack function's body expanded twice) cannot confuse. Records are frozen once made (a
statement's when it is checked, ``StmtBuilder.done``; an expression's, ``ExprBuilder.done``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Union

from . import ast as A
from .typesys import ANY, Type

if TYPE_CHECKING:
    from .steps import Where

__all__ = ["Call", "Caches", "Choose", "ChooseOne", "Emit", "Expr", "ExprBuilder", "Hook", "Plans", "PlayActions", "ForEach", "Let",
           "Move", "Ref", "REFS", "Roll", "Set", "Stmt", "StmtBuilder", "Text", "Walk", "While"]


# ---------------------------------------------------------------- what a statement was checked to
@dataclass(frozen=True, slots=True)
class Let:
    """``let NAME = ...``: the frame slot the value goes to."""
    slot: int


@dataclass(frozen=True, slots=True)
class Set:
    """``set TARGET = ...``: the target resolved (``('local', slot)``, ``('gvar', i)``,
    ``('pvar', i, player node)``, ``('res', r, player node)``, ``('cvar', i, card node)``) and
    the value's type (a number kept in the game is bounded)."""
    target: tuple
    type: Type


@dataclass(frozen=True, slots=True)
class Move:
    """``move WHAT to ZONE``: the type of what moves (a zone, a list of cards, a card), how the
    cards are charged (``StepPlanner.walk``: factor 0 when folded) and, for a move the checker
    cannot type, the test of each card's kind."""
    what: Type
    factor: int
    where: Optional[Where]
    check: Optional[Callable]


@dataclass(frozen=True, slots=True)
class Roll:
    """``roll DICE``: the type of what rolls (a zone, a list of cards, a card), how the dice
    are charged (``StepPlanner.walk``: factor 0 when folded or one die), and where each die's
    faces are read (``table[card][faces]``, its card fields) and its value written (the card
    variable ``value``)."""
    what: Type
    factor: int
    where: Optional[Where]
    table: Any
    faces: int
    value: int


@dataclass(frozen=True, slots=True)
class Walk:
    """A statement charged a step per item (``shuffle``: its cards; ``draw``: the cards drawn;
    ``swap``: the cards of both zones; ``repeat``: its rounds): the factor (0: folded) and
    where it is charged."""
    factor: int
    where: Where


@dataclass(frozen=True, slots=True)
class ForEach:
    """``for each``: its frame slots (the items, the item, the index), whether it walks a zone
    (copied first), the factors its filter, sort and rounds charge each item, and where."""
    items: int
    var: int
    idx: int
    zone: bool
    plan: tuple[int, int, int]
    where: Where


@dataclass(frozen=True, slots=True)
class While:
    """``while``: the steps charged at each test, and where."""
    steps: int
    where: Where


Facts = Union[Let, Set, Move, Roll, Walk, ForEach, While, None]


# ---------------------------------------------------------------- checked expressions
@dataclass(frozen=True, slots=True)
class Plans:
    """What the step planner (``meeple.dsl.steps.StepPlanner``) decided of an expression node:
    at most how many items its list holds (None: unknown); for a walk, the factor its items
    are charged by (0: folded) and where; for a list read or made whole, where it is charged
    by its length (None: folded)."""
    bound: Optional[int] = None
    walk: Optional[tuple[int, "Where"]] = None
    counted: Optional["Where"] = None


NO_PLANS = Plans()

# What a name, a field or an 'X of Y' can resolve to (``Ref.what``): a local of the text,
# a game option, a constant, a game variable, a player's variable, a resource, a zone, a
# zone each card has, an enum's value, an enum, a card kind (its cards), a name every pack
# has (players, round, player_count); a card's field, a card's variable, its id or name; a
# player's own pieces of a kind ('pawn of p'); every player's zone ('hand of all'), the other
# players' ('hand of others'), every card's such zone ('occupant of all'); a call of the
# pack's function (expanded where used) or of a primitive.
REFS = frozenset({"local", "option", "constant", "gvar", "pvar", "res", "zone", "card_zone", "enum_value", "enum",
                  "kind", "builtin", "field", "cvar", "card_text", "pieces", "zone_of_all", "zone_of_others",
                  "card_zone_of_all", "function", "primitive"})


@dataclass(frozen=True, slots=True)
class Ref:
    """What the checker resolved a name to (``what``, one of ``REFS``) and where it lives
    (``index``: a local's slot, a table's index, a kind's or enum's name, the builtin's name),
    so that a reader of the record (the rules-text renderer, dsl/phrases.py) tells a local
    from the pack's name it shadows without looking the name up again."""
    what: str
    index: Any = None


@dataclass(frozen=True, slots=True, eq=False)
class Expr:
    """An expression as checked: its node, its type, the function written of it (an
    outermost expression of a game whose rules are generated: the generated one; else None,
    the checker makes no function), what the step planner decided of it (``Plans``) and the
    expressions checked as its parts, in the order checked (a comprehension's source and
    condition are parts of the call walking it; the inner links of a chain ``a + b - c``,
    checked by the chain, are parts of its outermost node, as records with the type and
    plans the chain gave them). ``counts``: its list is charged a step an item as it is
    made (``StepPlanner.by_length``), so an operation reading it whole charges it no more."""
    node: A.Node
    type: Type
    fn: Any
    plans: Plans = NO_PLANS
    parts: tuple["Expr", ...] = ()
    counts: bool = False
    ref: Optional[Ref] = None      # a name, field or 'X of Y': what it resolved to

    def part(self, node: A.Node) -> Optional["Expr"]:
        """The checked form of ``node``: this expression or one of its parts (the last
        checked, as a node checked again is checked anew); None when it is neither."""
        if self.node is node:
            return self
        return _part(self.parts, node)


def _part(parts: Any, node: A.Node) -> Optional[Expr]:
    for e in reversed(parts):
        if e.node is node:
            return e
    return None


class ExprBuilder:
    """An expression being checked: what the step planner decides of it and the records
    of its parts are gathered here, and frozen into an ``Expr`` when it is checked
    (``done``). The bottom of the checker's stack has no node: it gathers a text's
    outermost expressions, where a statement's checker finds what was concluded of them."""

    __slots__ = ("node", "plans", "parts", "counts", "ref")

    def __init__(self, node: Optional[A.Node]):
        self.node = node
        self.plans = NO_PLANS
        self.parts: list[Expr] = []
        self.counts = False       # its list is charged as it is made (``Expr.counts``)
        self.ref: Optional[Ref] = None      # what a name resolved to (``Expr.ref``)

    def done(self, t: Type) -> Expr:
        assert self.node is not None, "the outermost gathering is never frozen"
        return Expr(self.node, t, None, self.plans, tuple(self.parts), self.counts, self.ref)

    def resolved(self, node: A.Node, t: Type, ref: Ref) -> None:
        """Note what ``node``, a name the checker of this expression resolves in its own way
        (never through ``Compiler.expr``: 'c in occupant of all'), resolved to."""
        self.amend(node, lambda e: replace(e, type=t, ref=ref), Expr(node, t, None, ref=ref))

    def find(self, node: A.Node) -> Optional[Expr]:
        """The record of ``node``, one of the parts checked so far."""
        return _part(self.parts, node)

    def plan(self, node: A.Node, **decided: Any) -> None:
        """Note what the planner decided of ``node``: this expression, a part already checked
        (its record made anew: records are frozen), or a node the checker of this one checks
        in its own way (a link of a chain, a comprehension, a statement walking its items),
        which becomes a part of its own (of any type until it is ``typed``)."""
        if node is self.node:
            self.plans = replace(self.plans, **decided)
            return
        self.amend(node, lambda e: replace(e, plans=replace(e.plans, **decided)), Expr(node, ANY, None, Plans(**decided)))

    def typed(self, node: A.Node, t: Type) -> None:
        """Note the type the checker of this expression gave ``node``, a link of a chain it
        checks in its own way (never through ``Compiler.expr``)."""
        self.amend(node, lambda e: replace(e, type=t), Expr(node, t, None))

    def amend(self, node: A.Node, change: Callable[[Expr], Expr], new: Expr) -> None:
        parts = self.parts
        for i in range(len(parts) - 1, -1, -1):
            if parts[i].node is node:
                parts[i] = change(parts[i])
                return
        parts.append(new)


# ---------------------------------------------------------------- checked statements
# ---------------------------------------------------------------- instructions that pause or run other code
# A statement that asks a player (it pauses) or runs another unit (a new frame) is an
# instruction of its own, not part of a run: the checker hands the generator one of these,
# with the instruction numbers it resolved (where the rules go on).
@dataclass(frozen=True, slots=True, eq=False)
class Choose:
    """``[may] choose VAR from SOURCE [where COND] [by PLAYER] [up to N [at least M]]``: the
    source as checked (a zone is copied: the options outlive changes to it), the where-clause
    (tested with the item in ``slot``; ``fresh``: the slots of its cached parts, emptied
    before each walk) and how its walk is charged (``factor``, ``where``: ``StepPlanner.walk``),
    the chooser (None: the current player), the picks so far (``acc``, 'up to'), the prompt,
    the describer of its options and the card variables their labels read (``shown``)."""
    source: Expr
    zone: bool
    cond: Optional[Expr]
    fresh: tuple[int, ...]
    factor: int
    where: Optional[Where]
    chooser: Optional[Expr]
    slot: int
    acc: int
    up_to: Optional[Expr]
    at_least: Optional[Expr]
    optional: bool
    prompt: str
    describer: Any
    shown: tuple[int, ...]


@dataclass(frozen=True, slots=True, eq=False)
class ChooseOne:
    """``[may] choose one [by PLAYER]: OPTION ...``: the chooser (None: the current player),
    each option's condition (None: always offered), the instruction each option's body
    starts at and the one after the last, the prompt and the describer of its labels."""
    chooser: Optional[Expr]
    conds: tuple[Optional[Expr], ...]
    starts: tuple[int, ...]
    end: int
    optional: bool
    prompt: str
    describer: Any


@dataclass(frozen=True, slots=True, eq=False)
class Call:
    """``call NAME(ARGS)`` of a procedure that may pause (one that never does is run in place
    inside a run): its arguments, as checked, and where its steps are charged."""
    name: str
    args: tuple[Expr, ...]
    where: Where


@dataclass(frozen=True, slots=True, eq=False)
class Hook:
    """``do HOOK of CARD``: the card, as checked, the hook and where its steps are charged."""
    card: Expr
    hook: str
    where: Where


@dataclass(frozen=True, slots=True, eq=False)
class Emit:
    """``emit EVENT(ARGS)``: the event, its arguments as checked, where its steps are charged."""
    event: str
    args: tuple[Expr, ...]
    where: Where


@dataclass(frozen=True, slots=True, eq=False)
class PlayActions:
    """``play actions GROUP until COND``: the end test as checked, the slot keeping the turn's
    uses of each action, and where the first menu's folded walks are charged."""
    group: str
    until: Expr
    usage: int
    where: Where


@dataclass(frozen=True, slots=True, eq=False)
class Stmt:
    """A statement of a run that never pauses, as checked: its facts (by kind, above; None
    for a kind that needs none), its expressions and the statements inside it, in the order
    checked."""
    node: A.Node
    facts: Facts
    exprs: tuple[Expr, ...]
    stmts: tuple["Stmt", ...]

    def expr(self, node: A.Node) -> Expr:
        """The checked form of ``node``, one of this statement's expressions (the last checked)."""
        for e in reversed(self.exprs):
            if e.node is node:
                return e
        raise LookupError(f"{type(node).__name__} was not checked as part of this {type(self.node).__name__}")

    def block(self, nodes: tuple) -> tuple["Stmt", ...]:
        """The checked forms of ``nodes``, statements inside this one (a branch, a body)."""
        return tuple(_find(self.stmts, n) for n in nodes)


def _find(records: tuple, node: A.Node) -> Stmt:
    for r in reversed(records):
        if r.node is node:
            return r
    raise LookupError(f"{type(node).__name__} was not checked in this run")


class StmtBuilder:
    """A statement being checked: what its checkers conclude is noted here, and frozen into
    a ``Stmt`` when it is checked (``done``). The run being checked is one too (no node),
    gathering its statements."""

    __slots__ = ("node", "facts", "exprs", "stmts")

    def __init__(self, node: Optional[A.Node]):
        self.node = node
        self.facts: Facts = None
        self.exprs: list[Expr] = []
        self.stmts: list[Stmt] = []

    def done(self) -> Stmt:
        assert self.node is not None, "a run is gathered, never frozen (``run_of``)"
        return Stmt(self.node, self.facts, tuple(self.exprs), tuple(self.stmts))


def run_of(builder: StmtBuilder, nodes: tuple) -> tuple[Stmt, ...]:
    """The checked forms of a run's statements ``nodes``, gathered by ``builder``."""
    found = tuple(builder.stmts)
    return tuple(_find(found, n) for n in nodes)


# ---------------------------------------------------------------- a rule text as checked
@dataclass(frozen=True, slots=True, eq=False)
class Text:
    """A rule text as checked, kept by the compiler (``CompileResult.texts``) for readers of the
    rules that do not run them (the rules-text renderer, dsl/phrases.py): its parsed tree
    (``node``: the statements, the expression, or an action parameter's ``x in ... where``),
    the records of its statements (every statement, those that pause too, each an ``Stmt``
    with its expressions and the statements inside it) or of its outermost expressions (an
    expression: one; a parameter: its source and where-clause)."""
    node: Any
    stmts: tuple[Stmt, ...] = ()
    exprs: tuple[Expr, ...] = ()

    def expr(self, node: A.Node) -> Expr:
        """The record of ``node``, one of this text's outermost expressions."""
        found = _part(self.exprs, node)
        if found is None:
            raise LookupError(f"{type(node).__name__} was not checked as part of this text")
        return found

    def records(self, into_functions: bool = True) -> Iterator[Expr]:
        """Every expression of the text, with every part of each: the outermost ones, those
        of its statements (inside blocks too), and theirs. ``into_functions=False``: of a
        call of the pack's function, its arguments only (the function's body, checked at
        the call, is the function's own text: a field read there is the function's)."""
        exprs: list[Expr] = list(self.exprs)
        stmts: list[Stmt] = list(self.stmts)
        while stmts:
            s = stmts.pop()
            exprs += s.exprs
            stmts += s.stmts
        while exprs:
            e = exprs.pop()
            yield e
            if not into_functions and e.ref is not None and e.ref.what == "function" and isinstance(e.node, A.Call):
                args = e.node.args
                exprs += [part for part in e.parts if any(part.node is a for a in args)]
            else:
                exprs += e.parts


# ---------------------------------------------------------------- a walk's cached parts
class Caches:
    """The parts of a walk's condition cached for the walk (dsl/hoist.py), each with where it
    is kept: a frame slot (the checker's, ``Unit.hoist``) or a made local (the generator's
    own, inside a walk it writes as a loop). Few parts (one to three): found by identity."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple = ()):
        self.parts: tuple[tuple[A.Node, Any], ...] = parts

    def plus(self, node: A.Node, where: Any) -> "Caches":
        return Caches(self.parts + ((node, where),))

    def get(self, node: A.Node) -> Any:
        """Where ``node`` is cached, or None."""
        for n, where in reversed(self.parts):      # marked again: the later place holds
            if n is node:
                return where
        return None

    def __contains__(self, node: A.Node) -> bool:
        return any(n is node for n, _ in self.parts)

    def __bool__(self) -> bool:
        return bool(self.parts)

    def places(self) -> tuple:
        return tuple(where for _, where in self.parts)
