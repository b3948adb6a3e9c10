"""Many games with bots, in parallel, with statistics a designer can trust, in
memory that does not grow with the number of games.

Game ``i`` of a run with seed ``s`` always uses the same game seed and bot
seeds, and results are gathered in game order, so the figures are identical
whatever the number of worker processes. Each worker loads and compiles the
pack once. A finished game comes back as an ``Outcome`` (numbers only: its
scores, winners, length, and the cards its players held and used, by number)
and is folded into the run's statistics (``meeple.workbench.tally``) and written as
``--records`` rows at once, then forgotten.

Ctrl-C stops a run cleanly: workers ignore SIGINT (the parent alone stops
them), and ``simulate`` returns the games finished so far, in order (the first
k games of the run, as a shorter run would have played them), marked
``interrupted``. A game is folded in whole or not at all (``_Folding``).
SIGTERM and a worker process that dies do the same (engine/workbench/stops.py says how,
and ``stops.stopped()`` which it was).
"""
from __future__ import annotations

import contextlib
import csv
import io
import signal
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterator, NamedTuple, Optional, TextIO

from meeple.play.agents import make_agents, seat_names
from meeple.core.errors import MeepleError
from meeple.runtime.game import Game, load_game
from meeple.play.session import play
from meeple.workbench.metrics import GameShape, Probe, ShapeTally, evaluation_name, format_shape
from meeple.workbench.stops import worker_signals
from meeple.workbench.tally import Tally, wilson  # noqa: F401 (wilson: also compare's)
from meeple.workbench.workers import context, ordered


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
    metrics: bool = True         # the game-shape metrics (meeple.workbench.metrics); off: none of their cost


class Outcome(NamedTuple):
    """One finished game, as numbers (cheap to send back from a worker): what the
    statistics and a records row need. Cards are named through ``CardTables``."""
    index: int
    scores: list
    winners: list
    rounds: int
    decisions: int
    first: int                  # the player who made the game's first choice (who starts)
    held: tuple                 # (player, zone kind, card) codes of the cards that entered a player's zones, each
                                # once, in the order the game's record of moves first lists them (see ``CardTables``)
    used: tuple                 # (player, card) codes, one per use, in the order of the choices
    shape: Optional[GameShape] = None       # the game's shape, when the run measures it

    def shares(self) -> list[float]:
        """Each player's share of the win (ties split it)."""
        w = self.winners
        share = 1 / len(w)
        return [share if p in w else 0.0 for p in range(len(self.scores))]


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


_EVALUATORS: dict = {}


def _evaluator(game: Game, text: str):
    """The bots' evaluation, compiled once per process."""
    key = (id(game), text)
    if key not in _EVALUATORS:
        from meeple.play.bots import evaluator
        _EVALUATORS[key] = evaluator(game, text or None)
    return _EVALUATORS[key]


