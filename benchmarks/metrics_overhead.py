"""What the game-shape metrics cost ``simulate``: the same games with them on and off, CPU time.

    python benchmarks/metrics_overhead.py [PACK] [--players 4] [--games 500] [--rounds 5] [--seed 0] [--bots random]

Both sides are ``meeple.workbench.simulate.simulate`` as ``meeple simulate PACK -p P
--workers 1`` calls it (the pack already loaded), its summary made (``to_dict``): one
with ``metrics=True`` (a position judged by the evaluation once a round, the menus read
from the log, the figures folded in), one with ``metrics=False``. They play the very same
games (checked: the same decisions and scores). Rounds alternate (off, on, off, on, ...)
so that both see the same drift of a shared machine; it prints each round, each side's
best round and their ratio, and the median of the rounds' ratios (the aim, issue 23:
on / off below 1.10).

On a busy machine CPU time drifts with the neighbours; ``benchmarks/metrics_overhead.sh``
counts instructions instead (valgrind), which do not: ``--side on`` or ``--side off`` plays
one side once, untimed, for it to count.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from checkout import use  # noqa: E402

use(ROOT)          # this checkout's meeple, not an installed one

from meeple.runtime.game import Game, load_game  # noqa: E402
from meeple.workbench.simulate import SimConfig, simulate  # noqa: E402


def side(game: Game, pack: str, players: int, seed: int, games: int, bots: str, metrics: bool) -> tuple:
    """One run; what must be equal on both sides (decisions, the seats' score sums)."""
    summary = simulate(SimConfig(pack, games, players, seed, workers=1, bots=bots, metrics=metrics), game=game)
    summary.to_dict()
    return summary.tally.decisions, [s.s for s in summary.tally.scores]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", nargs="?", default="citadels")
    ap.add_argument("--players", "-p", type=int, default=4)
    ap.add_argument("--games", "-n", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--side", choices=["on", "off"], help="play this side once, untimed (for valgrind to count)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        ap.error("--games and --rounds must be at least 1")
    game = load_game(args.pack)
    for metrics in (False, True):          # one-off: the bots' evaluation, the card tables
        side(game, args.pack, args.players, args.seed, 1, args.bots, metrics)
    if args.side:
        print(side(game, args.pack, args.players, args.seed, args.games, args.bots, args.side == "on")[0], "decisions")
        return 0
    print(f"{args.pack} {args.players}p, {args.games} games (seed {args.seed}, {args.bots} bots) a round, "
          f"{args.rounds} rounds, CPU time, one process")
    print(f"{'round':<7}{'off s':>10}{'on s':>10}{'on/off':>9}")
    times: list[tuple[float, float]] = []
    for r in range(args.rounds):
        got = []
        for metrics in (False, True):
            start = time.process_time()
            result = side(game, args.pack, args.players, args.seed, args.games, args.bots, metrics)
            got.append((time.process_time() - start, result))
        (t_off, r_off), (t_on, r_on) = got
        if r_off != r_on:
            print(f"the two did not play the same games: {r_off} and {r_on}", file=sys.stderr)
            return 1
        times.append((t_off, t_on))
        print(f"{r + 1:<7}{t_off:>10.3f}{t_on:>10.3f}{t_on / t_off:>9.3f}")
    best_off, best_on = min(t for t, _ in times), min(t for _, t in times)
    print(f"{'best':<7}{best_off:>10.3f}{best_on:>10.3f}{best_on / best_off:>9.3f}")
    print(f"median of the rounds' ratios: {statistics.median(on / off for off, on in times):.3f} "
          f"({r_on[0]} decisions a round, the same games on both sides)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
