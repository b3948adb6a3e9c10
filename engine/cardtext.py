"""A card's rules text generated from its rules, and the check of its hand-written text.

``meeple cards GAME ID`` shows, under a card's hand-written text, the same card rendered
from what the rules say (dsl/phrases.py holds the phrases; this module feeds them the
pack's words and the card's parsed texts). ``meeple validate`` warns where a hand-written
text names a number that neither the card's fields nor its rules have: the text says 5,
the cost is 4. Neither runs during play.
"""
from __future__ import annotations

import re
from typing import Iterator, Optional

from dsl import ast as A
from dsl.parser import parse, to_span
from dsl.phrases import CARD_PHRASES, WORDS, Lexicon, Renderer

from . import model as M
from .errors import Problem

def lexicon(pack: M.Pack) -> Lexicon:
    """The pack's words: its declared names of resources, zones, variables, card kinds and
    cards, and its functions' phrases."""
    g = pack.game
    names: dict[str, dict[str, str]] = {}

    def put(name: str, declared: Optional[M.Names]) -> None:
        if declared is not None and declared.by_locale:
            names[name] = dict(declared.by_locale)

    for c in pack.cards:
        put(c.id, c.names)
    for k in g.card_kinds:
        put(k.name, k.names)
    for v in g.variables + g.player_variables:
        put(v.name, v.names)
    for z in g.zones:
        put(z.name, z.names)
    for r in g.resources:
        put(r.name, r.names)
    mine = frozenset([r.name for r in g.resources] + [v.name for v in g.player_variables]
                     + [z.name for z in g.zones if z.per_player])
    phrases = {f.name: dict(f.text.by_locale) for f in g.functions if f.text is not None}
    params = {f.name: tuple(p.name for p in f.params) for f in g.functions}
    return Lexicon(names, mine, phrases, params)


def _tree(src: M.Source, start: str = "start"):
    return parse(src.text, src.origin, start)


def card_lines(pack: M.Pack, card: M.CardDef, lang: str, lex: Optional[Lexicon] = None) -> list[str]:
    """The card's rules in words, one line a statement, indented as the rules are."""
    r = Renderer(lex or lexicon(pack), lang)
    ph = lambda key, **kw: CARD_PHRASES[key][r.lang].format(**kw)     # noqa: E731
    lines: list[str] = []
    for a in card.actions:
        per = "" if not a.per_turn else (ph("per_turn.1") if a.per_turn == 1 else ph("per_turn", n=a.per_turn))
        lines.append(r.sentence(ph("action", name=a.names.get(lang), per_turn=per)))
        if a.when is not None:
            lines.append("  " + r.sentence(ph("when", cond=r.expr(_tree(a.when, "expr_start")))))
        if a.with_ is not None:
            comp = _tree(a.with_, "binder_start")
            lines.append("  " + r.sentence(r.phrase(
                "Choose", var=r.lex.word(comp.var, r.lang), source=r.expr(comp.source), many="", by="",
                where=r.phrase("Choose.where", cond=r.expr(comp.cond)) if comp.cond is not None else "")))
        lines += r.block(_tree(a.effect), 1)
    for hook, src in card.hooks:
        lines.append(r.sentence(ph("hook", hook=r.lex.word(hook, r.lang))))
        lines += r.block(_tree(src), 1)
    for event, src in card.handlers:
        lines.append(r.sentence(ph("trigger", event=r.lex.word(event, r.lang))))
        lines += r.block(_tree(src), 1)
    lines += field_lines(pack, card, r)
    return lines


def _rule_texts(pack: M.Pack) -> Iterator[tuple[str, M.Source, str]]:
    """(who, text, start rule) of every game-level rule: actions, procedures, functions."""
    g = pack.game
    for a in g.actions:
        who = a.names.get("en")
        for src, start in ((a.when, "expr_start"), (a.with_, "binder_start"), (a.effect, "start")):
            if src is not None:
                yield who, src, start
    for p in g.procedures:
        yield p.name, p.body, "start"
    for f in g.functions:
        yield f.name, f.body, "expr_start"


def _walk(node) -> Iterator[A.Node]:
    stack = list(node) if isinstance(node, tuple) else [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Node):
            yield n
            stack.extend(A.child_nodes(n))


def _simple_statements(tree) -> Iterator[A.Node]:
    """A text's statements that are not blocks, and a lone expression itself."""
    if not isinstance(tree, tuple):
        yield tree
        return
    for n in _walk(tree):
        if isinstance(n, (A.Counter, A.Set, A.Let, A.Move, A.Draw, A.Require, A.Choose)):
            yield n


def field_lines(pack: M.Pack, card: M.CardDef, r: Renderer) -> list[str]:
    """Where the game's rules read each of the card's number fields (``cost 3: read by
    worth, Build``), so a reader sees which rules a changed number feeds."""
    numbers = [(k, v) for k, v in card.fields if isinstance(v, int) and not isinstance(v, bool)]
    if not numbers:
        return []
    wanted = {k for k, _ in numbers}
    readers: dict[str, list[str]] = {}
    for who, src, start in _rule_texts(pack):
        for n in _walk(_tree(src, start)):
            if isinstance(n, A.Field) and n.name in wanted:
                seen = readers.setdefault(n.name, [])
                if who not in seen:
                    seen.append(who)
    sep = WORDS["list"][r.lang]
    return [r.sentence(CARD_PHRASES["field"][r.lang].format(
                field=r.lex.word(name, r.lang), value=value, where=sep.join(r.lex.word(w, r.lang) for w in readers[name])))
            for name, value in numbers if name in readers]
