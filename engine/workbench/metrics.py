"""Game-shape metrics: how long a game runs, how wide its menus are, how often a player
has no real choice, whether the lead changes hands, how far behind the eventual winner
was, and how early the game was decided.

They follow the metrics of the Ludii general game system (its ``Evaluation`` module,
https://github.com/Ludeme/Ludii, classes ``DurationTurns``, ``BranchingFactor``,
``DecisionMoves``, ``AdvantageP1``, ``Balance``, ``LeadChange``, ``Drama``,
``DecisivenessThreshold`` and ``DecisivenessMoves``), themselves after Cameron Browne's
aesthetic measures (*Automatic Generation and Evaluation of Recombination Games*, PhD
thesis, Queensland University of Technology, 2008); docs/workbench.md defines each.

Two departures, both for cost and both documented there:

- Ludii judges a position with a short UCT search; here a position is judged by the
  pack's ``score: evaluation`` (``--eval`` when given, else the score), the expression
  the bots use, so figures are in the evaluation's points.
- Ludii judges the position before every move; here the position is judged once a
  round, at the round's first decision. Every decision would cost about a quarter of a
  random game (measured for issue 23 in a shipped game: 2.7 us for four players'
  evaluations against 11 us a decision); once a round costs about 1%. At a round's start every
  player has had as many turns as the others, so the leader is not merely whoever moved
  last. The setup (round 0) is not judged, as Ludii leaves out a game's placement moves.

A game's figures are numbers (``GameShape``) made where the game was played, from the
positions judged and the game's log (each choice with its decision, so its menu); a
run folds them in as games finish (``ShapeTally``), keeping sums and histograms
bounded by the distinct lengths, never a list of games.
"""
from __future__ import annotations

import math
from operator import attrgetter, itemgetter, ne, sub
from typing import Callable, NamedTuple, Sequence

from meeple.workbench.tally import Series, normal_interval, wilson

SAMPLING = "the evaluation of every player at each round's first decision (the setup left out)"


class GameShape(NamedTuple):
    """One game's shape, as numbers (cheap to send back from a worker)."""
    decisions: int              # choices that stood
    options: int                # the options of their menus, added up
    largest: int                # the largest menu
    forced: int                 # decisions with one option
    lead_changes: int           # judged positions whose leaders differ from the last one's
    drama: float                # the winners' mean gap behind the leader, over the positions judged
    drama_max: float            # the largest such gap
    decided: float              # the share of the positions judged before a winner stood above every loser's best
    margin: int                 # the lowest winner's score minus the best loser's (0 if all won)

    @property
    def branching(self) -> float:
        return self.options / self.decisions if self.decisions else 0.0

    @property
    def forced_share(self) -> float:
        return self.forced / self.decisions if self.decisions else 0.0


def game_shape(menus: list[int], judged: Sequence[Sequence[float]], scores: Sequence[int],
               winners: Sequence[int]) -> GameShape:
    """A game's shape from its menus' sizes (one per decision that stood, in order), the
    positions judged (each a value per player, in order) and its end.

    - leaders of a position: the players with its highest value; a lead change is a
      position whose leaders are not the previous position's (the first sets them);
    - drama of a position: the highest value minus each winner's, averaged over the
      winners (0 when the winners lead); the game's drama is its mean over the
      positions, ``drama_max`` its largest;
    - the decisiveness threshold: the highest value any non-winner reached in any
      position; ``decided``: the index of the first position where a winner's value is
      above it, over the number of positions (1 when none is, as when none was judged).
    """
    n = len(judged)
    losers = [p for p in range(len(scores)) if p not in winners]
    margin = min(scores[p] for p in winners) - max(scores[p] for p in losers) if losers and winners else 0
    shape = GameShape(len(menus), sum(menus), max(menus, default=0), menus.count(1), 0, 0.0, 0.0, 1.0, margin)
    if not n or not winners:
        return shape
    # a few dozen positions a game, once for every game of a run: by columns, in builtins
    tops = list(map(max, judged))
    leaders = [v.index(t) if v.count(t) == 1 else tuple(p for p, x in enumerate(v) if x == t)
               for v, t in zip(judged, tops)]
    leads = sum(map(ne, leaders, leaders[1:]))
    columns = list(zip(*judged))
    if len(winners) == 1:
        ahead = columns[winners[0]]
        gaps = list(map(sub, tops, ahead))
    else:               # the winners' mean gap; a winner's best value is what passes the threshold
        ahead = list(map(max, zip(*(columns[p] for p in winners))))
        gaps = [t - sum(v[p] for p in winners) / len(winners) for v, t in zip(judged, tops)]
    threshold = max(max(columns[p]) for p in losers) if losers else -math.inf
    decided = next((i / n for i, v in enumerate(ahead) if v > threshold), 1.0)
    return shape._replace(lead_changes=leads, drama=sum(gaps) / n, drama_max=max(gaps), decided=decided)


