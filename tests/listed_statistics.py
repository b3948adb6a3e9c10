"""The statistics of ``simulate`` and ``compare`` as they were computed before they were
folded in game by game (commit 63e1aad): every game's record kept in a list, the figures
made from the lists at the end. Kept verbatim as the oracle the folded statistics are
checked against (tests/test_scale.py): the same runs must give the same figures, and the
same records rows. Only the imports and the records writer's target (rows returned
instead of a file written) differ from the engine code of that commit."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from meeple.play.agents import make_agents
from meeple.core.errors import MeepleError
from meeple.runtime.game import Game
from meeple.play.session import play
from meeple.workbench.simulate import SimConfig, _evaluator


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class GameRecord:
    index: int
    scores: list[int]
    winners: list[int]
    rounds: int
    decisions: int
    chosen: list[dict[str, list[str]]]      # per player: "kind in zone" -> card ids that entered that zone
    first: int = 0                          # the player who made the game's first choice (who starts)
    used: list = field(default_factory=list)  # per player: card kind -> {card id: times used} (see ``UseRecorder``)

    def share(self, p: int) -> float:
        """Player p's share of the win (ties split it)."""
        return 1 / len(self.winners) if p in self.winners else 0.0


class UseRecorder:
    """Which cards each player used in a game, seen from the engine alone (no game words).

    A player *uses* card C when a choice of theirs that stood names C:
    - an action whose parameter is a card (``with: a in activities``): C is the parameter;
    - an action a card grants (a card's own action): C is that card;
    - a ``choose`` among cards: C is the card picked.
    Each such choice counts once per card it names. Cards that only moved into a
    player's zones are the other tables (``GameRecord.chosen``). A refusal that undoes
    choices undoes their uses too (a use is kept with its choice's number)."""

    __slots__ = ("ids", "action_keyers", "action_describer", "raw", "hook")

    def __init__(self, game: Game):
        self.ids = game.vocab.card_def_ids
        self.action_describer = game.action_describer
        # per action index: whether its parameter is a card (its options are keyed by card id)
        self.action_keyers = [k is not None and _is_card_keyer(k, self.ids) for _, _, k, _ in game.action_describer.actions]
        # the hot path only notes (choice number + 1, player, value, describer); ``uses`` reads them after the game
        raw: list = []
        add = raw.append

        def hook(st, dec, index: int, add=add) -> None:
            add((st.choices(), dec.player, dec.values[index], dec.describer))
        self.raw, self.hook = raw, hook

    def uses(self) -> list[tuple[int, int]]:
        """(player, card instance) per use, in the order of the choices that stood."""
        out: list[tuple[int, int, int]] = []      # (choice number + 1, player, card)
        keyers, ids = self.action_keyers, self.ids
        actions = self.action_describer
        for n, player, v, describer in self.raw:
            while out and out[-1][0] >= n:      # undone by a refusal, made anew now
                out.pop()
            if describer is actions:
                ai, card, x = v
                if card is not None:
                    out.append((n, player, card))
                if x is not None and keyers[ai] and type(x) is int:
                    out.append((n, player, x))
            elif type(v) is int:
                keyer = getattr(describer, "keyer", None)
                if keyer is not None and _is_card_keyer(keyer, ids):
                    out.append((n, player, v))
        return [(p, c) for _, p, c in out]

    def per_player(self, game: Game, players: int) -> list[dict[str, dict[str, int]]]:
        out: list[dict[str, dict[str, int]]] = [dict() for _ in range(players)]
        defs, index, ids = game.vocab.card_defs, game.card_def_index, self.ids
        for p, c in self.uses():
            by_card = out[p].setdefault(defs[index[c]].kind, {})
            by_card[ids[c]] = by_card.get(ids[c], 0) + 1
        return [{k: dict(sorted(v.items())) for k, v in sorted(d.items())} for d in out]


def _is_card_keyer(keyer, ids: list) -> bool:
    """Whether options keyed by ``keyer`` are cards (their key is the card's id)."""
    return getattr(keyer, "__self__", None) is ids


def run_one(game: Game, cfg: SimConfig, index: int) -> GameRecord:
    gs = game_seed(cfg.seed, index)
    agents = make_agents(cfg.bots, cfg.players, gs, game, _evaluator(game, cfg.evaluation))   # compiled once per process
    recorder = UseRecorder(game)
    try:
        st = play(game, cfg.players, gs, agents, track=True, options=dict(cfg.options), on_choice=recorder.hook)
    except MeepleError as err:
        # which game of the run stopped (the run stops there): see ``stopped_game``
        err.game, err.config = index, cfg
        raise
    chosen: list[dict[str, set]] = [dict() for _ in range(cfg.players)]
    for slot, card in st.track:
        owner = game.slot_owner[slot]
        if owner < 0:
            continue
        zone = game.vocab.zone_defs[game.layout.slot_zone[slot]]
        chosen[owner].setdefault(f"{zone.holds} in {zone.name}", set()).add(game.vocab.card_def_ids[card])
    return GameRecord(index, st.scores, game.winners(st), st.round, st.choices(),
                      [{k: sorted(v) for k, v in c.items()} for c in chosen], st._log[0][0] if st.choices() else 0,     # the first chooser (no key is made)
                      recorder.per_player(game, cfg.players))


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


