"""Runs at any scale (engine/workbench/simulate.py, engine/workbench/tally.py, engine/workbench/compare.py): a finished
game is folded into running statistics and written as records rows at once, then
forgotten, so memory does not grow with the number of games; and the figures are
those the lists of every game's record gave (tests/listed_statistics.py keeps that
code as the oracle), interval ends to their last digit aside (engine/workbench/tally.py says why)."""
from __future__ import annotations

import csv
import gc
import io
import math
import signal
import sys
import tracemalloc
import types
from fractions import Fraction
from pathlib import Path

import pytest

import listed_statistics as listed
from meeple.workbench.compare import Paired, compare
from meeple.runtime.game import load_game
from meeple.play.session import play
from meeple.play.agents import make_agents
from meeple.workbench.simulate import SimConfig, _Folding, card_tables, simulate
from meeple.workbench.tally import Series, normal_interval
from golden_games import game_of

REPO = Path(__file__).resolve().parent.parent
MINIMAL = str(REPO / "tests" / "content" / "valid" / "minimal")
USAGE = str(REPO / "tests" / "packs" / "usage")
RICH = str(REPO / "tests" / "content" / "valid" / "rich-merchant")

# the ends of a 95% normal interval (and what is made of them): exact variance now, two-pass floats before
INTERVAL_ENDS = {"score_ci", "rounds_ci", "spread_ci", "ci", "p", "clarity"}


def same_figures(new, old, path: str = "") -> None:
    """``new`` is ``old``: the same keys in the same order, the same values; interval
    ends (and a comparison's p and clarity) within 1e-12 relative of the lists' two-pass
    float ones."""
    if isinstance(old, dict):
        assert isinstance(new, dict) and list(new) == list(old), f"{path}: keys {list(new)} != {list(old)}"
        for k in old:
            if k in INTERVAL_ENDS:
                close(new[k], old[k], f"{path}/{k}")
            elif k not in ("seconds", "games_per_second"):
                same_figures(new[k], old[k], f"{path}/{k}")
    elif isinstance(old, list):
        assert isinstance(new, list) and len(new) == len(old), f"{path}: {new} != {old}"
        for i, (a, b) in enumerate(zip(new, old)):
            same_figures(a, b, f"{path}[{i}]")
    else:
        assert type(new) is type(old) and new == old, f"{path}: {new!r} != {old!r}"


def close(new, old, path: str) -> None:
    for a, b in zip(new, old) if isinstance(old, list) else [(new, old)]:
        if a is None or b is None:
            assert a is b, path
        else:
            assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15), f"{path}: {a!r} != {b!r}"


def without_effects(d: dict) -> dict:
    """A simulation's figures without each card's effect on winning, which is new since
    the lists (checked in tests/test_compare_and_reports.py)."""
    for rows in d["cards"].values():
        for r in rows:
            del r["effect"], r["effect_ci"]
    return d


# ---------------------------------------------------------------- the figures of the lists
SIMULATIONS = [
    # pack, games, players, seed, bots
    ("citadels", 30, 4, 0, "random"),
    ("citadels", 25, 2, 3, "random"),
    ("citadels-2016", 12, 5, 1, "random"),
    ("citadels-dark-city", 10, 7, 2, "random"),
    ("signorie", 8, 3, 0, "random"),
    ("troyes", 24, 4, 5, "random"),         # 3- and 2-way ties: win shares that do not add up exactly
    ("troyes", 3, 2, 0, "greedy,random"),
    (USAGE, 40, 2, 1, "random"),            # refusals undo uses
    (MINIMAL, 60, 3, 7, "random"),
]


@pytest.mark.parametrize("pack, games, players, seed, bots", SIMULATIONS)
def test_simulate_gives_the_figures_of_the_lists(pack, games, players, seed, bots):
    game = game_of(pack)
    cfg = SimConfig(pack, games, players, seed, 1, bots)
    old = listed.simulate_listed(game, cfg).to_dict()
    new = simulate(cfg, game=game).to_dict()
    assert "shape" in new           # measured by default, and changing no other figure (tests/test_game_shape.py has its own)
    del new["shape"]
    same_figures(without_effects(new), old)


