"""Rules text generated from the effect language (dsl/phrases.py, engine/authoring/cardtext.py):
every operator, verb and primitive has a phrase in each language (every kind of node:
tests/test_node_kinds.py), a text reads as the rules say in the pack's own words, and
`meeple cards` shows it."""
import re
import shutil
import string
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.dsl import ast as A
from meeple.dsl import ir
from meeple.dsl.compiler import Compiler
from meeple.dsl.errors import Span
from meeple.dsl.source import Source, TextOrigin
from meeple.dsl.typesys import PLAYER, Card
from meeple.dsl.vocabulary import CompileResult
from meeple.dsl.phrases import CARD_PHRASES, LANGS, OPERATORS, PHRASES, PRIMITIVE_PHRASES, VERBS, Renderer
from meeple.dsl.primitives import PRIMITIVES
from meeple.authoring.cardtext import card_lines, checked_texts, lexicon
from meeple.cli import ExitCode, main
from meeple.runtime.game import load_game
from meeple.loading.folders import shipped_packs
from golden_games import game_of

GRAMMAR = (A.__file__.rsplit("/", 1)[0] + "/grammar.lark")


def _grammar_operators() -> set[str]:
    text = open(GRAMMAR, encoding="utf-8").read()
    ops = set()
    for token in ("COMPARE", "ADD_OP", "MUL_OP"):
        line = next(x for x in text.splitlines() if x.startswith(token + ":"))
        ops |= set(re.findall(r'"([^"]+)"', line))
    return ops | {"and", "or", "in", "notin", "..", "not", "neg"}


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def test_every_primitive_verb_and_operator_has_a_phrase():
    assert sorted(set(PRIMITIVES) - set(PRIMITIVE_PHRASES)) == []
    assert sorted(set(PRIMITIVE_PHRASES) - set(PRIMITIVES)) == []
    assert set(VERBS) == {"gain", "lose", "give", "pay", "pay_to", "take"}
    assert _grammar_operators() <= set(OPERATORS)


@pytest.mark.parametrize("table", [PHRASES, VERBS, OPERATORS, PRIMITIVE_PHRASES, CARD_PHRASES],
                         ids=["nodes", "verbs", "operators", "primitives", "card"])
def test_each_phrase_is_in_both_languages_with_the_same_parts(table):
    for key, by_lang in table.items():
        assert set(by_lang) == set(LANGS), key
        assert _fields(by_lang["en"]) == _fields(by_lang["ja"]), key


# A small pack with names of every sort: a resource (coins), a zone each player has (hand), a
# shared zone (market), a game variable (x), a card (ware) of a kind with a field (cost),
# functions with a phrase (price) and without (bonus).
WARES = {
    "pack.yaml": 'kind: pack\nid: wares\nname: Wares\nversion: "0.1"\ndescription: Names of every sort.\n',
    "cards.yaml": "kind: cards\ncard_kind: good\ncards:\n  - id: ware\n    name: {en: ware, ja: 商品}\n    cost: 2\n    copies: 3\n",
    "game.yaml": """kind: game
players: {min: 2, max: 3}
resources:
  coins: {name: {en: Coins, ja: 金}, min: 0}
variables:
  x: int
player_variables:
  passed: bool
card_kinds:
  good:
    starts_in: market
    fields:
      cost: int
zones:
  market: {name: {en: market, ja: 市場}, per: game, visibility: public, holds: good}
  hand: {name: {en: hand, ja: 手札}, per: player, visibility: owner, holds: good}
functions:
  price:
    params: {w: good}
    value: w.cost + 1
    text: {en: "the price of {w}", ja: "{w}の値段"}
  bonus:
    params: {w: good}
    value: w.cost
actions:
  turn:
    - id: pass
      name: Pass
      effect: |
        set passed = true
flow:
  setup: |
    shuffle market
  round: |
    for each p in players:
        as p:
            set passed = false
            play actions turn until passed
  end_when: round == 3
  max_rounds: 5
  scoring: |
    gain 1 coins
score:
  resource: coins
"""}


@pytest.fixture(scope="module")
def wares(tmp_path_factory):
    """The pack, checked only: the texts of the tests are checked against its vocabulary."""
    folder = tmp_path_factory.mktemp("wares")
    for name, text in WARES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return load_game(str(folder), generate=False)


