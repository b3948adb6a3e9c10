"""Random games of the 2016 edition pack at 2-8 players, with each set of
characters, keep the game's own invariants after every 3rd step: the 84
districts and 27 characters; one crown holder; one character per rank (9 with
a rank-9 one: always at 3 and 8 players); 14 unique districts in play and 16
left in the box. (``random_play.play_checked`` also checks the invariants of
every game: each card in exactly one zone, gold never negative, clone() and
the JSON round-trip.)"""

import pytest

from meeple.runtime.game import load_game
from meeple.runtime.state import State
from random_play import play_checked

GAME = load_game("citadels-2016")
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
