"""Japanese throughout: every word the play screens show under ``--lang ja`` is Japanese.

The interface's own words come from one message catalogue (``meeple.core.catalogue``),
a pack's from its ``name:`` entries and ``view: prompts`` / ``view: words``. Whole
games of every shipped pack are played through ``meeple play --lang ja`` (a person
asking for help, an option, the rules, a card, typing a wrong answer, then taking the
first option shown, against random bots): a screen line holding an English word, or a
card's or resource's id outside the brackets that show what to type, fails the test.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from answering import first_shown
from golden_games import game_of
from meeple.cli import main
from meeple.core.catalogue import CATALOGUE, JA, say
from meeple.play.terminal import TerminalView, refusal, wrap

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [("citadels", 4), ("citadels-2016", 4), ("citadels-dark-city", 4), ("troyes", 2), ("signorie", 2)]

# what may stay in Latin letters on a Japanese screen: what the person types (an option's
# key in brackets, a command in backquotes, '? rules'), a seat (P2), a count (x3), 'ID'
TYPED = re.compile(r"\[[^\]\n]*\]|`[^`\n]*`|\? rules|(?<![A-Za-z])(P\d+|x\d+|ID)(?![A-Za-z])|'zz'")
WORD = re.compile(r"[A-Za-z]{2,}")


def english_only(pack) -> list[str]:
    """Where a pack has a bilingual text (a card's, an action's, a zone's or resource's
    name, a card's text, a how-to line...) with its English and no Japanese: a path
    through the loaded pack, and the English. Every ``Names`` in the pack is looked at."""
    import dataclasses
    from meeple.loading.model import Names
    out: list[str] = []
    seen: set[int] = set()
    stack: list[tuple[str, object]] = [("pack", pack)]
    while stack:
        path, obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, Names):
            if obj.get("en") and "ja" not in dict(obj.by_locale):
                out.append(f"{path}: {obj.get('en')}")
        elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            stack += [(f"{path}.{f.name}", getattr(obj, f.name)) for f in dataclasses.fields(obj)]
        elif isinstance(obj, (tuple, list)):
            stack += [(f"{path}[{getattr(v, 'id', i)}]", v) for i, v in enumerate(obj)]
        elif isinstance(obj, dict):
            stack += [(f"{path}[{k!r}]", v) for k, v in obj.items()]
    return out


def english_left(screen: str) -> list[str]:
    """The screen's lines that still hold an English word (or an id), once what the
    person types is taken out."""
    return [line for line in screen.splitlines() if WORD.search(TYPED.sub("", line))]


def play_ja(game: str, players: int, seed: int) -> str:
    """A whole game of ``game`` under ``--lang ja``, the person's answers as the module says."""
    first_card = game_of(game).vocab.card_defs[0].id
    with first_shown(("?", "? 1", "? rules", "zz", f"? {first_card}")):
        r = CliRunner().invoke(main, ["play", game, "-p", str(players), "--seed", str(seed),
                                      "--bots", "human,random", "--lang", "ja"], env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output[-2000:]
    return r.output


@pytest.mark.parametrize("game, players", SHIPPED)
def test_a_whole_game_in_japanese_shows_no_english_word(game, players):
    screen = play_ja(game, players, 3)
    assert "最終得点 (" in screen and "  勝者" in screen       # it reached its end
    assert "  ?: このヘルプ" in screen and "'zz' は選択肢にありません" in screen     # '?' and a wrong answer were shown
    left = english_left(screen)
    assert not left, "\n".join(left[:20])
    keyed = re.findall(r"\n +\d+\. [^\n]*   \[[^\n]*", screen)        # a menu shows numbers only: no key in English
    assert not keyed and "'zz' は選択肢にありません: " in screen, keyed[:3]


def test_a_japanese_menu_names_an_options_key_only_when_asked():
    """Under ja the menu shows no key (the pack's ids are English words: 'hire',
    'from a building'); '? N' names the key of option N, which may still be typed."""
    import random
    g = game_of("signorie")
    st, rng = g.new_state(2, 3), random.Random(3)
    while st.pending.prompt != "what to do with the die":
        g.apply(st, rng.randrange(st.pending.count()))
    view = TerminalView(g, lang="ja")
    opts = view.options(st, st.pending.player)
    assert [o[0] for o in opts][:2] == ["hire", "administration"]
    helped = view.help("? 2", opts, st).splitlines()
    assert helped[:2] == ["  選択肢2: キー [administration]", "  ダイスの使い道: 業務"], helped
    assert not any("キー [" in line for line in TerminalView(g, lang="en").help("? 2", opts, st).splitlines())
    assert view.help("?", opts, st).splitlines()[0] == "  番号: その選択肢を選ぶ (? N が示すそのキーでも選べます)"


@pytest.mark.parametrize("game", [g for g, _ in SHIPPED])
def test_every_text_of_a_shipped_pack_has_its_japanese(game):
    """No card text, name or how-to line of a shipped pack is English only: '?' under
    --lang ja never has to say '(この文章は英語のみです)' (whole games reach only some cards)."""
    left = english_only(game_of(game).pack)
    assert not left, "\n".join(left[:20])


def test_an_english_only_card_text_is_caught(tmp_path):
    """The test above can fail: a card text whose Japanese is taken out is found."""
    import shutil
    from meeple import load
    pack = tmp_path / "troyes"
    shutil.copytree(ROOT / "content" / "troyes", pack)
    path = pack / "activities.yaml"
    text = path.read_text()
    old = ', ja: "活性化1回ごとに: 2ドゥニエを得ます。"}'
    assert old in text
    path.write_text(text.replace(old, "}"))
    left = english_only(load(str(pack)).pack)
    assert left == ["pack.cards[merchant].text: Each activation: gain 2 deniers."], left


def test_an_untranslated_message_or_pack_word_is_caught(monkeypatch):
    """The test above can fail: a message without its translation, or a pack word
    without its Japanese, leaves English on the screen."""
    monkeypatch.delitem(JA, "  since you last looked:")
    assert "  since you last looked:" in english_left(play_ja("troyes", 2, 3))
    monkeypatch.undo()
    game = game_of("signorie")
    words = dict((t, n) for t, n, _ in game.defn.view.words)
    assert "administration" in words
    import meeple.play.terminal as terminal
    texts = terminal.TerminalView.pack_word

    def forgetting(self, text):
        return text if text == "administration" else texts(self, text)
    monkeypatch.setattr(terminal.TerminalView, "pack_word", forgetting)
    assert any("administration" in line for line in english_left(play_ja("signorie", 2, 3)))


# messages looked up by a value the code holds, not written out where it is looked up
HELD = {"random": "an agent's name", "greedy": "an agent's name", "mcts": "an agent's name", "human": "an agent's name",
        "(hidden)": "meeple.runtime.views.HIDDEN_CHOICE", "skip": "a menu's own option", "done": "a menu's own option",
        "choose an action": "the action menu's prompt (meeple.dsl)",
        "a requirement does not hold": "meeple.dsl.errors.UNMET, a 'require' with no message"}


def _messages() -> set[str]:
    """Every message the code looks up: each text written in the first argument of
    ``say(...)``, of a view's ``word(...)`` or of ``message_names(...)`` (both sides of
    an ``if``), the narrator's and the how-to's words, and those the code holds (HELD)."""
    found: set[str] = set(HELD)
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text()
        if "meeple.core.catalogue" not in text and path.parent.name != "play":
            continue        # another module's own say or word
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and node.args:
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in ("say", "word", "message_names"):
                    found.update(c.value for c in ast.walk(node.args[0])
                                 if isinstance(c, ast.Constant) and isinstance(c.value, str))
    from meeple.play.howto import HEADINGS
    from meeple.play.narration import WORDS
    return found | set(WORDS.values()) | set(HEADINGS)


def test_every_message_the_code_writes_has_its_japanese_with_the_same_values():
    messages = _messages()
    assert {"  since you last looked:", "your choice", "final scores after {n} rounds:", "Final scoring"} <= messages
    missing = sorted(m for m in messages if m not in JA)
    assert not missing, missing
    for en, ja in JA.items():        # the same values in braces, so a message cannot lose one
        assert sorted(re.findall(r"\{(\w*)\}", en)) == sorted(re.findall(r"\{(\w*)\}", ja)), en
    unused = sorted(m for m in JA if m not in messages)
    assert not unused, unused
    assert set(CATALOGUE) == {"ja"} and say("winner", "fr") == "winner"


def test_validate_warns_of_a_word_the_pack_never_shows(tmp_path):
    from small_packs import validated_with
    code, output, line, pack = validated_with(tmp_path, "signorie", "    administration: {ja: 業務}", "    administraton: {ja: 業務}")
    text = (pack / "game.yaml").read_text()
    assert code == 0, output
    assert (f"game.yaml:{line}:5: warning: view: words: 'administraton' is no word the pack shows; "
            "did you mean 'administration'?") in output, output
    # a card's text field shown by the view's facts is a word the pack shows: its Japanese
    # is no warning (Signorie's track spaces: 'bonus: 2 florins')
    assert "'bonus: 2 florins' is no word" not in output and '"bonus: 2 florins": {ja:' in text, output


def _shown_texts(pack) -> set[str]:
    """Every text of a pack's rules a person may read: a choose's prompt, an option of
    ``choose one``, a ``log`` note, an action's ``refusal:``, a ``require``'s message."""
    from meeple.dsl import ast as A
    from meeple.dsl.parser import parse
    g = pack.game
    actions = [*g.actions, *(a for c in pack.cards for a in c.actions)]
    sources = [g.setup, g.round, *(part.body for part in g.scoring), *(p.body for p in g.procedures),
               *(a.effect for a in actions), *(src for c in pack.cards for _, src in (*c.hooks, *c.handlers))]
    out = {a.refusal for a in actions if a.refusal}
    for src in sources:
        if src is None:
            continue
        stack = list(parse(src.text, src.origin, "start"))
        while stack:
            n = stack.pop()
            if isinstance(n, A.Node):
                stack.extend(A.child_nodes(n))
            if isinstance(n, (A.Choose, A.ChooseOne)) and n.prompt:
                out.add(n.prompt)
            elif isinstance(n, A.Option):
                out.add(n.label)
            elif isinstance(n, A.Log):
                out.add(n.text)
            elif isinstance(n, A.Require) and n.message:
                out.add(n.message)
    return out


@pytest.mark.parametrize("game, players", SHIPPED)
def test_every_text_of_the_rules_a_person_may_read_has_its_japanese(game, players):
    """What the games above may not reach: every prompt, option, note and refusal the
    pack's rules write has its Japanese (view: prompts, view: words)."""
    g = game_of(game)
    view = TerminalView(g, lang="ja")
    texts = _shown_texts(g.pack)
    assert len(texts) > 5
    missing = sorted(t for t in texts if view.prompt(t) == t and view.pack_word(t) == t)
    assert not missing, missing


@pytest.mark.parametrize("game, players", SHIPPED)
def test_every_name_a_card_or_the_board_shows_has_its_japanese(game, players):
    """A card kind, a card field, an enum value (a card's facts, '? card') and a
    variable on the board read in Japanese under --lang ja."""
    g = game_of(game)
    d, view = g.defn, TerminalView(g, lang="ja")
    words = {x for _, values in d.enums for x in values} | {f for _, _, fs in d.view.facts for f, _ in fs}
    for k in d.card_kinds:
        words |= {k.name} | {f.name for f in k.fields}
    assert not sorted(w for w in words if view.pack_word(w) == w)
    shown = [n for n, _ in (*d.view.board, *d.view.player) if n in g.vocab.gvar_index or n in g.vocab.pvar_index]
    assert shown and not [n for n in shown if view.var_name(n) == n]


def _refusing_pack(tmp_path, words: str) -> str:
    """The minimal pack whose coins dearer than 1 are refused: by a ``require`` with the
    pack's own message, then by one with none (the engine's words); ``words``: its
    ``view: words``."""
    import shutil
    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "tests" / "content" / "valid" / "minimal", pack)
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace(
        "        move c to hand\n",
        '        require c.cost < 3 "the crown is too dear"\n        require c.cost < 2\n        move c to hand\n', 1)
        + f"view:\n  words:\n{words}")
    return str(pack)


