"""The progress bar's time estimate: nothing before a warm-up, then what is
left divided by the recent rate (driven with a fake clock)."""
import io

import pytest

from meeple.workbench.progress import Progress, format_duration


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def bar(total=1000, **kw):
    clock = Clock()
    return Progress(total, "simulating", io.StringIO(), clock=clock, width=10, **kw), clock


def test_a_slow_start_does_not_promise_hours():
    """Start-up takes 30 s (workers, the pack), then 10 games a second: a
    rate from the start would say hours; this one waits, then says 1:39."""
    p, clock = bar()
    clock.t = 30.0
    p.update()                                   # the first game, after the start-up
    assert p.eta() is None
    assert p.line() == "simulating  [----------]  1/1000  estimating..."
    for _ in range(10):                          # 1 s later: still warming up (2 s)
        clock.t += 0.1
        p.update()
    assert p.eta() is None
    for _ in range(10):
        clock.t += 0.1
        p.update()
    assert p.eta() == pytest.approx(979 / 10)
    assert p.line() == "simulating  [----------]  21/1000  about 1:38 left"


def test_few_games_in_a_long_time_still_warm_up():
    """2 s passed but only 2 games since the first: not enough to say."""
    p, clock = bar(total=100)
    p.update()
    clock.t = 5.0
    p.update()
    p.update()
    assert p.eta() is None
    p.update()
    assert p.eta() == pytest.approx(96 / (3 / 5))


def test_the_estimate_follows_the_recent_rate():
    """10 games/s for 20 s, then 1 game/s: after 10 s of the slow rate, the
    estimate is the slow rate's alone (a 10 s window)."""
    p, clock = bar(total=10_000)
    p.update()
    for _ in range(200):
        clock.t += 0.1
        p.update()
    assert p.eta() == pytest.approx((10_000 - 201) / 10)
    for _ in range(11):
        clock.t += 1.0
        p.update()
    assert p.eta() == pytest.approx((10_000 - 212) / 1, rel=0.1)


def test_batches_arriving_at_once():
    """Workers hand back batches: 50 games at the same instant, every 5 s."""
    p, clock = bar(total=500)
    for k in range(3):
        clock.t = 10.0 + 5 * k
        for _ in range(50):
            p.update()
    assert p.eta() == pytest.approx(350 / (100 / 10))


def test_the_screen_line_and_the_end():
    p, clock = bar(total=4)
    with p:
        for _ in range(4):
            clock.t += 1
            p.update()
    out = p.file.getvalue()
    assert out.startswith("\rsimulating  [----------]  0/4  estimating...")
    assert out.split("\r")[1:] == ["simulating  [----------]  0/4  estimating...",
                                    "simulating  [##--------]  1/4  estimating...",
                                    "simulating  [#####-----]  2/4  estimating...",
                                    "simulating  [#######---]  3/4  estimating...",
                                    "simulating  [##########]  4/4  done         \n"]


@pytest.mark.parametrize("seconds, text", [(0, "0:00"), (41.4, "0:41"), (725, "12:05"), (3729, "1:02:09")])
def test_durations(seconds, text):
    assert format_duration(seconds) == text
