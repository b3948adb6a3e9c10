"""Benchmark: meeple and the hand-written reference under CPython and under PyPy, side by side.

A script, not a test; ``benchmarks/pypy.sh`` sets up the PyPy environment and runs it:
``python benchmarks/runtimes.py --pypy /tmp/pypy-env/bin/python [--warmup N] [--games N] [--rounds N] [--bots]``.

Why: the speed aims (docs/performance.md) are ratios against
``benchmarks/reference_citadels.py`` timed on CPython; this answers whether an
optional faster runtime closes what is missed. Each line is measured by
fresh worker processes (this script with ``--worker``), which first play the
warm-up games, unmeasured (a JIT compiles the hot loops only after many
games, so the warm-up count is part of every figure), and then time meeple's
random playouts in slices alternating with the reference's
(``bench.with_reference``), so both see the same drift of this shared machine.

Every figure is CPU time (the worker's own, ``time.process_time``), not wall
time: another process busy on the machine takes turns on the cores, not CPU
time from the worker. And the interpreters are measured in alternating rounds
(CPython then PyPy, then PyPy then CPython, ..., ``--rounds``, a fresh worker
each), the median of each taken, as benchmarks/versus.py alternates checkouts,
so that neither is measured only in a quiet or only in a busy hour.

A PyPy worker keeps its parser caches in a folder of its own (``--pypy-cache``;
pypy.sh passes the one its golden check uses, inside the PyPy environment;
else a temporary folder, removed at the end): the user's cache is never written
by another interpreter, and nothing is written beside an installed Python.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent

# (pack, players, aim as a fraction of the CPython reference's games/s, where the aim comes from)
LINES = (
    ("citadels", 4, 1 / 4.8, ">= 1,000 games/s, 17x slower than the reference at 280"),
    ("troyes", 4, 1 / 18, ">= 200 games/s, 72x slower at 50"),
    ("signorie", 4, 1 / 15, ">= 300 games/s, 49x slower at 90"),
    ("citadels", 7, 1 / 5.2, "3x the 103 games/s before the speed work, 1/15.7 of the 7-player reference"),
)
# the decision costs of the engine before the speed work (ms); the aim is a third of each
BOTS_BEFORE = {("citadels", "greedy"): 1.33, ("troyes", "greedy"): 11.8,
               ("citadels", "mcts:100"): 35.0, ("troyes", "mcts:100"): 100.0}


def _bench():
    """benchmarks/bench.py, its clock made this process's CPU time: its timings (playouts,
    the reference's slices, a bot's decisions) are then of the work done, not of the turns
    other processes took on the machine meanwhile."""
    sys.path[:0] = [str(HERE)]
    import bench          # this checkout's meeple (bench.py says so)
    bench.time = types.SimpleNamespace(perf_counter=time.process_time)      # bench reads time.perf_counter only
    return bench


def worker(pack: str, players: int, warmup: int, games: int) -> dict:
    """Warm up, then time meeple against the reference, in CPU time; one JSON-able record."""
    bench = _bench()
    import reference_citadels
    from meeple.runtime.game import load_game
    game = load_game(pack)
    ref_players = players if pack == bench.REFERENCE_PACK else bench.REFERENCE_PLAYERS
    start = time.process_time()
    warm_elapsed, _ = bench.timed_playouts(game, players, range(10**6, 10**6 + warmup))
    ref_warmup = 5 * warmup                 # the reference is ~5-10x faster: about the same time
    for seed in range(10**6, 10**6 + ref_warmup):
        reference_citadels.play(ref_players, seed)
    warm_total = time.process_time() - start
    gps, dps, ref = bench.with_reference(game, players, games, ref_players)
    return {"python": platform(), "pack": pack, "players": players, "warmup": warmup,
            "ref_warmup": ref_warmup, "warmup_gps": warmup / warm_elapsed if warmup else 0.0,
            "warmup_seconds": warm_total, "games": games, "gps": gps, "dps": dps,
            "ref": ref, "ref_players": ref_players}


def bot_worker(pack: str, bots: str, warmup: int, games: int) -> dict:
    """A planning bot's CPU milliseconds per decision (bench.decision_cost) after warm-up games."""
    bench = _bench()
    from meeple.runtime.game import load_game
    game = load_game(pack)
    players = max(2, game.min_players)
    seats = bots + ",random" * (players - 1)
    if warmup:
        bench.decision_cost(game, players, seats, warmup)
    return {"python": platform(), "pack": pack, "bot": bots, "warmup": warmup, "games": games,
            "ms": bench.decision_cost(game, players, seats, games)}


