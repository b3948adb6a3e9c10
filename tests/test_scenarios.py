"""The `meeple test` format itself: its failures, exactly, its options and reports.

The rules scenarios under tests/scenarios are not run here: each scenario of each
file is a pytest item of its own (collected by tests/conftest.py with
tests/scenario_items.py), named by its file and name and failing with its own message.
"""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import ExitCode, main
from meeple.authoring.scenario import collect, run_file
from meeple.loading.folders import resolve, shipped_packs
from meeple.loading.yamlsrc import load_yaml

ROOT = Path(__file__).parent / "scenarios"


def test_every_shipped_game_has_scenario_files_each_with_scenarios():
    """Each shipped pack is pinned by scenarios: files naming it, each with at least one
    scenario (the items are collected from these files)."""
    packs: dict = {}
    for f in collect([str(ROOT)]):
        data = load_yaml(f, str(f)).data
        assert data["scenarios"], f"{f} has no scenario"
        ref = str(data["pack"])        # a shipped pack's id, or a path from the file's folder
        folder = f.parent / ref if (f.parent / ref).is_dir() else resolve(ref)
        packs.setdefault(folder.resolve(), []).append(f)
    for pack in shipped_packs():
        assert packs.get(resolve(pack).resolve()), f"no scenario file under {ROOT} is for the pack '{pack}'"


# A broken 'arrange' step is reported at its line with what is wrong.
ARRANGE_ERRORS = [
    ("{cards: {red_die: {valeu: 3}}}", "die cards have no zone or variable 'valeu'"),
    ("{cards: {red_die: {value: [red_die]}}}", "'value' is a variable of die cards: give one value"),
    ("{cards: {blue_die: {value: 3}}}", "unknown card id 'blue_die'"),
    ("{zones: {pool: [red_die]}}", "no shared zone 'pool'"),
]


@pytest.mark.parametrize("arrange, message", ARRANGE_ERRORS, ids=[m for _, m in ARRANGE_ERRORS])
def test_arrange_errors_are_located(tmp_path, arrange, message):
    pack = Path(__file__).parent / "packs" / "dice"
    f = tmp_path / "s.yaml"
    f.write_text(f"kind: scenario\npack: {pack}\nplayers: 1\nscenarios:\n  - name: broken\n    steps:\n"
                 f"      - expect: score == 0\n      - arrange: {arrange}\n")
    [result] = run_file(f)
    assert not result.ok
    assert message in result.message
    assert result.span.line == 8


# ---------------------------------------------------------------- meeple test: --pack, --format
MERCHANT = "tests/scenarios/citadels/merchant.yaml"
RICH = "tests/content/valid/rich-merchant"


def _cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_pack_option_runs_the_files_against_another_pack():
    """The same scenarios, against a copy of Citadels whose Merchant takes 6 gold."""
    r = _cli("test", MERCHANT, "--pack", RICH)
    assert r.exit_code == ExitCode.CONTENT_INVALID
    assert r.output.splitlines() == [
        f"FAIL {MERCHANT}:23:17: the Merchant takes 1 gold and 1 gold per green district, on top of gathering: "
        "expectation failed: gold of player(3) == 3 (left side is 8, right side is 3)",
        f"FAIL {MERCHANT}:44:17: the Merchant's extra gold and income are taken once a turn: "
        "expectation failed: gold of player(3) == 2 (left side is 7, right side is 2)",
        f"FAIL {MERCHANT}:57:17: the Merchant without green districts still gets his 1 gold: "
        "expectation failed: gold of player(3) == 1 (left side is 6, right side is 1)",
        f"PASS {MERCHANT}:59:11: only the Merchant gets the extra gold",
        f"1 passed, 3 failed (against {RICH})",
    ]
    assert _cli("test", MERCHANT, "--pack", "citadels").output.endswith("4 passed, 0 failed (against citadels)\n")




