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
from typing import Callable, Optional

from .simulate import GameRecord, SimConfig, Summary, mean_ci, simulate, wilson


def _paired(name: str, base: list[float], variant: list[float], unit: str = "win share") -> dict:
    diffs = [v - b for b, v in zip(base, variant)]
    m, lo, hi = mean_ci(diffs)
    n = max(1, len(base))
    return {"metric": name, "base": sum(base) / n, "variant": sum(variant) / n, "difference": m, "ci": [lo, hi],
            "significant": (lo > 0 or hi < 0) and lo != hi, "paired": True, "unit": unit}


def _newcombe(name: str, wins_a: float, n_a: int, wins_b: float, n_b: int) -> dict:
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson(wins_a, n_a)
    lb, ub = wilson(wins_b, n_b)
    d = pb - pa
    lo = d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    hi = d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    return {"metric": name, "base": pa, "variant": pb, "difference": d, "ci": [lo, hi],
            "significant": lo > 0 or hi < 0, "paired": False, "unit": "win share"}


def compare_summaries(a: Summary, b: Summary) -> dict:
    """Every metric of the two runs, in the ORDER."""
    ra, rb = a.records, b.records
    players = a.config.players
    metrics = []
    for p in range(players):
        metrics.append(_paired(f"P{p + 1} win rate", [r.share(p) for r in ra], [r.share(p) for r in rb]))
        metrics.append(_paired(f"P{p + 1} mean score", [r.scores[p] for r in ra], [r.scores[p] for r in rb], "points"))
    metrics.append(_paired("game length (rounds)", [r.rounds for r in ra], [r.rounds for r in rb], "rounds"))
    metrics.append(_paired("score spread (best - worst)", [max(r.scores) - min(r.scores) for r in ra],
                           [max(r.scores) - min(r.scores) for r in rb], "points"))
    metrics.append(_paired("first player win rate", [r.share(r.first) for r in ra], [r.share(r.first) for r in rb]))
    live = set(a.live_zones) | set(b.live_zones)
    for kind, (ca, cb) in _card_tables(ra, rb, players, live).items():
        for cid in sorted(set(ca) | set(cb)):
            wa, na = ca.get(cid, (0.0, 0))
            wb, nb = cb.get(cid, (0.0, 0))
            if na >= 5 and nb >= 5:
                metrics.append(_newcombe(f"{cid} ({kind}) win rate", wa, na, wb, nb))

    _false_discovery(metrics)
    order(metrics)
    da, db = a.to_dict(), b.to_dict()
    return {"base": {"pack": da["pack"], "sets": list(a.config.sets)}, "variant": {"pack": db["pack"], "sets": list(b.config.sets)},
            "games": len(ra), "players": players, "bots": a.config.bots, "seed": a.config.seed,
            "significant": sum(1 for m in metrics if m["significant"]), "metrics": metrics,
            "summaries": [da, db]}


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


def _card_tables(ra: list[GameRecord], rb: list[GameRecord], players: int, live: set) -> dict:
    out: dict[str, tuple[dict, dict]] = {}
    for side, records in ((0, ra), (1, rb)):
        for r in records:
            for p in range(players):
                for kind, ids in r.chosen[p].items():
                    if kind.split(" in ", 1)[1] not in live:
                        continue
                    table = out.setdefault(kind, ({}, {}))[side]
                    for cid in ids:
                        w, n = table.get(cid, (0.0, 0))
                        table[cid] = (w + r.share(p), n + 1)
    return out


def compare(base: SimConfig, variant: SimConfig, progress: Optional[Callable[[int], None]] = None) -> dict:
    """Run both (same seeds, bots, players) and compare them.

    On Ctrl-C, the pairs both runs finished are compared (game i of each starts
    alike, so the first k of both are pairs), and the result says ``interrupted``.
    """
    a = simulate(base, progress)
    b = Summary(variant, 0.0, [], a.live_zones, True) if a.interrupted else simulate(variant, progress)
    if not (a.interrupted or b.interrupted):
        return compare_summaries(a, b)
    k = min(len(a.records), len(b.records))
    a = Summary(a.config, a.seconds, a.records[:k], a.live_zones, True)
    b = Summary(b.config, b.seconds, b.records[:k], b.live_zones, True)
    return dict(compare_summaries(a, b), interrupted=True, games_requested=base.games)


def format_text(c: dict, limit: int = 25) -> str:
    head = (f"interrupted: {c['games']} of {c['games_requested']} pairs of games finished (partial figures)\n"
            if c.get("interrupted") else "")
    head += (f"{c['games']} paired games, {c['players']} players ({c['bots']} bots), seed {c['seed']}: "
            f"{c['base']['pack']}{' ' + ' '.join('--set ' + s for s in c['base']['sets']) if c['base']['sets'] else ''} -> "
            f"{c['variant']['pack']}{' ' + ' '.join('--set ' + s for s in c['variant']['sets']) if c['variant']['sets'] else ''}; "
            f"{c['significant']} significant difference(s) (* : 95% interval without 0, false discovery rate 5%)\n"
            f"order: {ORDER} (the column |d|/half)")
    lines = [head, "", f"{'metric':<40}{'base':>9}{'variant':>9}{'diff':>9}  {'95% interval':<20}{'|d|/half':>9} sig"]
    for m in c["metrics"][:limit]:
        interval = f"[{m['ci'][0]:+.3f}, {m['ci'][1]:+.3f}]"
        lines.append(f"{m['metric'][:40]:<40}{m['base']:>9.3f}{m['variant']:>9.3f}{m['difference']:>+9.3f}  "
                     f"{interval:<20}{'exact' if m['clarity'] is None else format(m['clarity'], '.2f'):>9}{'  *' if m['significant'] else ''}")
    if len(c["metrics"]) > limit:
        lines.append(f"... {len(c['metrics']) - limit} more (--format json lists all)")
    return "\n".join(lines)
