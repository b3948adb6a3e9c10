"""Random Signorie games at 2, 3 and 4 players, and in the short season, finish
with the game's invariants after every step: florins, VP and family never
negative, brides 1-5, at most 4 dice a player a round and never two of one
colour, every city track at most 4, the 54 alliance tiles and every other
piece in exactly one place, the right number of rounds; clone() and the JSON
round-trip give equal states; the same seed gives the same game."""
import json
import random

import pytest

from engine.game import load_game
from engine.state import State

GAME = load_game("signorie")
R = {name: GAME.res_index[name] for name in ("florins", "vp", "brides")}
TAKEN = GAME.zone_base[GAME.zone_index["taken"]]
ALLIANCE = frozenset(c for c, d in enumerate(GAME.card_def_index) if GAME.card_defs[d].kind == "alliance")
CITY_ZONES = [GAME.zone_index[z] for z in ("married", "envoys")]
COLOUR = GAME.field_index["colour"]


def check(st: State) -> None:
    for p in range(st.players):
        base = p * GAME.nres
        assert st.res[base + R["florins"]] >= 0 and st.res[base + R["vp"]] >= 0
        assert st.res[base + R["brides"]] in range(1, 6), "1 to 5 brides"
        taken = st.zones[TAKEN + p]
        assert len(taken) <= 4, "at most 4 dice a round"
        colours = [GAME.card_fields[d][COLOUR] for d in taken]
        assert len(set(colours)) == len(colours), "never two dice of one colour"
    for zi in CITY_ZONES:
        base, n = GAME.zone_base[zi], len(GAME.kind_cards["city"])
        assert all(len(st.zones[base + i]) <= 4 for i in range(n))
    cards = sorted(c for z in st.zones for c in z)
    assert cards == list(range(GAME.ncards)), "every tile, die and family member is in exactly one place"
    assert len(ALLIANCE) == 54 and sum(1 for z in st.zones for c in z if c in ALLIANCE) == 54, "the 54 alliance tiles"


def play(players, seed, options=None, busy=False, every_step=True):
    st = GAME.new_state(players, seed, options=options)
    rng = random.Random(seed)
    steps = 0
    while not st.over:
        if every_step:
            check(st)
            assert st.clone() == st
            assert State.from_json(GAME, json.loads(json.dumps(st.to_json()))) == st
        keys = st.pending.keys()
        choice = rng.randrange(len(keys))
        if busy:      # a player who passes only when nothing else is left
            others = [i for i, k in enumerate(keys) if k != "pass"]
            choice = rng.choice(others) if others else choice
        GAME.apply(st, choice)
        steps += 1
        assert steps < 5000
    check(st)
    return st


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("busy", [False, True], ids=["random", "busy"])
def test_random_games(players, busy):
    for seed in range(2):
        st = play(players, seed, busy=busy)
        assert st.round == 7


@pytest.mark.parametrize("players", [2, 4])
def test_short_season_games(players):
    st = play(players, 3, options={"short_season": True}, busy=True)
    assert st.round == 6


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


def test_same_seed_same_log():
    a, b = play(4, 8, every_step=False), play(4, 8, every_step=False)
    assert a.log == b.log and a.scores == b.scores
