"""The timed modding trials of issue 13 stay true: each pack under
tests/content/trial was written by following the manual (then in README.md)
and the game's MODDING.md alone (a new card and its scenario), so it must keep validating
with no error and its scenarios must keep passing, whatever the base game
becomes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import main

REPO = Path(__file__).resolve().parent.parent
TRIALS = sorted(p for p in (REPO / "tests" / "content" / "trial").iterdir() if p.is_dir())


def test_there_are_trial_packs():
    assert len(TRIALS) >= 1


@pytest.mark.parametrize("pack", TRIALS, ids=[p.name for p in TRIALS])
def test_trial_pack_validates_and_its_scenarios_pass(monkeypatch, pack):
    monkeypatch.chdir(REPO)
    rel = str(pack.relative_to(REPO))
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", rel, "--only-mine"])
    assert checked.exit_code == 0, checked.output
    assert re.search(rf"^{rel}: valid \({pack.name} 0\.1\.0: 28 activity, ", checked.output, re.M), checked.output
    assert "warning" not in checked.output, checked.output
    tested = runner.invoke(main, ["test", f"{rel}/tests"])
    assert tested.exit_code == 0, tested.output
    assert re.search(r"^[1-9]\d* passed, 0 failed$", tested.output, re.M), tested.output


# ------------------------------------------------------- fixes the trials asked for
@pytest.mark.parametrize("command, message", [
    (["new-pack", "scribe_mod", "--extends", "troyes"],
     "error: 'scribe_mod' is not a pack id: use lower-case letters, digits and '-', starting with a letter\n"),
    (["new-pack", "troyes", "--extends", "troyes"],
     "error: 'troyes' is the id of a shipped pack; give the new pack its own id (say 'troyes-mine')\n"),
    (["new-game", "My_Game"],
     "error: 'My_Game' is not a pack id: use lower-case letters, digits and '-', starting with a letter\n"),
])
def test_a_refused_name_is_said_without_a_made_up_place(tmp_path, command, message):
    """Trial 1 met '<unknown>: error: ...': an error of no file prints 'error: ...'."""
    result = CliRunner().invoke(main, [*command, "--dir", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output == message
    assert list(tmp_path.iterdir()) == []


def test_render_of_an_error_without_a_place():
    from meeple.core.errors import UsageError, render
    from meeple.dsl.errors import Span
    assert render(UsageError("no such thing")) == "error: no such thing"
    assert render(UsageError("bad", Span("a.yaml", 3, 4))) == "a.yaml:3:4: error: bad"


def test_new_pack_example_card_shows_where_its_rules_go(tmp_path):
    """Trial 1: the scaffold's example activity had no hooks, so the guide was the only
    place showing where a card's effect goes; now it carries the game's first card's."""
    result = CliRunner().invoke(main, ["new-pack", "tmod", "--extends", "troyes", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "tmod" / "activity.yaml").read_text(encoding="utf-8")
    assert ("    mixed: false\n"
            "    hooks:\n"
            "      effect: |\n"
            "        if influence >= 1:\n"
            "            pay 1 influence\n"
            "            gain 6 deniers\n"
            "# patch:\n") in text
    character = (tmp_path / "tmod" / "character.yaml").read_text(encoding="utf-8")
    assert "    copies: 0\n    hooks:\n      score: |\n        for each p in players:\n" in character
    checked = CliRunner().invoke(main, ["validate", str(tmp_path / "tmod")])
    assert checked.exit_code == 0, checked.output


def test_guide_counts_the_base_provisional_values_it_hides():
    """content/troyes/MODDING.md says how many provisional values --only-mine hides."""
    guide = (REPO / "content" / "troyes" / "MODDING.md").read_text(encoding="utf-8")
    said = int(re.search(r"Without\n`--only-mine` the (\d+) provisional values of Troyes", guide).group(1))
    result = CliRunner().invoke(main, ["validate", str(REPO / "tests" / "content" / "trial" / "scribe-mod"),
                                       "--only-mine"])
    assert f"; {said} provisional value(s) in base packs hidden" in result.output, result.output


def test_an_unguarded_pay_stops_the_game_as_the_guide_says(tmp_path, monkeypatch):
    """The guide tells a modder to guard a 'pay': without the guard, the Scribe's second
    activation with no denier left is a rule error at the statement."""
    import shutil
    pack = tmp_path / "scribe-mod"
    shutil.copytree(REPO / "tests" / "content" / "trial" / "scribe-mod", pack)
    card = pack / "activity.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace(
        "        if deniers > 0:\n          pay 1 deniers\n          gain 1 influence\n",
        "        pay 1 deniers\n        gain 1 influence\n"), encoding="utf-8")
    scenario = pack / "tests" / "scribe-mod.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("        1: {section:", "        1: {deniers: 2, section:"),
                        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["test", "scribe-mod/tests"])
    assert result.exit_code == 1
    assert ("FAIL scribe-mod/activity.yaml:16:9: Scribe: both activations taken: 2 deniers for 2 influence: "
            "P1 cannot pay 1 deniers (has 0) (in scribe.effect) (game seed 6, after choice 30)") in result.output
    assert "1 passed, 1 failed" in result.output
