"""What every test run shares.

- Parser caches: the suite keeps its parser caches (Lark's tables, the syntax trees of
  rule texts) in a folder of its own, removed at the end, so the thousands of made-up
  texts it parses never crowd a user's cache of their own packs' trees. A run that sets
  MEEPLE_CACHE_DIR itself keeps its own.
- Soak runs: tests marked ``slow`` (the long runs of the fuzzers and the random-game
  properties, each beside a brief run that always runs) are deselected unless
  MEEPLE_SLOW=1; deselected, not skipped, so a run says how many it left out and no
  skip hides anything. ``-m slow`` chooses them too.
- Loaded games: ``load_game`` keeps the games a process loaded while their files are
  unchanged (``meeple.runtime.loaded``), so most tests share one compilation of each
  shipped pack. A test that patches what compiling reads asks for ``fresh_games``: the
  kept games are let go before it and after it, so it compiles its own and leaves none.
- Scenario files: every ``kind: scenario`` file under tests/scenarios is collected as
  items, one per scenario (tests/scenario_items.py).
"""
import atexit
import os
import shutil
import tempfile

import pytest

from scenario_items import collect_scenario_file

if "MEEPLE_CACHE_DIR" not in os.environ:
    _folder = tempfile.mkdtemp(prefix="meeple-test-cache-")      # private to this user (0700)
    os.environ["MEEPLE_CACHE_DIR"] = _folder
    atexit.register(shutil.rmtree, _folder, True)                 # after the caches are written (last in, first out)


def pytest_collection_modifyitems(config, items):
    """Leave the soak runs out unless MEEPLE_SLOW=1 or the marker expression names them."""
    if os.environ.get("MEEPLE_SLOW") == "1" or "slow" in (config.getoption("markexpr") or ""):
        return
    kept, slow = [], []
    for item in items:
        (slow if item.get_closest_marker("slow") else kept).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = kept


def pytest_collect_file(file_path, parent):
    return collect_scenario_file(file_path, parent)


@pytest.fixture
def fresh_games():
    """No game loaded before this test is reused by it, none it loads by a later one."""
    from meeple.runtime.loaded import forget
    forget()
    yield
    forget()