@pytest.mark.parametrize("lang, pack_says, engine_says", [
    ("en", "  refused: the crown is too dear", "  refused: a requirement does not hold"),
    ("ja", "  できません: 王冠は高すぎます", "  できません: 条件を満たしていません"),
])
def test_a_refusal_is_said_in_the_players_language(tmp_path, lang, pack_says, engine_says):
    """A choice a rule refuses is told with its reason in --lang: the pack's message in
    the pack's words for it, the engine's own (a 'require' with no message) from the
    catalogue; the refused lines hold no English word under ja."""
    pack = _refusing_pack(tmp_path, '    "the crown is too dear": {ja: 王冠は高すぎます}\n')
    r = CliRunner().invoke(main, ["play", pack, "-p", "2", "--seed", "3", "--bots", "random,random", "--lang", lang])
    assert r.exit_code == 0, r.output
    refused = [line for line in r.output.splitlines() if line.startswith(pack_says[:6])]
    assert pack_says in refused and engine_says in refused, refused
    assert set(refused) == {pack_says, engine_says}
    if lang == "ja":
        assert not english_left("\n".join(refused))


def test_an_english_refusal_under_ja_is_caught(tmp_path, monkeypatch):
    """The tests above can fail: the engine's refusal without its Japanese, or a pack's
    without its word, is English on a Japanese screen; and a shipped pack's 'require'
    message without its Japanese is found among the texts a person may read."""
    monkeypatch.delitem(JA, "a requirement does not hold")
    pack = _refusing_pack(tmp_path, '    "the crown is too dear": {ja: 王冠は高すぎます}\n')
    r = CliRunner().invoke(main, ["play", pack, "-p", "2", "--seed", "3", "--bots", "random,random", "--lang", "ja"])
    assert "  できません: a requirement does not hold" in english_left(r.output)
    monkeypatch.undo()
    from meeple import load
    game = load(_refusing_pack(tmp_path / "other", '    slot: {ja: マス}\n'))
    view = TerminalView(game, lang="ja")
    assert "the crown is too dear" in _shown_texts(game.pack) and refusal(view, "the crown is too dear") == "the crown is too dear"


