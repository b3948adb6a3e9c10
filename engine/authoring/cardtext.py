"""A card's rules text generated from its rules, and the check of its hand-written text.

``meeple cards GAME ID`` shows, under a card's hand-written text, the same card rendered
from what the rules say (dsl/phrases.py holds the phrases; this module feeds them the
pack's words and the card's parsed texts). ``meeple validate`` warns where a hand-written
text names a number that neither the card's fields nor its rules have: the text says 5,
the cost is 4. Neither runs during play.
"""
from __future__ import annotations

import re
from typing import Any, Iterator, Mapping, Optional

from meeple.dsl import ast as A
from meeple.dsl import ir
from meeple.dsl.parser import parse, to_span
from meeple.dsl.phrases import CARD_PHRASES, WORDS, Lexicon, Renderer
from meeple.dsl.typesys import card_kind

from meeple.loading import model as M
from meeple.core.errors import Problem

# How many of the rules reading a field are named ('read by A, B, C, D, 9 more').
MAX_READERS = 4


def lexicon(pack: M.Pack) -> Lexicon:
    """The pack's words: its declared names of resources, zones, variables, card kinds and
    cards, and its functions' phrases."""
    g = pack.game
    names: dict[str, dict[str, str]] = {}
    glossary = {name: dict(words.by_locale) for h in pack.howto for name, words in h.glossary if words.by_locale}

    def put(name: str, declared: Optional[M.Names]) -> None:
        if declared is not None and declared.by_locale:
            names[name] = dict(declared.by_locale)

    for h in pack.howto:          # the howto's glossary: fields, procedures, hooks, enum values...
        for name, words in h.glossary:
            put(name, words)

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
    return Lexicon(names, mine, phrases, params, glossary, frozenset([k.name for k in g.card_kinds] + [c.id for c in pack.cards]))


def _tree(src: M.Source, start: str = "start"):
    return parse(src.text, src.origin, start)


# (a game to play, its pack checked only): see checked_texts. Annotated before the function
# that declares it global (PyPy 3.9 refuses the annotation after it).
_CHECKED: Optional[tuple] = None


def checked_texts(game: Any) -> Mapping[M.Source, ir.Text]:
    """What the checker made of each rule text of a loaded game (``CompileResult.texts``):
    the renderer reads these, never the bare syntax tree. A game checked only keeps them;
    one to play keeps none (they would cost its play), so its pack is checked again, once
    for the last such game asked of (the server's card drawer)."""
    global _CHECKED
    if not game.generated:
        return game.vocab.result.texts
    if _CHECKED is None or _CHECKED[0] is not game:
        from meeple.core.errors import Problems
        from meeple.runtime.game import Game
        _CHECKED = (game, Game(game.pack, Problems(), generate=False).vocab.result.texts)
    return _CHECKED[1]


def card_lines(game: Any, card: M.CardDef, lang: str, lex: Optional[Lexicon] = None) -> list[str]:
    """The card's rules in words, one line a statement, indented as the rules are, from its
    texts as the checker made them (``game``: a loaded game, checked only or to play)."""
    pack, texts = game.pack, checked_texts(game)
    r = Renderer(lex or lexicon(pack), lang)
    ph = lambda key, **kw: CARD_PHRASES[key][r.lang].format(**kw)     # noqa: E731
    lines: list[str] = []
    for a in card.actions:
        per = "" if not a.per_turn else (ph("per_turn.1") if a.per_turn == 1 else ph("per_turn", n=a.per_turn))
        lines.append(r.sentence(ph("action", name=a.names.get(lang), per_turn=per)))
        if a.when is not None:
            lines.append("  " + r.sentence(ph("when", cond=r.expr(texts[a.when].exprs[0]))))
        if a.with_ is not None:
            binder = texts[a.with_]
            comp = binder.node
            lines.append("  " + r.sentence(r.phrase(
                "Choose", var=r.local(comp.var), source=r.expr(binder.expr(comp.source)), many="", by="",
                where=r.phrase("Choose.where", cond=r.expr(binder.expr(comp.cond))) if comp.cond is not None else "")))
        if a.price:         # what choosing the action costs, shown beside it (meeple.runtime.prices)
            what = ", ".join(r.phrase("Price.item", amount=r.expr(texts[amount].exprs[0]), res=r.word(res))
                             for res, amount, _ in a.price)
            lines.append("  " + r.sentence(ph("price", what=what)))
        lines += r.text(texts[a.effect], 1)
    for hook, src in card.hooks:
        lines.append(r.sentence(ph("hook", hook=r.word(hook))))
        lines += r.text(texts[src], 1)
    for event, src in card.handlers:
        lines.append(r.sentence(ph("trigger", event=r.word(event))))
        lines += r.text(texts[src], 1)
    lines += rule_lines(game, card, r)
    lines += field_lines(game, card, r) or plain_lines(card, r, bool(lines))
    return lines


