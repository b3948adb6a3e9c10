"""What is true of a random game of Signorie: it lasts 7 rounds (6 in the short season);
and games of players who pass only when nothing else is left ("busy") keep every
invariant too, and take 4 dice in a round. The random games are those
tests/test_conformance.py plays (shipped_games: Signorie's own invariants, brides 1-5,
at most 4 dice a player a round and never two of one colour, every city track at most
4, the 54 alliance tiles, are checked there at every step); the busy games are played
here, with the same checks.
"""
import random

import pytest

from golden_games import game_of
from meeple.runtime.state import State
from random_play import Chooser, play_checked
from shipped_games import all_specs, played, signorie, spec_id

GAME = game_of("signorie")
TAKEN = GAME.vocab.zone_base[GAME.vocab.zone_index["taken"]]
RANDOM = [s for s in all_specs() if s.pack == "signorie"]


def busy(seed: int) -> Chooser:
    """A player who passes only when nothing else is left."""
    rng = random.Random(seed)

    def choose(st: State) -> int:
        keys = st.pending.keys()
        choice = rng.randrange(len(keys))
        others = [i for i, k in enumerate(keys) if k != "pass"]
        return rng.choice(others) if others else choice
    return choose


@pytest.mark.parametrize("spec", RANDOM, ids=[spec_id(s) for s in RANDOM])
def test_a_random_game_lasts_seven_rounds_or_six_in_the_short_season(spec):
    assert played(spec).round == (6 if dict(spec.options).get("short_season") else 7)


@pytest.mark.parametrize("players, seed, options, rounds", [
    (2, 0, {}, 7), (3, 1, {}, 7), (4, 0, {}, 7), (4, 1, {}, 7),
    (2, 3, {"short_season": True}, 6), (4, 3, {"short_season": True}, 6)])
def test_busy_games_keep_the_invariants_and_last_their_rounds(players, seed, options, rounds):
    st = play_checked(GAME, players, seed, signorie(GAME, players, options), options, limit=5000, choose=busy(seed),
                      round_trip_every=10)
    assert st.round == rounds


def test_busy_players_take_four_dice():
    """With players who never pass while a die is usable, rounds see 4 dice taken."""
    st = GAME.new_state(3, 1)
    rng = random.Random(1)
    most = 0
    while st.round == 1:
        most = max(most, max(len(st.zones[TAKEN + p]) for p in range(st.players)))
        keys = st.pending.keys()
        others = [i for i, k in enumerate(keys) if k != "pass"]
        GAME.apply(st, rng.choice(others) if others else rng.randrange(len(keys)))
    assert most == 4
