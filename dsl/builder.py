"""Lark's parse tree to the located AST of ``meeple.dsl.ast``: one builder method a
grammar rule, called directly (not through Lark's Transformer, which costs more than
building the nodes), with nesting and number bounds checked as the nodes are made.
"""
from __future__ import annotations

from typing import Any

from lark import Token, Transformer, Tree, v_args

from .limits import MAX_DEPTH, MAX_INT

from . import ast as A


def _pos(meta: Any) -> A.Pos:
    if getattr(meta, "empty", True):
        return A.Pos(1, 1, 1)
    length = meta.end_column - meta.column if meta.end_line == meta.line else 1
    return A.Pos(meta.line, meta.column, max(1, length))


def _tpos(tok: Token) -> A.Pos:
    return A.Pos(tok.line, tok.column, len(tok))


def _block(items: Any) -> tuple:
    return tuple(items)


@v_args(meta=True)
class Builder(Transformer):
    # ---- statements
    def start(self, meta, items):
        return tuple(items)

    def expr_start(self, meta, items):
        return items[0]

    def binder_start(self, meta, items):
        name, source, cond = items
        return A.Comprehension(str(name), source, cond, None, _pos(meta))

    def block(self, meta, items):
        return tuple(items)

    def amount(self, meta, items):
        return A.Amount(items[0], _pos(meta))

    def all_amount(self, meta, items):
        return A.Amount(None, _pos(meta))

    def _counter(self, verb, meta, items):
        amount, res = items[0], items[1]
        other = items[2] if len(items) > 2 else None
        return A.Counter(verb, amount, str(res), other, _pos(meta), _tpos(res))

    def gain(self, meta, items): return self._counter("gain", meta, items)
    def lose(self, meta, items): return self._counter("lose", meta, items)
    def give(self, meta, items): return self._counter("give", meta, items)
    def pay(self, meta, items): return self._counter("pay", meta, items)
    def pay_to(self, meta, items): return self._counter("pay_to", meta, items)
    def take(self, meta, items): return self._counter("take", meta, items)

    def set(self, meta, items):
        return A.Set(items[0], items[1], _pos(meta))

    def let(self, meta, items):
        return A.Let(str(items[0]), items[1], _pos(meta))

    def place_top(self, meta, items):
        return (items[0], False)

    def place_bottom(self, meta, items):
        return (items[0], True)

    def move(self, meta, items):
        zone, bottom = items[1]
        return A.Move(items[0], zone, bottom, _pos(meta))

    def draw(self, meta, items):
        zone, bottom = items[2]
        return A.Draw(items[0], items[1], zone, bottom, _pos(meta))

    def shuffle(self, meta, items):
        return A.Shuffle(items[0], _pos(meta))

    def swap(self, meta, items):
        return A.Swap(items[0], items[1], _pos(meta))

    def must_choose(self, meta, items):
        return False

    def may_choose(self, meta, items):
        return True

    def where(self, meta, items): return items[0]
    def order(self, meta, items): return ("order", items[0])
    def chooser(self, meta, items): return ("by", items[0])
    def prompt(self, meta, items): return str(items[0])[1:-1]

    def price(self, meta, items): return tuple(items)
    def cost(self, meta, items): return (items[0], str(items[1]), _tpos(items[1]))

    def choose(self, meta, items):
        optional, name, source, cond, by, prompt, price = items
        return A.Choose(str(name), source, cond, by[1] if by else None, prompt, optional, None, _pos(meta),
                        price=price or ())

    def choose_many(self, meta, items):
        optional, count, name, source, cond, by, prompt = items
        return A.Choose(str(name), source, cond, by[1] if by else None, prompt, optional, count, _pos(meta))

    def choose_range(self, meta, items):
        optional, least, most, name, source, cond, by, prompt = items
        return A.Choose(str(name), source, cond, by[1] if by else None, prompt, optional, most, _pos(meta), least)

    def roll(self, meta, items):
        return A.Roll(items[0], _pos(meta))

    def about(self, meta, items): return items[0]

    def option(self, meta, items):
        label, cond, about, price, body = items
        return A.Option(str(label)[1:-1], cond, body, _pos(meta), price=price or (), about=about)

    def choose_one(self, meta, items):
        optional, by, prompt, *options = items
        return A.ChooseOne(tuple(options), by[1] if by else None, prompt, optional, _pos(meta))

    def call(self, meta, items):
        return A.CallProc(str(items[0]), tuple(items[1] or ()), _pos(meta))

    def do_hook(self, meta, items):
        return A.DoHook(str(items[0]), items[1], _pos(meta))

    def emit(self, meta, items):
        return A.Emit(str(items[0]), tuple(items[1] or ()), _pos(meta))

    def play_actions(self, meta, items):
        return A.PlayActions(str(items[0]), items[1], _pos(meta))

    def log(self, meta, items):
        return A.Log(str(items[0])[1:-1], _pos(meta))

    def require(self, meta, items):
        cond, msg = items
        return A.Require(cond, str(msg)[1:-1] if msg is not None else None, _pos(meta))

    def stop(self, meta, items):
        return A.Stop(_pos(meta))

    def if_stmt(self, meta, items):
        branches = [(items[0], items[1])]
        orelse: tuple = ()
        for extra in items[2:]:
            if extra is None:
                continue
            if extra[0] == "elif":
                branches.append((extra[1], extra[2]))
            else:
                orelse = extra[1]
        return A.If(tuple(branches), orelse, _pos(meta))

    def elif_clause(self, meta, items):
        return ("elif", items[0], items[1])

    def else_clause(self, meta, items):
        return ("else", items[0])

    def for_each(self, meta, items):
        name, source, cond, order, body = items
        return A.ForEach(str(name), source, cond, order[1] if order else None, body, _pos(meta))

    def repeat(self, meta, items):
        return A.Repeat(items[0], items[1], _pos(meta))

    def while_(self, meta, items):
        return A.While(items[0], items[1], _pos(meta))

    def as_(self, meta, items):
        return A.As(items[0], items[1], _pos(meta))

    # ---- expressions
    def args(self, meta, items):
        return tuple(items)

    def arg(self, meta, items):
        expr, var, source, cond = items
        if var is not None:
            return A.Comprehension(str(var), source, cond, expr, _pos(meta))
        if cond is not None or (isinstance(expr, A.Binary) and expr.op == "in" and isinstance(expr.left, A.Name)):
            if isinstance(expr, A.Binary) and expr.op == "in" and isinstance(expr.left, A.Name):
                return A.Comprehension(expr.left.name, expr.right, cond, None, _pos(meta))
            return A.Comprehension("", expr, cond, None, _pos(meta))   # checker reports it
        return expr

    def cond(self, meta, items):
        return A.Cond(items[0], items[1], items[2], _pos(meta))

    def or_(self, meta, items):
        return A.Binary("or", items[0], items[1], _pos(meta))

    def and_(self, meta, items):
        return A.Binary("and", items[0], items[1], _pos(meta))

    def not_(self, meta, items):
        return A.Unary("not", items[0], _pos(meta))

    def compare(self, meta, items):
        return A.Binary(str(items[1]), items[0], items[2], _pos(meta))

    def in_(self, meta, items):
        return A.Binary("in", items[0], items[1], _pos(meta))

    def not_in(self, meta, items):
        return A.Binary("notin", items[0], items[1], _pos(meta))

    def is_(self, meta, items):
        return A.Is(items[0], str(items[1]), False, _pos(meta), _tpos(items[1]))

    def is_not(self, meta, items):
        return A.Is(items[0], str(items[1]), True, _pos(meta), _tpos(items[1]))

    def is_none(self, meta, items):
        return A.Is(items[0], None, False, _pos(meta), _pos(meta))

    def is_not_none(self, meta, items):
        return A.Is(items[0], None, True, _pos(meta), _pos(meta))

    def range(self, meta, items):
        return A.Binary("..", items[0], items[1], _pos(meta))

    def arith(self, meta, items):
        return A.Binary(str(items[1]), items[0], items[2], _pos(meta))

    def neg(self, meta, items):
        return A.Unary("-", items[0], _pos(meta))

    def field(self, meta, items):
        return A.Field(items[0], str(items[1]), _pos(meta))

    def of_(self, meta, items):
        name, target = items
        if isinstance(target, tuple):
            return A.Of(str(name), None, target[0], _pos(meta), _tpos(name))
        return A.Of(str(name), target, "player", _pos(meta), _tpos(name))

    def of_all(self, meta, items):
        return ("all",)

    def of_others(self, meta, items):
        return ("others",)

    def int_(self, meta, items):
        digits = items[0]
        # checked by length first: Python refuses to read a number of 4,301 digits or more
        significant = digits.lstrip("0") or "0"
        if len(significant) > _INT_DIGITS or int(significant) > MAX_INT:
            raise TooLarge(digits)
        return A.Int(int(significant), _pos(meta))

    def str_(self, meta, items): return A.Str(str(items[0])[1:-1], _pos(meta))
    def true_(self, meta, items): return A.Bool(True, _pos(meta))
    def false_(self, meta, items): return A.Bool(False, _pos(meta))
    def none_(self, meta, items): return A.NoneLit(_pos(meta))
    def me(self, meta, items): return A.Me(_pos(meta))
    def this(self, meta, items): return A.This(_pos(meta))
    def name(self, meta, items): return A.Name(str(items[0]), _pos(meta))

    def func(self, meta, items):
        return A.Call(str(items[0]), tuple(items[1] or ()), _pos(meta))

    def list_(self, meta, items):
        return A.ListLit(tuple(i for i in items if i is not None), _pos(meta))