def platform() -> str:
    impl = sys.implementation.name
    return f"{'PyPy' if impl == 'pypy' else 'CPython'} {sys.version.split()[0]}"


def run(python: str, args: list[str], cache: str | None) -> dict:
    env = dict(os.environ)
    if cache is not None:
        env["MEEPLE_CACHE_DIR"] = cache
    out = subprocess.run([python, str(Path(__file__).resolve()), "--worker", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{python} {' '.join(args)} failed:\n{out.stderr.strip()}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def alternating(interpreters: tuple, rounds: int, measure) -> list[list]:
    """``measure(python, cache)`` for each interpreter, in ``rounds`` rounds whose order
    alternates (A B, B A, A B, ...); the records of each interpreter, in its order."""
    records: list[list] = [[] for _ in interpreters]
    for r in range(rounds):
        order = range(len(interpreters)) if r % 2 == 0 else reversed(range(len(interpreters)))
        for i in order:
            records[i].append(measure(*interpreters[i]))
    return records


def middle(records: list[dict]) -> dict:
    """One record of several rounds: the median of each figure, the rest from the first."""
    out = dict(records[0])
    for key, value in records[0].items():
        if isinstance(value, float):
            out[key] = median(r[key] for r in records)
    out["rounds"] = len(records)
    return out


def ratio(gps: float, ref: float) -> str:
    return f"1/{ref / gps:.1f}" if gps <= ref else f"{gps / ref:.2f}x"


def validate_cpu(python: str, cache: str | None) -> float:
    """The CPU seconds (user and system) of one cold `meeple validate` of the five shipped packs
    run by the given interpreter (validate_bench.PACKS), read from the child's own usage."""
    sys.path[:0] = [str(HERE)]
    from validate_bench import PACKS
    env = dict(os.environ)
    if cache is not None:
        env["MEEPLE_CACHE_DIR"] = cache
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([python, "-m", "meeple", "validate", *PACKS], cwd=ROOT, env=env, capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="runtimes.py", description=__doc__.splitlines()[0])
    ap.add_argument("--pypy", help="the PyPy interpreter (with meeple's dependencies)")
    ap.add_argument("--cpython", default=sys.executable, help="the CPython interpreter (default: this one)")
    ap.add_argument("--pypy-cache", help="the PyPy workers' parser-cache folder (default: a temporary one, removed after)")
    ap.add_argument("--warmup", type=int, default=2000, help="games played before timing, per line and interpreter")
    ap.add_argument("--games", type=int, default=500, help="timed games per line")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per line, the median taken (default 3)")
    ap.add_argument("--only", default="", help="lines to run, e.g. citadels:4,troyes:4 (default: all four)")
    ap.add_argument("--bots", action="store_true", help="also greedy and mcts:100 decision costs")
    ap.add_argument("--bot-warmup", type=int, default=20, help="bot games before timing (with --bots)")
    ap.add_argument("--validate", action="store_true", help="also cold 'meeple validate' of the five packs")
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        kind, *rest = args.worker
        if kind == "bots":
            record = bot_worker(rest[0], rest[1], int(rest[2]), int(rest[3]))
        else:
            record = worker(rest[0], int(rest[1]), int(rest[2]), int(rest[3]))
        print(json.dumps(record))
        return 0
    if not args.pypy:
        ap.error("--pypy PATH is required (benchmarks/pypy.sh passes it)")
    if args.warmup < 0 or args.games < 1 or args.rounds < 1:
        ap.error("--warmup must be >= 0, --games and --rounds >= 1")
    wanted = {tuple(x.split(":")) for x in args.only.split(",") if x}
    lines = [line for line in LINES if not wanted or (line[0], str(line[1])) in wanted]
    if wanted and len(lines) != len(wanted):
        ap.error(f"--only: choose among {', '.join(f'{p}:{n}' for p, n, _, _ in LINES)}")
    with tempfile.TemporaryDirectory(prefix="meeple-pypy-cache-") as temporary:
        pypy_cache = str(Path(args.pypy_cache).absolute()) if args.pypy_cache else temporary
        compare(args, lines, ((args.cpython, None), (args.pypy, pypy_cache)))
    return 0


def compare(args: argparse.Namespace, lines: list, interpreters: tuple) -> None:
    """Every line, then the bots and validate when asked: CPython against PyPy in alternating rounds."""
    rounds = args.rounds
    print(f"random playouts, CPU time, {args.warmup} warm-up games then {args.games} timed per line and interpreter "
          f"(the reference: 5x as many, alternating with meeple); the median of {rounds} alternating rounds")
    for pack, players, aim, why in lines:
        cp, pp = (middle(records) for records in alternating(
            interpreters, rounds, lambda py, cache: run(py, ["play", pack, str(players), str(args.warmup), str(args.games)], cache)))
        for r in (cp, pp):
            print(f"  {r['python']:<15} {pack} {players}p: meeple {r['gps']:7.1f} games/s"
                  f" ({r['dps']:,.0f} decisions/s), reference {r['ref_players']}p {r['ref']:7.1f} games/s:"
                  f" {ratio(r['gps'], r['ref'])}; warm-up {r['warmup']} games at {r['warmup_gps']:.0f} games/s")
        verdict = "meets" if pp["gps"] >= aim * cp["ref"] else "misses"
        print(f"{pack} {players}p: PyPy/CPython meeple {pp['gps'] / cp['gps']:.2f}x, reference {pp['ref'] / cp['ref']:.2f}x;"
              f" meeple-PyPy = {ratio(pp['gps'], cp['ref'])} of reference-CPython,"
              f" {ratio(pp['gps'], pp['ref'])} of reference-PyPy; aim 1/{1 / aim:.1f} ({why}): {verdict}"
              f" ({pp['gps'] / (aim * cp['ref']):.2f} of the aim)", flush=True)
    if args.bots:
        warm = {interpreters[0][0]: 0, interpreters[1][0]: args.bot_warmup}
        for pack in ("citadels", "troyes"):
            for bot in ("greedy", "mcts:100"):
                games = 4 if bot == "greedy" else 2
                cp, pp = (middle(records) for records in alternating(
                    interpreters, rounds, lambda py, cache: run(py, ["bots", pack, bot, str(warm[py]), str(games)], cache)))
                aim = BOTS_BEFORE[pack, bot] / 3
                print(f"{pack} {bot}: CPython {cp['ms']:.2f} ms per decision, PyPy {pp['ms']:.2f} ms"
                      f" after {pp['warmup']} warm-up games ({cp['ms'] / pp['ms']:.2f}x), CPU time;"
                      f" aim <= {aim:.2f} ms (a third of {BOTS_BEFORE[pack, bot]} ms)", flush=True)
    if args.validate:
        runs = max(3, rounds)
        for (py, _), seconds in zip(interpreters, alternating(interpreters, runs, validate_cpu)):
            print(f"{run_name(py)}: meeple validate of the five shipped packs, a cold process, CPU time of {runs} "
                  f"alternating runs: {', '.join(f'{s:.2f}' for s in seconds)} s; best {min(seconds):.2f} s, "
                  f"median {median(seconds):.2f} s", flush=True)


def run_name(python: str) -> str:
    out = subprocess.run([python, "-c", "import sys; print(sys.implementation.name, sys.version.split()[0])"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