def _rule_texts(pack: M.Pack) -> Iterator[tuple[Any, M.Source, str]]:
    """(who, text, start rule) of every game-level rule: actions (who: their names),
    procedures and functions (who: the name)."""
    g = pack.game
    for a in g.actions:
        who = a.names
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


def _value(value, r: Renderer) -> str:
    """A field's value in words: a name in the pack's words, true/false in the language."""
    if isinstance(value, bool):
        return WORDS["true" if value else "false"][r.lang]
    return r.lex.word(value, r.lang) if isinstance(value, str) else str(value)


MAX_RULE_LINES = 12      # a long rule that names a card is cut after this many lines ('...')


def _names_card(node, card_id: str, flags: set[str]) -> bool:
    """Whether an expression names the card (``x is ID``) or tests one of its flags."""
    for n in _walk(node):
        if (isinstance(n, A.Is) and n.name == card_id) or (isinstance(n, A.Field) and n.name in flags):
            return True
    return False


def _naming(records: tuple, card_id: str, flags: set[str]) -> list:
    """The statements of a block (as checked) that name the card in their own expressions
    (whole, with what they hold), looking inside the others' blocks."""
    out: list = []
    for r in records:
        if any(_names_card(k, card_id, flags) for k in A.child_nodes(r.node) if not isinstance(k, _STATEMENTS)):
            out.append(r)
        else:
            out += _naming(r.stmts, card_id, flags)
    return out


def rule_lines(game: Any, card: M.CardDef, r: Renderer) -> list[str]:
    """The game's rules that give the card its effect: those that name it (``x is ID``)
    or test a flag it sets (a yes/no field true where its kind says no), each rule's
    name then its statements that do, so that a card whose effect the game's rules
    carry (a flag they test, its id they name) reads as what it does, not as data."""
    pack, texts = game.pack, checked_texts(game)
    kind = next((k for k in pack.game.card_kinds if k.name == card.kind), None)
    defaults = {f.name: f.default for f in kind.fields} if kind else {}
    flags = {k for k, v in card.fields if v is True and not defaults.get(k)}
    ph = lambda key, **kw: CARD_PHRASES[key][r.lang].format(**kw)     # noqa: E731
    found: list[tuple[Any, list[str]]] = []
    for who, src, start in _rule_texts(pack):
        text = texts[src]
        if text.stmts or isinstance(text.node, tuple):
            body = [line for st in _naming(text.stmts, card.id, flags) for line in r.stmt(st, 1)]
        else:               # an expression, or an action's parameter ('x in ... where ...')
            body = ["  " + r.sentence(r.outermost(text))] if _names_card(text.node, card.id, flags) else []
        if body:
            name = who.get(r.lang) if isinstance(who, M.Names) else r.lex.word(who, r.lang)
            seen = next((b for w, b in found if w == name), None)
            if seen is not None:       # an action's condition and effect: one rule
                seen += body
            else:
                found.append((name, body))
    lines: list[str] = []
    for name, body in found[:MAX_READERS]:
        lines.append(r.sentence(ph("rule", rule=name)))
        lines += body[:MAX_RULE_LINES] + (["  ..."] if len(body) > MAX_RULE_LINES else [])
    if len(found) > MAX_READERS:
        lines.append(r.sentence(ph("rule.more", n=len(found) - MAX_READERS)))
    return lines


def plain_lines(card: M.CardDef, r: Renderer, other: bool) -> list[str]:
    """The card's data when no rule reads it by name and nothing else is said of the card,
    so that its generated text is never empty ('Colour yellow')."""
    if other:
        return []
    data = [r.sentence(CARD_PHRASES["data"][r.lang].format(field=r.lex.word(k, r.lang), value=_value(v, r)))
            for k, v in card.fields if v is not None]
    return data or [r.sentence(CARD_PHRASES["bare"][r.lang].format(kind=r.lex.word(card.kind, r.lang)))]


