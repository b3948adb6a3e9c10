"""Where a decision's work goes, by function, counted not timed: the Python bytecodes each
function runs per decision of random playouts (``sys.settrace`` opcode events).

Timings on a shared machine drift by 2x from hour to hour and a sampling profiler
leans towards function entries; a bytecode count is the same for the same code,
seed and choices, so two checkouts (or two versions of a rule) compare exactly.
A bytecode is not a fixed cost (a call costs more than a load), so read the
count with ``benchmarks/instructions.sh``, which counts machine instructions.

    python benchmarks/bytecodes.py citadels --players 4 --games 10 --top 25
    python benchmarks/bytecodes.py troyes --root /tmp/other-checkout
    python benchmarks/bytecodes.py citadels --players 2 --games 1 --bot greedy --decisions 20

With ``--bot``, the bot's own decisions are counted: it plays seat 1 against random
seats (seeds 0..games-1, its first ``--decisions`` each), as
``benchmarks/bot_instructions.sh`` plays it, and only the time it decides is traced.
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path


def _tracer(seen: collections.Counter):
    """A ``sys.settrace`` function adding each bytecode run to its function's count."""
    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        code = frame.f_code
        where = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}:{code.co_name}"

        def each(frame, event, arg):
            if event == "opcode":
                seen[where] += 1
            return each
        return each
    return tracer


def count(root: str, pack: str, players: int, games: int) -> tuple[collections.Counter, int]:
    """Bytecodes per function (file:line:name) over ``games`` seeded random games, and the decisions made."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    from checkout import module, use
    use(root)
    load_game = module(root, "meeple.runtime.game").load_game
    game = load_game(pack)
    seen: collections.Counter = collections.Counter()

    tracer = _tracer(seen)
    decisions = 0
    for seed in range(games):
        st = game.new_state(players, seed)
        rr = random.Random(seed).randrange
        sys.settrace(tracer)
        try:
            if hasattr(game, "play_out"):
                game.play_out(st, lambda dec: rr(len(dec.values)))
            while not st.over:          # a checkout before play_out
                dec = st.pending
                game.apply(st, rr(dec.count() if hasattr(dec, "count") else len(dec.options)))
        finally:
            sys.settrace(None)
        decisions += st.choices() if hasattr(st, "choices") else len(st.log)
    return seen, decisions


def count_bot(root: str, pack: str, bot: str, players: int, games: int, decisions: int) -> tuple[collections.Counter, int]:
    """Bytecodes per function while ``bot`` (seat 1, the others random) decides, over its
    first ``decisions`` decisions of each seeded game (``botgames.play_bot``), and the
    decisions it made."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from botgames import play_bot
    seen: collections.Counter = collections.Counter()
    tracer = _tracer(seen)

    def traced(choose, *args):       # frames made from here on are traced: the bot's, not this one
        sys.settrace(tracer)
        try:
            return choose(*args)
        finally:
            sys.settrace(None)
    return seen, play_bot(root, pack, bot, players, games, decisions, traced)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pack")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent), help="the checkout to count")
    ap.add_argument("--bot", help="count this bot's decisions (seat 1; the other seats random), e.g. greedy, mcts:100")
    ap.add_argument("--decisions", type=int, default=20, help="with --bot: its first N decisions of each game")
    args = ap.parse_args(argv)
    if args.games < 1 or args.players < 1 or args.top < 0 or args.decisions < 1:
        ap.error("--games, --players and --decisions must be at least 1, --top at least 0")
    if args.bot:
        seen, decisions = count_bot(args.root, args.pack, args.bot, args.players, args.games, args.decisions)
        what = f"{args.bot} in seat 1"
    else:
        seen, decisions = count(args.root, args.pack, args.players, args.games)
        what = "random"
    if not decisions:
        print(f"{args.pack} {args.players}p: no decision was made")
        return 1
    total = sum(seen.values())
    print(f"{args.pack} {args.players}p, {args.games} games, {what}, {decisions} decisions: "
          f"{total / decisions:,.0f} bytecodes a decision")
    for where, n in seen.most_common(args.top):
        print(f"{n / decisions:9.1f} {100 * n / total:5.1f}%  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
