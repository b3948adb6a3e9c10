"""Write or check the golden playthroughs in tests/golden/.

    python tools/golden.py --check            # compare every stored game, exit 1 on a difference
    python tools/golden.py --write [PACK...]  # re-record (only when a rule change is intended)
    python tools/golden.py --rekey [PACK...]  # rewrite only the option keys (a new key format; the games must not change)

The playing and comparing logic lives in tests/golden_games.py, shared with
tests/test_golden.py, so the tool and the test cannot disagree.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests")]
from checkout import use  # noqa: E402

use(ROOT)          # this checkout's meeple, not an installed one

import golden_games as G  # noqa: E402
from meeple.loading.folders import shipped_packs  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="re-record the golden games (only for an intended rule change)")
    mode.add_argument("--rekey", action="store_true",
                      help="replay the stored games by index (old keys accepted), and if every one ends the same, rewrite only their keys")
    mode.add_argument("--check", action="store_true", help="compare every stored game with the engine; exit 1 on any difference")
    ap.add_argument("packs", nargs="*", help="packs (default: every shipped pack)")
    args = ap.parse_args(argv)
    packs = args.packs or shipped_packs()
    if args.write:
        for pack in packs:
            path = G.write_pack(pack)
            print(f"wrote {path.relative_to(ROOT)} ({len(G.specs(pack))} games, {path.stat().st_size:,} bytes)")
        return 0
    if args.rekey:
        for pack in packs:
            try:
                path, changed = G.rekey(pack)
            except AssertionError as err:
                print(f"NOT REKEYED {pack}: {err}")
                return 1
            print(f"rekeyed {path.relative_to(ROOT)}: same games, scores and final states; {changed} keys changed")
        return 0
    failed = 0
    for pack in packs:
        for spec in G.specs(pack):
            diff = G.check(spec)
            if diff:
                failed += 1
                print(f"DIFFERS {pack} {spec.name} ({spec.describe()}): {diff}")
    total = sum(len(G.specs(p)) for p in packs)
    print(f"{total - failed} of {total} golden games identical")
    if failed:
        print(G.REGENERATE)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