def checked(game, text: str, params: tuple = (("p", PLAYER), ("w", Card("good"))), statements: bool = True) -> ir.Text:
    """``text`` (statements, or an expression when not ``statements``; ``p`` a player and ``w``
    a good are its parameters) as the checker makes it against ``game``'s vocabulary, into a
    result of its own."""
    errors: list = []
    vocab = replace(game.vocab, result=CompileResult())
    src = Source(text, TextOrigin("t.yaml", 1, 1, statements), Span("t.yaml", 1, 1))
    comp = Compiler(vocab, errors)
    comp.keep = True
    (comp.unit if statements else comp.expression)("test", src, params)
    assert errors == []
    return vocab.result.texts[src]

# (effect text, English, Japanese): one line a statement, in the pack's words.
STATEMENTS = [
    ("give 2 coins to p", ["P gains 2 Coins"], ["Pは金を2得る"]),
    ("gain 1 coins", ["Gain 1 Coins"], ["金を1得る"]),
    ("pay all coins to p", ["Pay all Coins to P"], ["Pに金をすべて支払う"]),
    ("take 3 coins from p", ["Take 3 Coins from P"], ["Pから金を3受け取る"]),
    ("pay price(w) coins", ["Pay Coins equal to the price of W"], ["金をWの値段分支払う"]),
    ("pay bonus(w) coins", ["Pay Coins equal to bonus of W"], ["金をWのbonus分支払う"]),
    ("draw 2 from market to hand", ["Draw 2 from market to your hand"], ["市場から2枚をあなたの手札に引く"]),
    ("may choose w from market where w.cost <= coins",
     ["You may choose W from market where W's cost is at most your Coins"],
     ["市場からWを選んでもよい（ただしWのcostがあなたの金以下）"]),
    ("if coins >= 3:\n    lose 1 coins\nelse:\n    stop",
     ["If your Coins is at least 3:", "  Lose 1 Coins", "Otherwise:", "  Stop"],
     ["あなたの金が3以上なら:", "  金を1失う", "そうでなければ:", "  ここで終わる"]),
    ("set x = count(w in hand where w is ware) + size(market)",
     ["Set X to the number of W in your hand where W is ware + the size of market"],
     ["Xをあなたの手札のW（Wが商品である）の数 + 市場の数にする"]),
    ("for each p in players where p != me:\n    give greater(1, 2) coins to p",
     ["For each P in the players where P is not you:", "  P gains Coins equal to the greatest of 1, 2"],
     ["プレイヤー全員の各Pについて（ただしPがあなたでない）:", "  Pは金を1、2のうち最大の値分得る"]),
    ("for each p in players by coins of p:\n    gain 1 coins",       # its phrase has a part named 'key'
     ["For each P in the players (in order of P's Coins):", "  Gain 1 Coins"],
     ["プレイヤー全員の各Pについて（Pの金の順に）:", "  金を1得る"]),
    # names the checker resolved, which the spelling alone cannot tell: a local named like the
    # resource and the zone each player has reads as the local, not as yours
    ("let coins = 2\nlet hand = size(market)\ngain coins coins\nset x = hand",
     ["Let coins be 2", "Let hand be the size of market", "Gain Coins equal to coins", "Set X to hand"],
     ["coinsを2とする", "handを市場の数とする", "金をcoins分得る", "Xをhandにする"]),
]


def checked_expression(game, text: str, params: tuple) -> ir.Text:
    """An expression as the checker makes it against ``game``'s vocabulary."""
    return checked(game, text, params, statements=False)


def _render(game, text: str, lang: str) -> list[str]:
    return Renderer(lexicon(game.pack), lang).text(checked(game, text))


@pytest.mark.parametrize("text,en,ja", STATEMENTS, ids=[s[0].split("\n")[0] for s in STATEMENTS])
def test_statements_read_in_the_packs_words(wares, text, en, ja):
    assert _render(wares, text, "en") == en
    assert _render(wares, text, "ja") == ja