class CardTables:
    """A pack's cards and the zones they enter, numbered, so that a game's outcome names
    them by number and a run's statistics by name.

    A *zone kind* is "KIND in ZONE" ("card in hand", "piece in play"): a card entering a player's
    zone counts for that zone kind, once a game and player however many copies entered.
    A held code is ``(player * nkinds + zone kind) * ndefs + card definition``, negative
    for a zone no player owns.

    A player *uses* card C when a choice of theirs that stood names C (seen from the
    engine alone, no game words):
    - an action whose parameter is a card (``with: a in activities``): C is the parameter;
    - an action a card grants (a card's own action): C is that card;
    - a ``choose`` among cards: C is the card picked.
    Each such choice counts once per card it names. The choices that stood are the
    game's log at its end (a refusal takes the choices it undoes out of the log, and
    their uses with them). A used code is ``player * ndefs + card definition``."""

    def __init__(self, game: Game):
        defs = game.vocab.card_defs
        self.ndefs = len(defs)
        self.def_ids = [c.id for c in defs]
        self.def_kinds = [c.kind for c in defs]
        # card kind -> its card ids (the usage tables list every one); a card of no copies
        # (copies: 0, as new-pack's examples) is never in a game, so never in a table
        self.kind_cards: dict[str, list[str]] = {}
        for c in defs:
            if c.copies or c.per_player:
                self.kind_cards.setdefault(c.kind, []).append(c.id)
        self.live_zones = tuple(z.name for z in game.vocab.zone_defs if z.in_play)
        self.has_evaluation = game.compiled.evaluation is not None        # what judges positions for the game-shape metrics
        names: list[str] = []
        zone_kind = []
        for z in game.vocab.zone_defs:
            name = f"{z.holds} in {z.name}"
            if name not in names:
                names.append(name)
            zone_kind.append(names.index(name))
        self.kind_names, self.nkinds = names, len(names)
        self.kind_live = [n.split(" in ", 1)[1] in self.live_zones for n in names]
        self.width = per_player = self.nkinds * self.ndefs          # a player's held codes: p * width ...
        # a slot's code base: a card's code is its slot's base + its definition; negative for
        # a slot no player owns (below -ndefs, so that every such code is negative)
        self.slot_base = [-1 - self.ndefs if owner < 0 else owner * per_player + zone_kind[zone] * self.ndefs
                          for owner, zone in zip(game.slot_owner, game.layout.slot_zone)]
        # the zone kinds a player's zones can be: once a run met them all, it stops looking for new ones
        self.ownable = len({zone_kind[zone] for owner, zone in zip(game.slot_owner, game.layout.slot_zone) if owner >= 0})
        self.card_def = game.card_def_index                 # card -> its definition
        self.actions = game.action_describer
        ids = game.vocab.card_def_ids
        # per action: whether its parameter is a card (its options are keyed by card id)
        self.card_param = [k is not None and _is_card_keyer(k, ids) for _, _, k, _ in self.actions.actions]
        self._ids = ids
        self._choices: dict = {}                           # a choice's describer -> whether it picks a card

    def held(self, track: set) -> tuple:
        """The held codes of a game's record of moves ((slot, card) pairs): each once, in
        the order the record first lists them; a move into a zone no player owns gives a
        negative code (the statistics skip them)."""
        base, card_def = self.slot_base, self.card_def
        return tuple(dict.fromkeys([base[s] + card_def[c] for s, c in track]))

    def used(self, log: list) -> tuple:
        """The used codes of a finished game's log, one per use, in the order of the choices.
        The log as the game left it (``st._log``: each choice with its decision), before
        anyone reads ``st.log``, which writes the option keys in place of the decisions."""
        out: list[int] = []
        add = out.append
        actions, card_param, card_def, ndefs, sorts = self.actions, self.card_param, self.card_def, self.ndefs, self._choices
        for player, index, dec in log:
            d = dec.describer
            if d is actions:
                ai, card, x = dec.values[index]
                if card is not None:
                    add(player * ndefs + card_def[card])
                if x is not None and card_param[ai] and x.__class__ is int:
                    add(player * ndefs + card_def[x])
            elif sorts[d] if d in sorts else self._sort(d):
                v = dec.values[index]
                if v.__class__ is int:
                    add(player * ndefs + card_def[v])
        return tuple(out)

    def _sort(self, describer) -> bool:
        """Whether a choice described so picks a card (its options are keyed by card id)."""
        keyer = getattr(describer, "keyer", None)
        sort = self._choices[describer] = keyer is not None and _is_card_keyer(keyer, self._ids)
        return sort

    def outcome(self, game: Game, st, index: int, probe: Optional[Probe] = None) -> Outcome:
        log = st._log           # read as logged: the decisions, no keys made
        winners = game.winners(st)
        return Outcome(index, st.scores, winners, st.round, len(log), log[0][0] if log else 0,
                       self.held(st.track), self.used(log),
                       probe.shape(log, st.scores, winners) if probe is not None else None)


def _is_card_keyer(keyer, ids: list) -> bool:
    """Whether options keyed by ``keyer`` are cards (their key is the card's id)."""
    return getattr(keyer, "__self__", None) is ids


_TABLES: "weakref.WeakKeyDictionary[Game, CardTables]" = weakref.WeakKeyDictionary()


def card_tables(game: Game) -> CardTables:
    """The game's ``CardTables``, made once per game and process."""
    tables = _TABLES.get(game)
    if tables is None:
        tables = _TABLES[game] = CardTables(game)
    return tables