@pytest.mark.parametrize("base, variant, sets, games, players", [
    ("citadels", "citadels", ("temple.cost=3",), 40, 4),
    ("citadels", "citadels-dark-city", (), 30, 5),
    ("citadels", RICH, (), 30, 4),
    ("troyes", "troyes", (), 12, 3),
])
def test_compare_gives_the_figures_of_the_lists(base, variant, sets, games, players):
    ga, gb = game_of(base), load_game(variant, sets)
    # the lists had no game-shape metrics: without them, the false discovery rate is over the same metrics
    a, b = SimConfig(base, games, players, 1, metrics=False), SimConfig(variant, games, players, 1, sets=sets, metrics=False)
    old = listed.compare_listed((ga, a), (gb, b))
    new = compare(a, b, games=(ga, gb))
    # metrics whose |d|/half ties (P2 and P4 of a mirror-image run) may come in either order: the lists'
    # two-pass floats told them apart by their last digit; so compare them by name, and the order up to such ties
    by_name = {m["metric"]: m for m in old["metrics"]}
    same_figures(new["metrics"], [by_name[m["metric"]] for m in new["metrics"]])
    clarity = [math.inf if m["clarity"] is None else m["clarity"] for m in new["metrics"]]
    for (m, c), (m2, c2) in zip(zip(new["metrics"], clarity), zip(new["metrics"][1:], clarity[1:])):
        assert (not m["significant"], -c) <= (not m2["significant"], -c2) or math.isclose(c, c2, rel_tol=1e-12), (m, m2)
    new["metrics"], old["metrics"] = [m["metric"] for m in new["metrics"]], sorted(by_name)
    assert sorted(new.pop("metrics")) == old.pop("metrics")
    for h in (new["headline"], old["headline"]):      # in the metrics' order, which may differ at ties (above)
        h["significant"], h["suggestive"] = sorted(h["significant"]), sorted(h["suggestive"])
    new.pop("seconds")                                 # the lists kept no time
    new["summaries"] = [without_effects(d) for d in new["summaries"]]
    for side in ("base", "variant"):                   # the packs' ids and versions, which the lists did not name
        assert new[side].pop("id") in [pid for pid, _, _ in (ga, gb)[side == "variant"].pack.load_order]
        new[side].pop("version")
    same_figures(new, old)


def test_an_exact_tie_of_clarity_keeps_the_measured_order():
    """P2 and P4 of this run differ in mirror image (+1/15 and -1/15, the same spread):
    their clarity is one number, so they keep the order they were measured in (the
    lists' two-pass floats put P4 first, by a difference in the 16th digit)."""
    a, b = SimConfig("citadels", 30, 5, 1), SimConfig("citadels-dark-city", 30, 5, 1)
    metrics = compare(a, b)["metrics"]
    p2, p4 = (next(m for m in metrics if m["metric"] == f"P{p} win rate") for p in (2, 4))
    assert p2["clarity"] == p4["clarity"] and p2["difference"] == -p4["difference"]
    assert metrics.index(p2) < metrics.index(p4)


