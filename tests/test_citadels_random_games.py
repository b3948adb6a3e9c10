"""Random Citadels games at every player count keep the game's own invariants:
the 66 districts are all there and exactly one player holds the crown,
checked after every step (``random_play.play_checked`` also checks the
invariants of every game: each card in exactly one zone, gold never
negative, clone() and the JSON round-trip; the same seed giving the same
game and copies playing on identically are checked for every pack in
tests/test_conformance.py).
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from meeple.runtime.game import load_game
from meeple.runtime.state import State
from random_play import play_checked

GAME = load_game("citadels")
CROWN = GAME.gvar_index["crown"]
IS_DISTRICT = [GAME.card_defs[GAME.card_def_index[c]].kind == "district" for c in range(GAME.ncards)]


def check_invariants(st: State) -> None:
    assert sum(1 for zone in st.zones for c in zone if IS_DISTRICT[c]) == 66, "the 66 districts"
    crown = st.gvars[CROWN]
    assert isinstance(crown, int) and 0 <= crown < st.players, "exactly one crown holder"


def play_random(players: int, seed: int, check_every: int = 1) -> State:
    return play_checked(GAME, players, seed, check_invariants, every=check_every, limit=5000)


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_finish_with_invariants(players):
    for seed in range(3, 6):     # seeds 0-2 are played by tests/test_conformance.py
        play_random(players, seed)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=S.integers(2, 7), seed=S.integers(0, 2**31))
def test_property_random_games(players, seed):
    play_random(players, seed, check_every=7)
