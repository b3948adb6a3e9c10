"""Bad content gets a clear, located error from `meeple validate`, never a traceback.

Every folder under tests/content/invalid/ is a small broken copy of
tests/content/valid/minimal with an ``expected.txt``: the exact first lines
`meeple validate` prints for it (``file:line:col: error: message; hint``, the
source line and the caret), paths relative to the repository root. A case
whose expected lines end with the summary line (``...: N error(s), ...``)
also pins the number of errors.

Every folder under tests/content/valid/ must validate, and the minimal pack
must play to its end with random choices.
"""
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.play.agents import RandomAgent
from meeple.cli import ExitCode, main
from meeple.runtime.game import load_game
from meeple.play.session import play

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "tests" / "content"
INVALID = sorted(p for p in (CONTENT / "invalid").iterdir() if p.is_dir())
VALID = sorted(p for p in (CONTENT / "valid").iterdir() if p.is_dir())


def _validate(monkeypatch, folder: Path):
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(main, ["validate", str(folder.relative_to(REPO))])
    # A traceback would surface here as an exception other than SystemExit.
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.mark.parametrize("folder", INVALID, ids=[p.name for p in INVALID])
def test_invalid_pack_is_reported_with_location(monkeypatch, folder):
    expected = (folder / "expected.txt").read_text(encoding="utf-8").rstrip("\n").splitlines()
    result = _validate(monkeypatch, folder)
    assert result.exit_code == ExitCode.CONTENT_INVALID, result.output
    assert result.output.splitlines()[:len(expected)] == expected, result.output


def test_every_invalid_case_has_expectations():
    assert len(INVALID) >= 17
    for folder in INVALID:
        assert (folder / "pack.yaml").is_file(), folder
        first = (folder / "expected.txt").read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(f"tests/content/invalid/{folder.name}/"), first
        assert ": error: " in first, first


@pytest.mark.parametrize("folder", VALID, ids=[p.name for p in VALID])
def test_valid_pack_validates(monkeypatch, folder):
    result = _validate(monkeypatch, folder)
    assert result.exit_code == ExitCode.OK, result.output
    assert ": valid (" in result.output


@pytest.mark.parametrize("players", [2, 3])
def test_minimal_pack_plays_to_the_end(players):
    game = load_game(str(CONTENT / "valid" / "minimal"))
    for seed in range(10):
        st = play(game, players, seed, [RandomAgent(seed * 10 + p) for p in range(players)])
        assert st.over and len(st.scores) == players and st.round <= 20
