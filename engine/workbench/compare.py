"""Before and after: the same games played with two versions of a pack.

Both runs use the same seeds, bots and player count, so game ``i`` of the
base and game ``i`` of the variant start alike, and every per-game metric
is compared game by game (a paired difference, with a 95% normal interval
of its mean). Card metrics (win rate of the players who had a card) cannot
be paired, cards being in different games: their difference gets
Newcombe's interval from the two Wilson intervals. A difference is called
significant when its interval leaves out 0 and it survives the
Benjamini-Hochberg procedure over all the metrics (false discovery rate 5%).
"""
from __future__ import annotations

import math
import time
from collections import deque
from typing import Callable, Optional

from meeple.runtime.game import Game, load_game
from meeple.workbench.simulate import Outcome, SimConfig, Summary, _Folding, card_tables, play_runs
from meeple.workbench.metrics import Moments, ShapeTally
from meeple.workbench.tally import Tally, newcombe, normal_interval


class Paired:
    """One per-game metric of both runs, folded in pair by pair: the base's and the
    variant's sums (added in game order, as ``sum()`` added the lists) and the exact
    sums of the differences and of their squares, in units of ``1 / scale`` (a win
    share is a whole number of them), for the difference's 95% normal interval."""

    __slots__ = ("name", "unit", "scale", "n", "base", "variant", "total", "s", "q")

    def __init__(self, name: str, unit: str, scale: int = 1):
        self.name, self.unit, self.scale = name, unit, scale
        self.n = 0
        self.base = self.variant = self.total = 0
        self.s = self.q = 0

    def add(self, b, v, units: int) -> None:
        """One pair: the base's value ``b``, the variant's ``v``, and ``v - b`` in units."""
        self.n += 1
        self.base += b
        self.variant += v
        self.total += v - b
        self.s += units
        self.q += units * units

    def to_dict(self) -> dict:
        m, lo, hi = normal_interval(self.n, self.total, self.s, self.q, self.scale)
        n = max(1, self.n)
        return {"metric": self.name, "base": self.base / n, "variant": self.variant / n, "difference": m, "ci": [lo, hi],
                "significant": (lo > 0 or hi < 0) and lo != hi, "paired": True, "unit": self.unit}


class FloatPaired:
    """A per-game metric whose values are not whole numbers (a mean menu, a share),
    paired as ``Paired`` pairs whole ones: the sides' sums in game order, and the
    differences' running mean and sum of squared deviations (``Moments``)."""

    __slots__ = ("name", "unit", "base", "variant", "d")

    def __init__(self, name: str, unit: str):
        self.name, self.unit = name, unit
        self.base = self.variant = 0.0
        self.d = Moments()

    @property
    def n(self) -> int:
        return self.d.n

    def add(self, b: float, v: float) -> None:
        self.base += b
        self.variant += v
        self.d.add(v - b)

    def to_dict(self) -> dict:
        m, lo, hi = self.d.interval()
        n = max(1, self.d.n)
        return {"metric": self.name, "base": self.base / n, "variant": self.variant / n, "difference": m, "ci": [lo, hi],
                "significant": (lo > 0 or hi < 0) and lo != hi, "paired": True, "unit": self.unit}


# the game-shape metrics compare pairs (meeple.workbench.metrics; the rounds and the first
# player's win rate are paired with the others): GameShape field or property, name, unit, whole?
SHAPE_PAIRS = (("decisions", "decisions a game", "decisions", True),
               ("branching", "options a decision (branching)", "options", False),
               ("largest", "largest menu", "options", True),
               ("forced_share", "forced decisions (one option)", "share", False),
               ("lead_changes", "lead changes a game", "lead changes", True),
               ("drama", "drama (winner's mean gap)", "evaluation", False),
               ("drama_max", "drama (winner's largest gap)", "evaluation", False),
               ("decided", "decided at (share of the game)", "share", False),
               ("margin", "winning margin", "points", True))


