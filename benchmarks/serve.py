"""Benchmark: ``meeple serve``'s aims, printed (a script, not a test).

    python benchmarks/serve.py [--pack citadels] [--players 7] [--seed 107]

- a jump: the time to show any step of a long game (a random game of at least 300
  choices), as a seat's page and as the state alone (``Table.state_at``), over every
  step in a random order, first time (nothing cached) and again;
- a bot's move shown: from a bot's choice being applied to a page waiting for the
  game (``/s/TOKEN/wait``, over HTTP to uvicorn on 127.0.0.1) hearing of it;
- memory per open game: what a table keeps (tracemalloc) once opened, and once every
  step has been shown to every seat (its checkpoints and what each seat was told).

The aims (issue 25): a jump under 100 ms, a bot's move shown under 50 ms, memory per
game bounded and reported.
"""
from __future__ import annotations

import argparse
import random
import socket
import statistics
import sys
import threading
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from checkout import use  # noqa: E402

use(ROOT)

from meeple.play.session import make_log  # noqa: E402
from meeple.runtime.game import load_game  # noqa: E402
from meeple.web import pages  # noqa: E402
from meeple.web.server import Server  # noqa: E402


def long_log(pack: str, players: int, seed: int, at_least: int = 300) -> dict:
    """A random game's log of at least ``at_least`` choices (seeds tried from ``seed`` on)."""
    game = load_game(pack)
    while True:
        rng = random.Random(seed)
        st = game.new_state(players, seed)
        while not st.over:
            game.apply(st, rng.randrange(st.pending.count()))
        if len(st.log) >= at_least:
            return make_log(game, st, seed, pack)
        seed += 1


def ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"median {statistics.median(xs) * 1000:.1f} ms, 95th {xs[int(len(xs) * .95)] * 1000:.1f} ms, "
            f"max {xs[-1] * 1000:.1f} ms")


def jumps(pack: str, log: dict) -> None:
    server = Server(load_game(pack), pack)
    table = server.replay(log)
    seat = next(s for s in table.seats.values() if s.seat == 0)
    steps = list(range(table.steps + 1))
    random.Random(1).shuffle(steps)
    states, first, again = [], [], []
    for k in steps:
        t = time.perf_counter()
        table.state_at(k)
        states.append(time.perf_counter() - t)
    for times in (first, again):
        for k in steps:
            t = time.perf_counter()
            pages.seat_page(table, seat, k)
            times.append(time.perf_counter() - t)
    print(f"a jump in a game of {table.steps} choices ({pack}, {log['players']} players, seed {log['seed']}), "
          f"every step in a random order:")
    print(f"  the state alone:            {ms(states)}")
    print(f"  P1's page, first time:      {ms(first)}")
    print(f"  P1's page, again (cached):  {ms(again)}")


def bot_latency(pack: str, players: int, seed: int, moves: int = 60) -> None:
    import httpx
    import uvicorn
    from meeple.web.app import make_app
    server = Server(load_game(pack), pack, bots="random")
    table = server.play(players, seed)
    token = next(s for s in table.seats.values() if s.seat is None).token
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    web = uvicorn.Server(uvicorn.Config(make_app(server), host="127.0.0.1", port=port, log_level="warning",
                                        lifespan="off"))
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    while not web.started:
        time.sleep(0.01)
    delays = []
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        for _ in range(moves):
            if table.st.over:
                break
            heard = []

            def listen(version=table.version):
                client.get(f"/s/{token}/wait", params={"after": version})
                heard.append(time.perf_counter())
            listener = threading.Thread(target=listen)
            listener.start()
            time.sleep(0.05)               # the page is waiting
            made = [0.0]
            original = table._moved

            def moved():
                original()
                made[0] = time.perf_counter()
            table._moved = moved
            table.advance(limit=1)
            listener.join()
            table._moved = original
            delays.append(heard[0] - made[0])
    web.should_exit = web.force_exit = True
    thread.join(10)
    print(f"a bot's move shown to a waiting page (over HTTP, {len(delays)} moves): {ms(delays)}")


def memory(pack: str, log: dict) -> None:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    server = Server(load_game(pack), pack)
    table = server.replay(log)
    opened = tracemalloc.take_snapshot()
    for seat in table.seats.values():
        if not seat.table:
            for k in range(table.steps + 1):
                pages.seat_page(table, seat, k)
    shown = tracemalloc.take_snapshot()
    tracemalloc.stop()

    def kib(a, b) -> str:
        return f"{sum(s.size_diff for s in b.compare_to(a, 'filename')) / 1024:.0f} KiB"
    print(f"memory of an open game of {table.steps} choices: {kib(before, opened)} opened "
          f"({table.line.footprint()} checkpoints), {kib(before, shown)} after every step shown to every seat "
          f"({table.footprint()})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default="citadels")
    ap.add_argument("--players", type=int, default=7)
    ap.add_argument("--seed", type=int, default=107)
    args = ap.parse_args()
    load_game(args.pack)            # loaded (and compiled) once, outside the timings
    log = long_log(args.pack, args.players, args.seed)
    jumps(args.pack, log)
    bot_latency(args.pack, args.players, args.seed)
    memory(args.pack, log)


if __name__ == "__main__":
    main()