_BUILDER = Builder()


def _callbacks() -> dict[str, Any]:
    """Rule name -> the builder's method as written (meta, items), without Lark's per-call wrapper."""
    out = {}
    for name in dir(Builder):
        attr = getattr(Builder, name, None)
        base = getattr(attr, "base_func", None)
        if base is not None and not name.startswith("_"):
            out[name] = base.__get__(_BUILDER)
    return out


_CALLBACKS = _callbacks()


class TooDeep(Exception):
    """A part of the text nested deeper than MAX_DEPTH (its Lark node's position)."""

    def __init__(self, meta: Any):
        super().__init__()
        self.meta = meta


class TooLarge(Exception):
    """A number beyond MAX_INT (its token)."""

    def __init__(self, token: Token):
        super().__init__()
        self.token = token


_INT_DIGITS = len(str(MAX_INT))


# Rules that only group the parts of a construct (a call's arguments, a statement's block, a
# 'where'): they add no level of nesting of their own. Every other node is one level deeper
# than the one it is in, but for the left operand of a chain of one operator (below).
_GROUPING = frozenset({"start", "expr_start", "binder_start", "block", "args", "arg", "amount", "all_amount", "where",
                       "order", "chooser", "prompt", "place_top", "place_bottom", "elif_clause", "else_clause",
                       "must_choose", "may_choose", "of_all", "of_others", "option"})