def test_pack_option_that_does_not_load_is_refused_before_any_scenario_runs():
    r = _cli("test", MERCHANT, "--pack", "citadles")
    assert r.exit_code == ExitCode.USAGE
    assert "did you mean 'citadels'?" in r.output and "PASS" not in r.output


def test_format_json_has_one_entry_per_scenario_with_the_failing_line():
    data = json.loads(_cli("test", MERCHANT, "--pack", RICH, "--format", "json").output)
    for s in data["scenarios"]:
        assert s.pop("seconds") >= 0
    assert {k: data[k] for k in ("pack", "passed", "failed")} == {"pack": RICH, "passed": 1, "failed": 3}
    assert data["scenarios"][0] == {
        "file": MERCHANT, "name": "the Merchant takes 1 gold and 1 gold per green district, on top of gathering",
        "line": 10, "passed": False,
        "failure": {"file": MERCHANT, "line": 23, "col": 17,
                    "message": f"{MERCHANT}:23:17: expectation failed: gold of player(3) == 3 (left side is 8, right side is 3)"}}
    assert data["scenarios"][3] == {"file": MERCHANT, "name": "only the Merchant gets the extra gold", "line": 59,
                                    "passed": True, "failure": None}


def test_format_junit_is_junit_xml():
    r = _cli("test", MERCHANT, "--pack", RICH, "--format", "junit")
    assert r.exit_code == ExitCode.CONTENT_INVALID
    root = ET.fromstring(r.output.encode())
    assert (root.tag, root.get("tests"), root.get("failures")) == ("testsuites", "4", "3")
    [suite] = root
    assert (suite.tag, suite.get("name"), suite.get("tests"), suite.get("failures")) == ("testsuite", MERCHANT, "4", "3")
    cases = list(suite)
    assert [(c.get("name"), c.get("line")) for c in cases] == [
        ("the Merchant takes 1 gold and 1 gold per green district, on top of gathering", "10"),
        ("the Merchant's extra gold and income are taken once a turn", "29"),
        ("the Merchant without green districts still gets his 1 gold", "46"),
        ("only the Merchant gets the extra gold", "59")]
    failure = cases[0].find("failure")
    assert failure.get("message") == "expectation failed: gold of player(3) == 3 (left side is 8, right side is 3)"
    assert failure.text == f"{MERCHANT}:23:17: expectation failed: gold of player(3) == 3 (left side is 8, right side is 3)"
    assert cases[3].find("failure") is None
    ok = _cli("test", MERCHANT, "--format", "junit")
    assert ok.exit_code == ExitCode.OK and ET.fromstring(ok.output.encode()).get("failures") == "0"


