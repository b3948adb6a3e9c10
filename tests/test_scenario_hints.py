"""Scenario messages say what was probably meant: every "no such X" of a scenario
carries a did-you-mean (or where the name belongs), as `meeple test` prints it."""
from pathlib import Path

import pytest

from meeple.authoring.scenario import run_file

DICE = Path(__file__).parent / "packs" / "dice"

# (a step of a one-player game of tests/packs/dice, the whole failure message)
CASES = [
    ("arrange: {players: {1: {scroe: 3}}}", "players have no 'scroe'; did you mean 'score'?"),
    ("arrange: {players: {1: {stock: [red_die]}}}", "players have no 'stock'; 'stock' is a shared zone: list it under zones:"),
    ("arrange: {zones: {stok: [red_die]}}", "no shared zone 'stok'; did you mean 'stock'?"),
    ("arrange: {zones: {pool: [red_die]}}", "no shared zone 'pool'; 'pool' is a zone each player has: list it under players: N:"),
    ("arrange: {cards: {red_di: {value: 3}}}", "unknown card id 'red_di'; did you mean 'red_die'?"),
    ("arrange: {cards: {red_die: {valeu: 3}}}", "die cards have no zone or variable 'valeu' (they have: value); did you mean 'value'?"),
    ("arrange: {zones: {stock: [red_dye]}}", "unknown card id 'red_dye'; did you mean 'red_die'?"),
    ("arrange: {variables: {round_no: 3}}", "unknown variable 'round_no'"),
    ("offered: [red_dei]", "red_dei is not offered; the options are: white_die=1, white_die=2, white_d4, red_die; did you mean 'red_die'?"),
    ("offered: [white_die=3]", "white_die=3 is not offered; the options are: white_die=1, white_die=2, white_d4, red_die; did you mean 'white_die=2'?"),
    ("choose: white_die", "'white_die' refused (score dice of one colour (0 chosen), P1): 'white_die' names several options: white_die=1, white_die=2 [ambiguous]"),
    ("choose: white_dei=2", "'white_dei=2' refused (score dice of one colour (0 chosen), P1): 'white_dei=2' is not a legal option; legal: white_die=1, white_die=2, white_d4, red_die (did you mean 'white_die=2'?) [not_legal]"),
    ("expect: scroe of player(1) == 0", "players have no 'scroe'; did you mean 'score'?"),
]


@pytest.mark.parametrize("step, message", CASES, ids=[m.split(";")[0] for _, m in CASES])
def test_scenario_failures_say_what_was_meant(tmp_path, step, message):
    f = tmp_path / "s.yaml"
    f.write_text(f"kind: scenario\npack: {DICE}\nplayers: 1\nseed: 3\nscenarios:\n  - name: broken\n    steps:\n      - {step}\n",
                 encoding="utf-8")
    [result] = run_file(f)
    assert (result.ok, result.message, result.span.line) == (False, message, 8)


def test_a_misspelt_step_key_of_the_file(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(f"kind: scenario\npack: {DICE}\nscenarios:\n  - name: broken\n    stpes: []\n", encoding="utf-8")
    results = run_file(f)
    assert [r.message for r in results] == ["scenario 'broken': missing required key 'steps'",
                                            "unknown key 'stpes' in scenario 'broken'; did you mean 'steps'?"]
