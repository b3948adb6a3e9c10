"""Benchmark: the cold-process time of ``meeple validate`` of all five shipped packs together.

A script, not a test: run ``python benchmarks/validate_bench.py [--runs N]``.
Each run is a fresh interpreter (``python -m meeple validate PACK...``), as a
designer or CI runs it; it prints every run, the best and the median. The
parser's tables come from the user's cache after the first run ever (see
dsl/parser.py); ``--no-cache`` measures without it (MEEPLE_CACHE_DIR="").
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKS = ("citadels", "citadels-2016", "citadels-dark-city", "signorie", "troyes")


def cold_validate(packs=PACKS, runs: int = 3, cache: bool = True) -> list[float]:
    env = dict(os.environ)
    if not cache:
        env["MEEPLE_CACHE_DIR"] = ""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "meeple", "validate", *packs], cwd=ROOT, env=env,
                       capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-cache", action="store_true", help="no parser-table cache (MEEPLE_CACHE_DIR=\"\")")
    args = ap.parse_args()
    times = cold_validate(runs=args.runs, cache=not args.no_cache)
    print(f"meeple validate {' '.join(PACKS)}: cold process, {args.runs} runs: "
          + ", ".join(f"{t:.2f}" for t in times)
          + f" s; best {min(times):.2f} s, median {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
