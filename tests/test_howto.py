"""How to play from the pack (kind: howto): `meeple rules`, '? rules', and '? N' that
explains every option of every shipped pack, in English and Japanese."""
import random
import shutil

import pytest
from click.testing import CliRunner

import meeple
from meeple.cli import ExitCode, main
from meeple.core.errors import Problems
from meeple.loading.folders import shipped_pack, shipped_packs
from meeple.loading.pack import read_pack
from meeple.play.howto import howto_lines, missing_locales
from meeple.play.lines import width_of
from meeple.play.terminal import TerminalView

# (pack, players, seeds): random games whose every decision is asked '? N' for each option
GAMES = [("citadels", 4, 3), ("citadels", 2, 2), ("citadels-2016", 5, 3), ("citadels-dark-city", 5, 3),
         ("troyes", 2, 3), ("troyes", 4, 2), ("signorie", 2, 3), ("signorie", 4, 2)]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("pack", shipped_packs())
def test_every_shipped_pack_has_a_how_to_play_in_english_and_japanese(pack):
    game = meeple.load(pack)
    own = [h for h in game.pack.howto if h.pack == pack]
    assert len(own) == 1 and own[0].overview.get("en") and own[0].sections
    assert not missing_locales(game.pack, "ja"), f"{pack}: a how-to-play text has no Japanese"


@pytest.mark.parametrize("pack, headings", [
    ("troyes", ["Troyes: how to play", "A round", "The actions", "The end and the scoring"]),
    ("signorie", ["Signorie: how to play", "A turn", "The Signoria actions", "The end and the scoring"]),
    ("citadels-2016", ["Citadels: how to play", "The characters", "What Citadels (2016 edition) changes"]),
])
def test_meeple_rules_prints_the_base_then_what_an_expansion_changes(pack, headings):
    r = run("rules", pack)
    assert r.exit_code == ExitCode.OK
    lines = r.output.splitlines()
    at = [lines.index(h) for h in headings]
    assert at == sorted(at) and at[0] == 0
    assert max(len(ln) for ln in lines) <= 80


def test_meeple_rules_in_japanese_fills_the_width_with_wide_letters():
    r = run("rules", "signorie", "--lang", "ja", "--width", "60")
    assert r.exit_code == ExitCode.OK and "note:" not in r.output       # every text has its Japanese
    lines = r.output.splitlines()
    assert lines[0] == "シニョーリエ: 遊び方"
    assert "ゲーム終了と得点" in lines and max(width_of(ln) for ln in lines) <= 60


