"""Random Troyes games at 2, 3 and 4 players finish with the game's invariants:
deniers, influence and VP never negative, influence at most 20, every piece
in exactly one place, at most 12 citizens a player in play, the right number
of rounds; clone() and the JSON round-trip give equal states."""
import json
import random

import pytest

from engine.game import load_game
from engine.state import State

GAME = load_game("troyes")
R = {name: GAME.res_index[name] for name in ("deniers", "influence", "vp")}
ROUNDS = {2: 4, 3: 5, 4: 6}


CITIZEN = GAME.card_index["citizen"]
RESERVE = GAME.zone_base[GAME.zone_index["reserve"]]


def check(st: State) -> None:
    for p in range(st.players):
        base = p * GAME.nres
        assert st.res[base + R["deniers"]] >= 0 and st.res[base + R["vp"]] >= 0
        assert 0 <= st.res[base + R["influence"]] <= 20
        # a player's citizens: 12 at most, wherever they are; those in play are the rest of the stock
        mine = [c for c, d in enumerate(GAME.card_def_index) if d == CITIZEN and GAME.card_seat[c] == p]
        assert len(mine) == 12
        in_play = [c for c in mine if st.loc[c] != RESERVE + p]
        assert len(in_play) <= 12
    cards = sorted(c for z in st.zones for c in z)
    assert cards == list(range(GAME.ncards)), "every die, cube, citizen and card is in exactly one place"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players):
    for seed in range(3):
        st = GAME.new_state(players, seed)
        rng = random.Random(seed)
        steps = 0
        while not st.over:
            if steps % 5 == 0:
                check(st)
                assert st.clone() == st
                assert State.from_json(GAME, json.loads(json.dumps(st.to_json()))) == st
            GAME.apply(st, rng.randrange(len(st.pending.options)))
            steps += 1
            assert steps < 20000
        check(st)
        assert st.round == ROUNDS[players]


def test_same_seed_same_log():
    def play(seed):
        st = GAME.new_state(4, seed)
        rng = random.Random(seed)
        while not st.over:
            GAME.apply(st, rng.randrange(len(st.pending.options)))
        return st
    a, b = play(8), play(8)
    assert a.log == b.log and a.scores == b.scores


def test_bga_quirk_option_plays():
    st = GAME.new_state(3, 5, options={"bga_joust_quirk": True})
    rng = random.Random(5)
    while not st.over:
        GAME.apply(st, rng.randrange(len(st.pending.options)))
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