class Probe:
    """Judges a game's positions as it is played: every player's value at the first
    decision of each round (``SAMPLING``), told by ``meeple.play.session.play``'s
    ``on_round`` (``see``)."""

    __slots__ = ("every", "judged", "judging")

    def __init__(self, every: Callable) -> None:
        self.every = every          # the evaluation's every(st): each player's value
        self.judged: list[list[float]] = []
        self.judging = False        # left True when the evaluation faulted (a run says where the fault came from)

    def see(self, st) -> None:
        budget = st.budget              # the rules' steps are theirs: an evaluation has a budget of its own
        self.judging = True
        self.judged.append(self.every(st))      # a new list each time
        self.judging = False
        st.budget = budget

    def shape(self, log: list, scores: list, winners: list) -> GameShape:
        """The game's shape at its end. ``log``: the state's log as the game left it
        (``st._log``: each choice with its decision, so its menu)."""
        menus = list(map(len, map(_VALUES, map(_DECISION, log))))        # no Python loop: a game has hundreds
        return game_shape(menus, self.judged, scores, winners)


_DECISION, _VALUES = itemgetter(2), attrgetter("values")


# ---------------------------------------------------------------- a run's figures
class Moments:
    """Floats folded in one at a time (Welford's running mean and sum of squared
    deviations, in game order, so a run gives the same figures whatever its workers)."""

    __slots__ = ("n", "mean", "m2")

    def __init__(self) -> None:
        self.n = 0
        self.mean = self.m2 = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        d = x - self.mean
        self.mean += d / self.n
        self.m2 += d * (x - self.mean)

    def interval(self, z: float = 1.96) -> tuple[float, float, float]:
        if self.n < 2:
            return (self.mean, self.mean, self.mean)
        half = z * math.sqrt(self.m2 / (self.n - 1) / self.n)
        return (self.mean, self.mean - half, self.mean + half)


def _entry(interval: tuple[float, float, float]) -> dict:
    m, lo, hi = interval
    return {"mean": m, "ci": [lo, hi]}


def _length(hist: dict[int, int]) -> dict:
    """Mean, standard deviation, range and histogram of whole numbers counted in ``hist``
    (exact integer sums, one rounding)."""
    n = sum(hist.values())
    s = sum(k * c for k, c in hist.items())
    q = sum(k * k * c for k, c in hist.items())
    m, lo, hi = normal_interval(n, s, s, q)
    sd = math.sqrt((n * q - s * s) / (n * (n - 1))) if n > 1 else 0.0
    return {"mean": m, "ci": [lo, hi], "sd": sd, "min": min(hist, default=0), "max": max(hist, default=0),
            "histogram": {str(k): hist[k] for k in sorted(hist)}}