# ---------------------------------------------------------------- records, streamed
@pytest.mark.parametrize("pack, games, players, seed, bots, workers", [
    ("citadels", 12, 3, 1, "random", 1),
    ("citadels", 12, 3, 1, "random", 2),
    ("troyes", 10, 4, 5, "random", 2),
    (USAGE, 20, 2, 0, "random", 1),
])
def test_streamed_records_are_the_rows_of_the_lists(pack, games, players, seed, bots, workers):
    game = game_of(pack)
    out = io.StringIO()
    simulate(SimConfig(pack, games, players, seed, workers, bots), game=game, records=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    expected = listed.record_rows(listed.simulate_listed(game, SimConfig(pack, games, players, seed, 1, bots)))
    assert rows == [[str(x) for x in row] for row in expected]


class Watched(io.StringIO):
    """A records file that notes how many rows it held at each write."""

    def __init__(self):
        super().__init__()
        self.rows_at_write: list[int] = []

    def write(self, text: str) -> int:
        n = super().write(text)
        self.rows_at_write.append(self.getvalue().count("\n"))
        return n


@pytest.mark.parametrize("workers", [1, 2])
def test_records_are_written_as_each_game_finishes(workers):
    """The header, then one write a game (its players' rows), in game order."""
    out = Watched()
    summary = simulate(SimConfig(MINIMAL, 9, 3, 0, workers), records=out)
    assert out.rows_at_write == [1 + 3 * g for g in range(10)]
    rows = list(csv.reader(io.StringIO(out.getvalue())))[1:]
    assert [int(row[0]) for row in rows[::3]] == list(range(9)) and summary.games == 9


def test_a_games_rows_are_written_before_the_next_game_is_played(monkeypatch):
    """Streamed, not kept: when game i starts, games 0..i-1 are in the file already."""
    import meeple.workbench.simulate as simulate_module
    real, out, seen = simulate_module.run_one, Watched(), []

    def run_one(game, cfg, i):
        seen.append((i, out.getvalue().count("\n")))
        return real(game, cfg, i)
    monkeypatch.setattr(simulate_module, "run_one", run_one)
    simulate(SimConfig(MINIMAL, 6, 2, 0, 1), records=out)
    assert seen == [(i, 1 + 2 * i) for i in range(6)]


# ---------------------------------------------------------------- uses, read from the log
@pytest.mark.parametrize("pack, players", [("citadels", 4), ("troyes", 3), ("signorie", 2), (USAGE, 2)])
def test_uses_read_from_the_log_are_those_the_choice_hook_told(pack, players):
    """The cards each player used, read from the finished game's log, are those the old
    hook told of choice by choice (with its undoing of refused choices)."""
    game = game_of(pack)
    tables = card_tables(game)
    for seed in range(6):
        recorder = listed.UseRecorder(game)
        st = play(game, players, seed, make_agents("random", players, seed, game), track=True, on_choice=recorder.hook)
        told = [p * tables.ndefs + game.card_def_index[c] for p, c in recorder.uses()]
        assert list(tables.used(st._log)) == told


# ---------------------------------------------------------------- memory, flat
def reachable(root) -> int:
    """How many objects ``root`` holds, however deep (what it keeps alive). The program
    is not counted: classes, functions, modules and their globals, through which the walk
    would reach the whole process (150,000 objects and more, whatever else the suite's
    earlier tests left in it, instead of the summary's hundred)."""
    program = {id(m.__dict__) for m in list(sys.modules.values()) if m is not None}
    seen, todo = set(), [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in program or isinstance(obj, (type, types.ModuleType, types.FunctionType)):
            continue
        seen.add(id(obj))
        todo.extend(gc.get_referents(obj))
    return len(seen)


def test_a_summary_holds_no_more_objects_after_more_games():
    """A run's summary holds what the pack has (cards, distinct scores), not what its
    games were: 200 games leave it no larger than 50 (every game's record would add
    150 objects and more). The game-shape metrics add their length histograms, bounded
    by the distinct lengths: at most a key and a count for each length the 150 more
    games met first."""
    game = load_game(MINIMAL)
    sizes = [reachable(simulate(SimConfig(MINIMAL, n, 2, 4, metrics=False), game=game).tally) for n in (50, 200)]
    assert sizes[1] - sizes[0] <= 10, sizes
    tallies = [simulate(SimConfig(MINIMAL, n, 2, 4), game=game).tally for n in (50, 200)]
    sizes = [reachable(t) for t in tallies]
    lengths = [len(t.shape.rounds) + len(t.shape.decisions) for t in tallies]
    assert lengths[1] > lengths[0] and sizes[1] - sizes[0] <= 10 + 2 * (lengths[1] - lengths[0]), (sizes, lengths)


def test_the_memory_of_a_run_does_not_grow_with_its_games():
    """tracemalloc over a whole run of 50 and of 200 games (the pack loaded before):
    what the run leaves behind (after a collection) is within 4 KB, its peak within
    256 KB (CPython's free lists of small tuples fill up to their cap as games come and
    go); the lists of records grew by about 2 KB a game here, 300 KB and more."""
    game = load_game(MINIMAL)
    simulate(SimConfig(MINIMAL, 5, 2), game=game)       # the one-off tables and caches
    kept, peaks = [], []
    for n in (50, 200):
        gc.collect()
        tracemalloc.start()
        summary = simulate(SimConfig(MINIMAL, n, 2, 1), game=game)
        summary.to_dict()
        peaks.append(tracemalloc.get_traced_memory()[1])
        gc.collect()
        kept.append(tracemalloc.get_traced_memory()[0])
        tracemalloc.stop()
        del summary
    assert kept[1] - kept[0] < 4 * 1024, kept
    assert peaks[1] - peaks[0] < 256 * 1024, peaks


# ---------------------------------------------------------------- the interval, exact
@pytest.mark.parametrize("values, scale", [
    ([3, 7, 7, 12, 0, 5], 1),
    ([15] * 9 + [16], 1),                        # most values alike: floats' two passes lose digits here
    ([10 ** 9 + k % 7 for k in range(40)], 1),   # a large mean, a small spread
    ([-4, 2, 0, -1], 1),
    ([20, 0, 10, 0, 0, 60, 15], 60),             # win shares in 1/60: 1/3, 0, 1/6, ...
    ([5], 1),
    ([], 1),
])
def test_the_interval_is_the_exact_one_correctly_rounded(values, scale):
    series = Series()
    for v in values:
        series.add(v)
    n = len(values)
    total = sum(Fraction(v, scale) for v in values)
    m, lo, hi = normal_interval(n, sum(v / scale for v in values), series.s, series.q, scale)
    if n < 2:
        assert (m, lo, hi) == ((float(total / n),) * 3 if n else (0.0, 0.0, 0.0))
        return
    mean = total / n
    var = sum((Fraction(v, scale) - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(float(var) / n)
    assert (lo, hi) == (m - half, m + half)
    # and the lists' two-pass float variance was within a few units of the last place of it
    floats = [v / scale for v in values]
    fm = sum(floats) / n
    two_pass = sum((v - fm) ** 2 for v in floats) / (n - 1)
    assert math.isclose(two_pass, float(var), rel_tol=1e-12, abs_tol=1e-300)


def test_a_paired_difference_in_win_shares_is_exact():
    """Win shares of 1/3 and 1/2 paired: the difference's variance from whole units of
    1/6, the means added as floats in game order."""
    paired = Paired("x", "win share", 6)
    pairs = [(1 / 3, 1 / 2), (0.0, 1.0), (1.0, 0.0), (1 / 3, 1 / 3)]
    for b, v in pairs:
        paired.add(b, v, round(6 * v) - round(6 * b))
    d = paired.to_dict()
    diffs = [Fraction(round(6 * v) - round(6 * b), 6) for b, v in pairs]
    mean = sum(diffs) / 4
    half = 1.96 * math.sqrt(float(sum((x - mean) ** 2 for x in diffs) / 3) / 4)
    assert d["difference"] == sum(v - b for b, v in pairs) / 4
    assert d["ci"] == [d["difference"] - half, d["difference"] + half]
    assert d["base"] == sum(b for b, _ in pairs) / 4 and d["variant"] == sum(v for _, v in pairs) / 4


# ---------------------------------------------------------------- Ctrl-C while a game is folded in
@pytest.mark.skipif(not hasattr(signal, "raise_signal"), reason="signal.raise_signal: Python 3.8+")
def test_a_signal_while_a_game_is_folded_in_waits_until_it_is():
    """Ctrl-C in the middle of folding a game in: the game is folded in whole, then the
    KeyboardInterrupt comes (a half-folded game would leave figures that disagree).
    Python's own Ctrl-C handler is set for the test: a suite started in the background
    by a shell (``pytest &``) begins with SIGINT ignored, and an ignored signal waits
    for nothing."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    folding = _Folding().install()
    steps = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with folding:
                steps.append("first half")
                signal.raise_signal(signal.SIGINT)
                steps.append("second half")
        with pytest.raises(KeyboardInterrupt):      # outside a fold, at once
            signal.raise_signal(signal.SIGINT)
    finally:
        folding.uninstall()
        uninstalled = signal.getsignal(signal.SIGINT)
        signal.signal(signal.SIGINT, previous)
    assert steps == ["first half", "second half"]
    assert uninstalled is signal.default_int_handler


def test_a_worker_ends_at_the_sigterm_that_stops_it(monkeypatch):
    """A Python SIGTERM handler of the parent's (Ray's driver sets one) is not a worker's:
    a worker is born with the default, so Pool.terminate()'s SIGTERM ends it even before
    it is set up (a caught one can be lost then, and the worker waits for ever on the
    task queue); the parent keeps its own handler."""
    import meeple.workbench.simulate as simulate_module
    real = simulate_module.run_one

    def run_one(game, cfg, i):       # played in a worker: tell what its SIGTERM does
        return real(game, cfg, i)._replace(rounds=signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)
    monkeypatch.setattr(simulate_module, "run_one", run_one)

    def parents(signum, frame):
        raise SystemExit(signum)
    previous = signal.signal(signal.SIGTERM, parents)
    try:
        outcomes = list(simulate_module.run(SimConfig(MINIMAL, 6, 2, 0, 2)))
        assert signal.getsignal(signal.SIGTERM) is parents
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert [o.rounds for o in outcomes] == [True] * 6


def test_an_interrupted_run_has_the_figures_of_its_first_games(monkeypatch):
    """Ctrl-C at game 7 of 20: the figures of games 0-6, as a run of 7 gives them."""
    import meeple.workbench.simulate as simulate_module
    real = simulate_module.run_one

    def run_one(game, cfg, i):
        if i == 7:
            raise KeyboardInterrupt
        return real(game, cfg, i)
    monkeypatch.setattr(simulate_module, "run_one", run_one)
    cut = simulate(SimConfig("citadels", 20, 4, 3))
    monkeypatch.undo()
    whole = simulate(SimConfig("citadels", 7, 4, 3))
    assert cut.interrupted and cut.games == 7
    d = cut.to_dict()
    assert d.pop("interrupted") is True and d.pop("games_requested") == 20
    same_figures(d, whole.to_dict())


def test_compare_pairs_the_games_as_they_finish(monkeypatch):
    """compare plays base and variant side by side: Ctrl-C in the base's game 5 leaves
    the 5 pairs both sides finished (the variant's game 5 is not played yet or dropped)."""
    import meeple.workbench.simulate as simulate_module
    real = simulate_module.run_one

    def run_one(game, cfg, i):
        if i == 5 and not cfg.sets:
            raise KeyboardInterrupt
        return real(game, cfg, i)
    monkeypatch.setattr(simulate_module, "run_one", run_one)
    c = compare(SimConfig("citadels", 12, 4, 2, 1), SimConfig("citadels", 12, 4, 2, 1, sets=("temple.cost=3",)))
    assert c["interrupted"] and c["games"] == 5
    assert [s["games"] for s in c["summaries"]] == [5, 5]


# ---------------------------------------------------------------- the benchmark of simulate against the bare loop
def test_the_overhead_benchmark_prints_both_rates_for_the_same_games(capsys):
    """benchmarks/simulate_overhead.py: both sides play the same games (the same
    decisions, or it stops with 1), and it prints both rates side by side."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("simulate_overhead", REPO / "benchmarks" / "simulate_overhead.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["citadels", "--players", "3", "--games", "3", "--rounds", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["round", "bare", "games/s", "simulate", "games/s", "simulate/bare"]
    assert [line.split()[0] for line in out[2:5]] == ["1", "2", "best"]
    assert out[5].startswith("median of the rounds' ratios: ") and "the same games on both sides" in out[5]
    game = game_of("citadels")
    assert bench.bare(game, 3, 0, 3) == bench.simulated(game, "citadels", 3, 0, 3) > 0
    for side in ("bare", "simulate"):          # one side once, for valgrind to count (simulate_overhead.sh)
        assert bench.main(["citadels", "--players", "3", "--games", "3", "--side", side]) == 0
        assert capsys.readouterr().out == f"{bench.bare(game, 3, 0, 3)} decisions\n"
