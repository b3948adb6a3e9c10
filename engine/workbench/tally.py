"""Statistics folded in as games finish: a run's memory does not grow with its games.

``simulate`` and ``compare`` used to keep every game's record (about 27 KB a 4-player
game, as measured for issue 21) and made their figures from the lists at
the end. Here each finished game is folded into running sums and is then forgotten;
what is kept grows with the pack (its cards and zones) and the distinct scores of each
seat, never with the number of games.

The figures are those of the lists, with one documented exception:

- means and win rates: a sum of whole numbers is exact whatever the order; a sum of
  win shares (``1 / winners``, floats) is added here in game order, as ``sum()`` added
  the list, so it is the same float to the last bit;
- score distributions, counts, card tallies: the same counts;
- the half-width of a 95% normal interval needs the variance. The lists gave it in two
  passes (the mean, then the sum of squared deviations from it, in floats), which needs
  every value; one pass of float sums of squares would lose digits to cancellation.
  Here the values are whole numbers (scores, rounds, spreads; a win share is counted in
  units of ``1 / lcm(1..players)``), so their count, sum and sum of squares are kept
  as exact integers and the variance is ``(n*Q - S*S) / (n*(n-1))``, one correctly
  rounded division. It is the exact variance; the two-pass float one was within a few
  units in the last place of it, so an interval's ends can differ from the lists' in
  their last binary digit (relative 1e-15; the text output, to 2 decimals, does not
  change). tests/test_scale.py checks both.
- nothing here needs a median or a quantile (the score distribution is a histogram,
  bounded by the distinct scores).
"""
from __future__ import annotations

import math
from collections import Counter


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(wins_a: float, n_a: int, wins_b: float, n_b: int) -> tuple[float, float, float]:
    """(d, low, high): the difference of two win rates ``b - a`` with its 95% interval
    (Newcombe's hybrid score interval, made of the two rates' Wilson intervals)."""
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson(wins_a, n_a)
    lb, ub = wilson(wins_b, n_b)
    d = pb - pa
    return d, d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)


def normal_interval(n: int, total, s: int, q: int, scale: int = 1, z: float = 1.96) -> tuple[float, float, float]:
    """(mean, low, high): the mean ``total / n`` with its 95% normal interval, the
    variance from the exact sums ``s`` (of the values) and ``q`` (of their squares),
    both in units of ``1 / scale``."""
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = total / n
    if n == 1:
        return (m, m, m)
    var = (n * q - s * s) / (n * (n - 1) * scale * scale)     # ints: one correctly rounded division
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


class Series:
    """Whole numbers folded in one at a time: their count, sum and sum of squares (exact
    integers), for a mean and its interval."""

    __slots__ = ("n", "s", "q")

    def __init__(self) -> None:
        self.n = self.s = self.q = 0

    def add(self, value: int) -> None:
        self.n += 1
        self.s += value
        self.q += value * value

    def interval(self) -> tuple[float, float, float]:
        return normal_interval(self.n, self.s, self.s, self.q)


class CardCounts:
    """How the players who had a card did, per card (a *key*), folded in game by game
    into lists as small as the pack (its zone kinds times its cards): how many had it at
    each seat (``seats``, indexed by a game's code, ``player * width + key``: a compare
    names the seats a changed card went to), and per key the sum and the sum of squares
    of their final scores (exact integers) and their win shares, added in game order (a
    game's winners all have the same share, so the order among them is no matter; a
    loser's share, 0.0, adds nothing)."""

    __slots__ = ("width", "players", "seats", "s", "q", "wins")

    def __init__(self, width: int, players: int) -> None:
        self.width, self.players = width, players
        self.seats = [0] * (width * players)
        self.s = [0] * width
        self.q = [0] * width
        self.wins: list = [0] * width

    def add(self, codes, scores: list, shares: list) -> None:
        """One game's codes, each once (negative ones are skipped)."""
        width, seats, s, q, wins = self.width, self.seats, self.s, self.q, self.wins
        squares = [v * v for v in scores]
        for code in codes:
            if code >= 0:
                seats[code] += 1
                p, key = divmod(code, width)
                s[key] += scores[p]
                q[key] += squares[p]
                if shares[p]:
                    wins[key] += shares[p]

    def by_seat(self, key: int) -> list[int]:
        """How many had ``key``, at each seat."""
        return self.seats[key::self.width]

    def rows(self) -> dict[int, tuple]:
        """key -> (win shares, players who had it, their score sum, their sum of squares),
        for every key someone had."""
        s, q, wins = self.s, self.q, self.wins
        counts = ((key, sum(self.by_seat(key))) for key in range(self.width))
        return {key: (wins[key], n, s[key], q[key]) for key, n in counts if n}


