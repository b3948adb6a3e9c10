"""Random Signorie games at 2, 3 and 4 players, and in the short season, finish
with the game's own invariants after every step: brides 1-5, at most 4 dice a
player a round and never two of one colour, every city track at most 4, the
54 alliance tiles, the right number of rounds. (``random_play.play_checked``
also checks the invariants of every game: each tile, die and family member in
exactly one place, florins and VP never negative, clone() and the JSON
round-trip; the same seed giving the same game is checked for every pack in
tests/test_conformance.py.)"""
import random

import pytest

from meeple.runtime.game import load_game
from meeple.runtime.state import State
from random_play import Chooser, play_checked

GAME = load_game("signorie")
BRIDES = GAME.res_index["brides"]
TAKEN = GAME.zone_base[GAME.zone_index["taken"]]
ALLIANCE = frozenset(c for c, d in enumerate(GAME.card_def_index) if GAME.card_defs[d].kind == "alliance")
CITY_ZONES = [GAME.zone_index[z] for z in ("married", "envoys")]
COLOUR = GAME.field_index["colour"]


def check(st: State) -> None:
    for p in range(st.players):
        assert st.res[p * GAME.nres + BRIDES] in range(1, 6), "1 to 5 brides"
        taken = st.zones[TAKEN + p]
        assert len(taken) <= 4, "at most 4 dice a round"
        colours = [GAME.card_fields[d][COLOUR] for d in taken]
        assert len(set(colours)) == len(colours), "never two dice of one colour"
    for zi in CITY_ZONES:
        base, n = GAME.zone_base[zi], len(GAME.kind_cards["city"])
        assert all(len(st.zones[base + i]) <= 4 for i in range(n))
    assert len(ALLIANCE) == 54 and sum(1 for z in st.zones for c in z if c in ALLIANCE) == 54, "the 54 alliance tiles"


def busy(seed: int) -> Chooser:
    """A player who passes only when nothing else is left."""
    rng = random.Random(seed)

    def choose(st: State) -> int:
        keys = st.pending.keys()
        choice = rng.randrange(len(keys))
        others = [i for i, k in enumerate(keys) if k != "pass"]
        return rng.choice(others) if others else choice
    return choose


def play(players, seed, options=None, busy_players=False):
    return play_checked(GAME, players, seed, check, options, limit=5000, choose=busy(seed) if busy_players else None)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("busy_players", [False, True], ids=["random", "busy"])
def test_random_games(players, busy_players):
    for seed in range(2):
        st = play(players, seed, busy_players=busy_players)
        assert st.round == 7


@pytest.mark.parametrize("players", [2, 4])
def test_short_season_games(players):
    st = play(players, 3, options={"short_season": True}, busy_players=True)
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