def test_a_file_that_cannot_run_is_one_failed_entry(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: scenario\npack: citadles\nscenarios:\n  - name: x\n    steps: [{expect: 'true'}]\n")
    data = json.loads(_cli("test", bad, "--format", "json").output)
    [entry] = data["scenarios"]
    assert (entry["name"], entry["passed"], entry["line"]) == ("(file)", False, 2)
    assert entry["failure"]["message"].startswith(f"{bad}:2:7: ")


@pytest.mark.parametrize("fmt", ["text", "json", "junit"])
def test_an_empty_folder_says_no_scenarios_were_found(tmp_path, fmt):
    r = _cli("test", tmp_path, "--format", fmt)
    assert r.exit_code == ExitCode.CONTENT_INVALID
    assert r.output == f"no scenario files found in {tmp_path} (a scenario file is YAML with 'kind: scenario')\n"


# ---------------------------------------------------------------- steps: their failures, exactly
FLAGS = Path(__file__).parent / "packs" / "flags"

# (steps written at line 8 on, the line of the failure, its message)
STEP_FAILURES = [
    ("- game_over: true", 8,
     "expected the game to be over, but P1 is to choose (place a cube on)"),
    ("- choose: [raid, raid, raid, war, war, war, war]\n- game_over: false", 9,
     "expected the game to go on, but it is over (ranking [1, 2], scores [8, 6])"),
    ("- choose: [raid, raid, war]\n  by: [1, 2, 2]", 9,
     "P1 is to choose (place a cube on), not P2"),
    ("- choose: [raid, raid]\n  by: [1, 2, 1]", 9,
     "'by' lists 3 player(s) for 2 choice(s): give one per choice"),
    ("- by: [1]", 8, "a list of players needs a list of choices"),
    ("- choose: [raid, raid, raid]\n- choose: raid\n  refused: per_turn", 10,
     "'raid' was refused, but with: 'raid' is not a legal option; legal: war [not_legal]"),
    ("- choose: [raid, raid, raid]\n- choose: raid", 9,
     "'raid' refused (place a cube on, P2): 'raid' is not a legal option; legal: war [not_legal]"),
    ("- choose: nope\n  refused: not_a_choice", 9,
     "'nope' was refused, but with: 'nope' is not a legal option; legal: raid, war [not_legal]"),
    ("- remember: vp1 = vp of player(1)\n- choose: [raid, raid, raid]\n- expect: vp of player(1) == vp1", 10,
     "expectation failed: vp of player(1) == vp1 (left side is 4, right side is 0)"),
    ("- remember: row_now = row\n- choose: [raid, raid, raid]\n- expect: size(row) == size(row_now)", 10,
     "expectation failed: size(row) == size(row_now) (left side is 1, right side is 2)"),
    ("- remember: vp == 3", 8, "write 'remember: NAME = EXPRESSION', not 'vp == 3'"),
    ("- remember: vp = 3", 8, "'vp' is a name of the pack already: remember the value under another name"),
    ("- remember: raid = 3", 8, "'raid' is a name of the pack already: remember the value under another name"),
    ("- expect: later == 3\n- remember: later = 3", 8, "unknown name 'later'; did you mean 'players'?"),
    ("- expect: every(e in row where e.first < 5)", 8,
     "expectation failed: every(e in row where e.first < 5) (it fails for e = war)"),
    ("- expect: not any(e in row where e.size > 3)", 8,
     "expectation failed: not any(e in row where e.size > 3) (it fails for e = war)"),
    ("- expect: raid in done", 8, "expectation failed: raid in done"),
    ("- expect: first(e in row) == war", 8, "expectation failed: first(e in row) == war"),
    ("- expect: neutral_cube.owner == none", 8,
     "'neutral_cube' has 2 copies: write 'neutral_cube in ZONE', or 'x is neutral_cube' for one of them"),
    ("- expect: raid.frist == 4", 8, "event cards have no field 'frist'; did you mean 'first'?"),
]


@pytest.mark.parametrize("steps, line, message", STEP_FAILURES, ids=[m for _, _, m in STEP_FAILURES])
def test_step_failures_are_exact_and_located(tmp_path, steps, line, message):
    f = tmp_path / "s.yaml"
    body = "".join(f"      {s}\n" for s in steps.splitlines())
    f.write_text(f"kind: scenario\npack: {FLAGS}\nplayers: 2\nseed: 1\nscenarios:\n  - name: broken\n    steps:\n{body}")
    [result] = run_file(f)
    assert (result.ok, result.message, result.span.line) == (False, message, line)


def _refusing_pack(tmp_path):
    """tests/content/valid/minimal where taking a coin of cost 3 is refused by a 'require'."""
    import shutil
    pack = tmp_path / "pack"
    shutil.copytree(Path(__file__).parent / "content" / "valid" / "minimal", pack)
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace("        move c to hand\n",
                                             "        require c.cost < 3 \"The crown is too dear!\"\n        move c to hand\n"))
    return pack


REFUSALS = [       # (what the step says, the failure or None when it passes)
    ("refused: the_crown_is_too_dear", None),
    ("refused: too dear", None),
    ("refused: per_turn", "'take:crown' was refused, but with: The crown is too dear! [the_crown_is_too_dear]"),
]


