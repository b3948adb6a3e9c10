"""Random games of Citadels with the Dark City pack, at every player count it
allows (2-8; 8 needs a rank-9 character), keep the game's own invariants:
the 80 districts and 18 characters; one crown holder; exactly one character
per rank in play (9 with a rank-9 character). (``random_play.play_checked``
also checks the invariants of every game: each card in exactly one zone,
gold never negative, clone() and the JSON round-trip.)"""

import pytest

from meeple.runtime.game import load_game
from meeple.runtime.state import State
from random_play import play_checked

GAME = load_game("citadels-dark-city")
CROWN = GAME.gvar_index["crown"]
UNUSED = GAME.zone_base[GAME.zone_index["unused"]]
RANK = GAME.field_index["rank"]
KIND = [GAME.card_defs[GAME.card_def_index[c]].kind for c in range(GAME.ncards)]


def check(st: State, characters: int) -> None:
    kinds = [KIND[c] for zone in st.zones for c in zone]
    assert kinds.count("district") == 80 and kinds.count("character") == 18
    crown = st.gvars[CROWN]
    assert isinstance(crown, int) and 0 <= crown < st.players
    playing = [c for c in range(GAME.ncards) if KIND[c] == "character" and st.loc[c] != UNUSED]
    ranks = sorted(GAME.card_fields[c][RANK] for c in playing)
    assert ranks == list(range(1, characters + 1)), "one character per rank"


def play(players: int, seed: int, options: dict, characters: int, every: int = 1) -> State:
    return play_checked(GAME, players, seed, lambda st: check(st, characters), options, every)


@pytest.mark.parametrize("players", range(2, 8))
def test_bonus_characters_at_every_count(players):
    for seed in (3, 4):      # seeds 0-2 are played by tests/test_conformance.py
        play(players, seed, {}, 8, every=3)


@pytest.mark.parametrize("players, rank9", [(4, 1), (5, 2), (7, 2), (8, 1), (8, 2)])
def test_rank_nine(players, rank9):
    play(players, 5, {"rank9": rank9}, 9, every=3)


def test_eight_players_always_get_a_rank_nine_character():
    play(8, 6, {}, 9, every=5)


def test_mixed_characters():
    play(5, 2, {"use_witch": False, "use_emperor": False, "use_diplomat": False}, 8, every=5)