def card_row(card: str, by_seat: list[int], wins, n: int, s: int, q: int) -> dict:
    lo, hi = wilson(wins, n)
    m, mlo, mhi = normal_interval(n, s, s, q)
    return {"card": card, "games": n, "win_rate": wins / n, "win_ci": [lo, hi], "mean_score": m, "score_ci": [mlo, mhi],
            "by_seat": {f"P{p + 1}": k for p, k in enumerate(by_seat)}}


def use_row(card: str, by_seat: list[int], wins, n: int, s: int, q: int) -> dict:
    lo, hi = wilson(wins, n)
    m, mlo, mhi = normal_interval(n, s, s, q)
    return {"card": card, "times": sum(by_seat), "by_seat": {f"P{p + 1}": k for p, k in enumerate(by_seat)},
            "users": n, "win_rate": wins / n if n else 0.0, "win_ci": [lo, hi],
            "mean_score": m, "score_ci": [mlo, mhi]}


def effect_on_winning(wins, n: int, zone_wins, zone_n: int) -> dict:
    """A card's effect on winning in a zone: its holders' win rate minus the zone's
    average (the win rate of every player-game that held any card there; having built
    anything wins more than the fair share), as the report plots it and ``meeple tune``'s
    ``card`` term reads it; with Newcombe's 95% interval of that difference, as
    ``compare`` gives a card's win rate (its holders are among the zone's, so the
    interval is on the wide side)."""
    d, lo, hi = newcombe(zone_wins, zone_n, wins, n)
    return {"effect": d, "effect_ci": [lo, hi]}