class Pairs:
    """Every per-game metric of two runs of ``players``, paired game by game: each
    seat's win share and score, the game's length, its score spread and the first
    chooser's win share; with ``shape``, the game-shape metrics (``SHAPE_PAIRS``)."""

    def __init__(self, players: int, shape: bool = False):
        self.players = players
        self.scale = math.lcm(*range(1, players + 1))        # a win share 1/k is scale // k units
        self.metrics: list[Paired] = []
        for p in range(players):
            self.metrics += [Paired(f"P{p + 1} win rate", "win share", self.scale), Paired(f"P{p + 1} mean score", "points")]
        self.metrics += [Paired("game length (rounds)", "rounds"), Paired("score spread (best - worst)", "points"),
                         Paired("first player win rate", "win share", self.scale)]
        self.shape = [(field, Paired(name, unit) if whole else FloatPaired(name, unit))
                      for field, name, unit, whole in SHAPE_PAIRS] if shape else []
        self.metrics += [m for _, m in self.shape]

    def _units(self, o: Outcome) -> list[int]:
        share = self.scale // len(o.winners)
        return [share if p in o.winners else 0 for p in range(self.players)]

    def add(self, a: Outcome, b: Outcome) -> None:
        """Game i of the base run and game i of the variant's."""
        sa, sb, ua, ub = a.shares(), b.shares(), self._units(a), self._units(b)
        metrics = self.metrics
        for p in range(self.players):
            metrics[2 * p].add(sa[p], sb[p], ub[p] - ua[p])
            metrics[2 * p + 1].add(a.scores[p], b.scores[p], b.scores[p] - a.scores[p])
        k = 2 * self.players
        metrics[k].add(a.rounds, b.rounds, b.rounds - a.rounds)
        spread_a, spread_b = max(a.scores) - min(a.scores), max(b.scores) - min(b.scores)
        metrics[k + 1].add(spread_a, spread_b, spread_b - spread_a)
        metrics[k + 2].add(sa[a.first], sb[b.first], ub[b.first] - ua[a.first])
        if self.shape:
            ga, gb = a.shape, b.shape
            for field, m in self.shape:
                x, y = getattr(ga, field), getattr(gb, field)
                if m.__class__ is Paired:
                    m.add(x, y, y - x)
                else:
                    m.add(x, y)


def _newcombe(name: str, wins_a: float, n_a: int, wins_b: float, n_b: int) -> dict:
    pa, pb = wins_a / n_a, wins_b / n_b
    d, lo, hi = newcombe(wins_a, n_a, wins_b, n_b)
    return {"metric": name, "base": pa, "variant": pb, "difference": d, "ci": [lo, hi],
            "significant": lo > 0 or hi < 0, "paired": False, "unit": "win share"}


def comparison(a: Summary, b: Summary, pairs: Pairs, changes: Optional[list[dict]] = None) -> dict:
    """The two runs compared, in the order a designer reads it: what was compared
    (the packs, every changed value as ``meeple diff`` lists them, the games), the
    answer (the differences significant after the correction, then the suggestive
    ones), the direct effects of every changed card, then every metric in the ORDER.
    ``changes``: ``meeple.authoring.diff.changed_values`` of the two packs."""
    players = a.config.players
    metrics = [m.to_dict() for m in pairs.metrics]
    live = set(a.live_zones) | set(b.live_zones)
    for kind, (ca, cb) in _card_tables(a.tally, b.tally, live).items():
        for cid in sorted(set(ca) | set(cb)):
            wa, na = ca.get(cid, (0.0, 0))
            wb, nb = cb.get(cid, (0.0, 0))
            if na >= 5 and nb >= 5:
                metrics.append(_newcombe(f"{cid} ({kind}) win rate", wa, na, wb, nb))

    for m in metrics:
        m["excludes_zero"] = m["significant"]        # before the correction: 'suggestive' if it does not survive it
    _false_discovery(metrics)
    order(metrics)
    da, db = a.to_dict(), b.to_dict()
    return {"base": {"pack": da["pack"], "sets": list(a.config.sets)}, "variant": {"pack": db["pack"], "sets": list(b.config.sets)},
            "changes": None if changes is None else list(changes),
            "games": pairs.metrics[0].n, "players": players, "bots": a.config.bots, "seed": a.config.seed,
            "seconds": round(a.seconds + b.seconds, 3),
            "significant": sum(1 for m in metrics if m["significant"]),
            "headline": headline(metrics),
            "direct": direct_effects(da, db, changes or [], metrics),
            "metrics": metrics,
            "summaries": [da, db]}