@dataclass
class Summary:
    config: SimConfig
    seconds: float
    records: list[GameRecord] = field(default_factory=list)
    live_zones: tuple = ()
    interrupted: bool = False        # Ctrl-C: the records are the first games of the run only
    kind_cards: dict = field(default_factory=dict)   # card kind -> its card ids (the usage tables list every one)

    def to_dict(self) -> dict:
        cfg = self.config
        n = len(self.records)
        seats = []
        for p in range(cfg.players):
            wins = sum(1 / len(r.winners) for r in self.records if p in r.winners)
            lo, hi = wilson(wins, n)
            m, mlo, mhi = mean_ci([r.scores[p] for r in self.records])
            counts: dict[int, int] = {}
            for r in self.records:
                counts[r.scores[p]] = counts.get(r.scores[p], 0) + 1
            seats.append({"seat": f"P{p + 1}", "games": n, "win_rate": wins / n if n else 0.0, "win_ci": [lo, hi],
                          "mean_score": m, "score_ci": [mlo, mhi],
                          "score_distribution": {str(k): counts[k] for k in sorted(counts)}})
        kinds: dict[str, dict[str, list]] = {}
        for r in self.records:
            for p in range(cfg.players):
                share = 1 / len(r.winners) if p in r.winners else 0.0
                for kind, ids in r.chosen[p].items():
                    for cid in ids:
                        kinds.setdefault(kind, {}).setdefault(cid, []).append((share, r.scores[p], p))
        cards = {}
        for kind, by_card in kinds.items():
            rows = []
            for cid, entries in sorted(by_card.items()):
                k = len(entries)
                wins = sum(e[0] for e in entries)
                lo, hi = wilson(wins, k)
                m, mlo, mhi = mean_ci([e[1] for e in entries])
                by_seat = {f"P{p + 1}": sum(1 for e in entries if e[2] == p) for p in range(cfg.players)}
                rows.append({"card": cid, "games": k, "win_rate": wins / k, "win_ci": [lo, hi],
                             "mean_score": m, "score_ci": [mlo, mhi], "by_seat": by_seat})
            cards[kind] = rows
        used = self._used()
        rounds = mean_ci([r.rounds for r in self.records])
        spread = mean_ci([max(r.scores) - min(r.scores) for r in self.records])
        first_wins = sum(r.share(r.first) for r in self.records)
        flo, fhi = wilson(first_wins, n)
        return {
            "pack": cfg.pack, "sets": list(cfg.sets), "players": cfg.players, "games": n, "seed": cfg.seed, "workers": cfg.workers,
            "bots": cfg.bots,
            "options": dict(cfg.options),
            "seconds": round(self.seconds, 3),
            "games_per_second": round(n / self.seconds, 2) if self.seconds > 0 else None,
            "mean_rounds": rounds[0], "rounds_ci": [rounds[1], rounds[2]],
            "mean_decisions": sum(r.decisions for r in self.records) / n if n else 0,
            # the gap between the best and the worst score of a game
            "score_spread": spread[0], "spread_ci": [spread[1], spread[2]],
            # the win rate of the player who made the first choice, against a fair 1 / players
            "first_player": {"win_rate": first_wins / n if n else 0.0, "win_ci": [flo, fhi], "fair": 1 / cfg.players},
            "seats": seats, "cards": cards,
            # per card kind, every card: how often players used it (see UseRecorder) and how its users did
            "used": used,
            # the text report shows cards that reached a live zone (played, built)
            "shown": sorted(k for k in cards if k.split(" in ", 1)[1] in self.live_zones),
            **({"interrupted": True, "games_requested": cfg.games} if self.interrupted else {}),
        }


    def _used(self) -> dict[str, list[dict]]:
        """The usage tables: per kind of card used at all, a row per card of that kind
        (unused ones too): times used, by seat, and the win rate and mean score of the
        players who used it (one entry per game and player, however often they used it)."""
        cfg = self.config
        seen: dict[str, dict[str, list]] = {}
        for r in self.records:
            for p, by_kind in enumerate(r.used):
                share = r.share(p)
                for kind, by_card in by_kind.items():
                    cards = seen.setdefault(kind, {})
                    for cid, times in by_card.items():
                        cards.setdefault(cid, []).append((p, times, share, r.scores[p]))
        out = {}
        for kind in sorted(seen):
            rows = []
            for cid in sorted(set(self.kind_cards.get(kind, ())) | set(seen[kind])):
                entries = seen[kind].get(cid, [])
                k = len(entries)
                wins = sum(e[2] for e in entries)
                lo, hi = wilson(wins, k)
                m, mlo, mhi = mean_ci([e[3] for e in entries])
                by_seat = [0] * cfg.players
                for e in entries:
                    by_seat[e[0]] += e[1]
                rows.append({"card": cid, "times": sum(by_seat), "by_seat": {f"P{p + 1}": n for p, n in enumerate(by_seat)},
                             "users": k, "win_rate": wins / k if k else 0.0, "win_ci": [lo, hi],
                             "mean_score": m, "score_ci": [mlo, mhi]})
            out[kind] = rows
        return out


