"""What is true of a random game of Citadels, of the 2016 edition and with Dark City, at
its end, on the games tests/test_conformance.py plays (shipped_games: each game's own
invariants, the districts and characters all there, one crown holder, one character per
rank, are checked there at every step).

The property over random player counts and seeds is a soak run (``slow``, MEEPLE_SLOW=1).
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as S

from golden_games import game_of
from random_play import play_checked
from shipped_games import all_specs, citadels, played, spec_id

FAMILY = [s for s in all_specs() if s.pack.startswith("citadels")]
EIGHT = [s for s in FAMILY if s.players == 8]


@pytest.mark.parametrize("spec", FAMILY, ids=[spec_id(s) for s in FAMILY])
def test_a_random_game_ends_by_a_completed_city_not_by_the_round_limit(spec):
    game = game_of(spec.pack)
    st = played(spec)
    first = st.gvars[game.vocab.gvar_index["first_complete"]]
    assert first is not None and 0 <= first < st.players, "no city was completed"
    assert st.round < game.defn.max_rounds


@pytest.mark.parametrize("spec", EIGHT, ids=[spec_id(s) for s in EIGHT])
def test_eight_players_always_play_a_rank_nine_character(spec):
    game = game_of(spec.pack)
    st = played(spec)
    unused, rank = game.vocab.zone_base[game.vocab.zone_index["unused"]], game.vocab.field_index["rank"]
    nine = [c for c in range(game.ncards) if game.vocab.card_defs[game.card_def_index[c]].kind == "character"
            and game.vocab.card_fields[c][rank] == 9]
    assert nine and any(st.loc[c] != unused for c in nine)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=S.integers(2, 7), seed=S.integers(0, 2**31))
def test_property_random_games_keep_the_invariants(players, seed):
    """Soak: Citadels games of any count and seed keep every invariant (checked every 7th step)."""
    game = game_of("citadels")
    play_checked(game, players, seed, citadels(game, players, {}), every=7, limit=5000)