def headline(metrics: list[dict]) -> dict:
    """The answer: the figures whose difference is significant after the correction,
    then the *suggestive* ones, whose interval leaves out 0 only before it (with many
    figures a few do by chance: about 5% of them, ``by_chance``), both in the ORDER."""
    return {"significant": [m["metric"] for m in metrics if m["significant"]],
            "suggestive": [m["metric"] for m in metrics if m.get("excludes_zero") and not m["significant"]],
            "figures": len(metrics), "by_chance": round(0.05 * len(metrics), 1)}


def direct_effects(da: dict, db: dict, changes: list[dict], metrics: list[dict]) -> list[dict]:
    """For every card a change touched (added, removed, replaced or with a value
    changed), in the order of the changes: how often its cards reached each zone
    the run follows (built, played: the text report's zones), by seat, before and
    after, with its holders' win rate and the difference's interval where the
    metrics have it; and how often it was used (an action's or a choice's card)."""
    ids: list[tuple[str, str]] = []
    valued: set[str] = set()              # cards with a value changed (not only added or removed)
    for ch in changes:
        if ch.get("what") == "card" and (ch["id"], ch["kind"]) not in ids:
            ids.append((ch["id"], ch["kind"]))
        if ch.get("what") == "card" and ch.get("key") is not None:
            valued.add(ch["id"])
    by_name = {m["metric"]: m for m in metrics}
    games = [d["games"] * d["players"] for d in (da, db)]          # player-games: the most a card can be held
    out = []
    for cid, kind in ids:
        zones = []
        for zone in [k for k in da["shown"] if k.startswith(kind + " in ")] + \
                    [k for k in db["shown"] if k.startswith(kind + " in ") and k not in da["shown"]]:
            rows = [next((r for r in d["cards"].get(zone, ()) if r["card"] == cid), None) for d in (da, db)]
            zones.append({"zone": zone, "player_games": games,
                          "base": _held(rows[0]), "variant": _held(rows[1]),
                          "win_rate_difference": by_name.get(f"{cid} ({zone}) win rate")})
        uses = [next((r for r in d.get("used", {}).get(kind, ()) if r["card"] == cid), None) for d in (da, db)]
        used = None
        if any(u is not None and u["times"] for u in uses):
            used = {"base": _used(uses[0]), "variant": _used(uses[1])}
        out.append({"card": cid, "kind": kind, "changed": cid in valued, "zones": zones, "used": used})
    return out


def _held(row: Optional[dict]) -> dict:
    if row is None:
        return {"players": 0, "by_seat": {}, "win_rate": None, "win_ci": None}
    return {"players": row["games"], "by_seat": row.get("by_seat", {}), "win_rate": row["win_rate"], "win_ci": row["win_ci"]}


def _used(row: Optional[dict]) -> dict:
    if row is None:
        return {"times": 0, "by_seat": {}, "users": 0, "win_rate": None, "win_ci": None}
    return {k: row[k] for k in ("times", "by_seat", "users")} | \
        {"win_rate": row["win_rate"] if row["users"] else None, "win_ci": row["win_ci"] if row["users"] else None}


ORDER = "significant first, then the clearest: |difference| / half its 95% interval, largest first"


def order(metrics: list[dict]) -> None:
    """Sort in place as ORDER says. The metrics have different units (win rates,
    points, rounds), so their differences cannot be ranked by size; how far a
    difference stands from 0 in units of its own interval can be (1 at the edge
    of significance). Each metric gets it as ``clarity`` (None for a difference
    that is the same in every pair: an interval of width 0, clearest of all);
    ties keep the order the metrics were measured in."""
    for m in metrics:
        half = (m["ci"][1] - m["ci"][0]) / 2
        m["clarity"] = abs(m["difference"]) / half if half > 0 else (0.0 if m["difference"] == 0 else None)
    metrics.sort(key=lambda m: (not m["significant"], -(math.inf if m["clarity"] is None else m["clarity"])))