@pytest.mark.parametrize("pack, players, seeds", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_question_n_explains_every_option(pack, players, seeds, lang):
    """'? N' never answers 'option N names no card': an option is explained by its action's
    text, its card, or the help the pack's howto declares for the choice."""
    game = meeple.load(pack)
    view = TerminalView(game, lang=lang)
    unexplained = set()
    for seed in range(seeds):
        st = game.new_state(players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(2500):
            if st.over:
                break
            dec = st.pending
            options = view.options(st, dec.player)
            for n in range(1, len(options) + 1):
                if "names no card" in view.help(f"? {n}", options, st):
                    unexplained.add((dec.prompt, str(dec.options[n - 1][1])))
            game.apply(st, rng.randrange(len(dec.options)))
    assert sorted(unexplained) == []


def test_question_n_gives_the_option_and_the_choice_text():
    game = meeple.load("signorie")
    view = TerminalView(game)
    st = game.new_state(players=2, seed=1)
    rng = random.Random(1)
    while st.pending.prompt != "dowry (florins)":
        game.apply(st, rng.randrange(len(st.pending.options)))
    options = view.options(st, st.pending.player)
    said = view.help("? 2", options, st)
    assert said.splitlines()[0] == "  dowry (florins): 2, pay 2 florins"
    assert "Pay 2 florins, gain 4 VP." in said and "Each florin paid gives 2 VP." in said


def test_question_mark_names_the_rules_command_and_question_rules_shows_the_overview():
    game = meeple.load("troyes")
    view = TerminalView(game)
    st = game.new_state(players=2, seed=0)
    assert "? rules: how to play, in short (all of it: `meeple rules troyes`)" in view.help("?", [], st)
    said = view.help("? rules", [], st)
    assert said.startswith("  Troyes is a dice game") and said.endswith("all of it: `meeple rules troyes`")
    ja = TerminalView(game, lang="ja").help("? rules", [], st)
    assert "トロワは" in ja and ja.endswith("`meeple rules troyes --lang ja`")


def _copy(tmp_path, pack="troyes"):
    root = tmp_path / pack
    shutil.copytree(shipped_pack(pack), root)
    return root


def test_a_howto_without_an_overview_is_a_schema_error_at_its_line(tmp_path):
    root = _copy(tmp_path)
    (root / "howto.yaml").write_text("kind: howto\nsections:\n  - title: Play\n    text: Roll.\n", encoding="utf-8")
    problems = Problems()
    read_pack(root, problems)
    said = [f"{e.span.line}: {e.message}" for e in problems.errors]
    assert any("overview" in s and s.startswith("1:") for s in said), said


def test_a_second_howto_file_is_an_error(tmp_path):
    root = _copy(tmp_path)
    (root / "more.yaml").write_text("kind: howto\noverview: Roll dice.\nsections: [{title: Play, text: Roll.}]\n",
                                    encoding="utf-8")
    problems = Problems()
    read_pack(root, problems)
    assert any("a second howto file" in e.message for e in problems.errors)


def test_help_for_a_choice_no_rule_asks_is_a_warning(tmp_path):
    root = _copy(tmp_path)
    path = root / "howto.yaml"
    text = path.read_text(encoding="utf-8").replace('"a citizen for this job comes from (only where you have one)":', '"a citizen for this jb comes from (only where you have one)":')
    text = text.replace("      from hand: {en:", "      from hnad: {en:", 1)
    path.write_text(text, encoding="utf-8")
    r = run("validate", str(root))
    assert r.exit_code == ExitCode.OK
    assert "howto: choices: no rule asks 'a citizen for this jb comes from (only where you have one)'; did you mean 'a citizen for this job comes from (only where you have one)'?" in r.output
    path.write_text(path.read_text(encoding="utf-8").replace('"a citizen for this jb comes from (only where you have one)":', '"a citizen for this job comes from (only where you have one)":'), encoding="utf-8")
    r = run("validate", str(root))
    assert "howto: choices: 'a citizen for this job comes from (only where you have one)': no rule offers the option 'from hnad'" in r.output


def test_a_pack_without_a_howto_says_so(tmp_path):
    root = _copy(tmp_path)
    (root / "howto.yaml").unlink()
    game = meeple.load(str(root))
    assert howto_lines(game.pack) == ["Troyes: how to play", "", "no how-to-play in this pack"]


@pytest.mark.parametrize("pack", shipped_packs())
def test_every_action_has_a_text_to_explain_its_options_in_english_and_japanese(pack):
    """'? N' on an action's option shows the action's text: every action has one, and
    a card's action without one is explained by its card's text."""
    p = meeple.load(pack).pack
    bare = [a.id for a in p.game.actions if not {"en", "ja"} <= set(dict(a.text.by_locale))]
    bare += [f"{c.id}.{a.id}" for c in p.cards for a in c.actions if not a.text.by_locale and not c.text.by_locale]
    assert bare == []


def test_a_choice_help_puts_in_the_choosers_values_signorie_steps_left():
    """'a step' says how many steps are left: the help names {steps_left}, the
    chooser's variable, which the rules count down (4 for the cyan action)."""
    game = meeple.load("signorie")
    view = TerminalView(game)
    st = game.new_state(players=2, seed=1)
    rng = random.Random(1)
    seen = []
    while not st.over and len(seen) < 3:
        dec = st.pending
        if dec.prompt == "a step":
            said = view.help("? 1", view.options(st, dec.player), st)
            seen.append(said.split("Steps left, this one included: ", 1)[1].split(".", 1)[0])
        game.apply(st, rng.randrange(len(dec.options)))
    assert seen == ["3", "2", "2"]