def field_lines(game: Any, card: M.CardDef, r: Renderer) -> list[str]:
    """Where the game's rules read each of the card's number fields and the fields it sets
    apart from its kind's defaults (``cost 3: read by worth, Build``; ``income red: read
    by Collect income``), so a reader sees which rules a changed value feeds. A read is
    the checker's: a field of a card the checker typed as of this card's kind, or of a
    card of any kind when no other kind has a field of that name ('colour' of dice and of
    cards: a read of either is told apart by its card's type, never by the name)."""
    pack, texts = game.pack, checked_texts(game)
    kind = next((k for k in pack.game.card_kinds if k.name == card.kind), None)
    defaults = {f.name: f.default for f in kind.fields} if kind else {}
    shared = {f.name for k in pack.game.card_kinds if k.name != card.kind for f in (*k.fields, *k.variables)}
    numbers = [(k, v) for k, v in card.fields if (
               (isinstance(v, int) and not isinstance(v, bool)) or (v not in (None, False) and v != defaults.get(k)))]
    if not numbers:
        return []
    wanted = {k for k, _ in numbers}
    readers: dict[str, list] = {}
    for who, src, _ in _rule_texts(pack):
        for e in texts[src].records(into_functions=False):
            n = e.node
            if type(n) is not A.Field or n.name not in wanted or e.ref is None or e.ref.what != "field":
                continue
            target = next((p for p in e.parts if p.node is n.target), None)
            of = card_kind(target.type) if target is not None else None
            if of != card.kind and (of is not None or n.name in shared):
                continue
            seen = readers.setdefault(n.name, [])
            if who not in seen:
                seen.append(who)
    sep = WORDS["list"][r.lang]

    def where(names: list[str]) -> str:
        shown = [w.get(r.lang) if isinstance(w, M.Names) else r.lex.word(w, r.lang) for w in names[:MAX_READERS]]
        if len(names) > MAX_READERS:
            shown.append(CARD_PHRASES["more"][r.lang].format(n=len(names) - MAX_READERS))
        return sep.join(shown)

    return [r.sentence(CARD_PHRASES["field"][r.lang].format(field=r.lex.word(name, r.lang), value=_value(value, r),
                                                             where=where(readers[name])))
            for name, value in numbers if name in readers]


# ---------------------------------------------------------------- numbers in hand-written texts
_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
NUMBER_WORDS = {w: i for i, w in enumerate(_WORDS, 1)}
# 'one' as a pronoun (the murdered one, no one, one of them) is no number.
_NOT_ONE_BEFORE = re.compile(r"(?:the|a|an|no|any|each|every|which|this|that|new|other|another|same|last|only|"
                             r"murdered|chosen|given|taken)\s+$", re.I)
_NOT_ONE_AFTER = re.compile(r"^\s*(?:of|another|by|at|or)\b", re.I)
_EN_NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\d]|st\b|nd\b|rd\b|th\b|%)|\b(" + "|".join(_WORDS) + r")\b", re.I)
_KANJI = {k: i for i, k in enumerate("一二三四五六七八九十", 1)}
# Japanese: digits (full-width too) that are not ordinals, and a kanji numeral before a counter.
_JA_NUMBER = re.compile(r"([0-9０-９]+)(?!番目|番|位|人目|回目|[0-9０-９])|(?<![同唯第])([一二三四五六七八九十])"
                        r"(?=枚|点|金|個|回|人|つ|軒|色|種|マス|歩|度)")
_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")


def text_numbers(text: str, lang: str) -> Iterator[tuple[int, int, int]]:
    """(value, offset, length) of each number a hand-written text names: digits, and in
    English the words one..twelve; in Japanese digits (full-width too) and a kanji numeral
    before a counter (三枚, 二金). Ordinals (1st, 2番目, 第一) and 'one' as a pronoun are left out."""
    if lang == "ja":
        for m in _JA_NUMBER.finditer(text):
            if m.group(1):
                yield int(m.group(1).translate(_FULL_WIDTH)), m.start(), len(m.group(1))
            else:
                yield _KANJI[m.group(2)], m.start(), 1
        return
    for m in _EN_NUMBER.finditer(text):
        if m.group(1):
            yield int(m.group(1)), m.start(), len(m.group(1))
            continue
        word = m.group(2).lower()
        if word == "one" and (_NOT_ONE_BEFORE.search(text[:m.start()]) or _NOT_ONE_AFTER.match(text[m.end():])):
            continue
        yield NUMBER_WORDS[word], m.start(), len(word)


