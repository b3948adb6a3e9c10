"""Benchmark: random playouts per second and validation time, per shipped game.

A script, not a test: run ``python benchmarks/bench.py [--games N]``.
It prints single-core playouts per second (random agents, the hot path of
every simulation) at a small and the largest player count, and the time to
load, validate and compile each pack (the in-process cost and the wall time
of ``meeple validate`` as a designer runs it).
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.errors import Problems  # noqa: E402
from engine.game import Game, load_game  # noqa: E402
from engine.pack import read_pack, resolve, shipped_packs  # noqa: E402


def playouts(game: Game, players: int, games: int) -> tuple[float, float]:
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        st = game.new_state(players, seed)
        rng = random.Random(seed)
        while not st.over:
            game.apply(st, rng.randrange(len(st.pending.options)))
        decisions += len(st.log)
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def validation(pack: str, repeats: int = 5) -> tuple[float, float]:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        problems = Problems()
        p = read_pack(resolve(pack), problems)
        Game(p).compile(problems)
        best = min(best, time.perf_counter() - start)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "engine.cli", "validate", pack], cwd=ROOT, capture_output=True, check=True)
    return best, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("packs", nargs="*", default=shipped_packs())
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, one core, random agents, {args.games} games per line")
    for pack in args.packs:
        game = load_game(pack)
        counts = {game.min_players, game.max_players} | ({4} if game.min_players <= 4 <= game.max_players else set())
        for players in sorted(counts):
            gps, dps = playouts(game, players, args.games)
            print(f"{pack:<12} {players} players: {gps:8.1f} games/s  ({dps:,.0f} decisions/s)")
        inproc, cli = validation(pack)
        print(f"{pack:<12} validate: {1000 * inproc:.0f} ms in process (load + schema + compile), "
              f"{1000 * cli:.0f} ms for 'meeple validate' including interpreter start")


if __name__ == "__main__":
    main()
