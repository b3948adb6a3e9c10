"""The game-shape metrics (engine/workbench/metrics.py, docs/workbench.md#game-shape):
each on scripted games against values counted by hand, the same positions judged
whichever way a game is played, a run's figures folded from its games', compare's
paired differences, and nothing measured (nor changed) when they are off."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import main
from meeple.cli.group import ExitCode
from meeple.play.agents import make_agents
from meeple.play.session import play
from meeple.runtime.game import load_game
from meeple.workbench.compare import FloatPaired, compare
from meeple.workbench.metrics import GameShape, Probe, ShapeTally, game_shape
from meeple.workbench.simulate import SimConfig, _evaluator, simulate

REPO = Path(__file__).resolve().parent.parent
MINIMAL = str(REPO / "tests" / "content" / "valid" / "minimal")
USAGE = str(REPO / "tests" / "packs" / "usage")
RICH = str(REPO / "tests" / "content" / "valid" / "rich-merchant")


class Script:
    """Chooses the option keys it is given, in order (it needs the keys: ``play`` asks it
    choice by choice)."""

    needs_view = False

    def __init__(self, keys: list[str]):
        self.keys = list(keys)

    def choose(self, view, options) -> int:
        return [o[0] for o in options].index(self.keys.pop(0))


# The minimal pack (tests/content/valid/minimal): a deck of 6 coins (3 copper worth 1 gold,
# 2 silver worth 2, a crown worth 1 + its bonus 1 + its 'taken' trigger 1 = 3, and 1 more
# at the end for its holder); each round P1 then P2 take a coin (one option per coin in
# the deck) or pass; the game ends with the round that empties the deck. Its score is
# gold and it has no evaluation, so a position is judged by gold.
CLOSE = (["take:crown", "pass", "take:copper", "take:copper"], ["take:silver", "take:silver", "take:copper", "pass"])
# gold at each round's first decision: [0, 0], [3, 2] (crown; silver), [3, 4] (pass; silver),
# [4, 5] (copper; copper); round 4: P1 takes the last copper (5), P2 can only pass; the
# crown's 1 at the end: 6 to 5, P1 wins.
# menus: round 1 6 coins + pass = 7, then 6; round 2 4 + 1 = 5, 5; round 3 3 + 1, 2 + 1;
# round 4 1 + 1 = 2, and 1 (pass alone: forced). 33 options over 8 decisions, largest 7.
# leaders: {P1, P2}, {P1}, {P2}, {P2}: 2 changes. P1's gap behind the leader: 0, 0, 1, 1:
# drama 2 / 4 = 0.5, at most 1. P2's best is 5, which P1 never passes while judged:
# decided at 1 (never). Margin 6 - 5 = 1.
CLOSE_SHAPE = GameShape(decisions=8, options=33, largest=7, forced=1, lead_changes=2, drama=0.5, drama_max=1.0,
                        decided=1.0, margin=1)
RUNAWAY = (["take:crown", "take:silver", "take:silver", "take:copper"], ["pass", "pass", "take:copper", "take:copper"])
# gold judged: [0, 0], [3, 0], [5, 0], [7, 1]; round 4: P1 8, P2 2 (the last copper); the crown: 9 to 2.
# menus: 7, 6 (P2 passed, 5 coins + pass); 6, 5; 5, 4; 3, 2: 38 over 8, none forced.
# leaders {P1, P2}, then P1 throughout: 1 change; P1 never behind: drama 0. P2's best is 1;
# P1 is above it from the 2nd position of 4: decided at 1 / 4. Margin 9 - 2 = 7.
RUNAWAY_SHAPE = GameShape(decisions=8, options=38, largest=7, forced=0, lead_changes=1, drama=0.0, drama_max=0.0,
                          decided=0.25, margin=7)


def scripted(script, evaluation: str = "") -> tuple[Probe, GameShape, object]:
    game = load_game(MINIMAL)
    probe = Probe(_evaluator(game, evaluation).every)
    st = play(game, 2, 1, [Script(keys) for keys in script], on_round=probe.see)
    return probe, probe.shape(st._log, st.scores, game.winners(st)), st


@pytest.mark.parametrize("script, judged, shape", [
    (CLOSE, [[0, 0], [3, 2], [3, 4], [4, 5]], CLOSE_SHAPE),
    (RUNAWAY, [[0, 0], [3, 0], [5, 0], [7, 1]], RUNAWAY_SHAPE),
])
def test_a_scripted_game_has_the_shape_counted_by_hand(script, judged, shape):
    probe, got, st = scripted(script)
    assert st.round == 4 and probe.judged == judged
    assert got == shape
    assert got.branching == shape.options / 8 and got.forced_share == shape.forced / 8


def test_positions_are_judged_by_the_evaluation_given():
    """``--eval`` judges the positions instead of the pack's evaluation (here: the score):
    ten times the gold, ten times the drama; the rest is counted on the same positions."""
    _, got, _ = scripted(CLOSE, "gold * 10")
    assert got == CLOSE_SHAPE._replace(drama=5.0, drama_max=10.0)


@pytest.mark.parametrize("judged, scores, winners, expected", [
    # two winners (P1 and P3): a position's drama is their mean gap behind the leader
    ([[5, 5, 1], [2, 6, 6]], [10, 8, 10], [0, 2],
     dict(lead_changes=1, drama=2.0, drama_max=2.0, decided=1.0, margin=2)),
    # everyone won: no one's best to pass (decided from the first position), no margin
    ([[1, 2], [3, 3]], [4, 4], [0, 1], dict(lead_changes=1, drama=0.25, drama_max=0.5, decided=0.0, margin=0)),
    # no position judged (a game without rounds): no change, no drama, never decided
    ([], [3, 1], [0], dict(lead_changes=0, drama=0.0, drama_max=0.0, decided=1.0, margin=2)),
    # the winner behind all along, ahead only at the end (not judged): most drama, decided never
    ([[0, 4], [1, 6], [2, 9]], [12, 10], [0], dict(lead_changes=0, drama=16 / 3, drama_max=7.0, decided=1.0, margin=2)),
    # a lead passes back and forth: each change counts
    ([[1, 0], [0, 1], [1, 0], [2, 0]], [3, 0], [0], dict(lead_changes=2, drama=1 / 4, drama_max=1.0, decided=0.75, margin=3)),
])
def test_the_shape_of_judged_positions(judged, scores, winners, expected):
    got = game_shape([3, 1, 2], judged, scores, winners)
    assert (got.decisions, got.options, got.largest, got.forced) == (3, 6, 3, 1)
    assert {k: getattr(got, k) for k in expected} == pytest.approx(expected)


class Counting:
    """A random agent asked choice by choice (``play``'s slower way): the same draws."""

    needs_view = False
    needs_labels = True

    def __init__(self, agent):
        self.agent = agent

    def choose(self, view, options) -> int:
        return self.agent.choose(view, options)


@pytest.mark.parametrize("pack, players, seed", [("citadels", 4, 3), ("troyes", 3, 1), ("signorie", 4, 2),
                                                 (USAGE, 2, 0)])
def test_the_same_positions_are_judged_whichever_way_the_game_is_played(pack, players, seed):
    """Random agents play by ``Game.play_out`` (``on_round`` told from the chooser), the
    same agents asked choice by choice play through ``apply`` (told before the decision);
    both judge the positions an ``on_decision`` hook sees at each round's first decision.
    (The usage pack can refuse a choice: always played choice by choice.)"""
    game = load_game(pack)
    every = _evaluator(game, "").every
    seen: list = []
    last = [0]

    def watch(st) -> None:
        if st.round > last[0]:
            last[0] = st.round
            seen.append(list(every(st)))
    oracle = play(game, players, seed, make_agents("random", players, seed, game), on_decision=watch)
    shapes = []
    for wrap in (lambda a: a, Counting):
        probe = Probe(every)
        st = play(game, players, seed, [wrap(a) for a in make_agents("random", players, seed, game)], on_round=probe.see)
        assert st.scores == oracle.scores and probe.judged == seen and len(seen) >= 2
        shapes.append(probe.shape(st._log, st.scores, game.winners(st)))
    assert shapes[0] == shapes[1]


def test_a_runs_figures_fold_its_games_shapes():
    """The two scripted games (4 rounds each) folded: means over the games, the lengths'
    histograms, the intervals from the games' spread; the first seat (P1, who won both)
    and the balance from the seats' wins."""
    tally = ShapeTally()
    for shape in (CLOSE_SHAPE, RUNAWAY_SHAPE):
        tally.add(4, shape)
    d = tally.to_dict(2, 2, [2, 0], 2, "the score")
    assert d["rounds"] == {"mean": 4.0, "ci": [4.0, 4.0], "sd": 0.0, "min": 4, "max": 4, "histogram": {"4": 2}}
    assert d["decisions"]["histogram"] == {"8": 2}
    assert d["branching"]["mean"] == pytest.approx((33 / 8 + 38 / 8) / 2)
    assert d["forced_share"]["mean"] == pytest.approx(1 / 16)
    assert d["largest_menu"] == {"mean": 7.0, "ci": [7.0, 7.0], "max": 7}
    assert d["lead_changes"]["mean"] == 1.5 and d["drama"]["mean"] == 0.25 and d["drama_max"]["mean"] == 0.5
    assert d["decided_at"]["mean"] == 0.625
    # margins 1 and 7: mean 4, sample standard deviation sqrt(18), half-width 1.96 * sqrt(18 / 2)
    assert d["margin"]["mean"] == 4 and d["margin"]["ci"] == pytest.approx([4 - 1.96 * 3, 4 + 1.96 * 3])
    assert d["first_seat"]["win_rate"] == 1.0 and d["first_seat"]["advantage"] == 0.5
    assert d["balance"] == 0.0                     # one seat won all, the other none


def test_a_length_spread_and_histogram():
    tally = ShapeTally()
    for rounds in (3, 4, 4, 5):
        tally.add(rounds, CLOSE_SHAPE)
    r = tally.to_dict(2, 0, [0, 0], 4, "")["rounds"]
    assert (r["mean"], r["min"], r["max"], r["histogram"]) == (4.0, 3, 5, {"3": 1, "4": 2, "5": 1})
    assert r["sd"] == pytest.approx(math.sqrt(2 / 3))


def test_metrics_off_measure_nothing_and_change_no_figure():
    game = load_game("citadels")
    on, off = (simulate(SimConfig("citadels", 12, 4, 2, metrics=m), game=game) for m in (True, False))
    assert off.tally.shape is None and "shape" not in off.to_dict()
    don, doff = on.to_dict(), off.to_dict()
    assert don.pop("shape")["rounds"]["mean"] == doff["mean_rounds"]
    for d in (don, doff):
        del d["seconds"], d["games_per_second"]
    assert don == doff


def test_the_same_shapes_on_any_number_of_workers():
    game = load_game("troyes")
    one, two = (simulate(SimConfig("troyes", 10, 3, 4, workers=k), game=game).to_dict()["shape"] for k in (1, 2))
    assert one == two


def test_a_paired_difference_of_fractions():
    """Pairs (1, 2), (2, 2.5), (0.5, 0.5): differences 1, 0.5, 0; mean 0.5, sample
    standard deviation 0.5, half-width 1.96 * 0.5 / sqrt(3). The same difference in every
    pair has an interval of width 0, not called significant (as ``Paired`` does)."""
    m = FloatPaired("x", "share")
    for b, v in ((1, 2), (2, 2.5), (0.5, 0.5)):
        m.add(b, v)
    d = m.to_dict()
    half = 1.96 * 0.5 / math.sqrt(3)
    assert (d["base"], d["variant"], d["difference"]) == pytest.approx((3.5 / 3, 5 / 3, 0.5))
    assert d["ci"] == pytest.approx([0.5 - half, 0.5 + half]) and d["paired"]
    assert not d["significant"]                     # the interval, [-0.07, 1.07], holds 0
    same = FloatPaired("y", "share")
    for b in (0.25, 0.5, 1.0):
        same.add(b, b + 0.5)
    assert same.to_dict()["ci"] == pytest.approx([0.5, 0.5]) and same.to_dict()["significant"] is False


def test_compare_pairs_the_game_shapes():
    """The same pack on both sides differs in nothing; a merchant taking 6 gold
    (tests/content/valid/rich-merchant) ends games sooner: fewer decisions a game."""
    same = compare(SimConfig("citadels", 30, 4, 1), SimConfig("citadels", 30, 4, 1))
    shape = [m for m in same["metrics"] if m["unit"] in ("decisions", "options", "share", "lead changes", "evaluation")]
    assert len(shape) == 8 and all(m["difference"] == 0 and not m["significant"] for m in shape)
    assert any(m["metric"] == "winning margin" for m in same["metrics"])
    rich = compare(SimConfig("citadels", 60, 4, 1), SimConfig(RICH, 60, 4, 1))
    decisions = next(m for m in rich["metrics"] if m["metric"] == "decisions a game")
    assert decisions["ci"][1] < 0
    assert "shape" in rich["summaries"][0] and "shape" in rich["summaries"][1]
    off = compare(SimConfig("citadels", 5, 4, 1, metrics=False), SimConfig(RICH, 5, 4, 1, metrics=False))
    assert not any(m["metric"] == "decisions a game" for m in off["metrics"]) and "shape" not in off["summaries"][0]


def test_the_cli_measures_by_default_and_not_with_no_metrics():
    def run(*args):
        r = CliRunner().invoke(main, ["simulate", "citadels", "-n", "6", "-p", "3", "--workers", "1", *args])
        assert r.exit_code == 0, r.output
        return r.output
    assert "shape" not in json.loads(run("--format", "json", "--no-metrics"))
    shape = json.loads(run("--format", "json"))["shape"]
    assert shape["evaluation"] == "the pack's score: evaluation" and shape["decisions"]["min"] > 0
    text = run()
    assert "game shape (positions judged by the pack's score: evaluation, once a round):" in text
    assert "lead changes" in text and "decided at" in text and "winning margin" in text


def test_the_cost_benchmark_plays_the_same_games_on_both_sides(capsys):
    """benchmarks/metrics_overhead.py: the metrics on and off play the same games (the
    same decisions and scores, or it stops with 1), and it prints both times side by side."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("metrics_overhead", REPO / "benchmarks" / "metrics_overhead.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["citadels", "--players", "3", "--games", "3", "--rounds", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["round", "off", "s", "on", "s", "on/off"]
    assert [line.split()[0] for line in out[2:5]] == ["1", "2", "best"]
    assert out[5].startswith("median of the rounds' ratios: ") and "the same games on both sides" in out[5]
    for side in ("on", "off"):          # one side once, for valgrind to count (metrics_overhead.sh)
        assert bench.main(["citadels", "--players", "3", "--games", "3", "--side", side]) == 0
        assert capsys.readouterr().out.endswith(" decisions\n")


def test_an_evaluation_that_breaks_stops_a_measured_run_whichever_way_it_plays():
    """The metrics judge positions with the evaluation even when no bot does (random
    bots): a fault in it stops the run as a bot's would, told the game's seed, whether
    the game is played by ``Game.play_out`` (random) or choice by choice (greedy), and
    the same first line either way. Without the metrics, random bots never evaluate."""
    def run(*args):
        r = CliRunner().invoke(main, ["simulate", MINIMAL, "-n", "2", "-p", "2", "--workers", "1",
                                      "--eval", "gold / (size(hand) - size(hand))", *args])
        assert r.exception is None or isinstance(r.exception, SystemExit)
        return r
    firsts = []
    for bots in ("random", "greedy"):
        r = run("--bots", bots)
        assert r.exit_code == ExitCode.CONTENT_INVALID, r.output
        firsts.append(r.stderr.splitlines()[0])
        # 'play' reproduces a greedy bot's fault, not the metrics' judging under random bots: the hint says so then
        assert ("the fault came as the game-shape metrics judged a position with the evaluation" in r.stderr) == (bots == "random")
    assert firsts[0] == firsts[1] and firsts[0].startswith("--eval:1:1: error: ") and "division by zero" in firsts[0]
    assert "(game seed 0, " in firsts[0]
    assert run("--bots", "random", "--no-metrics").exit_code == 0
