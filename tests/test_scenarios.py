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
