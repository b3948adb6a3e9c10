"""The type checker over the language and the runtime (mypy, configured in
pyproject.toml's [tool.mypy], run by tools/typecheck.py on the package as it is
installed): it passes, it reads every module of the rooms it checks, and it
fails when the engine's ``Game`` no longer offers what the compiled rules read
of it (``meeple.dsl.runtime.RunningGame``)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import typecheck  # noqa: E402

from meeple.runtime.game import load_game  # noqa: E402
from meeple.runtime.tables import GameTables  # noqa: E402

GAME = "engine/runtime/game.py"
LIVE_SLOTS = ("    def live_slots(self, st: State) -> list[int]:\n"
              "        return [s for s in self.in_play_slots if self.slot_owner[s] < st.players]\n")
# the packages [tool.mypy] names, as they lie in the checkout
FOLDERS = {"meeple.dsl": ROOT / "dsl", "meeple.runtime": ROOT / "engine" / "runtime", "meeple.core": ROOT / "engine" / "core"}


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> str:
    """One mypy cache for the module's runs: the second reads again only what changed."""
    return str(tmp_path_factory.mktemp("mypy-cache"))


def test_mypy_passes_over_every_module_of_the_language_and_the_runtime(cache):
    modules = sum(len(list(folder.rglob("*.py"))) for folder in FOLDERS.values())      # subpackages too (dsl/gen)
    code, report = typecheck.check(cache)
    assert code == 0, f"mypy found type errors (run: python tools/typecheck.py):\n{report}"
    assert f"Success: no issues found in {modules} source files" in report, report     # each module found and read


def test_a_game_without_a_method_the_compiled_rules_call_fails_the_check(cache):
    text = (ROOT / GAME).read_text(encoding="utf-8")
    assert LIVE_SLOTS in text
    code, report = typecheck.check(cache, {GAME: text.replace(LIVE_SLOTS, "")})
    assert code == 1, report
    assert '"Game" is missing following "RunningGame" protocol member' in report and "live_slots" in report, report


def test_the_declared_tables_are_every_attribute_of_a_game():
    """What the mixins are checked against (GameTables) is all that a game holds: a new
    table set on the game must be declared there, with its type."""
    game = load_game("citadels")
    game.hidden_slots_of(0)
    declared = set(GameTables.__annotations__)
    assert set(vars(game)) - declared == set()
    assert declared - set(vars(game)) == set()
