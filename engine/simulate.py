"""Many games with bots, in parallel, with statistics a designer can trust.

Game ``i`` of a run with seed ``s`` always uses the same game seed and bot
seeds, and results are gathered in game order, so the figures are identical
whatever the number of worker processes. Each worker loads and compiles the
pack once.

Ctrl-C stops a run cleanly: workers ignore SIGINT (the parent alone stops
them), and ``simulate`` returns the games finished so far, in order (the first
k games of the run, as a shorter run would have played them), marked
``interrupted``. SIGTERM and a worker process that dies do the same
(engine/stops.py says how, and ``stops.stopped()`` which it was).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

from .agents import make_agents
from .errors import MeepleError
from .game import Game, load_game
from .outputs import replaced
from .session import play
from .stops import worker_signals
from .workers import context, ordered


@dataclass(frozen=True)
class SimConfig:
    pack: str
    games: int
    players: int
    seed: int = 0
    workers: int = 1
    bots: str = "random"
    options: tuple = ()          # (name, value) pairs
    evaluation: str = ""         # the bots' evaluation, instead of the pack's
    sets: tuple = ()             # one-off changes to the pack ('keep.cost=4')
    backend: str = "local"       # 'local' processes, or 'ray'
    address: str = ""            # a Ray cluster to join (empty: start a local Ray)


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


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


_EVALUATORS: dict = {}


def _evaluator(game: Game, text: str):
    """The bots' evaluation, compiled once per process."""
    key = (id(game), text)
    if key not in _EVALUATORS:
        from .bots import evaluator
        _EVALUATORS[key] = evaluator(game, text or None)
    return _EVALUATORS[key]


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
        self.ids = game.card_def_ids
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
        defs, index, ids = game.card_defs, game.card_def_index, self.ids
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
        zone = game.zone_defs[game.slot_zone[slot]]
        chosen[owner].setdefault(f"{zone.holds} in {zone.name}", set()).add(game.card_def_ids[card])
    return GameRecord(index, st.scores, game.winners(st), st.round, st.choices(),
                      [{k: sorted(v) for k, v in c.items()} for c in chosen], st._log[0][0] if st.choices() else 0,     # the first chooser (no key is made)
                      recorder.per_player(game, cfg.players))


def stopped_game(err: MeepleError) -> Optional[str]:
    """For an error that stopped a run: which game, its seed, and the command that
    plays that very game again (the same seed gives the same bots and choices)."""
    index, cfg = getattr(err, "game", None), getattr(err, "config", None)
    if index is None or cfg is None:
        return None
    gs = game_seed(cfg.seed, index)
    again = f"meeple play {cfg.pack} -p {cfg.players} --seed {gs} --bots {cfg.bots}"
    again += "".join(f" --option {k}={v}" for k, v in cfg.options)
    if cfg.evaluation:
        again += f" --eval '{cfg.evaluation}'"
    changed = f" with --set {' '.join(cfg.sets)}" if cfg.sets else ""
    return f"game {index} of {cfg.pack}{changed} (game seed {gs}) stopped the run; to play it again: {again}"


_WORKER: dict = {}


def _init_worker(pack: str, sets: tuple = ()) -> None:
    # Ctrl-C and SIGTERM are the parent's to handle: a worker stops, silently, when the
    # parent terminates it, or when the parent dies (engine/stops.py)
    worker_signals()
    # a forked worker already holds the parent's compiled game (copy-on-write)
    if _WORKER.get("key") != (pack, sets):
        _WORKER["game"] = load_game(pack, sets)
        _WORKER["key"] = (pack, sets)


def _work(args: tuple) -> list[GameRecord]:
    cfg, indices = args
    game = _WORKER["game"]
    return [run_one(game, cfg, i) for i in indices]


