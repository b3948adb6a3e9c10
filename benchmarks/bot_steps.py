"""Steps a planning bot's decision takes (engine/play/bots.py, DECISION_STEPS), measured.

    python benchmarks/bot_steps.py [--games 2] [--decisions 40] [PACK:BOT ...]

Plays seeded 2-player games (the bot in seat 1, random in seat 2) and prints, for each
pack and bot, the most and the mean steps one of the bot's decisions took: what the
figures against the budget in docs/limits.md come from. Steps are counted as the rules' step
budget counts them (dsl/steps.py), so the figures do not depend on the machine.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from checkout import use  # noqa: E402

use(ROOT)          # this checkout's meeple, not an installed one

from meeple.runtime import state as state_module  # noqa: E402
from meeple.play.agents import make_agents  # noqa: E402
from meeple.play.bots import evaluator  # noqa: E402
from meeple.runtime.game import load_game  # noqa: E402
from meeple.play.session import play  # noqa: E402

CASES = ["citadels:greedy", "citadels:mcts", "troyes:greedy", "troyes:mcts", "troyes:mcts:200:40",
         "signorie:greedy", "signorie:mcts", "citadels-2016:mcts", "citadels-dark-city:mcts"]


def measure(pack: str, bot: str, games: int, decisions: int) -> tuple[list[int], int]:
    """The steps of each of the bot's decisions (those with a choice to make), and the bot's budget."""
    used: list = []
    budget = 0
    made = state_module.StepMeter

    class Recording(made):
        def __init__(self, budget: int):
            super().__init__(budget)
            used.append(self)
    import meeple.play.bots as bots
    bots.StepMeter = Recording
    game = load_game(pack)
    value = evaluator(game)

    class Enough(Exception):
        pass
    try:
        for seed in range(games):
            agents = make_agents(f"{bot},random", 2, seed, game, value)
            budget = agents[0].steps or bots.DECISION_STEPS
            inner, mine = agents[0].choose, [0]

            def choose(view, options, inner=inner, mine=mine):
                if mine[0] == decisions:
                    raise Enough
                mine[0] += 1
                return inner(view, options)
            agents[0].choose = choose
            try:
                play(game, 2, seed, agents)
            except Enough:
                pass
    finally:
        bots.StepMeter = made
    return [m.used for m in used if m.used > 0], budget


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="*", default=CASES, help="PACK:BOT (default: the shipped packs)")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=40, help="of the bot, per game")
    args = ap.parse_args()
    print(f"{'pack':20} {'bot':14} {'decisions':>9} {'most steps':>12} {'mean':>11} {'budget':>13}  below it")
    for case in args.cases:
        pack, bot = case.split(":", 1)
        steps, budget = measure(pack, bot, args.games, args.decisions)
        if steps:
            print(f"{pack:20} {bot:14} {len(steps):9} {max(steps):>12,} {int(statistics.mean(steps)):>11,} {budget:>13,}"
                  f"  {budget / max(steps):.1f}x")


if __name__ == "__main__":
    main()
