"""What is true of a random game of Troyes: it lasts the rounds of its player count (4,
5, 6 for 2, 3, 4 players); and the Troyes regression tests, with players of their own.
The random games are those tests/test_conformance.py plays (shipped_games: Troyes's own
invariants, a player's citizens in their own stock or hand or on the board, a space
holding one citizen at most, are checked there at every step).
"""
import random

import pytest

from golden_games import game_of
from shipped_games import all_specs, played, spec_id

GAME = game_of("troyes")
ROUNDS = {2: 4, 3: 5, 4: 6}
RANDOM = [s for s in all_specs() if s.pack == "troyes"]


@pytest.mark.parametrize("spec", RANDOM, ids=[spec_id(s) for s in RANDOM])
def test_a_random_game_lasts_the_rounds_of_its_player_count(spec):
    assert played(spec).round == ROUNDS[spec.players]


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


def test_a_reroll_that_lands_on_the_same_value_says_so():
    """A reroll (1 influence) that rolls the value the die showed is told as a note ('the
    die rolled the same value again'), else the player sees only the influence paid; a
    reroll to another value is told by the die's change and writes no note. One roll in
    six lands on its value: 29 random games give both kinds many times."""
    value = GAME.vocab.cvar_index["value"]
    width = GAME.vocab.ncvars
    kept = changed = 0
    for seed in range(1, 30):
        st = GAME.new_state(2, seed)
        rng = random.Random(seed)
        while not st.over:
            i = rng.randrange(st.pending.count())
            if not st.pending.key(i).startswith(("reroll:", "combat_reroll:")):
                GAME.apply(st, i)
                continue
            at = st.pending.values[i][2] * width + value      # the die the action is used with
            before = st.cvars[at]
            st.events.clear()
            GAME.apply(st, i)
            same = st.cvars[at] == before
            assert ("the die rolled the same value again" in st.events) == same, (seed, before, st.events)
            kept += same
            changed += not same
    assert kept > 20 and changed > 100, (kept, changed)
