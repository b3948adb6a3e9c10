"""Rules text generated from the effect language: a phrase per statement, expression,
operator and primitive, in English and Japanese.

The phrases sit here, beside the grammar and the primitives' registry, so that a new node
type or primitive without a phrase fails a test (tests/test_phrases.py walks ``meeple.dsl.ast``'s
node classes and ``PRIMITIVES``) instead of rendering as nothing. The ``Renderer`` reads
the checked form of a text (``meeple.dsl.ir``: ``Text``, ``Stmt`` and ``Expr`` records,
as the generator does), never the bare syntax tree: a name is told by what the checker
resolved it to (``Expr.ref``), not by its spelling. A pack's own words (its resources,
zones, variables, card kinds, card names, functions' phrases, its glossary) come in a
``Lexicon`` the caller builds from the pack's ``name: {en, ja}`` declarations: this module
never reads a pack. Nothing here runs during play: ``meeple cards``, the server's card
drawer and their tests only.

Templates are ``str.format`` strings; ``{x}`` fields are the rendered parts of the node.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping, Optional, Union

from . import ast as A
from . import ir

LANGS = ("en", "ja")

# One entry per AST node class (checked by a test), plus variants of a node as "Class.variant".
PHRASES: dict[str, dict[str, str]] = {
    # ---- expressions
    "Int": {"en": "{value}", "ja": "{value}"},
    "Str": {"en": '"{value}"', "ja": "「{value}」"},
    "Bool": {"en": "{value}", "ja": "{value}"},
    "NoneLit": {"en": "none", "ja": "なし"},
    "Me": {"en": "you", "ja": "あなた"},
    "This": {"en": "this card", "ja": "このカード"},
    "Name": {"en": "{name}", "ja": "{name}"},
    "Field": {"en": "{target}'s {name}", "ja": "{target}の{name}"},
    "Field.me": {"en": "your {name}", "ja": "あなたの{name}"},
    "Of": {"en": "{target}'s {name}", "ja": "{target}の{name}"},
    "Of.me": {"en": "your {name}", "ja": "あなたの{name}"},
    "Of.all": {"en": "every player's {name}", "ja": "全員の{name}"},
    "Of.others": {"en": "the other players' {name}", "ja": "他のプレイヤーの{name}"},
    "Of.cards": {"en": "the {name} of any card", "ja": "いずれかのカードの{name}"},
    "Comprehension": {"en": "{var} in {source}{where}", "ja": "{source}の{var}{where}"},
    "Comprehension.value": {"en": "{value} for each {var} in {source}{where}", "ja": "{source}の各{var}{where}の{value}"},
    "Comprehension.where": {"en": " where {cond}", "ja": "（{cond}）"},
    "Call": {"en": "{name} of {args}", "ja": "{args}の{name}"},
    "Call.none": {"en": "{name}", "ja": "{name}"},
    "ListLit": {"en": "[{items}]", "ja": "[{items}]"},
    "Unary": {"en": "{op}", "ja": "{op}"},          # the operator's phrase (OPERATORS) is the whole
    "Binary": {"en": "{op}", "ja": "{op}"},
    "Is": {"en": "{target} is {name}", "ja": "{target}が{name}である"},
    "Is.negated": {"en": "{target} is not {name}", "ja": "{target}が{name}でない"},
    "Cond": {"en": "{then} if {test}, else {other}", "ja": "{test}なら{then}、そうでなければ{other}"},
    # ---- statements
    "Amount": {"en": "{value}", "ja": "{value}"},
    "Amount.all": {"en": "all", "ja": "すべて"},
    "Amount.expr": {"en": "({value})", "ja": "{value}分"},      # an amount that is not a plain number
    "Counter": {"en": "{verb}", "ja": "{verb}"},     # the verb's phrase (VERBS) is the whole
    "Set": {"en": "set {target} to {value}", "ja": "{target}を{value}にする"},
    "Let": {"en": "let {name} be {value}", "ja": "{name}を{value}とする"},
    "Move": {"en": "move {what} to {to}", "ja": "{what}を{to}に移す"},
    "Move.bottom": {"en": "move {what} to the bottom of {to}", "ja": "{what}を{to}の一番下に移す"},
    "Draw": {"en": "draw {count} from {source} to {to}", "ja": "{source}から{count}枚を{to}に引く"},
    "Draw.bottom": {"en": "draw {count} from {source} to the bottom of {to}", "ja": "{source}から{count}枚を{to}の一番下に引く"},
    "Shuffle": {"en": "shuffle {zone}", "ja": "{zone}をシャッフルする"},
    "Swap": {"en": "swap {a} with {b}", "ja": "{a}と{b}を入れ替える"},
    "Roll": {"en": "roll {dice}", "ja": "{dice}を振る"},
    "Choose": {"en": "{by}choose {many}{var} from {source}{where}", "ja": "{by}{source}から{many}{var}を選ぶ{where}"},
    "Choose.optional": {"en": "{by}you may choose {many}{var} from {source}{where}",
                        "ja": "{by}{source}から{many}{var}を選んでもよい{where}"},
    "Choose.where": {"en": " where {cond}", "ja": "（ただし{cond}）"},
    "Choose.by": {"en": "{who}: ", "ja": "{who}が"},
    "Choose.up_to": {"en": "up to {n} ", "ja": "最大{n}個の"},
    "Choose.range": {"en": "{a} to {b} ", "ja": "{a}～{b}個の"},
    "ChooseOne": {"en": "{by}choose one:", "ja": "{by}次から1つ選ぶ:"},
    "ChooseOne.optional": {"en": "{by}you may choose one:", "ja": "{by}次から1つ選んでもよい:"},
    "Option": {"en": '"{label}"{cond}:', "ja": "「{label}」{cond}:"},
    "Option.cond": {"en": " (if {cond})", "ja": "（{cond}の場合）"},
    "Price": {"en": ", price {what}", "ja": "（価格: {what}）"},
    "Price.item": {"en": "{res} equal to {amount}", "ja": "{res}を{amount}分"},
    "CallProc": {"en": "do {name} ({args})", "ja": "{name}（{args}）を行う"},
    "CallProc.none": {"en": "do {name}", "ja": "{name}を行う"},
    "DoHook": {"en": "do {hook} of {card}", "ja": "{card}の{hook}を行う"},
    "Emit": {"en": "announce {event} ({args})", "ja": "{event}（{args}）を告げる"},
    "Emit.none": {"en": "announce {event}", "ja": "{event}を告げる"},
    "PlayActions": {"en": "take {group} actions until {until}", "ja": "{until}まで{group}のアクションを行う"},
    "Log": {"en": 'show "{text}"', "ja": "「{text}」と表示する"},
    "Require": {"en": "only if {cond}", "ja": "{cond}の場合のみ"},
    "Stop": {"en": "stop", "ja": "ここで終わる"},
    "If": {"en": "if {cond}:", "ja": "{cond}なら:"},
    "If.elif": {"en": "otherwise, if {cond}:", "ja": "そうでなく{cond}なら:"},
    "If.else": {"en": "otherwise:", "ja": "そうでなければ:"},
    "ForEach": {"en": "for each {var} in {source}{where}{order}:", "ja": "{source}の各{var}について{where}{order}:"},
    "ForEach.where": {"en": " where {cond}", "ja": "（ただし{cond}）"},
    "ForEach.order": {"en": " (in order of {key})", "ja": "（{key}の順に）"},
    "Repeat": {"en": "{count} times:", "ja": "{count}回:"},
    "While": {"en": "while {cond}:", "ja": "{cond}の間:"},
    "As": {"en": "as {player}:", "ja": "{player}として:"},
}

# Counter verbs (gain / lose / give / pay / pay_to / take).
VERBS: dict[str, dict[str, str]] = {
    "gain": {"en": "gain {amount} {resource}", "ja": "{resource}を{amount}得る"},
    "lose": {"en": "lose {amount} {resource}", "ja": "{resource}を{amount}失う"},
    "give": {"en": "{other} gains {amount} {resource}", "ja": "{other}は{resource}を{amount}得る"},
    "pay": {"en": "pay {amount} {resource}", "ja": "{resource}を{amount}支払う"},
    "pay_to": {"en": "pay {amount} {resource} to {other}", "ja": "{other}に{resource}を{amount}支払う"},
    "take": {"en": "take {amount} {resource} from {other}", "ja": "{other}から{resource}を{amount}受け取る"},
}

# The same verbs when the amount is worked out (a name, an operation, a call), so that the
# sentence reads: 'gain Points equal to your Coins', not 'gain your Coins Points'.
VERBS_BY: dict[str, dict[str, str]] = {
    "gain": {"en": "gain {resource} equal to {amount}", "ja": "{resource}を{amount}分得る"},
    "lose": {"en": "lose {resource} equal to {amount}", "ja": "{resource}を{amount}分失う"},
    "give": {"en": "{other} gains {resource} equal to {amount}", "ja": "{other}は{resource}を{amount}分得る"},
    "pay": {"en": "pay {resource} equal to {amount}", "ja": "{resource}を{amount}分支払う"},
    "pay_to": {"en": "pay {other} {resource} equal to {amount}", "ja": "{other}に{resource}を{amount}分支払う"},
    "take": {"en": "take {resource} equal to {amount} from {other}", "ja": "{other}から{resource}を{amount}分受け取る"},
}

# The names every pack has (the language's own): the seats, their number, the round.
BUILTIN_WORDS: dict[str, dict[str, str]] = {
    "players": {"en": "the players", "ja": "プレイヤー全員"},
    "player_count": {"en": "the number of players", "ja": "プレイヤー数"},
    "round": {"en": "the round", "ja": "ラウンド"},
}

# Operators of Binary and Unary nodes, as the parser names them.
OPERATORS: dict[str, dict[str, str]] = {
    "+": {"en": "{l} + {r}", "ja": "{l} + {r}"},
    "-": {"en": "{l} - {r}", "ja": "{l} - {r}"},
    "*": {"en": "{l} × {r}", "ja": "{l} × {r}"},
    "/": {"en": "{l} / {r}", "ja": "{l} / {r}"},
    "%": {"en": "{l} mod {r}", "ja": "{l}を{r}で割った余り"},
    "==": {"en": "{l} is {r}", "ja": "{l}が{r}"},
    "!=": {"en": "{l} is not {r}", "ja": "{l}が{r}でない"},
    "<": {"en": "{l} is less than {r}", "ja": "{l}が{r}未満"},
    "<=": {"en": "{l} is at most {r}", "ja": "{l}が{r}以下"},
    ">": {"en": "{l} is more than {r}", "ja": "{l}が{r}より大きい"},
    ">=": {"en": "{l} is at least {r}", "ja": "{l}が{r}以上"},
    "and": {"en": "{l} and {r}", "ja": "{l}かつ{r}"},
    "or": {"en": "{l} or {r}", "ja": "{l}または{r}"},
    "in": {"en": "{l} is in {r}", "ja": "{l}が{r}にある"},
    "notin": {"en": "{l} is not in {r}", "ja": "{l}が{r}にない"},
    "..": {"en": "{l} to {r}", "ja": "{l}～{r}"},
    "not": {"en": "not {x}", "ja": "{x}でない"},
    "neg": {"en": "-{x}", "ja": "-{x}"},
}

# Words of literals.
WORDS: dict[str, dict[str, str]] = {
    "true": {"en": "true", "ja": "真"},
    "false": {"en": "false", "ja": "偽"},
    "item": {"en": "item", "ja": "要素"},
    "list": {"en": ", ", "ja": "、"},
}

# One entry per primitive (checked by a test). Positional fields {0}, {1}, ...; {args} is
# all the arguments joined (variadic ones). An aggregate's argument is usually a
# comprehension: {var}, {source}, {cond} are its parts (``every``, ``any``).
PRIMITIVE_PHRASES: dict[str, dict[str, str]] = {
    "size": {"en": "the size of {0}", "ja": "{0}の数"},
    "holder": {"en": "the holder of {0}", "ja": "{0}の持ち主"},
    "top": {"en": "the top card of {0}", "ja": "{0}の一番上のカード"},
    "host": {"en": "the card {0} lies on", "ja": "{0}が置かれたカード"},
    "turn_order": {"en": "the players in turn order from {0}", "ja": "{0}から手番順のプレイヤー"},
    "next_player": {"en": "the player after {0}", "ja": "{0}の次のプレイヤー"},
    "previous_player": {"en": "the player before {0}", "ja": "{0}の前のプレイヤー"},
    "player": {"en": "player {0}", "ja": "プレイヤー{0}"},
    "random": {"en": "a random one of {0}", "ja": "{0}から無作為に1つ"},
    "distance": {"en": "the seats from {0} to {1}", "ja": "{0}から{1}までの席数"},
    "neighbours": {"en": "{0} and {1} sit side by side", "ja": "{0}と{1}が隣り合う"},
    "abs": {"en": "the absolute value of {0}", "ja": "{0}の絶対値"},
    "lesser": {"en": "the least of {args}", "ja": "{args}のうち最小の値"},
    "greater": {"en": "the greatest of {args}", "ja": "{args}のうち最大の値"},
    "tier": {"en": "the value of {2} at the highest of {1} that {0} reaches",
             "ja": "{0}が達した{1}の最高段階に応じた{2}の値"},
    "top_sum": {"en": "the sum of the {1} largest of {0}", "ja": "{0}のうち大きい{1}個の合計"},
    "majority_share": {"en": "the majority share of {0} among {1} ({2} for most, {3} for second)",
                       "ja": "{1}の中での{0}の多数派の取り分（1位{2}、2位{3}）"},
    "count": {"en": "the number of {0}", "ja": "{0}の数"},
    "sum": {"en": "the sum of {0}", "ja": "{0}の合計"},
    "min": {"en": "the least {0}", "ja": "{0}の最小値"},
    "max": {"en": "the greatest {0}", "ja": "{0}の最大値"},
    "any": {"en": "{source} has a {var} where {cond}", "ja": "{source}に{var}（{cond}）がある"},
    "every": {"en": "{cond} for every {var} in {source}", "ja": "{source}のすべての{var}について{cond}"},
    "first": {"en": "the first {0}", "ja": "最初の{0}"},
    "those": {"en": "those {0}", "ja": "{0}のすべて"},
    "values": {"en": "the values {0}", "ja": "{0}の一覧"},
}

_ARITH_RANK = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "notin", ".."}
# English agreement after 'you' (a template writes the third person: "{other} gains").
_AGREE = ((re.compile(r"\byou is\b"), "you are"), (re.compile(r"\byou gains\b"), "you gain"),
          (re.compile(r"\byou has\b"), "you have"))


@dataclass(frozen=True)
class Lexicon:
    """A pack's words for the names its texts use, per locale.

    ``names``: resource, zone, variable, card kind, enum value and card id -> {locale: text}.
    ``mine``: the zones each player has (and the resources and player variables), which a
    name the checker resolved to one of them, written alone, reads as the current player's:
    ``hand`` reads "your hand".
    ``phrases``: a function's (or procedure's) declared phrase {locale: template} with its
    parameters in braces; ``params`` their names in order.
    """

    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    mine: frozenset = frozenset()
    phrases: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    params: Mapping[str, tuple] = field(default_factory=dict)
    # the words the pack gives names that declare none (its howto's glossary: fields, hooks,
    # procedures, the locals its rules use): a local reads with these, never with the word of
    # a resource or zone it shadows
    glossary: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # card kinds and cards: a local named for what it holds (a kind's or a card's name) reads with their word
    held: frozenset = frozenset()

    def word(self, name: str, lang: str) -> str:
        """The pack's word for a name, else the language's (``players``), else the name
        itself: a one- or two-letter local (``p``, ``d2``) in capitals, a longer one with
        spaces for underscores."""
        by = self.names.get(name) or BUILTIN_WORDS.get(name) or {}
        said = by.get(lang) or by.get("en")
        return said or spelled(name)

    def local(self, name: str, lang: str) -> str:
        """The word of a local (a parameter, a 'let', a 'for each' or 'choose' variable): the
        glossary's; else, named for what it holds (a card kind, a card), their word; else its
        name spelled out: never the word of a resource, variable or zone it shadows."""
        by = self.glossary.get(name) or (self.names.get(name) if name in self.held else None) or {}
        return by.get(lang) or by.get("en") or spelled(name)


def spelled(name: str) -> str:
    """A name with no words of its own: a one- or two-letter local (``p``, ``d2``) in
    capitals, a longer one with spaces for underscores."""
    if len(name) <= 2:
        return name.upper()
    return name.replace("_", " ")


class Renderer:
    """Renders rule texts as the checker made them (``meeple.dsl.ir``: a text's ``Stmt``
    records, an expression's ``Expr`` tree) in one locale. A name is told by what the checker
    resolved it to (``Expr.ref``): a local reads as the local even where the pack has a
    resource or zone of that name, a player's resource or zone written alone as 'your ...',
    'X of all' of a zone each card has as any card's; a call of the pack's function by its
    phrase, though a primitive has the same name."""

    def __init__(self, lexicon: Lexicon, lang: str = "en"):
        self.lex = lexicon
        self.lang = lang if lang in LANGS else "en"
        self.at: list[ir.Expr] = []     # the records of the expressions being rendered, innermost last

    def phrase(self, key: str, /, **parts: str) -> str:
        return PHRASES[key][self.lang].format(**parts)

    def word(self, name: str) -> str:
        """The pack's word for one of its names (a resource, a zone, a field, a card ...)."""
        return self.lex.word(name, self.lang)

    def local(self, name: str) -> str:
        """The word of a local of the text (``Lexicon.local``)."""
        return self.lex.local(name, self.lang)

    # ---- statements
    def text(self, t: ir.Text, indent: int = 0) -> list[str]:
        """A text of statements, as checked: one line a statement."""
        return self.block(t.stmts, indent)

    def block(self, stmts: tuple, indent: int = 0) -> list[str]:
        """One line a statement, blocks indented by two spaces a level."""
        lines: list[str] = []
        for s in stmts:
            lines += self.stmt(s, indent)
        return lines

    def stmt(self, r: ir.Stmt, indent: int = 0) -> list[str]:
        pad = "  " * indent
        s = r.node
        head, body = self._stmt(r)
        out = [pad + self.sentence(head)]
        for sub in body:
            if isinstance(sub, tuple) and len(sub) == 2 and isinstance(sub[0], str):
                out.append("  " * (indent + 1) + self.sentence(sub[0]))      # a labelled option
                out += self.block(sub[1], indent + 2)
            else:
                out += self.stmt(sub, indent + 1)
        if isinstance(s, A.If):            # 'otherwise' lines stand level with their 'if'
            for cond, branch in s.branches[1:]:
                out.append(pad + self.sentence(self.phrase("If.elif", cond=self.expr(r.expr(cond)))))
                out += self.block(r.block(branch), indent + 1)
            if s.orelse:
                out.append(pad + self.sentence(self.phrase("If.else")))
                out += self.block(r.block(s.orelse), indent + 1)
        return out

    def sentence(self, text: str) -> str:
        if self.lang == "en":
            for pattern, repl in _AGREE:
                text = pattern.sub(repl, text)
            return text[:1].upper() + text[1:]
        return text

    def _stmt(self, r: ir.Stmt) -> tuple[str, tuple]:
        """(the statement's line, what is indented under it: statement records, or (line,
        records) pairs of a menu's options)."""
        s, p = r.node, self.phrase
        e = lambda node: self.expr(r.expr(node))      # noqa: E731  (one of the statement's expressions)
        if isinstance(s, A.Counter):
            worked = s.amount.expr is not None and not isinstance(s.amount.expr, A.Int)
            table = VERBS_BY if worked else VERBS
            amount = e(s.amount.expr) if worked else self.amount(s.amount, r)
            return table[s.verb][self.lang].format(amount=amount, resource=self.word(s.resource),
                                                   other=e(s.other) if s.other is not None else ""), ()
        if isinstance(s, A.Set):
            return p("Set", target=self.target(r), value=e(s.value)), ()
        if isinstance(s, A.Let):
            return p("Let", name=self.local(s.name), value=e(s.value)), ()
        if isinstance(s, A.Move):
            return p("Move.bottom" if s.bottom else "Move", what=e(s.what), to=e(s.to)), ()
        if isinstance(s, A.Draw):
            return p("Draw.bottom" if s.bottom else "Draw", count=e(s.count), source=e(s.source), to=e(s.to)), ()
        if isinstance(s, A.Shuffle):
            return p("Shuffle", zone=e(s.zone)), ()
        if isinstance(s, A.Swap):
            return p("Swap", a=e(s.a), b=e(s.b)), ()
        if isinstance(s, A.Roll):
            return p("Roll", dice=e(s.dice)), ()
        if isinstance(s, A.Choose):
            many = ""
            if s.up_to is not None:
                many = (p("Choose.range", a=e(s.at_least), b=e(s.up_to)) if s.at_least is not None
                        else p("Choose.up_to", n=e(s.up_to)))
            return p("Choose.optional" if s.optional else "Choose", var=self.local(s.var), source=e(s.source),
                     where=p("Choose.where", cond=e(s.cond)) if s.cond is not None else "",
                     by=p("Choose.by", who=e(s.chooser)) if s.chooser is not None else "", many=many) + self.price(s.price, r), ()
        if isinstance(s, A.ChooseOne):
            head = p("ChooseOne.optional" if s.optional else "ChooseOne",
                     by=p("Choose.by", who=e(s.chooser)) if s.chooser is not None else "")
            return head, tuple((self.option(o, r), r.block(o.body)) for o in s.options)
        if isinstance(s, A.CallProc):
            return self.call_like("CallProc", s.name, tuple(r.expr(a) for a in s.args)), ()
        if isinstance(s, A.DoHook):
            return p("DoHook", hook=self.word(s.hook), card=e(s.card)), ()
        if isinstance(s, A.Emit):
            args = self.args(tuple(r.expr(a) for a in s.args))
            return (p("Emit", event=self.word(s.event), args=args) if args
                    else p("Emit.none", event=self.word(s.event))), ()
        if isinstance(s, A.PlayActions):
            return p("PlayActions", group=self.word(s.group), until=e(s.until)), ()
        if isinstance(s, A.Log):
            return p("Log", text=(self.lex.names.get(s.text) or {}).get(self.lang) or s.text), ()
        if isinstance(s, A.Require):
            return p("Require", cond=e(s.cond)), ()
        if isinstance(s, A.Stop):
            return p("Stop"), ()
        if isinstance(s, A.If):
            cond, body = s.branches[0]
            return p("If", cond=e(cond)), r.block(body)         # the other branches: stmt()
        if isinstance(s, A.ForEach):
            return p("ForEach", var=self.local(s.var), source=e(s.source),
                     where=p("ForEach.where", cond=e(s.cond)) if s.cond is not None else "",
                     order=p("ForEach.order", key=e(s.order)) if s.order is not None else ""), r.block(s.body)
        if isinstance(s, A.Repeat):
            return p("Repeat", count=e(s.count)), r.block(s.body)
        if isinstance(s, A.While):
            return p("While", cond=e(s.cond)), r.block(s.body)
        if isinstance(s, A.As):
            return p("As", player=e(s.player)), r.block(s.body)
        raise TypeError(f"no phrase for statement {type(s).__name__}")

    def target(self, r: ir.Stmt) -> str:
        """What a 'set' assigns to, as the checker resolved it (``ir.Set.target``: what it is,
        and whose): a local, a game variable, a player's variable or resource (yours, written
        alone), a card's variable."""
        s, facts = r.node, r.facts
        assert isinstance(s, A.Set) and isinstance(facts, ir.Set), "a 'set' is checked into its target"
        kind, name = facts.target[0], getattr(s.target, "name")
        if kind == "local":
            return self.phrase("Name", name=self.local(name))
        if kind == "gvar":
            return self.phrase("Name", name=self.word(name))
        whose = facts.target[2]           # the player (a 'me' the checker made for a name written alone) or the card
        if kind in ("pvar", "res"):
            if isinstance(whose, A.Me):
                return self.phrase("Of.me", name=self.word(name))
            return self.phrase("Of", target=self.inner(r.expr(whose)), name=self.word(name))
        return self.phrase("Field", target=self.inner(r.expr(whose)), name=self.word(name))     # a card's variable

    def option(self, o: A.Option, r: ir.Stmt) -> str:
        label = (self.lex.names.get(o.label) or {}).get(self.lang) or o.label     # the pack's words for a label
        text = self.phrase("Option", label=label,
                           cond=self.phrase("Option.cond", cond=self.expr(r.expr(o.cond))) if o.cond is not None else "")
        return text[:-1] + self.price(o.price, r) + ":" if o.price else text

    def price(self, price: tuple, r: ir.Stmt) -> str:
        """', price 2 coins': what choosing costs (a choose's or an option's ``price``), '' for none."""
        if not price:
            return ""
        return self.phrase("Price", what=", ".join(self.phrase("Price.item", amount=self.expr(r.expr(amount)), res=self.word(res))
                                                   for amount, res, _ in price))

    def amount(self, a: A.Amount, r: ir.Stmt) -> str:
        if a.expr is None:
            return self.phrase("Amount.all")
        key = "Amount" if isinstance(a.expr, (A.Int, A.Name)) else "Amount.expr"
        return self.phrase(key, value=self.expr(r.expr(a.expr)))

    def args(self, args: tuple) -> str:
        """Checked expressions joined: a call's arguments, a list's items."""
        return WORDS["list"][self.lang].join(self.expr(a) for a in args)

    def call_like(self, key: str, name: str, args: tuple) -> str:
        """A pack function or procedure (``args``: checked): its declared phrase with the
        arguments put in, else its name."""
        template = (self.lex.phrases.get(name) or {}).get(self.lang)
        params = self.lex.params.get(name, ())
        if template and len(params) == len(args):
            try:
                return template.format(**{q: self.expr(a) for q, a in zip(params, args)})
            except (KeyError, IndexError, ValueError):
                pass         # a phrase naming no parameter it has: the name will do
        word = self.word(name)
        return self.phrase(key, name=word, args=self.args(args)) if args else self.phrase(key + ".none", name=word)

    # ---- expressions
    def expr(self, r: ir.Expr) -> str:
        """A checked expression in words; its parts are found among its record's parts (or,
        for what the checker checks in its own way, a chain's links, among those of the
        expression around it)."""
        self.at.append(r)
        try:
            return self._expr(r.node, r)
        finally:
            self.at.pop()

    def outermost(self, t: ir.Text) -> str:
        """A text that is an expression, or an action's parameter (``x in ... where ...``,
        whose source and condition the checker checks as outermost expressions)."""
        saved, self.at = self.at, list(t.exprs)
        try:
            return self.sub(t.node)
        finally:
            self.at = saved

    def record(self, node: A.Node) -> Optional[ir.Expr]:
        """The checked form of ``node``, a part of an expression being rendered (None: the
        checker checks it in its own way, as a link of an 'and' chain or a comprehension)."""
        for r in reversed(self.at):
            found = r.part(node)
            if found is not None:
                return found
        return None

    def sub(self, node: A.Node) -> str:
        """A part of the expression being rendered."""
        found = self.record(node)
        if found is not None:
            return self.expr(found)
        if isinstance(node, (A.Name, A.Field, A.Of, A.Call)):
            raise LookupError(f"{type(node).__name__} '{getattr(node, 'name', getattr(node, 'func', ''))}' was not checked")
        return self._expr(node, None)

    def _expr(self, n: A.Node, r: Optional[ir.Expr]) -> str:
        e, p = self.sub, self.phrase
        if isinstance(n, A.Int):
            return p("Int", value=str(n.value))
        if isinstance(n, A.Str):
            return p("Str", value=n.value)
        if isinstance(n, A.Bool):
            return p("Bool", value=WORDS["true" if n.value else "false"][self.lang])
        if isinstance(n, A.NoneLit):
            return p("NoneLit")
        if isinstance(n, A.Me):
            return p("Me")
        if isinstance(n, A.This):
            return p("This")
        ref = r.ref if r is not None else None
        if isinstance(n, A.Name):
            assert ref is not None, "a name is checked into what it resolved to"
            word = self.local(n.name) if ref.what == "local" else self.word(n.name)
            # a player's own (a resource, a variable, a zone each has) reads as yours; a local
            # never does, whatever the pack names so
            mine = ref.what in ("res", "pvar") or (ref.what == "zone" and n.name in self.lex.mine)
            return p("Of.me", name=word) if mine else p("Name", name=word)
        if isinstance(n, A.Field):
            name = self.word(n.name)
            return p("Field.me", name=name) if isinstance(n.target, A.Me) else p("Field", target=self.inner(n.target), name=name)
        if isinstance(n, A.Of):
            name = self.word(n.name)
            what = ref.what if ref is not None else ""
            if what == "card_zone_of_all":
                return p("Of.cards", name=name)
            if what in ("zone_of_all", "zone_of_others"):
                return p("Of." + n.scope, name=name)
            return p("Of.me", name=name) if isinstance(n.target, A.Me) else p("Of", target=self.inner(n.target), name=name)  # type: ignore[arg-type]  # a player's variable has a target
        if isinstance(n, A.Comprehension):
            where = p("Comprehension.where", cond=e(n.cond)) if n.cond is not None else ""
            var = self.local(n.var) if n.var else WORDS["item"][self.lang]
            if n.value is not None:
                return p("Comprehension.value", value=e(n.value), var=var, source=e(n.source), where=where)
            return p("Comprehension", var=var, source=e(n.source), where=where)
        if isinstance(n, A.Call):
            return self.call(n, ref)
        if isinstance(n, A.ListLit):
            return p("ListLit", items=WORDS["list"][self.lang].join(e(i) for i in n.items))
        if isinstance(n, A.Unary):
            key = "not" if n.op == "not" else "neg"
            return OPERATORS[key][self.lang].format(x=self.inner(n.operand))
        if isinstance(n, A.Binary):
            return OPERATORS[n.op][self.lang].format(l=self.operand(n, n.left, False), r=self.operand(n, n.right, True))
        if isinstance(n, A.Is):
            name = p("NoneLit") if n.name is None else self.word(n.name)
            return p("Is.negated" if n.negated else "Is", target=self.inner(n.target), name=name)
        if isinstance(n, A.Cond):
            return p("Cond", test=e(n.test), then=e(n.then), other=e(n.other))
        raise TypeError(f"no phrase for expression {type(n).__name__}")

    def inner(self, n: Union[A.Node, ir.Expr]) -> str:
        """A part inside another's phrase (a node, or a statement's checked expression):
        bracketed when it is itself an operation."""
        if isinstance(n, ir.Expr):
            text, n = self.expr(n), n.node
        else:
            text = self.sub(n)
        return f"({text})" if isinstance(n, (A.Binary, A.Cond)) else text

    def operand(self, parent: A.Binary, child: A.Node, right: bool) -> str:
        text = self.sub(child)
        if isinstance(child, A.Cond):
            return f"({text})"
        if not isinstance(child, A.Binary):
            return text
        if parent.op in ("and", "or"):
            wrap = child.op in ("and", "or") and child.op != parent.op
        elif parent.op in _COMPARISONS:
            wrap = child.op in ("and", "or") or child.op in _COMPARISONS
        else:       # arithmetic
            rank = _ARITH_RANK.get(parent.op, 3)
            crank = _ARITH_RANK.get(child.op, 0)
            wrap = crank < rank or (right and crank == rank)
        return f"({text})" if wrap else text

    def call(self, n: A.Call, ref: Optional[ir.Ref]) -> str:
        """A call as the checker resolved it: the pack's function (its phrase), else a primitive's."""
        table = PRIMITIVE_PHRASES.get(n.func) if ref is None or ref.what == "primitive" else None
        if table is None:
            return self.call_like("Call", n.func, tuple(self.record(a) or _unchecked(a) for a in n.args))
        template = table[self.lang]
        parts = {str(i): self.inner(a) if isinstance(a, A.Cond) else self.sub(a) for i, a in enumerate(n.args)}
        parts["args"] = WORDS["list"][self.lang].join(parts[str(i)] for i in range(len(n.args)))
        first = n.args[0] if n.args else None
        if isinstance(first, A.Comprehension):
            parts.update(var=self.local(first.var) if first.var else WORDS["item"][self.lang],
                         source=self.sub(first.source),
                         cond=self.sub(first.cond) if first.cond is not None else WORDS["true"][self.lang])
        else:
            parts.update(var=WORDS["item"][self.lang], source=parts.get("0", ""), cond=WORDS["true"][self.lang])
        try:
            return template.format(*[parts[str(i)] for i in range(len(n.args))], **parts)
        except (IndexError, KeyError):
            return self.call_like("Call", n.func, tuple(self.record(a) or _unchecked(a) for a in n.args))      # arity the checker refuses


def _unchecked(node: A.Node) -> ir.Expr:
    raise LookupError(f"{type(node).__name__}, an argument, was not checked")


# How a card's parts are introduced (``meeple cards GAME ID --generated``).
CARD_PHRASES: dict[str, dict[str, str]] = {
    "action": {"en": 'action "{name}"{per_turn}:', "ja": "アクション「{name}」{per_turn}:"},
    "per_turn.1": {"en": ", once per turn", "ja": "（1手番に1回）"},
    "per_turn": {"en": ", {n} times per turn", "ja": "（1手番に{n}回）"},
    "when": {"en": "only when {cond}", "ja": "{cond}のときのみ"},
    "price": {"en": "price: {what}, shown before choosing", "ja": "価格: {what}（選ぶ前に表示）"},
    "hook": {"en": "{hook}:", "ja": "{hook}:"},
    "trigger": {"en": "when {event}:", "ja": "{event}のとき:"},
    "field": {"en": "{field} {value}: read by {where}", "ja": "{field} {value}（参照: {where}）"},
    "more": {"en": "{n} more", "ja": "ほか{n}件"},
    "rule": {"en": "in {rule}:", "ja": "{rule}では:"},
    "rule.more": {"en": "and {n} more rules", "ja": "ほか{n}件のルール"},
    "data": {"en": "{field} {value}", "ja": "{field} {value}"},
    "bare": {"en": "a {kind}, with no data or rules of its own", "ja": "独自のデータやルールのない{kind}"},
}
