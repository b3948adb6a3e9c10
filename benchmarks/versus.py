"""Benchmark: this checkout against another, side by side, with the hand-written reference.

A script, not a test: ``python benchmarks/versus.py OTHER_TREE [--packs citadels,troyes]
[--players 2,4] [--games 40] [--rounds 3]``, where OTHER_TREE is another checkout (e.g.
``git worktree add /tmp/before 1000809``). This machine's speed drifts by up to 2x within
an hour, so the two engines and ``reference_citadels.py`` are timed in alternating
slices, each in a fresh process, and the medians compared: the ratios are what to read.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from statistics import median

HERE = Path(__file__).resolve().parent.parent

PLAY = r'''
import json, random, sys, time
sys.path.insert(0, {tools!r})
from checkout import module, use
use({root!r})
load_game = module({root!r}, "meeple.runtime.game").load_game
g = load_game({pack!r})
count = (lambda st: st.pending.count()) if hasattr(g, "menus") else (lambda st: len(st.pending.options))
start = time.perf_counter()
for seed in range({games}):
    st = g.new_state({players}, seed)
    rng = random.Random(seed)
    if hasattr(g, "play_out"):      # as `meeple simulate` plays random agents
        rr = rng.randrange
        g.play_out(st, lambda dec: rr(len(dec.values)))
    while not st.over:
        g.apply(st, rng.randrange(count(st)))
print(json.dumps({games} / (time.perf_counter() - start)))
'''

REFERENCE = r'''
import json, sys, time
sys.path.insert(0, {bench!r})
import reference_citadels
start = time.perf_counter()
for seed in range({games}):
    reference_citadels.play({players}, seed)
print(json.dumps({games} / (time.perf_counter() - start)))
'''


def _rate(source: str) -> float:
    out = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", help="another checkout of meeple (the 'before')")
    ap.add_argument("--packs", default="citadels")
    ap.add_argument("--players", default="4")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    for pack in args.packs.split(","):
        for players in (int(p) for p in args.players.split(",")):
            before, now, ref = [], [], []
            for _ in range(args.rounds):
                before.append(_rate(PLAY.format(root=str(Path(args.other).resolve()), tools=str(HERE / "tools"), pack=pack, players=players, games=args.games)))
                now.append(_rate(PLAY.format(root=str(HERE), tools=str(HERE / "tools"), pack=pack, players=players, games=args.games)))
                ref.append(_rate(REFERENCE.format(bench=str(HERE / "benchmarks"), players=min(players, 7), games=5 * args.games)))
            b, n, r = median(before), median(now), median(ref)
            print(f"{pack:<20} {players}p  before {b:7.1f}  now {n:7.1f} games/s  now/before {n / b:4.2f}x   "
                  f"reference {r:7.1f}: before 1/{r / b:.1f}, now 1/{r / n:.1f}", flush=True)


if __name__ == "__main__":
    main()