def run_one(game: Game, cfg: SimConfig, index: int) -> Outcome:
    gs = game_seed(cfg.seed, index)
    evaluate = _evaluator(game, cfg.evaluation)           # compiled once per process
    agents = make_agents(cfg.bots, cfg.players, gs, game, evaluate)
    # the game-shape metrics judge positions with the bots' evaluation, seeing each decision's state
    probe = Probe(evaluate.every) if cfg.metrics else None      # type: ignore[attr-defined]
    try:
        st = play(game, cfg.players, gs, agents, track=True, options=dict(cfg.options),
                  on_round=probe.see if probe is not None else None)
    except MeepleError as err:
        # which game of the run stopped (the run stops there), and whether the metrics' judging of a
        # position did: see ``stopped_game``
        err.game, err.config = index, cfg
        err.judging = probe is not None and probe.judging
        raise
    return card_tables(game).outcome(game, st, index, probe)


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
    # random bots never evaluate: a fault of the metrics' judging would not show again in 'play'
    blind = all(b.strip() == "random" for b in cfg.bots.split(","))
    judged = ("; the fault came as the game-shape metrics judged a position with the evaluation, which 'play'"
              " does not do with random bots (simulate --no-metrics runs without them)") \
        if blind and getattr(err, "judging", False) else ""
    return f"game {index} of {cfg.pack}{changed} (game seed {gs}) stopped the run; to play it again: {again}{judged}"


# ---------------------------------------------------------------- running the games
# A run plays one config (simulate) or several side by side (compare: base and
# variant), in batches of games: side 0's batch j, then side 1's batch j, and so on,
# so that the games of every side come back in game order and game i of each side
# comes back close to the others' (compare pairs them as they come).
Task = tuple        # (side, config, first game, end)


