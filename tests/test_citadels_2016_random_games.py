"""Random games of the 2016 edition pack at 2-8 players, with each set of
characters, keep the base game's invariants after every step: no negative
gold; the 84 districts and 27 characters each in exactly one zone; one crown
holder; one character per rank (9 with a rank-9 one: always at 3 and 8
players); 14 unique districts in play and 16 left in the box; clone() and the
JSON round-trip equal."""

import pytest

from engine.game import load_game
from random_play import play_checked
from engine.state import State

GAME = load_game("citadels-2016")
GOLD = GAME.res_index["gold"]
CROWN = GAME.gvar_index["crown"]
UNUSED = GAME.zone_base[GAME.zone_index["unused"]]
UNIQUE_BOX = GAME.zone_base[GAME.zone_index["unique_box"]]
RANK = GAME.field_index["rank"]
KIND = [GAME.card_defs[GAME.card_def_index[c]].kind for c in range(GAME.ncards)]

SETS = {
    "classic": {},
    "dark city": {f"rank{r}": 1 for r in range(1, 10)},
    "new": {**{f"rank{r}": 2 for r in range(1, 9)}, "rank9": 3},
    "random": {"random_characters": True, "random_uniques": True},
}


def check(st: State, ranks: int) -> None:
    assert all(st.res[p * GAME.nres + GOLD] >= 0 for p in range(st.players))
    seen = [c for z in st.zones for c in z]
    assert sorted(seen) == list(range(GAME.ncards)), "every card is in exactly one zone"
    assert KIND.count("district") == 84 and KIND.count("character") == 27
    assert 0 <= st.gvars[CROWN] < st.players
    playing = sorted(GAME.card_fields[c][RANK] for c in range(GAME.ncards) if KIND[c] == "character" and st.loc[c] != UNUSED)
    assert playing == list(range(1, ranks + 1)), "one character per rank"
    assert len(st.zones[UNIQUE_BOX]) == 16, "14 of the 30 unique districts in play"


def play(players: int, seed: int, options: dict, every: int = 3) -> State:
    ranks = 9 if players in (3, 8) or (options.get("rank9") == 3) or (options.get("rank9") == 1 and players >= 5) else 8
    if options.get("random_characters"):
        ranks = 9 if players in (3, 8) else 8
    return play_checked(GAME, players, seed, lambda st: check(st, ranks), options, every)


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("name", sorted(SETS))
def test_random_games(players, name):
    play(players, players, SETS[name])
