"""Random Troyes games at 2, 3 and 4 players finish with the game's own
invariants: 12 citizens a player, at most 12 of them in play, the right
number of rounds; and the Troyes regression tests. (``random_play.play_checked``
also checks the invariants of every game: every die, cube, citizen and card in
exactly one place, deniers and VP never negative, influence 0-20, clone() and
the JSON round-trip; the same seed giving the same game is checked for every
pack in tests/test_conformance.py.)"""
import random

import pytest

from meeple.runtime.game import load_game
from meeple.runtime.state import State
from random_play import play_checked

GAME = load_game("troyes")
ROUNDS = {2: 4, 3: 5, 4: 6}


CITIZEN = GAME.card_index["citizen"]
RESERVE = GAME.zone_base[GAME.zone_index["reserve"]]


def check(st: State) -> None:
    for p in range(st.players):
        # a player's citizens: 12 at most, wherever they are; those in play are the rest of the stock
        mine = [c for c, d in enumerate(GAME.card_def_index) if d == CITIZEN and GAME.card_seat[c] == p]
        assert len(mine) == 12
        in_play = [c for c in mine if st.loc[c] != RESERVE + p]
        assert len(in_play) <= 12


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players):
    for seed in range(3, 6):     # seeds 0-2 are played by tests/test_conformance.py
        st = play_checked(GAME, players, seed, check, every=5, limit=20000)
        assert st.round == ROUNDS[players]


def test_printed_joust_option_plays():
    st = play_checked(GAME, 3, 5, check, options={"printed_joust": True}, every=5, limit=20000)
    assert st.opts == [True]


def test_a_round_ends_when_no_die_is_left():
    """Players pass only when nothing else is possible: with this seed P-one never
    passes in round 1, so the round ends because every die has been used."""
    st = GAME.new_state(2, 2)
    rng = random.Random(2)
    passes = 0
    while st.round <= 1 and not st.over:
        keys = st.pending.keys()
        busy = [i for i, k in enumerate(keys) if not k.startswith(("pass", "wait", "reroll", "flip", "buy_citizen", "combat_"))]
        choice = rng.choice(busy) if busy else rng.randrange(len(keys))
        passes += keys[choice] == "pass"
        GAME.apply(st, choice)
    assert st.round == 2 and passes == 1


@pytest.mark.parametrize("seed", [9, 10, 11, 23])
def test_an_action_that_comes_to_nothing_is_not_offered_again_that_turn(seed):
    """Players who never pass used to loop on an activation their dice could not
    reach; an action that comes to nothing is not offered again that turn."""
    st = GAME.new_state(2, seed)
    rng = random.Random(seed)
    steps = 0
    while st.round <= 1 and not st.over:
        keys = st.pending.keys()
        busy = [i for i, k in enumerate(keys) if not k.startswith(("pass", "wait", "reroll", "flip", "buy_citizen", "combat_"))]
        GAME.apply(st, rng.choice(busy) if busy else rng.randrange(len(keys)))
        steps += 1
        assert steps < 1000


@pytest.mark.parametrize("seed", [150, 3, 17])
def test_actions_that_come_to_nothing_cannot_alternate_forever(seed):
    """A player who keeps trying activations and deals, and skips every
    optional choice, used to alternate between two that came to nothing (only
    the last one was remembered); every such card is now set aside for the turn."""
    st = GAME.new_state(2, seed)
    steps = 0
    while not st.over:
        keys = st.pending.keys()
        eager = [i for i, k in enumerate(keys) if k.startswith(("deal:", "activate:"))]
        skip = [i for i, k in enumerate(keys) if k == "skip"]
        GAME.apply(st, (eager or skip or [0])[0])
        steps += 1
        assert steps < 5000, "the turn never ends"