# 'a + b - c' is arith(arith(a, +, b), -, c): one chain, one level, however long.
_CHAINS = frozenset({"arith", "and_", "or_"})


def build(tree: Tree, depth: int = 0) -> Any:
    """What ``_BUILDER.transform(tree)`` gives (the same nodes), without Lark's Transformer
    machinery around every call (which costs more than building the nodes).

    ``depth`` counts levels of nesting (see ``_GROUPING``); past MAX_DEPTH the text is
    refused (``TooDeep``), so this and every later pass over the tree recurses a bounded
    number of times. The left side of a chain of one operator is walked in a loop."""
    data = tree.data
    if data not in _GROUPING:
        depth += 1
        if depth > MAX_DEPTH:
            raise TooDeep(tree.meta)
    f = _CALLBACKS.get(data)
    if data in _CHAINS:
        first = tree.children[0]
        if isinstance(first, Tree) and first.data == data:
            spine = [tree]
            while isinstance(first, Tree) and first.data == data:
                spine.append(first)
                first = first.children[0]
            built = build(first, depth) if isinstance(first, Tree) else first
            for node in reversed(spine):
                children = [built]
                for c in node.children[1:]:
                    children.append(build(c, depth) if isinstance(c, Tree) else c)
                built = f(node.meta, children)
            return built
    children = []
    for c in tree.children:
        children.append(build(c, depth) if isinstance(c, Tree) else c)
    if f is None:
        return Tree(data, children, tree.meta)
    return f(tree.meta, children)
