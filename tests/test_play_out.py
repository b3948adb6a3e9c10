"""``Game.play_out``: a game played to its end with each decision answered where it
is asked (the hot path of random playouts and of ``meeple simulate`` with random
agents) is the same game as one applied choice by choice: the same log, scores
and final state; an index out of range is refused with the state as it was."""
from __future__ import annotations

import random

import pytest

from meeple.play.agents import make_agents
from meeple.core.errors import IllegalChoice, Refusal
from meeple.runtime.game import load_game
from meeple.play.session import play
from meeple.workbench.simulate import card_tables
from golden_games import game_of
from shipped_games import seed_game

REFUSING = "tests/content/hostile/run_refused_forever"


def by_play_out(game, players: int, seed: int):
    st = game.new_state(players, seed)
    rr = random.Random(seed).randrange
    game.play_out(st, lambda dec: rr(len(dec.values)))
    return st


@pytest.mark.parametrize("pack, players, seed", [
    ("citadels", 2, 2), ("citadels", 4, 0), ("citadels", 7, 1),
    ("citadels-dark-city", 8, 8), ("citadels-2016", 5, 5),
    ("troyes", 2, 1), ("troyes", 4, 4),
    ("signorie", 3, 3), ("signorie", 4, 0),
])
def test_play_out_plays_the_game_apply_plays(pack, players, seed):
    """The game apply played choice by choice (shipped_games: played once a session, by
    the same seeded chooser), played again by play_out."""
    game = game_of(pack)
    one, two = seed_game(pack, players, seed), by_play_out(game, players, seed)
    assert two.over and two.pending is None
    assert two.log == one.log
    assert (two.scores, two.ranking, two.round) == (one.scores, one.ranking, one.round)
    assert two.to_json() == one.to_json()


def test_an_index_out_of_range_is_refused_and_the_game_goes_on():
    game = game_of("citadels")
    st = game.new_state(4, 0)
    first = st.pending
    with pytest.raises(IllegalChoice) as err:
        game.play_out(st, lambda dec: len(dec.values))       # one past the last option
    assert err.value.code == "out_of_range"
    assert err.value.message == f"option {first.count()} is out of range (0..{first.count() - 1})"
    # asked again where it stood: the same options, nothing taken
    assert st.choices() == 0 and st.pending.values == first.values and st.pending.player == first.player
    rr = random.Random(0).randrange
    game.play_out(st, lambda dec: rr(len(dec.values)))
    assert st.to_json() == seed_game("citadels", 4, 0).to_json()      # the game applied choice by choice


def test_a_choice_refused_mid_game_leaves_the_state_at_that_decision():
    game = game_of("citadels")
    st = game.new_state(3, 2)
    taken = []

    def choose(dec):
        if len(taken) == 30:
            return -1
        taken.append(0)
        return 0
    with pytest.raises(IllegalChoice):
        game.play_out(st, choose)
    again = game.new_state(3, 2)
    for _ in range(30):
        game.apply(again, 0)
    assert st.to_json() == again.to_json()


def test_on_choice_is_told_of_every_choice_counted():
    game = game_of("troyes")
    told = []
    st = game.new_state(2, 6)
    rr = random.Random(6).randrange
    game.play_out(st, lambda dec: rr(len(dec.values)), lambda s, dec, i: told.append((s.choices(), dec.player, i)))
    assert [t[0] for t in told] == list(range(1, st.choices() + 1))
    assert [(p, i) for _, p, i in told] == [(e[0], e[1]) for e in st._log]


def test_a_pack_that_can_refuse_is_played_through_apply():
    game = load_game(REFUSING)
    assert game.compiled.can_refuse
    st = game.new_state(2, 1)
    with pytest.raises(Refusal, match="never allowed"):
        game.play_out(st, lambda dec: 0)
    assert st.choices() == 0 and st.pending.kind == "action"     # sent back to the menu, as apply does


@pytest.mark.parametrize("pack, players", [("citadels", 5), ("signorie", 2)])
def test_session_play_with_random_agents_is_the_game_played_choice_by_choice(pack, players):
    game = game_of(pack)
    fast = play(game, players, 11, make_agents("random", players, 11, game), track=True)
    slow = play(game, players, 11, make_agents("random", players, 11, game), track=True,
                on_decision=lambda st: None)       # a decision hook: choice by choice through apply
    tables = card_tables(game)
    assert tables.used(fast._log) == tables.used(slow._log) and tables.used(fast._log)     # before st.log makes the keys
    assert fast.to_json() == slow.to_json()
    assert fast.track == slow.track


def test_the_choosers_own_error_is_not_named_as_a_rule_error():
    game = game_of("citadels")
    st = game.new_state(4, 3)

    def broken(dec):
        if st.choices() == 5:
            raise ValueError("the bot's own bug")
        return 0
    with pytest.raises(ValueError, match="the bot's own bug"):
        game.play_out(st, broken)
    assert st.choices() == 5 and st.pending is not None
