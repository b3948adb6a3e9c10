"""Benchmark: random playouts per second and validation time, per shipped game.

A script, not a test: run ``python benchmarks/bench.py [--games N]``.
It prints single-core playouts per second (random agents, the hot path of
every simulation) at a small and the largest player count, and the time to
load, validate and compile each pack (the in-process cost and the wall time
of ``meeple validate`` as a designer runs it). With ``--bots`` it also prints
the speed-up of 2 worker processes over 1 and the cost of a greedy and of an
MCTS (100 iterations) decision.

Every playout line also gives meeple's speed as a ratio against the
hand-written Citadels loop of ``benchmarks/reference_citadels.py``, timed in
the same run in slices alternating with that line's meeple playouts (timings
on a shared machine drift, the ratio is what compares across runs): the
Citadels pack against the reference at the same player count, every other
pack against the reference at 4 players.
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from checkout import use  # noqa: E402

use(ROOT)          # this checkout's meeple, not an installed one

from meeple.core.errors import Problems  # noqa: E402
from meeple.runtime.game import Game, load_game  # noqa: E402
from meeple.loading.folders import resolve, shipped_packs  # noqa: E402
from meeple.loading.pack import read_pack

sys.path.insert(0, str(ROOT / "benchmarks"))
import reference_citadels  # noqa: E402

REFERENCE_PACK = "citadels"
REFERENCE_PLAYERS = 4           # other packs compare with the reference at this count


def playouts(game: Game, players: int, games: int, first_seed: int = 0) -> tuple[float, float]:
    """Random playouts of seeds first_seed..: games/s and decisions/s."""
    elapsed, decisions = timed_playouts(game, players, range(first_seed, first_seed + games))
    return games / elapsed, decisions / elapsed


def timed_playouts(game: Game, players: int, seeds: range) -> tuple[float, int]:
    decisions = 0
    start = time.perf_counter()
    for seed in seeds:
        st = game.new_state(players, seed)
        rr = random.Random(seed).randrange
        game.play_out(st, lambda dec: rr(len(dec.values)))      # as `meeple simulate` plays random agents
        decisions += st.choices()
    return time.perf_counter() - start, decisions


def with_reference(game: Game, players: int, games: int, ref_players: int, chunks: int = 5) -> tuple[float, float, float]:
    """meeple's games/s and decisions/s (seeds 0..games-1, as playouts), and
    the hand-written reference's games/s, timed in slices alternating with
    meeple's (R M R M ... R) so that both see the same drift of the machine."""
    chunks = max(1, min(chunks, games))
    ref_games = max(100, 5 * games)      # the reference is ~10x faster: comparable wall time
    ref_cuts = [ref_games * i // (chunks + 1) for i in range(chunks + 2)]
    cuts = [games * i // chunks for i in range(chunks + 1)]
    elapsed, decisions, ref_elapsed = 0.0, 0, 0.0
    for i in range(chunks + 1):
        start = time.perf_counter()
        for seed in range(ref_cuts[i], ref_cuts[i + 1]):
            reference_citadels.play(ref_players, seed)
        ref_elapsed += time.perf_counter() - start
        if i < chunks:
            e, d = timed_playouts(game, players, range(cuts[i], cuts[i + 1]))
            elapsed += e
            decisions += d
    return games / elapsed, decisions / elapsed, ref_games / ref_elapsed


def ratio(gps: float, ref: float) -> str:
    """meeple's speed against the reference's: '1/17.2' (or '1.30x' if faster)."""
    return f"1/{ref / gps:.1f}" if gps <= ref else f"{gps / ref:.2f}x"


def validation(pack: str, repeats: int = 5) -> tuple[float, float]:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        problems = Problems()
        p = read_pack(resolve(pack), problems)
        Game(p, problems, generate=False)
        best = min(best, time.perf_counter() - start)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "meeple", "validate", pack], cwd=ROOT, capture_output=True, check=True)
    return best, time.perf_counter() - start


def parallel_speedup(pack: str, players: int, games: int) -> tuple[float, float, float]:
    """Games per second with 1 and 2 worker processes, and the speed-up."""
    from meeple.workbench.simulate import SimConfig, simulate
    rates = []
    for workers in (1, 2):
        summary = simulate(SimConfig(pack, games, players, seed=1, workers=workers))
        rates.append(games / summary.seconds)
    return rates[0], rates[1], rates[1] / rates[0]


def decision_cost(game: Game, players: int, bots: str, games: int) -> float:
    """Milliseconds per decision of the planning bot in seat 1."""
    from meeple.play.agents import make_agents
    from meeple.play.bots import evaluator
    from meeple.play.session import play
    total, decisions = 0.0, 0
    value = evaluator(game)
    for seed in range(games):
        agents = make_agents(bots, players, seed, game, value)
        timed = agents[0]
        inner = timed.choose

        def choose(view, options, inner=inner):
            nonlocal total, decisions
            start = time.perf_counter()
            out = inner(view, options)
            total += time.perf_counter() - start
            decisions += 1
            return out
        timed.choose = choose
        play(game, players, seed, agents)
    return 1000 * total / max(1, decisions)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("packs", nargs="*", default=shipped_packs())
    ap.add_argument("--bots", action="store_true", help="also time the planning bots and the parallel speed-up")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, one core, random agents, {args.games} games per line")
    from validate_bench import PACKS, cold_validate
    times = cold_validate(runs=3)
    print(f"validate all {len(PACKS)} shipped packs in one cold process: best {min(times):.2f} s, "
          f"median of 3 {sorted(times)[1]:.2f} s")
    for pack in args.packs:
        game = load_game(pack)
        counts = {game.min_players, game.max_players} | ({4} if game.min_players <= 4 <= game.max_players else set())
        for players in sorted(counts):
            same = pack == REFERENCE_PACK
            ref_players = players if same else REFERENCE_PLAYERS
            gps, dps, ref = with_reference(game, players, args.games, ref_players)
            against = "the hand-written reference" if same else f"the hand-written Citadels reference at {ref_players} players"
            print(f"{pack:<12} {players} players: {gps:8.1f} games/s  ({dps:,.0f} decisions/s)"
                  f" = {ratio(gps, ref)} of {against} ({ref:,.0f} games/s)")
        inproc, cli = validation(pack)
        print(f"{pack:<12} validate: {1000 * inproc:.0f} ms in process (load + schema + compile), "
              f"{1000 * cli:.0f} ms for 'meeple validate' including interpreter start")
        if args.bots:
            one, two, gain = parallel_speedup(pack, game.min_players, 4 * args.games)
            print(f"{pack:<12} simulate: {one:.0f} games/s with 1 worker, {two:.0f} with 2: speed-up {gain:.2f}x")
            for bots in ("greedy,random", "mcts:100,random"):
                ms = decision_cost(game, 2 if game.min_players <= 2 else game.min_players, bots + ",random" * (max(2, game.min_players) - 2), 2)
                print(f"{pack:<12} {bots.split(',')[0]:<9} {ms:8.1f} ms per decision")


if __name__ == "__main__":
    main()