@pytest.mark.parametrize("refused, failure", REFUSALS, ids=[r for r, _ in REFUSALS])
def test_a_require_is_refused_with_a_code_derived_from_its_message(tmp_path, refused, failure):
    f = tmp_path / "s.yaml"
    f.write_text(f"kind: scenario\npack: {_refusing_pack(tmp_path)}\nplayers: 2\nscenarios:\n  - name: crown\n    steps:\n"
                 f"      - choose: take:crown\n        {refused}\n      - choose: take:copper\n        by: 1\n")
    [result] = run_file(f)
    assert (result.ok, result.message or None) == (failure is None, failure)


REQUIRE_CODES = [
    ("The crown is too dear!", "the_crown_is_too_dear"),
    ("  at most 4 dice a round ", "at_most_4_dice_a_round"),
    ("déjà pris", "d_j_pris"),
    ("!!!", "require"),
]


@pytest.mark.parametrize("message, code", REQUIRE_CODES)
def test_require_codes(message, code):
    from meeple.core.errors import Refusal
    assert Refusal(message).code == code
    assert Refusal(message, code="mine").code == "mine"


ENGINE_CODES = [      # (scenario file, a refused step's key, the code it must carry)
    ("tests/scenarios/citadels/merchant.yaml", "allowed 1 time", "per_turn"),
    ("tests/scenarios/citadels/merchant.yaml", "not available", "not_available"),
    ("tests/scenarios/citadels/assassin.yaml", "is not one of the choices for 'murder'", "not_a_choice"),
    ("tests/scenarios/citadels-dark-city/queen.yaml", "only when you sit next to the King's player", "unmet"),
    ("tests/scenarios/troyes/hiring_fees.yaml", "is not a legal option", "not_legal"),
]


@pytest.mark.parametrize("path, text, code", ENGINE_CODES, ids=[c for _, _, c in ENGINE_CODES])
def test_engine_refusals_have_stable_codes(tmp_path, path, text, code):
    """The shipped scenarios' refusals, matched by code instead of text, pass as well."""
    src = Path(__file__).parent.parent / path
    copy = tmp_path / "codes" / Path(path).parent.name / Path(path).name
    copy.parent.mkdir(parents=True)
    body = src.read_text(encoding="utf-8").replace(f'refused: "{text}"', f"refused: {code}")
    assert f"refused: {code}" in body
    copy.write_text(body.replace("pack: ../../../content/", "pack: "), encoding="utf-8")
    results = run_file(copy)
    assert results and all(r.ok for r in results), [r.message for r in results if not r.ok]


def test_trace_prints_the_pending_options_at_each_step():
    r = _cli("test", "tests/scenarios/engine/flags.yaml", "--trace")
    lines = r.output.splitlines()
    f = "tests/scenarios/engine/flags.yaml"
    assert lines[:8] == [
        f"  {f}:9:11: a start block puts a player's pieces on a card's zone",
        f"    {f}:14:9: P1 is to choose (place a cube on): raid, war",
        f"    {f}:19:17: P1 is to choose (place a cube on): raid, war -> raid",
        f"    {f}:21:9: P2 is to choose (place a cube on): war",
        f"PASS {f}:9:11: a start block puts a player's pieces on a card's zone",
        f"  {f}:24:11: a full event is no longer offered",
        f"    {f}:26:9: P1 is to choose (place a cube on): raid, war",
        f"    {f}:27:18: P1 is to choose (place a cube on): raid, war -> raid",
    ]
    assert r.output.endswith("4 passed, 0 failed\n")
    quiet = _cli("test", "tests/scenarios/engine/flags.yaml", "--trace", "--format", "json")
    assert json.loads(quiet.stdout)["passed"] == 4 and "-> raid" in quiet.stderr