_STATEMENTS = (A.Counter, A.Set, A.Let, A.Move, A.Draw, A.Shuffle, A.Swap, A.Roll, A.Choose, A.ChooseOne, A.CallProc,
               A.DoHook, A.Emit, A.PlayActions, A.Log, A.Require, A.Stop, A.If, A.ForEach, A.Repeat, A.While, A.As,
               A.Option)


# (pack, its tables): see _tables. Annotated before the function that declares it
# global: PyPy 3.9 refuses the annotation after it (benchmarks/pypy.sh).
_LAST: Optional[tuple] = None


def _tables(pack: M.Pack) -> dict:
    """What every card of a pack shares (its constants, its functions' and procedures'
    bodies, each text's walk), made once for the pack being checked: the last pack's
    tables are kept (the walks hold their sources, so an id never names another text)."""
    global _LAST
    if _LAST is not None and _LAST[0] is pack:
        return _LAST[1]
    g = pack.game
    bodies = {f.name: (f.body, "expr_start") for f in g.functions}
    bodies.update({p.name: (p.body, "start") for p in g.procedures})
    tables = {"constants": _constants(pack), "bodies": bodies, "walked": {}}
    _LAST = (pack, tables)
    return tables


def _constants(pack: M.Pack) -> dict[str, set[int]]:
    return {c.name: {v for _, v in c.by_players if isinstance(v, int)} for c in pack.game.constants}


def _ints(nodes, constants: dict[str, set[int]]) -> set[int]:
    """The whole numbers written in expressions, and the values of the constants they name."""
    out: set[int] = set()
    for node in nodes:
        for n in _walk(node):
            if isinstance(n, A.Int):
                out.add(n.value)
            elif isinstance(n, A.Name) and n.name in constants:
                out |= constants[n.name]
    return out


def field_numbers(pack: M.Pack) -> dict[str, set[int]]:
    """For each card field, the numbers of the rules that read it: the whole numbers (and
    constants) of each statement, condition or function body that names ``X.field`` (and
    under '#ID' those of the rules that name a card, ``x is ID``). A card
    whose rules live in the game's texts (a flag the rules test, a count they add) has those
    numbers as its own: 'draw 3 instead of 2' of a card with ``extra_draw: 1``."""
    constants = _constants(pack)
    out: dict[str, set[int]] = {}

    def note(parts: list) -> None:
        names: set[str] = set()
        ints: set[int] = set()
        for part in parts:            # one walk: the fields and cards named, the numbers written
            for n in _walk(part):
                t = n.__class__
                if t is A.Field:
                    names.add(n.name)
                elif t is A.Int:
                    ints.add(n.value)
                elif t is A.Name:
                    if n.name in constants:
                        ints |= constants[n.name]
                elif t is A.Is and n.name:
                    names.add("#" + n.name)
        for name in names:
            out.setdefault(name, set()).update(ints)

    def block(stmts) -> None:
        for st in stmts:
            kids = A.child_nodes(st)
            note([k for k in kids if not isinstance(k, _STATEMENTS)])
            block([k for k in kids if isinstance(k, _STATEMENTS)])

    for _, src, start in _rule_texts(pack):
        tree = _tree(src, start)
        if isinstance(tree, tuple):
            block(tree)
        else:
            note([tree])
    return out


_RANGE_END = re.compile(r"\d\s*[-–~～]\s*$")
_RANK = re.compile(r"\brank[-\s]?$", re.I)              # 'the rank-8 card': another card's rank
_PLAYERS = re.compile(r"^\s*players?\b", re.I)           # '5 players or more': a count of seats
_PLAYERS_JA = re.compile(r"^人(?:以上|以下|プレイ)")       # '5人以上', '2人プレイ': the same in Japanese
_SINGLE = re.compile(r"\b(?:keep|take|choose|pick|draw|discard)\s+$", re.I)   # 'keep 1': one choice
_RATE_EN = re.compile(r"^\s*(?:[\w'-]+\s+){0,3}?(?:per|each|for each|for every)\b", re.I)
_RATE_JA = re.compile(r"(?:につき|ごとに|毎に)$")


