"""Every shipped pack, at every player count it allows and in the option sets that reach
other branches of its rules, plays random games that obey the rules every game must obey,
and the game's own.

Why: these invariants are the engine's contract with every pack; checking them here,
once, over all packs, covers any pack shipped later. The games are played once a
session by ``shipped_games.played`` (seeds 0, 1 and the golden seed at each count, and
the option variants), checked after *every* step for the invariants of every game (each
card in exactly one zone slot, exactly once, and ``st.loc`` agreeing; resources within
their declared bounds; a pending decision with options for a player in the game) and the
game's own (shipped_games, by pack: 66 districts and one crown holder, a player's
citizens in their places, ...), and every 10th step and at the end for the costly ones
(``clone()`` and the JSON round-trip equal to the state). A game must end within a step
limit, with one score per player and a full ranking; a clone and a JSON thaw taken
mid-game must play on identically. That the same seed gives the same game, and that
checking a game does not change it, is tests/test_golden.py's: the checked game's log
is the stored one.
"""
from __future__ import annotations

import json

import pytest

from golden_games import game_of
from meeple.loading.folders import shipped_packs
from meeple.runtime.state import State
from random_play import difference, finished, seeded
from shipped_games import STEP_LIMIT, all_specs, played, seed_game, spec_id

SPECS = all_specs()
COUNTS = [(pack, n) for pack in shipped_packs() for n in range(game_of(pack).min_players, game_of(pack).max_players + 1)]


@pytest.mark.parametrize("spec", SPECS, ids=[spec_id(s) for s in SPECS])
def test_random_games_keep_the_invariants(spec) -> None:
    st = played(spec)            # the invariants are checked as it is played (once a session)
    finished(st)
    assert st.players == spec.players and 0 < len(st.log) < STEP_LIMIT
    game = game_of(spec.pack)
    for name, value in spec.options:
        assert st.opts[game.vocab.option_index[name]] == value, f"option {name} played as {value!r}"


@pytest.mark.parametrize("pack, players", COUNTS, ids=[f"{p}-{n}p" for p, n in COUNTS])
def test_a_clone_and_a_json_thaw_taken_mid_game_play_on_identically(pack: str, players: int) -> None:
    """Half-way through the game of seed 0 (its choices replayed), a clone and a JSON thaw
    of the state play on with the state itself, the same choices (seed 99) for all three,
    to the same end."""
    game = game_of(pack)
    log = seed_game(pack, players, 0).log
    st = game.new_state(players, 0)
    for _, index, _ in log[:len(log) // 2]:
        game.apply(st, index)
    assert not st.over and st.log == log[:len(log) // 2]
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
