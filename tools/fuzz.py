"""Fuzz the loader, compiler and runtime with mutated packs; print what happened.

    python tools/fuzz.py                       # 10,000 cases, seed 1, every CPU
    python tools/fuzz.py --cases 500 --seed 7 --workers 1
    python tools/fuzz.py --case 1234 --seed 1  # rerun one case, print its mutations and outcome
    python tools/fuzz.py --keep fuzz-failures  # write each failing case's pack there

Exit 1 when any case gave a traceback, an unlocated error, an error in Python's words or ran over 2 s.
The mutator and the verdicts live in tests/fuzzing.py, shared with the brief
run in tests/test_fuzz_harness.py.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]
from checkout import use  # noqa: E402

use(ROOT)          # this checkout's meeple, not an installed one

import fuzzing as F  # noqa: E402

# the mutated texts would crowd the user's cache of syntax trees: this run keeps its own
if "MEEPLE_CACHE_DIR" not in os.environ:
    import atexit
    import shutil
    os.environ["MEEPLE_CACHE_DIR"] = tempfile.mkdtemp(prefix="meeple-fuzz-cache-")
    atexit.register(shutil.rmtree, os.environ["MEEPLE_CACHE_DIR"], True)

FAILURES = ("traceback", "unlocated", "python", "slow")


def _work(args: tuple) -> tuple:
    seed, number, sources = args
    case = F.make_case(seed, number, sources)
    workdir = Path(tempfile.gettempdir()) / f"meeple-fuzz-{os.getpid()}" / "pack"
    out = F.run_case(case, workdir)
    return number, case.source, out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--case", type=int, help="run only this case number and print it")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--source", action="append", choices=sorted(F.SOURCES), help="packs to mutate (default all)")
    ap.add_argument("--keep", help="a folder to write every failing case's pack into")
    args = ap.parse_args(argv)
    if args.cases < 1:
        ap.error("--cases must be at least 1")
    if args.case is not None:
        case = F.make_case(args.seed, args.case, args.source)
        for m in case.mutations:
            print("mutation:", m[0], m[1], repr(m[4])[:60], m[5])
        out = F.run_case(case, Path(tempfile.mkdtemp()) / "pack")
        print(f"{case.source}: {out.kind} in {out.seconds:.2f} s, {out.decisions} decisions\n{out.detail}")
        return 1 if out.kind in FAILURES else 0

    start = time.perf_counter()
    counts: Counter = Counter()
    worst = 0.0
    failures = []
    jobs = [(args.seed, n, args.source) for n in range(args.cases)]
    with multiprocessing.Pool(args.workers) as pool:
        for number, source, out in pool.imap_unordered(_work, jobs, chunksize=8):
            counts[out.kind] += 1
            worst = max(worst, out.seconds)
            if out.kind in FAILURES:
                failures.append((number, source, out))
                if args.keep:
                    case = F.make_case(args.seed, number, args.source)
                    for name, text in case.files.items():
                        path = Path(args.keep) / f"case-{number}" / name
                        path.parent.mkdir(parents=True, exist_ok=True)
                        path.write_text(text, encoding="utf-8")
    for number, source, out in sorted(failures, key=lambda f: f[0]):
        first = out.detail.strip().splitlines()[-1] if out.detail.strip() else ""
        print(f"case {number} ({source}): {out.kind} in {out.seconds:.2f} s: {first}")
    took = time.perf_counter() - start
    print(f"{args.cases} cases (seed {args.seed}) in {took:.0f} s: "
          + ", ".join(f"{k} {counts[k]}" for k in ("valid", "invalid") + FAILURES)
          + f"; slowest {worst:.2f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
