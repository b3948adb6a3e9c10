"""The step budget against the shipped packs: how many steps their heaviest stretch of rules takes.

A script, not a test: ``python benchmarks/steps.py [--games N] [PACK ...]``.

Why: the step budget (``meeple.dsl.types.STEP_BUDGET``, docs/limits.md, "Steps") must stop a
runaway pack quickly yet never a real one. This plays random games of every
shipped pack at every player count and prints, per pack, the most steps any one
budget took (the setup, the rules between two choices, the end of the game), their
mean, and the headroom the budget leaves. The steps are counted by the budget itself:
the state's budget is replaced by a counter that records every charge and never runs
out, so the figures are the charges the rules make (the checker decides them; the
generated code, the one back end, makes them: tests/test_step_budget.py).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from checkout import use  # noqa: E402

use(ROOT)          # this checkout's meeple, not an installed one

import meeple.runtime.flow as flow  # noqa: E402
from meeple.dsl.types import STEP_BUDGET  # noqa: E402
from meeple.runtime.game import load_game  # noqa: E402

PACKS = ("citadels", "citadels-2016", "citadels-dark-city", "troyes", "signorie")


class Meter(int):
    """A budget that counts the steps taken from it and never runs out: ``budget - n``
    gives a meter ``n`` steps further; the most any meter reached is kept."""

    most = 0
    total = 0

    def __new__(cls, used: int = 0):
        m = super().__new__(cls, STEP_BUDGET)
        m.used = used
        if used > Meter.most:
            Meter.most = used
        return m

    def __sub__(self, n):
        Meter.total += n
        return Meter(self.used + n)

    def __lt__(self, other):
        return False


def measure(pack: str, games: int) -> tuple[int, float, int]:
    game = load_game(pack)
    Meter.most = Meter.total = 0
    decisions = 0
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(games):
            st = game.new_state(players, seed)
            rng = random.Random(seed)
            game.play_out(st, lambda dec: rng.randrange(len(dec.values)))
            decisions += st.choices() + 2          # each choice, the setup and the end of the game
    return Meter.most, Meter.total / decisions, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count (default 20)")
    parser.add_argument("packs", nargs="*", default=list(PACKS))
    args = parser.parse_args()
    flow.STEP_BUDGET = Meter(0)           # every reset of the budget starts a meter at 0
    print(f"step budget {STEP_BUDGET}; random games, {args.games} per player count")
    print(f"{'pack':<20} {'budgets':>8} {'most steps':>11} {'mean':>8} {'headroom':>9}")
    for pack in args.packs:
        most, mean, budgets = measure(pack, args.games)
        print(f"{pack:<20} {budgets:>8} {most:>11} {mean:>8.1f} {STEP_BUDGET / max(1, most):>8.0f}x")


if __name__ == "__main__":
    main()