def _troyes_turn_menu():
    """A Troyes state at an action menu of P1's that offers two activity cards and not
    the cathedral (seed 5, random choices until then)."""
    import random
    game = game_of("troyes")
    st, rng = game.new_state(players=2, seed=5), random.Random(5)
    for _ in range(82):
        game.apply(st, rng.randrange(len(st.pending.values)))
    keys = st.pending.keys()
    assert st.pending.player == 0 and "pass" in keys and "cathedral" not in keys
    return game, st


@pytest.mark.parametrize("key, code, en, ja", [
    ("activate", "needs_choice", "'activate' needs a choice: activate:artisan, activate:blacksmith",
     "'activate' には選択が必要です: activate:artisan, activate:blacksmith"),
    ("activate:archers", "not_a_choice", "'archers' is not one of the choices for 'activate'",
     "'archers' は 'activate' ("),
    ("wait", "unmet", "'wait' needs: passed", "'wait' の条件を満たしていません: passed"),
    ("intercept", "not_available", "'intercept' is not available to P1 now", "'intercept' は今 P1 には使えません"),
    ("pas", "not_legal", "'pas' is not a legal option; legal: ", "'pas' は選べる選択肢ではありません。選べるもの: "),
])
def test_the_engines_reason_for_refusing_a_key_is_said_in_the_players_language(key, code, en, ja):
    """An option named by a key that is not offered is refused with a reason (its code
    stable, its English message unchanged for scenario files); a screen says the reason in
    its reader's language from the catalogue (meeple.play.terminal.refused)."""
    from meeple.core.errors import IllegalChoice
    from meeple.play.terminal import refused
    game, st = _troyes_turn_menu()
    with pytest.raises(IllegalChoice) as caught:
        game.apply(st, key)
    err = caught.value
    assert err.code == code and err.message.startswith(en), err.message
    assert refused(TerminalView(game), err) == err.message
    said = refused(TerminalView(game, lang="ja"), err)
    assert said.startswith(ja), said
    template = err.words[0]
    assert not WORD.search(re.sub(r"'[^']*'|\{\w+\}|P\{n\}", "", JA[template])), JA[template]    # the catalogue's words: no English


def test_a_reason_without_its_japanese_is_english_under_ja(monkeypatch):
    """The test above can fail: the engine's reason with no Japanese in the catalogue is
    said in English on a Japanese screen (and the catalogue test asks for every one)."""
    from meeple.core.errors import IllegalChoice
    from meeple.play.terminal import refused
    game, st = _troyes_turn_menu()
    monkeypatch.delitem(JA, "'{action}' needs a choice: {legal}")
    with pytest.raises(IllegalChoice) as caught:
        game.apply(st, "activate")
    assert refused(TerminalView(game, lang="ja"), caught.value) == "'activate' needs a choice: activate:artisan, activate:blacksmith"
    assert "'{action}' needs a choice: {legal}" in _messages() and "'{action}' needs a choice: {legal}" not in JA
