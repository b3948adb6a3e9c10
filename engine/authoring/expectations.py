"""A scenario's expectations: texts of the effect language compiled against the
pack (card ids written as names, the scenario's remembered values in scope) and
evaluated on a state with a step budget of their own.
"""
from __future__ import annotations

from typing import Any

from meeple.dsl import ast as A
from meeple.dsl.compiler import Code, Unit, _Scope
from meeple.dsl.parser import parse
from meeple.dsl.runtime import Frame
from meeple.dsl.source import Source, TextOrigin
from meeple.dsl.typesys import BOOL

from meeple.core.errors import MeepleError, Span
from meeple.runtime.game import Game
from meeple.runtime.state import State
from meeple.loading.yamlsrc import Document


class ScenarioFailure(MeepleError):
    """A scenario step or expectation that did not hold, located in the scenario file."""


def source_of(doc: Document, path: tuple, text: str) -> Source:
    origin = doc.origins.get(path) or TextOrigin(doc.file, doc.span(path).line, doc.span(path).col, False)
    return Source(text, origin, doc.span(path))


class Expectation:
    """An expression of a scenario (an expectation, a ``remember``), compiled against
    the pack with the scenario's remembered values as names."""

    def __init__(self, game: Game, doc: Document, path: tuple, text: str, memory: dict, truth: bool):
        comp = game.checker("expect")
        src = source_of(doc, path, text)
        self.text = text.strip()
        self.code = Code("expect")
        unit = Unit(self.code, src.origin, _Scope())
        self.memory = [(unit.new_slot(), value) for name, (value, t) in memory.items()]
        for (slot, _), (name, (_, t)) in zip(self.memory, memory.items()):
            unit.scope.names[name] = (slot, t)
        tree = card_ids(game, parse(src.text, src.origin, "expr_start"), set(memory), doc.span(path))
        # what telling a fault in the language's words needs (meeple.dsl.faults.explain_expression)
        self.src, self.tree, self.names, self.nbase = src, tree, dict(unit.scope.names), self.code.nlocals
        whole = comp.truth(unit, tree) if truth else comp.expr(unit, tree)
        self.fn, self.type = whole.fn, BOOL if truth else whole.type
        self.sides = None
        if isinstance(tree, A.Binary) and tree.op in ("==", "!=", "<", "<=", ">", ">="):
            left, right = comp.expr(unit, tree.left), comp.expr(unit, tree.right)
            self.sides = ((left.fn, left.type), (right.fn, right.type))
        # every(x in xs where c) fails for an item; not any(x in xs where c) holds for one: find it
        self.culprit = None
        inner, negated = (tree.operand, True) if isinstance(tree, A.Unary) and tree.op == "not" else (tree, False)
        if isinstance(inner, A.Call) and inner.func == ("any" if negated else "every") and len(inner.args) == 1 \
                and isinstance(inner.args[0], A.Comprehension) and inner.args[0].cond is not None:
            comp_ = inner.args[0]
            cond = comp_.cond if negated else A.Unary("not", comp_.cond, comp_.cond.pos)
            find = A.Call("first", (A.Comprehension(comp_.var, comp_.source, cond, None, comp_.pos),), inner.pos)
            found = comp.expr(unit, find)
            self.culprit = (comp_.var, (found.fn, found.type))
        comp.written()          # what was written is compiled before it runs

    def frame(self, st: State) -> Frame:
        fr = Frame(-1, 0, [None] * max(1, self.code.nlocals + 4), st.pending.player if st.pending else -1, -1)
        for slot, value in self.memory:
            fr.locals[slot] = value
        return fr


def card_ids(game: Game, tree: A.Node, bound: set, span: Span) -> A.Node:
    """A card id where the language has no such name means the card: ``ID in ZONE`` is
    true when a copy of it is there; ``x == ID`` is ``x is ID``;
    anywhere else it is the card itself (which needs a card with one copy)."""
    g = game.vocab
    known = set(g.known_names())

    def is_card(n: A.Node, scope: set) -> bool:
        return isinstance(n, A.Name) and n.name in game.vocab.card_index and n.name not in known and n.name not in scope

    def walk(n: Any, scope: set) -> Any:
        if isinstance(n, tuple):
            return tuple(walk(x, scope) for x in n)
        if not isinstance(n, A.Node):
            return n
        if isinstance(n, A.Binary) and n.op in ("in", "notin") and is_card(n.left, scope):
            var = "_card_"
            found = A.Call("any", (A.Comprehension(var, walk(n.right, scope), A.Is(A.Name(var, n.left.pos), n.left.name, False,
                                                                                    n.left.pos, n.left.pos), None, n.pos),), n.pos)
            return A.Unary("not", found, n.pos) if n.op == "notin" else found
        if isinstance(n, A.Binary) and n.op in ("==", "!=") and (is_card(n.left, scope) or is_card(n.right, scope)) \
                and not (is_card(n.left, scope) and is_card(n.right, scope)):
            card, other = (n.left, n.right) if is_card(n.left, scope) else (n.right, n.left)
            return A.Is(walk(other, scope), card.name, n.op == "!=", n.pos, card.pos)
        if is_card(n, scope):
            copies = [c for c, d in enumerate(game.card_def_index) if d == game.vocab.card_index[n.name]]
            if len(copies) != 1:
                raise ScenarioFailure(f"'{n.name}' has {len(copies)} copies: write '{n.name} in ZONE', or 'x is {n.name}' for one of them",
                                      span)
            kind = game.vocab.card_defs[game.vocab.card_index[n.name]].kind
            var = "_card_"
            return A.Call("first", (A.Comprehension(var, A.Name(kind, n.pos), A.Is(A.Name(var, n.pos), n.name, False, n.pos, n.pos),
                                                    None, n.pos),), n.pos)
        if isinstance(n, A.Comprehension):
            inner = scope | {n.var}
            return A.Comprehension(n.var, walk(n.source, scope), walk(n.cond, inner), walk(n.value, inner), n.pos)
        fields = {f: walk(getattr(n, f), scope) for f in n.__dataclass_fields__}
        return type(n)(**fields)
    return walk(tree, set(bound))
