"""A progress bar on stderr whose time estimate can be trusted.

The first games of a run carry its start-up (worker processes, loading and
compiling the pack), so a rate measured from the start promises hours for a
one-minute run. The estimate here waits for a warm-up (``warmup_seconds``
since the first finished game, and ``warmup_games`` games after it) and then
divides what is left by the recent rate (the games finished in the last
``window`` seconds); before that it says ``estimating...``. The clock is a
parameter, so tests drive it with a fake one.
"""
from __future__ import annotations

import time
from collections import deque
from typing import Callable, Optional, TextIO


def format_duration(seconds: float) -> str:
    """0:41, 12:05, 1:02:09."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    def __init__(self, total: int, label: str, file: TextIO, clock: Callable[[], float] = time.monotonic,
                 warmup_seconds: float = 2.0, warmup_games: int = 3, window: float = 10.0, width: int = 30,
                 every: float = 0.1):
        self.total, self.label, self.file, self.clock = total, label, file, clock
        self.warmup_seconds, self.warmup_games, self.window, self.width, self.every = (
            warmup_seconds, warmup_games, window, width, every)
        self.done = 0
        self.first: Optional[tuple[float, int]] = None       # (time, games) at the first finished game
        self.samples: deque[tuple[float, int]] = deque()     # (time, games) in the recent window
        self.shown_at: Optional[float] = None
        self.width_shown = 0

    def update(self, n: int = 1) -> None:
        now = self.clock()
        self.done += n
        if self.first is None:
            self.first = (now, self.done)
        self.samples.append((now, self.done))
        while len(self.samples) > 2 and self.samples[1][0] <= now - self.window:
            self.samples.popleft()
        if self.shown_at is None or now - self.shown_at >= self.every or self.done >= self.total:
            self.render(now)

    def eta(self, now: Optional[float] = None) -> Optional[float]:
        """Seconds left, or None while warming up."""
        if self.first is None:
            return None
        now = self.clock() if now is None else now
        t0, n0 = self.first
        if now - t0 < self.warmup_seconds or self.done - n0 < self.warmup_games:
            return None
        t_old, n_old = self.samples[0]
        if n_old == self.done or now <= t_old:
            t_old, n_old = t0, n0
        if now <= t_old or self.done <= n_old:
            return None
        rate = (self.done - n_old) / (now - t_old)
        return (self.total - self.done) / rate

    def line(self, now: Optional[float] = None) -> str:
        filled = self.width * self.done // max(1, self.total)
        bar = "#" * filled + "-" * (self.width - filled)
        if self.done >= self.total:
            tail = "done"
        else:
            left = self.eta(now)
            tail = "estimating..." if left is None else f"about {format_duration(left)} left"
        return f"{self.label}  [{bar}]  {self.done}/{self.total}  {tail}"

    def render(self, now: Optional[float] = None) -> None:
        now = self.clock() if now is None else now
        text = self.line(now)
        self.file.write("\r" + text + " " * max(0, self.width_shown - len(text)))
        self.file.flush()
        self.width_shown = len(text)
        self.shown_at = now

    def __enter__(self) -> "Progress":
        self.render()
        return self

    def __exit__(self, *exc) -> None:
        self.file.write("\n")
        self.file.flush()
