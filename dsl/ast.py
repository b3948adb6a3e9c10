"""The effect language's syntax tree: small frozen nodes, each with its span.

Positions are (line, column) inside the DSL text, 1-based; the parser's
caller maps them to the YAML file. Nothing here evaluates anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union


@dataclass(frozen=True, slots=True)
class Pos:
    line: int
    col: int
    length: int


class Node:
    __slots__: tuple[str, ...] = ()
    pos: Pos


# ---- expressions ---------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Int(Node):
    value: int
    pos: Pos


@dataclass(frozen=True, slots=True)
class Str(Node):
    value: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Bool(Node):
    value: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class NoneLit(Node):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Me(Node):
    pos: Pos


@dataclass(frozen=True, slots=True)
class This(Node):
    pos: Pos


@dataclass(frozen=True, slots=True)
class Name(Node):
    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Field(Node):
    """``card.field``: a card's data field or card variable."""
    target: "Expr"
    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Of(Node):
    """``coins of p``, ``hand of p``, ``tableau of all``, ``tableau of others``."""
    name: str
    target: Optional["Expr"]   # None with scope 'all' / 'others'
    scope: str                 # 'player' | 'all' | 'others'
    pos: Pos
    name_pos: Pos


@dataclass(frozen=True, slots=True)
class Comprehension(Node):
    """``c in hand where cond`` or ``c.cost for c in hand where cond``."""
    var: str
    source: "Expr"
    cond: Optional["Expr"]
    value: Optional["Expr"]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    args: tuple
    pos: Pos


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    items: tuple
    pos: Pos


@dataclass(frozen=True, slots=True)
class Unary(Node):
    op: str        # 'not' | '-'
    operand: "Expr"
    pos: Pos


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str        # + - * / % == != < <= > >= and or in notin ..
    left: "Expr"
    right: "Expr"
    pos: Pos


@dataclass(frozen=True, slots=True)
class Is(Node):
    """``x is keep`` (a card id), ``x is none``; negated with ``is not``."""
    target: "Expr"
    name: Optional[str]    # None means 'none'
    negated: bool
    pos: Pos
    name_pos: Pos


@dataclass(frozen=True, slots=True)
class Cond(Node):
    test: "Expr"
    then: "Expr"
    other: "Expr"
    pos: Pos


Expr = Union[Int, Str, Bool, NoneLit, Me, This, Name, Field, Of, Comprehension, Call, ListLit, Unary, Binary, Is, Cond]


# ---- statements ----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Amount(Node):
    expr: Optional[Expr]      # None means 'all'
    pos: Pos


@dataclass(frozen=True, slots=True)
class Counter(Node):
    """gain / lose / give / pay / pay_to / take."""
    verb: str
    amount: Amount
    resource: str
    other: Optional[Expr]
    pos: Pos
    resource_pos: Pos


@dataclass(frozen=True, slots=True)
class Set(Node):
    target: Expr
    value: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Let(Node):
    name: str
    value: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Move(Node):
    what: Expr
    to: Expr
    bottom: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class Draw(Node):
    count: Expr
    source: Expr
    to: Expr
    bottom: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class Shuffle(Node):
    zone: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Swap(Node):
    a: Expr
    b: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Choose(Node):
    var: str
    source: Expr
    cond: Optional[Expr]
    chooser: Optional[Expr]
    prompt: Optional[str]
    optional: bool
    up_to: Optional[Expr]      # set for 'choose up to N' and 'choose A..B'
    pos: Pos
    at_least: Optional[Expr] = None   # 'choose A..B': 'done' only once A are chosen
    # 'price AMOUNT RESOURCE, ...': (amount, resource, where the resource is named) per
    # resource, what an option costs its chooser, shown beside it (the rules pay it)
    price: tuple = ()


@dataclass(frozen=True, slots=True)
class Roll(Node):
    """``roll dice``: each die (a card with ``faces`` and a ``value``) gets a new value."""
    dice: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Option(Node):
    label: str
    cond: Optional[Expr]
    body: tuple
    pos: Pos
    price: tuple = ()          # as Choose's: what choosing this option costs, shown beside it
    about: Optional[Expr] = None     # the card the option is about, named beside it (display only)


@dataclass(frozen=True, slots=True)
class ChooseOne(Node):
    options: tuple
    chooser: Optional[Expr]
    prompt: Optional[str]
    optional: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class CallProc(Node):
    name: str
    args: tuple
    pos: Pos