def _implied(text: str, offset: int, length: int, value: int, numbers: list[int], lang: str) -> bool:
    """Whether a number the rules do not write is still theirs, or not the card's: the top
    of a printed range ('6-11' when the next step is 12); another card's rank ('the rank-8
    card'); a count of players ('5 players or more', '5人以上'); and one, where the rules write no 1:
    a rate ('1 point per coin', '1軒につき1金'), a single choice ('one card', 'keep 1'),
    once ('1回の手番')."""
    before, after = text[:offset], text[offset + length:]
    if _RANGE_END.search(before) and value + 1 in numbers:
        return True
    if lang != "ja" and (_RANK.search(before) or _PLAYERS.match(after)):
        return True
    if lang == "ja" and _PLAYERS_JA.match(after):
        return True
    if value == 1:
        if lang == "ja":
            return bool(_RATE_JA.search(before.rstrip())) or after.startswith("回")
        return (text[offset:offset + length].isalpha() or bool(_RATE_EN.match(after))
                or bool(_SINGLE.search(before)))
    return False


def card_numbers(pack: M.Pack, card: M.CardDef, readers: Optional[dict[str, set[int]]] = None) -> list[int]:
    """The numbers a card's rules have: its number fields and actions' uses per turn, then the whole numbers (and
    constants) written in its texts (actions, hooks, triggers) and in the functions and
    procedures they use, and those of the game's rules that read the fields it sets apart
    from its kind's defaults (``field_numbers``)."""
    out: list[int] = []
    for _, v in card.fields:
        if isinstance(v, int) and not isinstance(v, bool) and v not in out:
            out.append(v)
    g = pack.game
    tables = _tables(pack)
    constants, bodies, walked = tables["constants"], tables["bodies"], tables["walked"]
    readers = field_numbers(pack) if readers is None else readers
    kind = next((k for k in g.card_kinds if k.name == card.kind), None)
    defaults = {f.name: f.default for f in kind.fields} if kind else {}
    todo: list[tuple[M.Source, str]] = []
    for a in card.actions:
        if a.per_turn and a.per_turn not in out:
            out.append(a.per_turn)
        todo += [(s, st) for s, st in ((a.when, "expr_start"), (a.with_, "binder_start"), (a.effect, "start")) if s is not None]
    todo += [(s, "start") for _, s in card.hooks + card.handlers]
    seen: set[str] = set()
    literals: list[int] = []
    for src, _ in todo:       # a statement written k times does a thing k times: 'call step()' twice
        lines = [line.strip() for line in src.text.splitlines() if line.strip()]
        literals += [k for k in (lines.count(line) for line in set(lines)) if k > 1]
    for name, value in card.fields:
        if value is not None and value is not False and (value != defaults.get(name) or isinstance(value, int)):
            literals += readers.get(name, ())
    literals += readers.get("#" + card.id, ())       # rules that name the card: 'x is CARD'
    while todo:
        src, start = todo.pop(0)
        key = (id(src), start)
        found = walked.get(key)
        if found is None:         # a text's numbers and the functions it uses, walked once per pack
            ints: list[int] = []
            calls: list[str] = []
            for n in _walk(_tree(src, start)):
                if isinstance(n, A.Int):
                    ints.append(n.value)
                elif isinstance(n, A.Name) and n.name in constants:
                    ints += constants[n.name]
                elif isinstance(n, (A.Call, A.CallProc)):
                    calls.append(n.func if isinstance(n, A.Call) else n.name)
            found = walked[key] = (src, ints, calls)
        literals += found[1]
        for name in found[2]:
            if name in bodies and name not in seen:
                seen.add(name)
                todo.append(bodies[name])
    for v in sorted(set(literals)):
        if v not in out:
            out.append(v)
    return out


def number_warnings(pack: M.Pack) -> list[Problem]:
    """A warning for each number a card's hand-written text names that its rules do not
    (the text says 5, the cost is 4), at the number in the file. Never an error: a text
    may count other things."""
    out: list[Problem] = []
    readers: Optional[dict[str, set[int]]] = None
    for card in pack.cards:
        if not card.text_sources:
            continue
        numbers = None
        for lang, src in card.text_sources:
            for value, offset, length in text_numbers(src.text, lang):
                if numbers is None:
                    readers = field_numbers(pack) if readers is None else readers
                    numbers = card_numbers(pack, card, readers)
                if value in numbers or _implied(src.text, offset, length, value, numbers, lang):
                    continue
                line = src.text.count("\n", 0, offset) + 1
                col = offset - (src.text.rfind("\n", 0, offset) + 1) + 1
                have = ", ".join(str(n) for n in numbers) or "none"
                out.append(Problem(f"card '{card.id}': text ({lang}) says {value}; the card's numbers are {have}",
                                   to_span(src.origin, line, col, length)))
    return out
