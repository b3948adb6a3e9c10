"""Runs every rules scenario under tests/scenarios (the `meeple test` format).

Each scenario becomes one pytest case with a readable id, so a failure shows
the scenario's name, file, line and the engine's own message.
"""
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import ExitCode, main
from engine.scenario import collect, run_file

ROOT = Path(__file__).parent / "scenarios"
FILES = collect([str(ROOT)])


def _cases():
    for f in FILES:
        for r in run_file(f):
            yield pytest.param(r, id=f"{f.relative_to(ROOT)}::{r.name}")


@pytest.mark.parametrize("result", list(_cases()))
def test_scenario(result):
    assert result.ok, f"{result.file}:{result.span.line}:{result.span.col}: {result.message}"


def test_scenarios_exist_for_every_shipped_game():
    assert FILES, "no scenario files found"


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
