"""``simulate`` against the bare random loop: both rates side by side, in one run, CPU time.

    python benchmarks/simulate_overhead.py [PACK] [--players 4] [--games 1000] [--rounds 5] [--seed 0]

What it compares: the same games, played twice in one process.
- *bare*: the engine's fastest random playout, as ``benchmarks/bench.py`` times it
  (``Game.play_out``, each choice the seat's ``randrange`` of the number of options),
  with nothing recorded: no record of moves, no log read, no statistics.
- *simulate*: ``meeple.workbench.simulate.simulate`` as ``meeple simulate PACK -p P --workers 1
  --no-metrics`` calls it (the pack already loaded, as the CLI hands it over), random bots,
  its summary made (``to_dict``): what the designer's command costs beyond the games. The
  game-shape metrics (on by default) have a benchmark of their own,
  ``benchmarks/metrics_overhead.py``.
Both use simulate's seeds: game i of a run with seed s has game seed ``s * 1_000_003 +
i`` and seat p draws from ``Random(game seed * 7919 + p)``, as ``make_agents`` seeds a
random bot; so both play the very same games (checked: the same number of decisions).

How it times: CPU time of this process (``time.process_time``; one worker, so the
comparison is fair), each side over all the games, in rounds that alternate
(bare, simulate, bare, simulate, ...) so that both see the same drift of a shared
machine. It prints each round, then each side's best round and their ratio, and
the median of the rounds' ratios (the aim: simulate / bare >= 0.9).

On a busy machine CPU time drifts with the neighbours (caches, memory bandwidth);
``benchmarks/simulate_overhead.sh`` counts instructions instead (valgrind), which do
not: ``--side bare`` or ``--side simulate`` plays one side once, for it to count.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from checkout import use  # noqa: E402

use(ROOT)          # this checkout's meeple, not an installed one

from meeple.runtime.game import Game, load_game  # noqa: E402
from meeple.workbench.simulate import SimConfig, game_seed, simulate  # noqa: E402


def bare(game: Game, players: int, seed: int, games: int) -> int:
    """The games of a simulate run, played by the bare loop; the decisions made."""
    decisions = 0
    for i in range(games):
        gs = game_seed(seed, i)
        st = game.new_state(players, gs)
        picks = [random.Random(gs * 7919 + p).randrange for p in range(players)]
        game.play_out(st, lambda dec: picks[dec.player](len(dec.values)))
        decisions += st.choices()
    return decisions


def simulated(game: Game, pack: str, players: int, seed: int, games: int) -> int:
    """The same games through ``simulate`` (1 worker) and its summary; the decisions made."""
    summary = simulate(SimConfig(pack, games, players, seed, workers=1, metrics=False), game=game)
    summary.to_dict()
    return summary.tally.decisions


def timed(run) -> tuple[float, int]:
    start = time.process_time()
    decisions = run()
    return time.process_time() - start, decisions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", nargs="?", default="citadels")
    ap.add_argument("--players", "-p", type=int, default=4)
    ap.add_argument("--games", "-n", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--side", choices=["bare", "simulate"], help="play this side once, untimed (for valgrind to count)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        ap.error("--games and --rounds must be at least 1")
    game = load_game(args.pack)
    simulated(game, args.pack, args.players, args.seed, 1)        # one-off: the bots' evaluation, the card tables
    if args.side:
        play = bare if args.side == "bare" else lambda *a: simulated(game, args.pack, *a[1:])
        print(play(game, args.players, args.seed, args.games), "decisions")
        return 0
    print(f"{args.pack} {args.players}p, {args.games} games (seed {args.seed}, random bots) a round, "
          f"{args.rounds} rounds, CPU time, one process")
    print(f"{'round':<7}{'bare games/s':>14}{'simulate games/s':>18}{'simulate/bare':>15}")
    rates: list[tuple[float, float]] = []
    for r in range(args.rounds):
        tb, db = timed(lambda: bare(game, args.players, args.seed, args.games))
        ts, ds = timed(lambda: simulated(game, args.pack, args.players, args.seed, args.games))
        if db != ds:
            print(f"the two did not play the same games: {db} and {ds} decisions", file=sys.stderr)
            return 1
        rates.append((args.games / tb, args.games / ts))
        print(f"{r + 1:<7}{rates[-1][0]:>14.1f}{rates[-1][1]:>18.1f}{rates[-1][1] / rates[-1][0]:>15.3f}")
    best_bare, best_sim = max(b for b, _ in rates), max(s for _, s in rates)
    print(f"{'best':<7}{best_bare:>14.1f}{best_sim:>18.1f}{best_sim / best_bare:>15.3f}")
    print(f"median of the rounds' ratios: {statistics.median(s / b for b, s in rates):.3f} "
          f"({db} decisions a round, the same games on both sides)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
