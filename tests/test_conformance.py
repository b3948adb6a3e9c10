"""Every shipped pack, at every player count it allows, obeys the rules every
game must obey, whatever its content.

Why: these invariants are the engine's contract with every pack; checking
them here once, over all packs, replaces a copy per game and covers any pack
shipped later. Random games (seeds 0-2 at each count) are checked after
*every* step for the cheap invariants (each card in exactly one zone slot,
exactly once, and ``st.loc`` agreeing; resources within their declared
bounds; a pending decision with options for a player in the game) and every
3rd step and at the end for the costly ones (``clone()`` and the JSON
round-trip equal to the state). A game must end within a step limit, with one
score per player and a full ranking; the same seed must give the same game,
and a clone and a JSON thaw taken mid-game must play on identically.
"""
from __future__ import annotations

import json

import pytest

from meeple.loading.folders import shipped_packs
from meeple.runtime.state import State
from golden_games import game_of
from random_play import difference, finished, play_checked, play_plain, seeded

SEEDS = (0, 1, 2)
ROUND_TRIP_EVERY = 3
STEP_LIMIT = 20_000

CASES = [(pack, n) for pack in shipped_packs() for n in range(game_of(pack).min_players, game_of(pack).max_players + 1)]
IDS = [f"{pack}-{n}p" for pack, n in CASES]


@pytest.mark.parametrize("pack, players", CASES, ids=IDS)
def test_random_games_keep_the_generic_invariants(pack: str, players: int) -> None:
    game = game_of(pack)
    for seed in SEEDS:
        st = play_checked(game, players, seed, every=ROUND_TRIP_EVERY, limit=STEP_LIMIT)
        # the same seed gives the same game, and checking a game does not change it
        again = play_plain(game, players, seed, limit=STEP_LIMIT)
        assert again.log == st.log and again.scores == st.scores and again.ranking == st.ranking, \
            f"seed {seed}: the same seed gave another game"


@pytest.mark.parametrize("pack, players", CASES, ids=IDS)
def test_a_clone_and_a_json_thaw_taken_mid_game_play_on_identically(pack: str, players: int) -> None:
    game = game_of(pack)
    length = len(play_plain(game, players, 7, limit=STEP_LIMIT).log)
    st = game.new_state(players, 7)
    choose = seeded(7)
    for _ in range(length // 2):
        game.apply(st, choose(st))
    assert not st.over
    clone = st.clone()
    thawed = State.from_json(game, json.loads(json.dumps(st.to_json())))
    choosers = [seeded(99) for _ in range(3)]
    games = [st, clone, thawed]
    steps = 0
    while not st.over:
        for g, choose in zip(games, choosers):
            game.apply(g, choose(g))
        steps += 1
        assert steps < STEP_LIMIT
        if steps % 25 == 0:
            assert st == clone, f"the clone differs {steps} decisions after the copy in: {difference(st, clone)}"
            assert st == thawed, f"the JSON thaw differs {steps} decisions after the copy in: {difference(st, thawed)}"
    assert clone.over and thawed.over
    assert st == clone, f"the clone ends differently in: {difference(st, clone)}"
    assert st == thawed, f"the JSON thaw ends differently in: {difference(st, thawed)}"
    for g in games:
        finished(g)
