"""The timed modding trials of issue 13 stay true: each pack under
tests/content/trial was written by following README.md and the game's
MODDING.md alone (a new card and its scenario), so it must keep validating
with no error and its scenarios must keep passing, whatever the base game
becomes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import main

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