def run(cfg: SimConfig, progress: Optional[Callable[[int], None]] = None, game: Optional[Game] = None) -> Iterator[GameRecord]:
    """Yield records in game order."""
    chunk = max(1, min(50, cfg.games // max(1, cfg.workers * 8)))
    batches = [(cfg, list(range(i, min(cfg.games, i + chunk)))) for i in range(0, cfg.games, chunk)]
    if cfg.backend == "ray":
        yield from _run_ray(cfg, batches, progress)
        return
    if cfg.workers <= 1:
        g = game or load_game(cfg.pack, cfg.sets)
        for _, indices in batches:
            for i in indices:
                yield run_one(g, cfg, i)
                if progress:
                    progress(1)
        return
    if context().get_start_method() == "fork" and game is not None:
        _WORKER["game"], _WORKER["key"] = game, (cfg.pack, cfg.sets)     # forked workers share it
    # in order, the workers silent, and a worker that dies stops the run (engine/workers.py)
    for records in ordered(_work, batches, min(cfg.workers, len(batches)), _init_worker, (cfg.pack, cfg.sets)):
        for r in records:
            yield r
            if progress:
                progress(1)


class _RayWorker:
    """One Ray actor: loads and compiles the pack once, then plays batches."""

    def __init__(self, pack: str, sets: tuple):
        self.game = load_game(pack, sets)

    def play(self, cfg: SimConfig, indices: list[int]) -> list[GameRecord]:
        return [run_one(self.game, cfg, i) for i in indices]


def _run_ray(cfg: SimConfig, batches: list, progress: Optional[Callable[[int], None]]) -> Iterator[GameRecord]:
    """The same batches on Ray actors (the optional extra meeple[ray]); results
    come back in game order, so they equal a local run's."""
    try:
        import ray
    except ImportError as err:
        raise RuntimeError("the Ray backend needs Ray: pip install 'meeple[ray]'") from err
    started = False
    if not ray.is_initialized():
        kwargs = {"address": cfg.address} if cfg.address else {"num_cpus": max(1, cfg.workers)}
        ray.init(include_dashboard=False, log_to_driver=False, ignore_reinit_error=True, **kwargs)
        started = True
    try:
        actor = ray.remote(_RayWorker)
        workers = [actor.remote(cfg.pack, cfg.sets) for _ in range(max(1, cfg.workers))]
        pending = [workers[i % len(workers)].play.remote(batch[0], batch[1]) for i, batch in enumerate(batches)]
        for ref in pending:               # in order: identical to a local run
            for r in ray.get(ref):
                yield r
                if progress:
                    progress(1)
    finally:
        if started:
            ray.shutdown()


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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
                        kinds.setdefault(kind, {}).setdefault(cid, []).append((share, r.scores[p]))
        cards = {}
        for kind, by_card in kinds.items():
            rows = []
            for cid, entries in sorted(by_card.items()):
                k = len(entries)
                wins = sum(e[0] for e in entries)
                lo, hi = wilson(wins, k)
                m, mlo, mhi = mean_ci([e[1] for e in entries])
                rows.append({"card": cid, "games": k, "win_rate": wins / k, "win_ci": [lo, hi], "mean_score": m, "score_ci": [mlo, mhi]})
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


def simulate(cfg: SimConfig, progress: Optional[Callable[[int], None]] = None) -> Summary:
    """Run the games; on Ctrl-C, the summary of those finished (``interrupted``)."""
    game = load_game(cfg.pack, cfg.sets)
    start = time.perf_counter()
    records: list[GameRecord] = []
    interrupted = False
    games = run(cfg, progress, game)
    try:
        for r in games:
            records.append(r)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        games.close()            # stops the workers now, not when the generator is collected
    live = tuple(z.name for z in game.zone_defs if z.in_play)
    kinds: dict[str, list[str]] = {}
    for c in game.card_defs:
        kinds.setdefault(c.kind, []).append(c.id)
    return Summary(cfg, time.perf_counter() - start, records, live, interrupted, kinds)


def format_text(d: dict) -> str:
    def pct(x: float) -> str:
        return f"{100 * x:5.1f}%"
    lines = [f"interrupted: {d['games']} of {d['games_requested']} games finished (partial figures)"] if d.get("interrupted") else []
    lines += [f"{d['games']} games of {d['pack']} with {d['players']} players ({d['bots']} bots), seed {d['seed']}, "
             f"{d['workers']} worker(s): {d['seconds']:.2f} s, {d['games_per_second']} games/s",
             f"mean rounds {d['mean_rounds']:.2f} [{d['rounds_ci'][0]:.2f}, {d['rounds_ci'][1]:.2f}], "
             f"mean decisions {d['mean_decisions']:.1f}, score spread (best - worst) {d['score_spread']:.1f} "
             f"[{d['spread_ci'][0]:.1f}, {d['spread_ci'][1]:.1f}]",
             f"first player (the one who chooses first) wins {pct(d['first_player']['win_rate'])} "
             f"[{pct(d['first_player']['win_ci'][0])}, {pct(d['first_player']['win_ci'][1])}] (fair: {pct(d['first_player']['fair'])})", "",
             f"{'seat':<8}{'win rate':>9}  {'95% interval':<16}{'mean score':>11}  95% interval"]
    for s in d["seats"]:
        lines.append(f"{s['seat']:<8}{pct(s['win_rate']):>9}  [{pct(s['win_ci'][0])}, {pct(s['win_ci'][1])}] "
                     f"{s['mean_score']:>9.2f}  [{s['score_ci'][0]:.2f}, {s['score_ci'][1]:.2f}]")
    for kind in d.get("shown", ()):
        rows = d["cards"][kind]
        lines += ["", f"{kind:<22}{'games':>6}{'win rate':>10}  {'95% interval':<16}{'mean score':>11}"]
        for r in sorted(rows, key=lambda r: -r["win_rate"]):
            lines.append(f"{r['card']:<22}{r['games']:>6}{pct(r['win_rate']):>10}  [{pct(r['win_ci'][0])}, {pct(r['win_ci'][1])}] {r['mean_score']:>9.2f}")
    for kind, rows in d.get("used", {}).items():
        seats = "/".join(f"P{p + 1}" for p in range(d["players"]))
        lines += ["", f"{kind + ' used':<22}{'times':>6}{'users':>6}{'win rate':>10}  {'95% interval':<16}{'mean score':>11}  "
                      f"{'95% interval':<16}times by {seats}"]
        for r in sorted(rows, key=lambda r: (-r["times"], r["card"])):      # most used first
            interval = f"[{r['score_ci'][0]:.2f}, {r['score_ci'][1]:.2f}]" if r["users"] else "-"
            lines.append(f"{r['card']:<22}{r['times']:>6}{r['users']:>6}{pct(r['win_rate']):>10}  "
                         f"[{pct(r['win_ci'][0])}, {pct(r['win_ci'][1])}] {r['mean_score']:>9.2f}  {interval:<16}"
                         + "/".join(str(n) for n in r["by_seat"].values()))
    return "\n".join(lines)


def write_records(summary: "Summary", path: str, game: Game) -> None:
    """One row per player per game: what a designer loads into a spreadsheet."""
    import csv
    cfg = summary.config
    bots = [b.strip() for b in cfg.bots.split(",") if b.strip()] or ["random"]
    if len(bots) == 1:
        bots = bots * cfg.players
    with replaced(path, newline="") as f:       # whole, or the file as it was (engine/outputs.py)
        w = csv.writer(f)
        w.writerow(["game", "game_seed", "seat", "bot", "score", "rank", "win_share", "first", "rounds", "decisions", "cards"])
        for r in summary.records:
            order = sorted(range(cfg.players), key=lambda p: -r.scores[p])
            for p in range(cfg.players):
                cards = ";".join(f"{kind}:{cid}" for kind, ids in sorted(r.chosen[p].items())
                                 if kind.split(" in ", 1)[1] in summary.live_zones for cid in ids)
                w.writerow([r.index, game_seed(cfg.seed, r.index), f"P{p + 1}", bots[p], r.scores[p], order.index(p) + 1,
                            round(r.share(p), 4), int(r.first == p), r.rounds, r.decisions, cards])
