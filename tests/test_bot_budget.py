"""A planning bot's decision has a budget of steps (engine/play/bots.py, DECISION_STEPS): the
rules it plays on its samples and the evaluations it makes, all counted as the rules'
step budget counts them. A pack whose options each cost much, or a heavy evaluation,
stops with a message naming the pack, the seed and the choice, instead of planning
for minutes."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import meeple.play.bots as bots
from meeple.play.bots import GreedyAgent, MctsAgent, evaluator
from meeple.cli import main
from meeple.core.errors import RuleError
from meeple.runtime.game import load_game
from meeple.runtime.redeal import Perspective
from hostile import minimal_files, write_pack
from golden_games import game_of

# the minimal pack with an action of 300 options that each cost about 2,000 steps
TOIL = """    - id: toil
      name: Toil
      with: n in 1..300
      effect: |
        repeat 2000 times:
            gain 0 gold
        set passed = true
    - id: pass
"""


@pytest.fixture(scope="module")
def toil_pack(tmp_path_factory):
    game = minimal_files()["game.yaml"].replace("    - id: pass\n", TOIL, 1)
    return write_pack(tmp_path_factory.mktemp("toil") / "toil", {"game.yaml": game})


def _decision(game):
    st = game.new_state(2, 5)
    while st.pending.count() < 300:
        game.apply(st, random.Random(len(st.log)).randrange(st.pending.count()))
    return st


BOTS = [("greedy", lambda game, steps: GreedyAgent(1, evaluator(game), steps=steps)),
        ("mcts", lambda game, steps: MctsAgent(1, evaluator(game), iterations=20, steps=steps))]


@pytest.mark.parametrize("name, make", BOTS, ids=[b[0] for b in BOTS])
def test_a_decision_past_its_budget_stops_naming_the_game_the_seed_and_the_choice(toil_pack, name, make):
    game = load_game(str(toil_pack))
    st = _decision(game)
    seat, choice = st.pending.player, len(st.log) + 1
    with pytest.raises(RuleError) as info:
        make(game, 100_000).choose(Perspective(game, st, seat), list(range(st.pending.count())))
    message = info.value.message
    assert message.startswith(f"the {name} bot's decision went past its budget of 100,000 steps "
                              f"(minimal, game seed 5, choice {choice}, P{seat + 1}: choose an action)"), message
    # the same decision within a budget it fits in: a legal choice
    assert 0 <= make(game, 10_000_000).choose(Perspective(game, st, seat), list(range(st.pending.count()))) < 302


def test_the_evaluations_are_counted_too():
    """Citadels' greedy decisions take a few thousand steps; an evaluation that walks
    300,000 numbers for every position it judges takes them past 1,000,000."""
    game = game_of("citadels")
    st = game.new_state(2, 3)
    while st.pending.count() < 3:
        game.apply(st, 0)
    seat = st.pending.player
    light = GreedyAgent(1, evaluator(game), steps=1_000_000)
    assert 0 <= light.choose(Perspective(game, st, seat), list(range(st.pending.count()))) < st.pending.count()
    heavy = GreedyAgent(1, evaluator(game, "score + count(n in 1..1000 where count(m in 1..300 where m > n) > gold)"), steps=1_000_000)
    with pytest.raises(RuleError, match="the greedy bot's decision went past its budget of 1,000,000 steps"):
        heavy.choose(Perspective(game, st, seat), list(range(st.pending.count())))


def test_simulate_stops_with_the_message_and_exit_1(toil_pack, monkeypatch):
    monkeypatch.setattr(bots, "DECISION_STEPS", 100_000)
    result = CliRunner().invoke(main, ["simulate", str(toil_pack), "-n", "2", "-p", "2", "--bots", "greedy,random"])
    assert result.exit_code == 1, result.output
    assert "the greedy bot's decision went past its budget of 100,000 steps (minimal, game seed" in result.output
    assert "Traceback" not in result.output
