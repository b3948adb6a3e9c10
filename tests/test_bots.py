"""The planning bots (engine/bots.py): what a sample of the hidden information
keeps and changes, that greedy beats random, that MCTS plays legal moves within
its budget, and that a simulation's --eval reaches the bots."""
import random

import pytest
from click.testing import CliRunner

from engine.agents import make_agents, parse_bot
from engine.bots import MctsAgent, Perspective, determinize, evaluator
from engine.cli import main
from engine.game import load_game
from engine.session import play
from engine.simulate import SimConfig, simulate

CITADELS = load_game("citadels")


def _zone(game, st, name, p=None):
    zi = game.zone_index[name]
    return st.zones[game.zone_base[zi] + (p or 0)]


def test_a_sample_keeps_what_the_player_sees_and_deals_the_rest_again():
    st = CITADELS.new_state(4, 3)
    rng = random.Random(1)
    while st.round < 1 or st.pending.kind != "action":
        CITADELS.apply(st, rng.randrange(len(st.pending.options)))
    me = st.pending.player
    changed = False
    for seed in range(20):
        s = determinize(CITADELS, st, me, random.Random(seed))
        assert _zone(CITADELS, s, "hand", me) == _zone(CITADELS, st, "hand", me)        # my hand
        for p in range(4):
            assert _zone(CITADELS, s, "city", p) == _zone(CITADELS, st, "city", p)      # public cities
            assert len(_zone(CITADELS, s, "hand", p)) == len(_zone(CITADELS, st, "hand", p))
        assert sorted(s.pending.keys()) == sorted(st.pending.keys())                   # my options
        others = [c for p in range(4) if p != me for c in _zone(CITADELS, s, "hand", p)]
        changed |= others != [c for p in range(4) if p != me for c in _zone(CITADELS, st, "hand", p)]
        for c, slot in enumerate(s.loc):
            assert c in s.zones[slot]
    assert changed, "the other hands are dealt again"


def test_bot_names_and_budgets():
    assert parse_bot("mcts:200") == ("mcts", {"iterations": 200})
    assert parse_bot("mcts:50ms") == ("mcts", {"millis": 50.0})
    assert parse_bot("mcts:200:40") == ("mcts", {"iterations": 200, "depth": 40})
    for bad, message in (("mtcs", "unknown agent"), ("greedy:3", "only mcts"), ("mcts:fast", "the budget is"),
                         ("mcts:200:deep", "playout depth")):
        with pytest.raises(ValueError, match=message):
            parse_bot(bad)


# greedy against random, 2 players, fixed seeds: (pack, games)
GREEDY = [("citadels", 30), ("signorie", 10), ("troyes", 4)]


@pytest.mark.parametrize("pack, games", GREEDY, ids=[g for g, _ in GREEDY])
def test_greedy_beats_random_in_70_percent_of_two_player_games(pack, games):
    d = simulate(SimConfig(pack, games, 2, seed=1, bots="greedy,random")).to_dict()
    assert d["seats"][0]["win_rate"] >= 0.7, d["seats"]


def test_mcts_plays_legal_moves_within_its_budget():
    st = CITADELS.new_state(2, 4)
    bot = MctsAgent(1, evaluator(CITADELS), iterations=20)
    for _ in range(12):
        dec = st.pending
        i = bot.choose(Perspective(CITADELS, st, dec.player), dec.options)
        assert 0 <= i < len(dec.options)
        CITADELS.apply(st, i)


def test_a_whole_game_with_every_kind_of_bot():
    agents = make_agents("mcts:10,greedy,random", 3, 2, CITADELS, evaluator(CITADELS))
    st = play(CITADELS, 3, 2, agents)
    assert st.over and len(st.scores) == 3


def test_the_simulation_evaluation_reaches_the_bots():
    """A greedy bot told that gold and score are bad plays to lose."""
    good = simulate(SimConfig("citadels", 20, 2, seed=1, bots="greedy,random")).to_dict()
    bad = simulate(SimConfig("citadels", 20, 2, seed=1, bots="greedy,random", evaluation="0 - score - gold - size(city)")).to_dict()
    assert bad["seats"][0]["win_rate"] < good["seats"][0]["win_rate"] - 0.3


def test_a_broken_evaluation_is_a_usage_error():
    result = CliRunner().invoke(main, ["simulate", "citadels", "-n", "2", "-p", "2", "--bots", "greedy", "--eval", "score + glod"])
    assert result.exit_code == 2 and "unknown name 'glod'" in result.output