def _chunk(cfg: SimConfig) -> int:
    return max(1, min(50, cfg.games // max(1, cfg.workers * 8)))


def _tasks(cfgs: list[SimConfig]) -> Iterator[Task]:
    """The batches, made as they are handed out (nothing a game is kept for the run)."""
    games, chunk = cfgs[0].games, _chunk(cfgs[0])
    for start in range(0, games, chunk):
        for side, cfg in enumerate(cfgs):
            yield side, cfg, start, min(games, start + chunk)


_WORKER: dict = {}


def _key(cfg: SimConfig) -> tuple:
    return (cfg.pack, cfg.sets)


def _init_worker(keys: tuple) -> None:
    # Ctrl-C and SIGTERM are the parent's to handle: a worker stops, silently, when the
    # parent terminates it, or when the parent dies (engine/workbench/stops.py)
    worker_signals()
    # a forked worker already holds the parent's compiled games (copy-on-write)
    games = _WORKER.setdefault("games", {})
    for key in keys:
        if key not in games:
            games[key] = load_game(*key)


def _work(task: Task) -> tuple[int, list[Outcome]]:
    side, cfg, start, end = task
    game = _WORKER["games"][_key(cfg)]
    return side, [run_one(game, cfg, i) for i in range(start, end)]


def play_runs(cfgs: list[SimConfig], progress: Optional[Callable[[int], None]] = None,
              games: Optional[list[Game]] = None) -> Iterator[tuple[int, Outcome]]:
    """(side, outcome) for every game of every config (same number of games each), each
    side's in game order, batches interleaved as said above. ``games``: the configs'
    games, already loaded (else each is loaded here)."""
    cfg = cfgs[0]
    if cfg.backend == "ray":
        yield from _run_ray(cfgs, progress)
        return
    loaded = games or [load_game(c.pack, c.sets) for c in cfgs]
    if cfg.workers <= 1:
        for side, c, start, end in _tasks(cfgs):
            for i in range(start, end):
                yield side, run_one(loaded[side], c, i)
                if progress:
                    progress(1)
        return
    if context().get_start_method() == "fork":        # forked workers share the parent's compiled games
        _WORKER.setdefault("games", {}).update({_key(c): g for c, g in zip(cfgs, loaded)})
    batches = -(-cfg.games // _chunk(cfg)) * len(cfgs)
    # in order, the workers silent, and a worker that dies stops the run (engine/workbench/workers.py)
    for side, outcomes in ordered(_work, _tasks(cfgs), min(cfg.workers, batches), _init_worker,
                                  (tuple(_key(c) for c in cfgs),)):
        for o in outcomes:
            yield side, o
            if progress:
                progress(1)


def run(cfg: SimConfig, progress: Optional[Callable[[int], None]] = None, game: Optional[Game] = None) -> Iterator[Outcome]:
    """Yield one config's outcomes in game order."""
    runs = play_runs([cfg], progress, [game] if game is not None else None)
    try:
        for _, o in runs:
            yield o
    finally:
        runs.close()


class _RayWorker:
    """One Ray actor: loads and compiles the packs once, then plays batches."""

    def __init__(self, keys: tuple):
        self.games = {key: load_game(*key) for key in keys}

    def play(self, side: int, cfg: SimConfig, start: int, end: int) -> tuple[int, list[Outcome]]:
        game = self.games[_key(cfg)]
        return side, [run_one(game, cfg, i) for i in range(start, end)]


def _run_ray(cfgs: list[SimConfig], progress: Optional[Callable[[int], None]]) -> Iterator[tuple[int, Outcome]]:
    """The same batches on Ray actors (the optional extra meeple[ray]); results
    come back in game order, so they equal a local run's."""
    cfg = cfgs[0]
    with ray_session(cfg.workers, cfg.address) as ray:
        actor = ray.remote(_RayWorker)
        keys = tuple(_key(c) for c in cfgs)
        workers = [actor.remote(keys) for _ in range(max(1, cfg.workers))]
        pending = deque(workers[i % len(workers)].play.remote(*task) for i, task in enumerate(_tasks(cfgs)))
        while pending:                    # in order: identical to a local run
            side, outcomes = ray.get(pending.popleft())     # a batch read is let go (Ray frees it)
            for o in outcomes:
                yield side, o
                if progress:
                    progress(1)


@contextlib.contextmanager
def ray_session(workers: int, address: str = "") -> Iterator[Any]:
    """Ray for as long as the block runs, as the ``ray`` module: the one already running
    (a caller's longer session, such as a whole ``meeple tune``), else a local one
    (``workers`` CPUs) or the cluster at ``address``, stopped at the end. Starting Ray
    takes seconds: a caller that makes many runs holds one session around them."""
    try:
        import ray
    except ImportError as err:
        raise RuntimeError("the Ray backend needs Ray: pip install 'meeple[ray]'") from err
    started = not ray.is_initialized()
    if started:
        kwargs = {"address": address} if address else {"num_cpus": max(1, workers)}
        ray.init(include_dashboard=False, log_to_driver=False, ignore_reinit_error=True, **kwargs)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


class _Folding:
    """A finished game is folded into the statistics and written as records rows whole,
    or not at all: while it is (``with folding:``), a signal whose handler would raise
    (Ctrl-C's KeyboardInterrupt, or a SIGTERM handler's exception) waits, and is handled
    as soon as the game is in. Outside, signals are handled as they come (a game being
    played is dropped). Only the main thread handles signals; elsewhere this does nothing."""

    SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))

    def __init__(self) -> None:
        self.busy = False
        self.waiting: Optional[tuple] = None
        self.handlers: dict = {}

    def install(self) -> "_Folding":
        if threading.current_thread() is threading.main_thread():
            for sig in self.SIGNALS:
                handler = signal.getsignal(sig)
                if callable(handler):
                    self.handlers[sig] = handler
                    signal.signal(sig, self._deliver)
        return self

    def uninstall(self) -> None:
        for sig, handler in self.handlers.items():
            signal.signal(sig, handler)
        self.handlers = {}

    def _deliver(self, signum: int, frame) -> None:
        if self.busy:
            self.waiting = (signum, frame)
        else:
            self.handlers[signum](signum, frame)

    def __enter__(self) -> None:
        self.busy = True

    def __exit__(self, *exc) -> None:
        self.busy = False
        if self.waiting is not None and exc[0] is None:
            signum, frame = self.waiting
            self.waiting = None
            self.handlers[signum](signum, frame)


class RecordsUnwritable(Exception):
    """Writing ``--records`` failed (a full disk...): ``error`` is the OSError."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


class RecordWriter:
    """``--records``: one CSV row per player per game, what a designer loads into a
    spreadsheet, written as each game is folded in (in game order), a game's rows in
    one write."""

    HEADER = ["game", "game_seed", "seat", "bot", "score", "rank", "win_share", "first", "rounds", "decisions", "cards"]

    def __init__(self, file: TextIO, cfg: SimConfig, tables: CardTables):
        self.file, self.cfg, self.tables = file, cfg, tables
        self.bots = seat_names(cfg.bots, cfg.players)       # the bot of each seat, as the games were played
        self.buffer = io.StringIO()
        self.csv = csv.writer(self.buffer)
        self.csv.writerow(self.HEADER)
        self._flush()

    def _flush(self) -> None:
        text = self.buffer.getvalue()
        self.buffer.seek(0)
        self.buffer.truncate()
        try:
            self.file.write(text)
        except OSError as err:
            raise RecordsUnwritable(err) from err

    def cards(self, o: Outcome) -> list[str]:
        """Per player, the cards that entered their live zones: 'KIND in ZONE:card' by
        zone kind, then card id."""
        t = self.tables
        out: list[list[tuple[str, str]]] = [[] for _ in range(self.cfg.players)]
        for code in o.held:
            if code >= 0:
                p, rest = divmod(code, t.width)
                kind, d = divmod(rest, t.ndefs)
                if t.kind_live[kind]:
                    out[p].append((t.kind_names[kind], t.def_ids[d]))
        return [";".join(f"{kind}:{cid}" for kind, cid in sorted(cards)) for cards in out]

    def write(self, o: Outcome) -> None:
        cfg, scores = self.cfg, o.scores
        order = sorted(range(cfg.players), key=lambda p: -scores[p])
        shares, cards, seed = o.shares(), self.cards(o), game_seed(cfg.seed, o.index)
        self.csv.writerows([o.index, seed, f"P{p + 1}", self.bots[p], scores[p], order.index(p) + 1,
                            round(shares[p], 4), int(o.first == p), o.rounds, o.decisions, cards[p]]
                           for p in range(cfg.players))
        self._flush()


@dataclass
class Summary:
    """A run's figures (``tally``), the time it took, and whether Ctrl-C cut it short
    (then they are of its first ``games`` games)."""
    config: SimConfig
    seconds: float
    tally: Tally
    interrupted: bool = False

    @property
    def games(self) -> int:
        """The games folded in."""
        return self.tally.n

    @property
    def live_zones(self) -> tuple:
        return self.tally.tables.live_zones

    def to_dict(self) -> dict:
        cfg, t = self.config, self.tally
        n = t.n
        cards = t.card_tables()
        rounds, spread = t.rounds.interval(), t.spread.interval()
        flo, fhi = wilson(t.first_wins, n)
        return {
            "pack": cfg.pack, "sets": list(cfg.sets), "players": cfg.players, "games": n, "seed": cfg.seed, "workers": cfg.workers,
            "bots": cfg.bots,
            "options": dict(cfg.options),
            "seconds": round(self.seconds, 3),
            "games_per_second": round(n / self.seconds, 2) if self.seconds > 0 else None,
            "mean_rounds": rounds[0], "rounds_ci": [rounds[1], rounds[2]],
            "mean_decisions": t.decisions / n if n else 0,
            # the gap between the best and the worst score of a game
            "score_spread": spread[0], "spread_ci": [spread[1], spread[2]],
            # the win rate of the player who made the first choice, against a fair 1 / players
            "first_player": {"win_rate": t.first_wins / n if n else 0.0, "win_ci": [flo, fhi], "fair": 1 / cfg.players},
            "seats": t.seats(), "cards": cards,
            # per card kind, every card: how often players used it (see CardTables) and how its users did
            "used": t.use_tables(),
            # the text report shows cards that reached a live zone (played, built)
            "shown": sorted(k for k in cards if k.split(" in ", 1)[1] in self.live_zones),
            **({"shape": t.shape.to_dict(cfg.players, t.first_wins, t.wins, n, self.evaluation)} if t.shape is not None else {}),
            **({"interrupted": True, "games_requested": cfg.games} if self.interrupted else {}),
        }

    @property
    def evaluation(self) -> str:
        """What the game-shape metrics judged positions with, in words."""
        return evaluation_name(self.config.evaluation, self.tally.tables.has_evaluation)


def simulate(cfg: SimConfig, progress: Optional[Callable[[int], None]] = None, game: Optional[Game] = None,
             records: Optional[TextIO] = None) -> Summary:
    """Run the games; on Ctrl-C, the summary of those finished (``interrupted``).
    ``game``: the config's game, already loaded; ``records``: where to write the
    ``--records`` rows, as each game finishes."""
    game = game or load_game(cfg.pack, cfg.sets)
    tables = card_tables(game)
    tally = Tally(tables, cfg.players, ShapeTally() if cfg.metrics else None)
    writer = RecordWriter(records, cfg, tables) if records is not None else None
    start = time.perf_counter()
    interrupted = False
    folding = _Folding().install()
    games = play_runs([cfg], progress, [game])
    try:
        for _, o in games:
            with folding:
                if writer is not None:
                    writer.write(o)
                tally.add(o)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        try:
            games.close()        # stops the workers now, not when the generator is collected
        finally:
            folding.uninstall()
    return Summary(cfg, time.perf_counter() - start, tally, interrupted)


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
             f"[{pct(d['first_player']['win_ci'][0])}, {pct(d['first_player']['win_ci'][1])}] (fair: {pct(d['first_player']['fair'])})",
             *(format_shape(d["shape"]) if "shape" in d else ()), "",
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