def record_rows(summary: "Summary") -> list[list]:
    """One row per player per game: what a designer loads into a spreadsheet."""
    cfg = summary.config
    bots = [b.strip() for b in cfg.bots.split(",") if b.strip()] or ["random"]
    if len(bots) == 1:
        bots = bots * cfg.players
    rows = [["game", "game_seed", "seat", "bot", "score", "rank", "win_share", "first", "rounds", "decisions", "cards"]]
    if True:
        for r in summary.records:
            order = sorted(range(cfg.players), key=lambda p: -r.scores[p])
            for p in range(cfg.players):
                cards = ";".join(f"{kind}:{cid}" for kind, ids in sorted(r.chosen[p].items())
                                 if kind.split(" in ", 1)[1] in summary.live_zones for cid in ids)
                rows.append([r.index, game_seed(cfg.seed, r.index), f"P{p + 1}", bots[p], r.scores[p], order.index(p) + 1,
                            round(r.share(p), 4), int(r.first == p), r.rounds, r.decisions, cards])
    return rows


# ---------------------------------------------------------------- compare (engine/workbench/compare.py)
def _paired(name: str, base: list[float], variant: list[float], unit: str = "win share") -> dict:
    diffs = [v - b for b, v in zip(base, variant)]
    m, lo, hi = mean_ci(diffs)
    n = max(1, len(base))
    return {"metric": name, "base": sum(base) / n, "variant": sum(variant) / n, "difference": m, "ci": [lo, hi],
            "significant": (lo > 0 or hi < 0) and lo != hi, "paired": True, "unit": unit}


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

    for m in metrics:
        m["excludes_zero"] = m["significant"]
    _false_discovery(metrics)
    order(metrics)
    da, db = a.to_dict(), b.to_dict()
    return {"base": {"pack": da["pack"], "sets": list(a.config.sets)}, "variant": {"pack": db["pack"], "sets": list(b.config.sets)},
            "changes": None,
            "games": len(ra), "players": players, "bots": a.config.bots, "seed": a.config.seed,
            "significant": sum(1 for m in metrics if m["significant"]),
            "headline": {"significant": [m["metric"] for m in metrics if m["significant"]],
                         "suggestive": [m["metric"] for m in metrics if m["excludes_zero"] and not m["significant"]],
                         "figures": len(metrics), "by_chance": round(len(metrics) / 20, 1)},
            "direct": [], "metrics": metrics,
            "summaries": [da, db]}


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




def _newcombe(name: str, wins_a: float, n_a: int, wins_b: float, n_b: int) -> dict:
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson(wins_a, n_a)
    lb, ub = wilson(wins_b, n_b)
    d = pb - pa
    lo = d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    hi = d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    return {"metric": name, "base": pa, "variant": pb, "difference": d, "ci": [lo, hi],
            "significant": lo > 0 or hi < 0, "paired": False, "unit": "win share"}


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




# ---------------------------------------------------------------- runs (as meeple.workbench.simulate.simulate and meeple.workbench.compare.compare ran them, one process)
def simulate_listed(game: Game, cfg: SimConfig) -> Summary:
    """Every game's record in a list, then the summary of the lists."""
    records = [run_one(game, cfg, i) for i in range(cfg.games)]
    live = tuple(z.name for z in game.vocab.zone_defs if z.in_play)
    kinds: dict[str, list[str]] = {}
    for c in game.vocab.card_defs:
        kinds.setdefault(c.kind, []).append(c.id)
    return Summary(cfg, 0.0, records, live, False, kinds)


def compare_listed(base: tuple[Game, SimConfig], variant: tuple[Game, SimConfig]) -> dict:
    return compare_summaries(simulate_listed(*base), simulate_listed(*variant))
