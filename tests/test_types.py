"""The type checker over the language and the runtime (mypy, configured in
pyproject.toml's [tool.mypy], run by tools/typecheck.py on the package as it is
installed): it passes, it reads every module of the rooms it checks, and it
fails when the engine's ``Game`` no longer offers what the compiled rules read
of it (``meeple.dsl.runtime.RunningGame``), or when its rules read a table its
parts do not have."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import typecheck  # noqa: E402


GAME = "engine/runtime/game.py"
LIVE_SLOTS = ("    def live_slots(self, st: State) -> list[int]:\n"
              "        \"\"\"Zone slots whose cards' handlers are live in ``st`` (in play, seat in the game).\"\"\"\n"
              "        return [s for s in self.layout.in_play_slots if self.slot_owner[s] < st.players]\n")
FLOW = "engine/runtime/flow.py"
CAN_REFUSE = "        self.can_refuse = game.compiled.can_refuse\n"
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


def test_the_rules_reading_a_table_the_compiled_game_lacks_fail_the_check(cache):
    """The rules, the observer and the action menus read the game's parts as typed objects
    (its ``Vocabulary``, its ``CompiledRules``): a table misnamed is a type error, not an
    ``Any`` read that fails only when a game runs."""
    text = (ROOT / FLOW).read_text(encoding="utf-8")
    assert CAN_REFUSE in text
    code, report = typecheck.check(cache, {FLOW: text.replace(CAN_REFUSE, CAN_REFUSE.replace("can_refuse\n", "can_refuses\n"))})
    assert code == 1, report
    assert '"CompiledRules" has no attribute "can_refuses"' in report, report
