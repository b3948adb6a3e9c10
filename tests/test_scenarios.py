"""Runs every rules scenario under tests/scenarios (the `meeple test` format).

Each scenario becomes one pytest case with a readable id, so a failure shows
the scenario's name, file, line and the engine's own message.
"""
from pathlib import Path

import pytest

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