@dataclass(frozen=True, slots=True)
class DoHook(Node):
    hook: str
    card: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Emit(Node):
    event: str
    args: tuple
    pos: Pos


@dataclass(frozen=True, slots=True)
class PlayActions(Node):
    group: str
    until: Expr
    pos: Pos


@dataclass(frozen=True, slots=True)
class Log(Node):
    text: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Require(Node):
    cond: Expr
    message: Optional[str]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Stop(Node):
    pos: Pos


@dataclass(frozen=True, slots=True)
class If(Node):
    branches: tuple            # ((cond, body), ...)
    orelse: tuple
    pos: Pos


@dataclass(frozen=True, slots=True)
class ForEach(Node):
    var: str
    source: Expr
    cond: Optional[Expr]
    order: Optional[Expr]
    body: tuple
    pos: Pos


@dataclass(frozen=True, slots=True)
class Repeat(Node):
    count: Expr
    body: tuple
    pos: Pos


@dataclass(frozen=True, slots=True)
class While(Node):
    cond: Expr
    body: tuple
    pos: Pos


@dataclass(frozen=True, slots=True)
class As(Node):
    player: Expr
    body: tuple
    pos: Pos


Stmt = Union[Counter, Set, Let, Move, Draw, Shuffle, Swap, Roll, Choose, ChooseOne, CallProc, DoHook, Emit,
             PlayActions, Log, Require, Stop, If, ForEach, Repeat, While, As]


# Operators of arithmetic: 'a + b * c - d' parses as a chain of these down its left side.
ARITH = frozenset({"+", "-", "*", "/", "%"})


def spine(n: Binary) -> list:
    """The nodes of a chain of arithmetic down its left side, ``n`` first: for
    ``a + b - c`` the '-' node, then the '+' node (whose left is ``a``, the first operand).
    Passes over the tree walk it in a loop, so a chain of any length never recurses deep
    (the parser counts it as one level of nesting)."""
    out = [n]
    node = n.left
    while isinstance(node, Binary) and node.op in ARITH:
        out.append(node)
        node = node.left
    return out


def child_nodes(n: Node) -> list:
    """The nodes directly inside ``n``: expressions, statements, blocks' statements,
    a chain's left side first."""
    out: list = []
    for name in n.__slots__:
        v = getattr(n, name)
        if isinstance(v, Node):
            out.append(v)
        elif isinstance(v, tuple):
            for item in v:
                if isinstance(item, tuple):          # an If's (condition, body) pairs
                    for x in item:
                        if isinstance(x, Node):
                            out.append(x)
                        elif isinstance(x, tuple):
                            out.extend(y for y in x if isinstance(y, Node))
                elif isinstance(item, Node):
                    out.append(item)
    return out


def depth(tree) -> int:
    """Levels of nesting of a parsed text (a node or a tuple of statements): each node one
    level below the one it is in, but the left side of a chain of one operator. Never fewer
    than the parser counts (a comprehension or an amount is a node here, not a level there).
    Walked with a stack, however deep."""
    best = 0
    stack = [(x, 1) for x in (tree if isinstance(tree, tuple) else (tree,)) if isinstance(x, Node)]
    while stack:
        n, d = stack.pop()
        if d > best:
            best = d
        for child in child_nodes(n):
            same = isinstance(n, Binary) and isinstance(child, Binary) and child is n.left and (
                child.op == n.op or (child.op in ARITH and n.op in ARITH))
            stack.append((child, d if same else d + 1))
    return best


def operands(n: Binary) -> list:
    """The operands of a chain of one operator, left to right: ``a and b and c``
    parses as ``(a and b) and c``; checking and compiling it as one list of three
    keeps it one step (and never deep, however long the chain)."""
    out: list = []
    stack: list[Node] = [n]
    while stack:
        node = stack.pop()
        if isinstance(node, Binary) and node.op == n.op:
            stack.append(node.right)
            stack.append(node.left)
        else:
            out.append(node)
    return out


def statements_in(stmts: Optional[tuple]):
    """Every statement of a parsed body (None: none), those inside others too, each
    before the ones it holds, in the order they are written."""
    for s in stmts or ():
        yield s
        if isinstance(s, If):
            for _, body in s.branches:
                yield from statements_in(body)
            yield from statements_in(s.orelse)
        elif isinstance(s, (ForEach, Repeat, While, As)):
            yield from statements_in(s.body)
        elif isinstance(s, ChooseOne):
            for o in s.options:
                yield from statements_in(o.body)