# Representative cards of each shipped game: (pack, card, lang, the generated lines).
CARDS = [
    ('citadels', 'thief', 'en', [
        'Action "Rob", once per turn:',
        "  Choose C from character where C's rank is more than 2 and C is not the murdered character",
        '  Set the robbed character to C',
        '  Set the robber to you',
        'Build limit 1: read by turn',
    ]),
    ('citadels', 'thief', 'ja', [
        'アクション「盗む」（1手番に1回）:',
        '  キャラクターからCを選ぶ（ただしCの番号が2より大きいかつCが暗殺されたキャラクターでない）',
        '  盗まれるキャラクターをCにする',
        '  盗んだプレイヤーをあなたにする',
        '1手番の建設数 1（参照: 手番）',
    ]),
    ('citadels', 'warlord', 'en', [
        'Action "Destroy a district", once per turn:',
        "  Choose D from every player's city where (the option warlord_own_city or the holder of D is not you) and rank-8 target of D and the cost to destroy D is at most your Gold",
        '  Price: Gold equal to the cost to destroy D, shown before choosing',
        '  Let owner be the holder of D',
        '  Pay Gold equal to the cost to destroy D',
        '  Do raze (D)',
        '  Announce destroyed (D, you, owner)',
        'Income red: read by Collect income',
        'Build limit 1: read by turn',
    ]),
    ('citadels', 'warlord', 'ja', [
        'アクション「破壊」（1手番に1回）:',
        '  全員の街からDを選ぶ（ただし(オプション「傭兵は自分の街も破壊できる」またはDの持ち主があなたでない)かつDの8番のキャラクターの対象かつDの破壊費用があなたの金貨以下）',
        '  価格: 金貨をDの破壊費用分（選ぶ前に表示）',
        '  元の持ち主をDの持ち主とする',
        '  金貨をDの破壊費用分支払う',
        '  取り壊し（D）を行う',
        '  破壊された（D、あなた、元の持ち主）を告げる',
        '収入の色 赤（参照: 収入を得る）',
        '1手番の建設数 1（参照: 手番）',
    ]),
    ('citadels-dark-city', 'artist', 'en', [
        'Action "Decorate a district (1 gold)", 2 times per turn:',
        '  Only when your Gold is at least 1',
        "  Choose D from your city where not D's decorated",
        '  Pay 1 Gold',
        "  Set D's decorated to true",
        'In choose characters:',
        '  Move the first C in unused characters where C is Artist to the characters not in play',
        'Build limit 1: read by turn',
    ]),
    ('troyes', 'merchant', 'en', [
        'Effect:',
        '  Gain 2 Deniers',
        'Colour yellow: read by Activate, reveal activities, reaches',
        'Level 1: read by reveal activities',
        'Hire cost 3: read by Activate, hire cost',
        'Divisor 2: read by Activate, reaches',
        'First slot VP 2: read by hire',
        'Second slot VP 1: read by hire',
        'Third slot VP 0: read by hire',
    ]),
    ('troyes', 'merchant', 'ja', [
        '効果:',
        '  ドゥニエを2得る',
        '色 黄（参照: 活動カードの活性化、活動カードの公開、ダイスが届く）',
        '段 1（参照: 活動カードの公開）',
        '雇用コスト 3（参照: 活動カードの活性化、雇用の支払い）',
        '活性化の数値 2（参照: 活動カードの活性化、ダイスが届く）',
        '1番目のマスの勝利点 2（参照: 職人の雇用）',
        '2番目のマスの勝利点 1（参照: 職人の雇用）',
        '3番目のマスの勝利点 0（参照: 職人の雇用）',
    ]),
    ('troyes', 'tithe', 'en', [
        'Effect:',
        '  For each P in the players:',
        "    Let N be the number of S in building spaces where S's building is Bishopric and S's occupants has a C where C's owner is P",
        "    If P's Deniers is at least N:",
        "      Set P's Deniers to P's Deniers - N",
        '    Otherwise:',
        "      Set P's Deniers to 0",
        "      Set P's Victory points to P's Victory points - the penalty",
        'Deal white: read by Deal with an event',
        'Divisor 4: read by Deal with an event',
        'Flags 3: read by Deal with an event',
        'First place VP 3: read by resolve event',
        'Second place VP 2: read by resolve event',
        'Black dice 0: read by black dice',
    ]),
    ('signorie', 'precedence', 'en', [
        'Reward:',
        '  Do initiative step',
        '  Do initiative step',
    ]),
    ('signorie', 'precedence', 'ja', [
        '報酬:',
        '  イニシアチブの前進を行う',
        '  イニシアチブの前進を行う',
    ]),
]