def test_the_documents_show_the_steps_example_as_it_runs():
    import doctext
    root = Path(__file__).parent.parent
    block = doctext.blocks("docs/scenarios.md", "yaml", under="More step keys")[0]
    assert block in (root / "tests" / "scenarios" / "engine" / "steps.yaml").read_text(encoding="utf-8")


# ---------------------------------------------------------------- start: {round, phase, choices}: its failures
# (the start block, what the failure says, the column it points at on line 7)
START_FAILURES = [
    ("{round: 9}", "the game ended in round 4 before round 9 was reached (7 choices made by 'first')", 20),
    ("{phase: resolv}", "no procedure or action group 'resolv' to start at; did you mean 'resolve'?", 20),
    ("{phase: resolve}", "round 1 ended without a decision in phase 'resolve' (2 choices made by 'first')", 20),
    ("{phase: resolve, round: 9}",
     "the game ended in round 4 before round 9, phase resolve was reached (7 choices made by 'first')", 36),
    ("{round: 2, players: {3: {vp: 1}}}", "there is no player 3 in a 2-player game", 36),
    ("{choices: last}", "scenario 'broken': start.choices: the text 'last' is not one of: first, random", 22),
    ("{round: 0}", "scenario 'broken': start.round: must be at least 1, found 0", 20),
]


@pytest.mark.parametrize("start, message, col", START_FAILURES, ids=[s for s, _, _ in START_FAILURES])
def test_start_failures_are_exact_and_located(tmp_path, start, message, col):
    f = tmp_path / "s.yaml"
    f.write_text(f"kind: scenario\npack: {FLAGS}\nplayers: 2\nseed: 1\nscenarios:\n  - name: broken\n    start: {start}\n    steps: []\n")
    [result] = run_file(f)
    assert (result.ok, result.message, result.span.line, result.span.col) == (False, message, 7, col)


@pytest.mark.parametrize("how", ["first", "random"])
def test_a_skipped_start_is_the_game_the_default_choices_play(how, monkeypatch):
    """start: {round: 3} reaches the state that choosing the same options by hand reaches."""
    from meeple.runtime.game import load_game
    from meeple.core.rng import next_u64, seed_state
    from meeple.authoring.scenario import _Run
    game = load_game(str(Path(__file__).parent / "packs" / "flags"))
    by_hand = game.new_state(2, 5)
    rng = seed_state(5)
    while by_hand.round < 3:
        n = by_hand.pending.count()
        if how == "random":
            rng, draw = next_u64(rng)
        game.apply(by_hand, draw % n if how == "random" else 0)
    sc = {"name": "x", "seed": 5, "start": {"round": 3, "choices": how}, "steps": []}
    run = _Run(game, None, ("scenarios", 0), sc, {"players": 2}, None)
    states = []
    run.step = lambda st, step, path: None
    original = type(game).new_state

    def keep(self, *a, **k):
        states.append(original(self, *a, **k))
        return states[-1]
    monkeypatch.setattr(type(game), "new_state", keep)     # a built game refuses writes: its class is patched
    run.run()
    assert states[0].to_json() == by_hand.to_json()
    assert states[0].round == 3 and len(states[0].log) == len(by_hand.log) > 0


def test_trace_prints_the_choices_a_start_makes():
    f = "tests/scenarios/engine/start.yaml"
    lines = _cli("test", f, "--trace").output.splitlines()
    assert lines[:6] == [
        f"  {f}:9:11: round 3 begins after the first option of every choice before it",
        f"    {f}:10:12: P1 is to choose (place a cube on): raid, war -> raid (start: first, round 1)",
        f"    {f}:10:12: P2 is to choose (place a cube on): raid, war -> raid (start: first, round 1)",
        f"    {f}:10:12: P1 is to choose (place a cube on): raid, war -> raid (start: first, round 2)",
        f"    {f}:10:12: P2 is to choose (place a cube on): war -> war (start: first, round 2)",
        f"    {f}:12:9: P1 is to choose (place a cube on): war",
    ]
