"""Random Citadels games at every player count keep the game's invariants.

After every step: no negative gold; the 66 districts and 8 characters are
each in exactly one zone, exactly once; exactly one crown holder; clone()
and the JSON round-trip give equal states that play on identically. The
same seed and choices give the same log.
"""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from engine.game import load_game
from engine.state import State

GAME = load_game("citadels")
GOLD = GAME.res_index["gold"]
CROWN = GAME.gvar_index["crown"]


def check_invariants(st: State) -> None:
    n = st.players
    assert all(st.res[p * GAME.nres + GOLD] >= 0 for p in range(n))
    seen = [c for z in st.zones for c in z]
    assert sorted(seen) == list(range(GAME.ncards)), "every card is in exactly one zone"
    assert sum(1 for c in seen if GAME.card_defs[GAME.card_def_index[c]].kind == "district") == 66
    for slot, zone in enumerate(st.zones):
        for c in zone:
            assert st.loc[c] == slot
    crown = st.gvars[CROWN]
    assert isinstance(crown, int) and 0 <= crown < n, "exactly one crown holder"


def play_random(players: int, seed: int, check_every: int = 1) -> State:
    st = GAME.new_state(players, seed)
    rng = random.Random(seed)
    step = 0
    while not st.over:
        if step % check_every == 0:
            check_invariants(st)
            copy = st.clone()
            assert copy == st
            thawed = State.from_json(GAME, json.loads(json.dumps(st.to_json())))
            assert thawed == st
        choice = rng.randrange(len(st.pending.options))
        GAME.apply(st, choice)
        step += 1
        assert step < 5000, "game does not end"
    check_invariants(st)
    assert len(st.scores) == players and st.ranking
    return st


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_finish_with_invariants(players):
    for seed in range(3):
        play_random(players, seed)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=S.integers(2, 7), seed=S.integers(0, 2**31))
def test_property_random_games(players, seed):
    play_random(players, seed, check_every=7)


def test_same_seed_same_log():
    a = play_random(4, 11, check_every=1000)
    b = play_random(4, 11, check_every=1000)
    assert a.log == b.log and a.scores == b.scores


def test_clone_plays_on_identically():
    st = GAME.new_state(5, 3)
    rng = random.Random(1)
    for _ in range(60):
        GAME.apply(st, rng.randrange(len(st.pending.options)))
    twin = State.from_json(GAME, json.loads(json.dumps(st.to_json())))
    clone = st.clone()
    rng_a, rng_b, rng_c = random.Random(9), random.Random(9), random.Random(9)
    while not st.over:
        GAME.apply(st, rng_a.randrange(len(st.pending.options)))
        GAME.apply(twin, rng_b.randrange(len(twin.pending.options)))
        GAME.apply(clone, rng_c.randrange(len(clone.pending.options)))
    assert st == twin == clone