@pytest.fixture(scope="module")
def packs():
    return {}


def _game(packs, name):
    if name not in packs:
        packs[name] = game_of(name)     # the session's shared game: its texts as checked
    return packs[name]


@pytest.mark.parametrize("pack,card,lang,lines", CARDS, ids=[f"{p}-{c}-{lang}" for p, c, lang, _ in CARDS])
def test_generated_text_of_representative_cards(packs, pack, card, lang, lines):
    g = _game(packs, pack)
    assert card_lines(g, next(c for c in g.pack.cards if c.id == card), lang) == lines


@pytest.mark.parametrize("pack", shipped_packs())
def test_every_card_of_every_shipped_pack_renders_in_both_languages(packs, pack):
    g = _game(packs, pack)
    for card in g.pack.cards:
        for lang in LANGS:
            for line in card_lines(g, card, lang):
                # no Python None leaks (a sentence may begin with the language's own 'none', capitalised)
                assert line.strip() and "{" not in line and "None" not in line.strip()[1:], (card.id, lang, line)


@pytest.mark.parametrize("pack", shipped_packs())
def test_every_name_of_every_shipped_text_is_kept_as_what_the_checker_resolved(packs, pack):
    """The renderer reads the checker's records, never a name's spelling: each rule text of
    the game is kept as checked, and every name, field, 'X of Y' and call in it holds what
    it resolved to (``ir.Ref``)."""
    g = _game(packs, pack)
    assert g.generated and g.vocab.result.texts == {}        # a game to play keeps none: they would cost its play
    texts = checked_texts(g)                                 # its pack checked only
    sources = [s for c in g.pack.cards for _, s in c.hooks + c.handlers]
    sources += [s for a in list(g.pack.game.actions) + [a for c in g.pack.cards for a in c.actions]
                for s in (a.when, a.with_, a.effect) if s is not None]
    assert [s.span for s in sources if s not in texts] == []
    seen: dict[str, int] = {}
    for text in texts.values():
        for e in text.records():
            if isinstance(e.node, (A.Name, A.Field, A.Of, A.Call)):
                assert e.ref is not None and e.ref.what in ir.REFS, (e.node, e.ref)
                seen[e.ref.what] = seen.get(e.ref.what, 0) + 1
    assert {"local", "res", "zone", "field", "function", "primitive"} <= set(seen), seen


def test_a_name_shadowed_by_a_local_reads_as_the_local_and_its_record_says_so(wares):
    """'coins' is the pack's resource and, after 'let coins = 2', a local: the two uses in one
    statement read differently, as the checker resolved them (a local of the same spelling
    as the resource is not 'your Coins')."""
    text = checked(wares, "pay coins coins\nlet coins = 2\npay coins coins")
    first, _, last = text.stmts
    assert first.expr(first.node.amount.expr).ref == ir.Ref("res", 0)
    assert last.expr(last.node.amount.expr).ref == ir.Ref("local", 2)
    assert Renderer(lexicon(wares.pack), "en").text(text) == [
        "Pay Coins equal to your Coins", "Let coins be 2", "Pay Coins equal to coins"]


def test_cards_shows_the_generated_text_under_the_hand_written_one():
    r = CliRunner().invoke(main, ["cards", "citadels", "thief"], catch_exceptions=False)
    assert r.exit_code == ExitCode.OK
    out = r.output.splitlines()
    at = out.index("  generated:")
    assert out[at - 1].startswith("  text: Name a character to rob")
    assert out[at + 1:at + 3] == ['    Action "Rob", once per turn:',
                                  "      Choose C from character where C's rank is more than 2 and C is not the murdered character"]


def test_cards_generated_prints_only_the_generated_text():
    r = CliRunner().invoke(main, ["cards", "citadels", "thief", "--generated", "--lang", "ja"], catch_exceptions=False)
    assert r.exit_code == ExitCode.OK
    assert r.output.splitlines() == ["泥棒  [thief]", "  アクション「盗む」（1手番に1回）:",
                                     "    キャラクターからCを選ぶ（ただしCの番号が2より大きいかつCが暗殺されたキャラクターでない）",
                                     "    盗まれるキャラクターをCにする", "    盗んだプレイヤーをあなたにする", "  1手番の建設数 1（参照: 手番）"]
    every = CliRunner().invoke(main, ["cards", "troyes", "--generated"], catch_exceptions=False)
    assert every.exit_code == ExitCode.OK and "Tithe  [tithe]" in every.output and "Merchant  [merchant]" in every.output