def _false_discovery(metrics: list[dict], rate: float = 0.05) -> None:
    """Many metrics at once: a few would leave out 0 by chance. Keep 'significant'
    only where Benjamini and Hochberg's procedure holds the false discovery rate
    at 5% (p-values from each interval, read as a normal one)."""
    for m in metrics:
        half = (m["ci"][1] - m["ci"][0]) / 2
        if half <= 0:
            m["p"] = 1.0 if m["difference"] == 0 else 0.0
        else:
            z = abs(m["difference"]) / (half / 1.96)
            m["p"] = math.erfc(z / math.sqrt(2))
    ranked = sorted(range(len(metrics)), key=lambda i: metrics[i]["p"])
    cutoff = -1
    for k, i in enumerate(ranked, start=1):
        if metrics[i]["p"] <= rate * k / len(metrics):
            cutoff = k
    keep = set(ranked[:cutoff]) if cutoff > 0 else set()
    for i, m in enumerate(metrics):
        m["significant"] = m["significant"] and i in keep


def _card_tables(a: Tally, b: Tally, live: set) -> dict:
    """Per zone kind in a live zone (the base's in the order its games met them, then the
    variant's), per side, card -> (win shares, players who had it)."""
    out: dict[str, tuple[dict, dict]] = {}
    for side, tally in ((0, a), (1, b)):
        for kind, cards in tally.card_wins().items():
            if kind.split(" in ", 1)[1] in live:
                out.setdefault(kind, ({}, {}))[side].update(cards)
    return out


def compare(base: SimConfig, variant: SimConfig, progress: Optional[Callable[[int], None]] = None,
            games: Optional[tuple[Game, Game]] = None, changes: Optional[list[dict]] = None,
            each: Optional[Callable[[Outcome, Outcome], None]] = None) -> dict:
    """Run both (same seeds, bots, players) side by side and compare them: game i of
    each is folded in as a pair as soon as both are finished. ``games``: both configs'
    games, already loaded; ``changes``: what the variant changes (``comparison``);
    ``each``: told every pair as it is folded in (``meeple tune`` reads its own figures
    from them).

    On Ctrl-C, the pairs both runs finished are compared (game i of each starts
    alike, so the first k of both are pairs), and the result says ``interrupted``.
    """
    loaded = list(games) if games is not None else [load_game(c.pack, c.sets) for c in (base, variant)]
    tallies = [Tally(card_tables(g), base.players, ShapeTally() if base.metrics else None) for g in loaded]
    pairs = Pairs(base.players, base.metrics)
    seconds = [0.0, 0.0]                # each side's share of the time: from the result before to its own
    waiting: deque = deque()            # the base's outcomes whose pair is not in yet (at most a batch)
    interrupted = False
    folding = _Folding().install()
    runs = play_runs([base, variant], progress, loaded)
    last = time.perf_counter()
    try:
        for side, o in runs:
            now = time.perf_counter()
            seconds[side] += now - last
            last = now
            if side == 0:
                waiting.append(o)
                continue
            a = waiting.popleft()
            with folding:
                tallies[0].add(a)
                tallies[1].add(o)
                pairs.add(a, o)
                if each is not None:
                    each(a, o)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        try:
            runs.close()
        finally:
            folding.uninstall()
    a, b = (Summary(cfg, t, tally, interrupted) for cfg, t, tally in zip((base, variant), seconds, tallies))
    result = comparison(a, b, pairs, changes)
    for side, cfg, g in zip(("base", "variant"), (base, variant), loaded):
        # the pack as named; with --set changes, the pack they change (the last layer is theirs)
        pid, version, _ = g.pack.load_order[-2] if cfg.sets and len(g.pack.load_order) > 1 else g.pack.load_order[-1]
        result[side].update(id=pid, version=version)
    return dict(result, interrupted=True, games_requested=base.games) if interrupted else result
