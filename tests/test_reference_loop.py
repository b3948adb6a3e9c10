"""The hand-written Citadels loop that bench.py measures meeple against
(benchmarks/reference_citadels.py) plays complete, deterministic games."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import reference_citadels as ref  # noqa: E402


@pytest.mark.parametrize("players", range(2, 8))
def test_complete_deterministic_games(players):
    total = 0
    for seed in range(8):
        scores, decisions = ref.play(players, seed)
        assert len(scores) == players
        assert all(s >= 0 for s in scores)
        assert max(scores) >= 7 + 4, "someone completed a city of 7 (+4)"
        assert decisions > 0
        assert ref.play(players, seed) == (scores, decisions)
        total += decisions
    # about as many decisions per game as meeple's Citadels (~180 at 2, ~275 at 4, ~445 at 7 players)
    assert 50 * players < total / 8 < 120 * players


def test_seeds_differ_and_player_count_checked():
    assert len({tuple(ref.play(4, seed)[0]) for seed in range(10)}) > 1
    with pytest.raises(ValueError):
        ref.play(8, 0)
    assert ref.games_per_second(3, 2) > 0