class Tally:
    """One run's figures, folded in game by game, in game order (``add``). ``tables``
    names the pack's cards and zones (``meeple.workbench.simulate.CardTables``): an outcome
    names them by number."""

    def __init__(self, tables, players: int, shape=None) -> None:
        self.tables, self.players = tables, players
        self.shape = shape          # a ``meeple.workbench.metrics.ShapeTally`` when the run measures game shapes
        self.n = 0
        self.wins: list = [0] * players                     # win shares per seat, in game order
        self.scores = [Series() for _ in range(players)]
        self.distribution: list[dict[int, int]] = [{} for _ in range(players)]
        self.rounds, self.spread = Series(), Series()
        self.decisions = 0
        self.first_wins = 0                                 # the first chooser's win shares
        self.kinds: list[int] = []                          # zone kinds in the order games first met them
        self.held = CardCounts(tables.width, players)       # (zone kind, card) keys: who had the card there
        self.users = CardCounts(tables.ndefs, players)      # card keys: who used it (once a game and player)
        self.times: Counter = Counter()                     # used codes (player, card) -> times used

    def add(self, o) -> None:
        """Fold in one finished game (``meeple.workbench.simulate.Outcome``)."""
        players, scores = self.players, o.scores
        shares = o.shares()
        self.n += 1
        for p in range(players):
            if shares[p]:
                self.wins[p] += shares[p]
            self.scores[p].add(scores[p])
            dist = self.distribution[p]
            dist[scores[p]] = dist.get(scores[p], 0) + 1
        self.rounds.add(o.rounds)
        self.spread.add(max(scores) - min(scores))
        self.decisions += o.decisions
        self.first_wins += shares[o.first]
        if len(self.kinds) < self.tables.ownable:
            self._meet_kinds(o.held)
        self.held.add(o.held, scores, shares)
        self.users.add(set(o.used), scores, shares)
        self.times.update(o.used)
        if self.shape is not None and o.shape is not None:
            self.shape.add(o.rounds, o.shape)

    def _meet_kinds(self, held: tuple) -> None:
        """Note the zone kinds this game met first (the JSON lists them in that order:
        by player, then as the game's record of moves lists them)."""
        t = self.tables
        known = set(self.kinds)
        first: dict[int, tuple[int, int]] = {}          # a new kind -> where it was met first: (player, position)
        for pos, code in enumerate(held):
            if code >= 0:
                p, rest = divmod(code, t.width)
                kind = rest // t.ndefs
                if kind not in known and (kind not in first or (p, pos) < first[kind]):
                    first[kind] = (p, pos)
        self.kinds += sorted(first, key=first.__getitem__)

    # ---------------------------------------------------------------- the figures
    def seats(self) -> list[dict]:
        n, out = self.n, []
        for p in range(self.players):
            lo, hi = wilson(self.wins[p], n)
            m, mlo, mhi = self.scores[p].interval()
            dist = self.distribution[p]
            out.append({"seat": f"P{p + 1}", "games": n, "win_rate": self.wins[p] / n if n else 0.0, "win_ci": [lo, hi],
                        "mean_score": m, "score_ci": [mlo, mhi],
                        "score_distribution": {str(k): dist[k] for k in sorted(dist)}})
        return out

    def card_tables(self) -> dict[str, list[dict]]:
        """Per zone kind ("KIND in ZONE"), in the order games met them, a row per
        card that entered it, sorted by card id, each with its effect on winning
        (``effect_on_winning``)."""
        t = self.tables
        by_kind: dict[int, list[tuple[str, int, tuple]]] = {k: [] for k in self.kinds}
        for key, row in self.held.rows().items():
            kind, d = divmod(key, t.ndefs)
            by_kind[kind].append((t.def_ids[d], key, row))
        held = self.held
        out = {}
        for k, rows in by_kind.items():
            zone_wins, zone_n = sum(row[0] for _, _, row in rows), sum(row[1] for _, _, row in rows)
            out[t.kind_names[k]] = [{**card_row(cid, held.by_seat(key), *row), **effect_on_winning(row[0], row[1], zone_wins, zone_n)}
                                    for cid, key, row in sorted(rows, key=lambda e: e[0])]
        return out

    def card_wins(self) -> dict[str, dict[str, tuple[float, int]]]:
        """(win shares, players) per card, per zone kind in the order games met them."""
        t = self.tables
        out: dict[str, dict[str, tuple[float, int]]] = {t.kind_names[k]: {} for k in self.kinds}
        for key, (wins, n, _, _) in self.held.rows().items():
            kind, d = divmod(key, t.ndefs)
            out[t.kind_names[kind]][t.def_ids[d]] = (wins, n)
        return out

    def use_tables(self) -> dict[str, list[dict]]:
        """The usage tables: per kind of card used at all, a row per card of that kind
        (unused ones too): times used, by seat, and the win rate and mean score of the
        players who used it (one entry per game and player, however often they used it)."""
        t = self.tables
        seen: dict[str, dict[str, tuple]] = {}
        for d, row in self.users.rows().items():
            seen.setdefault(t.def_kinds[d], {})[t.def_ids[d]] = (d, row)
        out = {}
        for kind in sorted(seen):
            rows = []
            for cid in sorted(set(t.kind_cards.get(kind, ())) | set(seen[kind])):
                d, row = seen[kind].get(cid, (None, (0, 0, 0, 0)))
                by_seat = [self.times[p * t.ndefs + d] if d is not None else 0 for p in range(self.players)]
                rows.append(use_row(cid, by_seat, *row))
            out[kind] = rows
        return out