class ShapeTally:
    """A run's game-shape figures, folded in game by game: histograms of the lengths
    (bounded by the distinct lengths) and a running sum per figure."""

    def __init__(self) -> None:
        self.rounds: dict[int, int] = {}
        self.decisions: dict[int, int] = {}
        self.branching, self.forced, self.drama, self.drama_max, self.decided = (Moments() for _ in range(5))
        self.largest, self.leads, self.margin = Series(), Series(), Series()
        self.largest_of_run = 0

    def add(self, rounds: int, g: GameShape) -> None:
        self.rounds[rounds] = self.rounds.get(rounds, 0) + 1
        self.decisions[g.decisions] = self.decisions.get(g.decisions, 0) + 1
        self.branching.add(g.branching)
        self.forced.add(g.forced_share)
        self.largest.add(g.largest)
        self.largest_of_run = max(self.largest_of_run, g.largest)
        self.leads.add(g.lead_changes)
        self.drama.add(g.drama)
        self.drama_max.add(g.drama_max)
        self.decided.add(g.decided)
        self.margin.add(g.margin)

    def to_dict(self, players: int, first_wins: float, wins: list, n: int, evaluation: str) -> dict:
        """The figures; ``first_wins`` and ``wins`` (win shares of the first chooser and of
        each seat, over ``n`` games) give the first seat's advantage and the balance."""
        fair = 1 / players
        lo, hi = wilson(first_wins, n)
        rates = [w / n if n else 0.0 for w in wins]
        largest = _entry(self.largest.interval())
        largest["max"] = self.largest_of_run
        return {
            "evaluation": evaluation, "sampling": SAMPLING,
            "rounds": _length(self.rounds), "decisions": _length(self.decisions),
            "branching": _entry(self.branching.interval()), "largest_menu": largest,
            "forced_share": _entry(self.forced.interval()),
            "first_seat": {"win_rate": first_wins / n if n else 0.0, "fair": fair,
                           "advantage": (first_wins / n if n else 0.0) - fair, "ci": [lo - fair, hi - fair]},
            "balance": 1 - (max(rates) - min(rates)) if rates else 1.0,
            "lead_changes": _entry(self.leads.interval()),
            "drama": _entry(self.drama.interval()), "drama_max": _entry(self.drama_max.interval()),
            "decided_at": _entry(self.decided.interval()),
            "margin": _entry(self.margin.interval()),
        }


def evaluation_name(text: str, has_evaluation: bool) -> str:
    """What judged the positions, in words."""
    if text:
        return f"--eval {text}"
    return "the pack's score: evaluation" if has_evaluation else "the score (the pack has no evaluation)"


# ---------------------------------------------------------------- text
def _histogram(hist: dict[str, int], bins: int = 8) -> str:
    """A histogram on one line: each value's share of the games, or, for more than
    ``bins`` distinct values, the shares of ``bins`` equal ranges."""
    counts = {int(k): v for k, v in hist.items()}
    n = sum(counts.values()) or 1
    if len(counts) <= bins:
        return ", ".join(f"{k}: {100 * v / n:.1f}%" for k, v in sorted(counts.items()))
    lo, hi = min(counts), max(counts)
    width = -(-(hi - lo + 1) // bins)
    ranges: dict[int, int] = {}
    for k, v in counts.items():
        start = lo + (k - lo) // width * width
        ranges[start] = ranges.get(start, 0) + v
    return ", ".join(f"{k if min(hi, k + width - 1) == k else f'{k}-{min(hi, k + width - 1)}'}: {100 * v / n:.1f}%"
                     for k, v in sorted(ranges.items()))


def format_shape(d: dict) -> list[str]:
    """The game-shape lines of simulate's text output."""
    def ci(e: dict, fmt: str = ".2f") -> str:
        return f"{e['mean']:{fmt}} [{e['ci'][0]:{fmt}}, {e['ci'][1]:{fmt}}]"

    def pct(e: dict) -> str:
        return f"{100 * e['mean']:.1f}% [{100 * e['ci'][0]:.1f}%, {100 * e['ci'][1]:.1f}%]"
    r, dec, fs = d["rounds"], d["decisions"], d["first_seat"]
    return [
        "", f"game shape (positions judged by {d['evaluation']}, once a round):",
        f"  length: rounds {r['mean']:.2f} (sd {r['sd']:.2f}, {r['min']}-{r['max']}), "
        f"decisions {dec['mean']:.1f} (sd {dec['sd']:.1f}, {dec['min']}-{dec['max']})",
        f"  rounds played: {_histogram(r['histogram'])}",
        f"  decisions made: {_histogram(dec['histogram'])}",
        f"  branching: {ci(d['branching'])} options a decision, largest menu {ci(d['largest_menu'], '.1f')} a game "
        f"({d['largest_menu']['max']} at most); forced (one option): {pct(d['forced_share'])} of decisions",
        f"  first seat: wins {100 * fs['win_rate']:.1f}% (fair {100 * fs['fair']:.1f}%), advantage "
        f"{100 * fs['advantage']:+.1f} points [{100 * fs['ci'][0]:+.1f}, {100 * fs['ci'][1]:+.1f}]; "
        f"balance {d['balance']:.3f} (1 - the largest gap between seats' win rates)",
        f"  lead changes {ci(d['lead_changes'])} a game; drama {ci(d['drama'])} "
        f"(the winner's mean gap behind the leader), {ci(d['drama_max'])} at most",
        f"  decided at {pct(d['decided_at'])} of the game; winning margin {ci(d['margin'])} points",
    ]