MINIMAL = Path(__file__).parent / "content" / "valid" / "minimal"


def test_declared_words_of_zones_variables_kinds_and_functions(tmp_path):
    """name: on a zone, a card kind and a variable, text: on a function: the generated text
    uses them; an undeclared name reads as written."""
    pack = tmp_path / "minimal"
    shutil.copytree(MINIMAL, pack)
    game = (pack / "game.yaml").read_text()
    game = (game.replace("  passed: bool", "  passed: {type: bool, name: {en: done, ja: 終了}}")
                .replace("  coin:\n    starts_in: deck", "  coin:\n    name: {en: token, ja: トークン}\n    starts_in: deck")
                .replace("  hand: {per: player,", "  hand: {name: {en: purse, ja: 財布}, per: player,")
                .replace("procedures:", "functions:\n  cheap:\n    params: {c: coin}\n    value: c.cost <= 3\n"
                                        "    text: {en: \"{c} costs at most 3\", ja: \"{c}は3以下\"}\n\nprocedures:")
                .replace("with: c in deck where c.cost <= 3", "with: c in deck where cheap(c)"))
    (pack / "game.yaml").write_text(game)
    r = CliRunner().invoke(main, ["validate", str(pack)], catch_exceptions=False)
    assert r.exit_code == ExitCode.OK, r.output
    g = load_game(str(pack), generate=False)
    p = g.pack
    lex = lexicon(p)
    assert [lex.word(n, "ja") for n in ("hand", "passed", "coin", "gold", "deck", "c")] == ["財布", "終了", "トークン", "Gold", "deck", "C"]
    r = Renderer(lex, "en")
    take = p.game.actions[0].effect
    assert r.text(g.vocab.result.texts[take]) == [
        "Move C to your purse", "Gain Gold equal to C's value", "Announce taken (C)", "Do bonus of C", "Set your done to true"]
    coin = (("c", Card("coin")),)
    assert r.outermost(checked_expression(g, "cheap(c) and coin == coin", coin)) == "C costs at most 3 and token is token"
    assert Renderer(lex, "ja").outermost(checked_expression(g, "cheap(c)", coin)) == "Cは3以下"
    crown = next(c for c in p.cards if c.id == "crown")
    assert card_lines(g, crown, "en") == ["Bonus:", "  Gain 1 Gold", "When taken:", "  If card is Crown:", "    Gain 1 Gold",
                                          "Cost 3: read by cheap",
                                          "Value 1: read by Take a coin"]


def test_generated_text_escapes_control_codes_of_the_content(tmp_path):
    """A pack's words reach the terminal in the generated text: a name or a label with an
    escape code is shown escaped, as the rest of `meeple cards` shows content."""
    pack = tmp_path / "minimal"
    shutil.copytree(MINIMAL, pack)
    cards = (pack / "cards.yaml").read_text()
    (pack / "cards.yaml").write_text(cards.replace("name: {en: Crown}", 'name: {en: "Crown\\e[2J"}')
                                          .replace("      bonus: |\n        gain 1 gold\n",
                                                   '      bonus: "log \\"bye\\e[2J\\"\\ngain 1 gold"\n'))
    r = CliRunner().invoke(main, ["cards", str(pack), "crown", "--generated"], catch_exceptions=False)
    assert r.exit_code == ExitCode.OK, r.output
    assert "\x1b" not in r.output
    assert r.output.splitlines()[:3] == ["Crown\\x1b[2J  [crown]", "  Bonus:", '    Show "bye\\x1b[2J"']


def test_generated_text_says_what_an_option_costs():
    """A choose's or an option's ``price`` is in the generated text, as an action's is."""
    game = game_of("citadels-2016")
    wizard = next(c for c in game.pack.cards if c.id == "wizard")
    assert '      "build it", price Gold equal to build cost of D:' in card_lines(game, wizard, "en")
    assert "      「建てる」（価格: 金貨をDの建設費用分）:" in card_lines(game, wizard, "ja")
