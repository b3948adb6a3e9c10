"""A ``meeple tune`` spec: what may move in a pack, the objective to lower, the budget.

The spec is a YAML file (``kind: tune``, schemas/tune.schema.json) read like a pack
file: the safe loader, the JSON Schema, then checks against the pack itself (every
parameter's values as ``--set`` checks them, every card and zone the objective names).
Every problem is reported at once, at its file:line:col.

The objective is built from figures ``simulate`` already computes, each folded into a
*figure vector* of plain sums (games, each seat's win shares, the first chooser's,
rounds, decisions, and the holders and win shares of the cards the objective names), so
that the figures of any set of games are the sum of their vectors: a block's, a
setting's (its blocks added up), a bootstrap resample's.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from meeple.core.errors import ContentError, MeepleError, PackInvalid, Problems, Span, suggest
from meeple.loading.schemas import validate
from meeple.loading.yamlsrc import Document, load_yaml
from meeple.runtime.game import Game, load_game

TERMS = ("seats", "first_player", "cards", "card", "length", "skill")
DEFAULTS = {"trials": 20, "block": 100, "blocks": 10, "prune": 0.1, "candidates": 3, "games": 1000}


@dataclass(frozen=True)
class Parameter:
    """One thing that may move: its ``--set`` name, and its values (``choices``) or a
    range (``low``..``high`` by ``step``; no step: any number between)."""
    name: str
    choices: tuple = ()
    low: float = 0
    high: float = 0
    step: Optional[float] = None
    integer: bool = False
    written: Any = None          # its value in the pack as written

    def grid(self) -> Optional[tuple]:
        """Every value it may take, when they are finitely many (else None)."""
        if self.choices:
            return self.choices
        if self.step is None and not self.integer:
            return None
        step = self.step or 1
        count = int(math.floor((self.high - self.low) / step + 1e-9)) + 1
        values = [self.low + i * step for i in range(count)]
        return tuple(int(round(v)) if self.integer else v for v in values)

    def setting(self, value: Any) -> str:
        """The ``--set`` text that gives this value."""
        if isinstance(value, bool):
            return f"{self.name}={'true' if value else 'false'}"
        return f"{self.name}={value}"


@dataclass(frozen=True)
class Term:
    """One term of the objective (``TERMS``), with what it reads."""
    kind: str
    weight: float = 1.0
    zone: str = ""            # cards, card: the zone kind ("KIND in ZONE")
    card: str = ""            # card: its id
    target: float = 0.0       # length: the mean to reach
    measure: str = ""         # length: 'rounds' or 'decisions'
    seats: tuple = ()         # skill: 0-based seats of the more skilled bots

    def describe(self, players: int) -> str:
        if self.kind == "seats":
            what = f"the seats' win rates' distance from a fair {100 / players:.1f}% (root mean square)"
        elif self.kind == "first_player":
            what = f"the first player's win rate's distance from a fair {100 / players:.1f}%"
        elif self.kind == "cards":
            what = f"the spread of the win rates of the cards in '{self.zone}' (root mean square, by holders)"
        elif self.kind == "card":
            what = f"the effect of {self.card} ('{self.zone}') on winning: its holders' win rate against the zone's average"
        elif self.kind == "length":
            what = f"the mean {self.measure}' distance from {self.target:g}"
        else:
            what = f"the win rate seats {', '.join(f'P{s + 1}' for s in self.seats)} fall short of a fair share by (negative: above it)"
        return what + (f", times {self.weight:g}" if self.weight != 1 else "")


@dataclass(frozen=True)
class Spec:
    """A spec read and checked against its pack."""
    file: str
    pack: str                 # as load_game names it
    players: int
    bots: str
    evaluation: str
    options: tuple
    seed: int
    parameters: tuple         # Parameter, in the spec's order
    terms: tuple              # Term
    trials: int
    block: int
    blocks: int
    prune: float
    candidates: int
    confirm_games: int
    data: dict                # the spec as read (its fingerprint names the study)

    def grid(self) -> Optional[list[tuple]]:
        """Every setting, when the parameters have at most ``trials`` of them together (else None)."""
        import itertools
        grids = [p.grid() for p in self.parameters]
        if any(g is None for g in grids):
            return None
        size = math.prod(len(g) for g in grids if g is not None)
        return [tuple(s) for s in itertools.product(*[g for g in grids if g is not None])] if size <= self.trials else None

    def sets(self, values: tuple) -> tuple:
        """The ``--set`` changes of a setting (one value per parameter)."""
        return tuple(p.setting(v) for p, v in zip(self.parameters, values))

    def written(self) -> tuple:
        return tuple(p.written for p in self.parameters)


def _pack_name(ref: str, base: Path) -> str:
    """A pack the spec names: a folder beside the spec, else as given (a shipped id, a path)."""
    parts = []
    for part in ref.split("+"):
        candidate = base / part
        parts.append(str(candidate) if (candidate / "pack.yaml").is_file() else part)
    return "+".join(parts)


def read_spec(path: str) -> tuple[Spec, Game]:
    """The spec at ``path`` and its pack as written, loaded; PackInvalid with every
    problem (the spec's, located in it; the pack's own, if it does not load)."""
    problems = Problems()
    try:
        doc = load_yaml(path, str(path))
    except ContentError as err:
        problems.add(err)
        raise PackInvalid(problems) from None
    problems.extend(validate(doc, "tune"))
    if problems.errors:
        raise PackInvalid(problems)
    data = doc.data
    pack = _pack_name(str(data["pack"]), Path(path).parent)
    try:
        game = load_game(pack)
    except PackInvalid:
        raise
    except MeepleError as err:
        problems.add(ContentError(f"pack: {err.message}", doc.span(("pack",)), getattr(err, "hint", None)))
        raise PackInvalid(problems) from None
    spec = _Checker(doc, game, pack, problems).spec()
    if problems.errors:
        raise PackInvalid(problems)
    return spec, game


class _Checker:
    """The spec's values against the pack: each problem at its place."""

    def __init__(self, doc: Document, game: Game, pack: str, problems: Problems):
        self.doc, self.game, self.pack, self.problems = doc, game, pack, problems
        from meeple.workbench.simulate import card_tables
        self.tables = card_tables(game)

    def error(self, message: str, path: tuple, hint: Optional[str] = None) -> None:
        self.problems.add(ContentError(message, self.doc.span(path), hint))

    def spec(self) -> Spec:
        d = self.doc.data
        players = d["players"]
        if not self.game.min_players <= players <= self.game.max_players:
            self.error(f"{self.game.id} is for {self.game.min_players}-{self.game.max_players} players, not {players}", ("players",))
        options = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in (d.get("options") or {}).items()}
        try:
            self.game.rules.resolve_options(options)
        except MeepleError as err:
            self.error(f"options: {err.message}", ("options",), getattr(err, "hint", None))
        bots, evaluation = d.get("bots", "random"), d.get("eval", "")
        try:
            from meeple.play.agents import make_agents, seat_names
            from meeple.play.bots import evaluator
            seat_names(bots, players, humans=False)         # read as --bots is everywhere
            make_agents(bots, players, 0, self.game, evaluator(self.game, evaluation or None))
        except ValueError as err:
            self.error(f"bots: {err}", ("bots",))
        except MeepleError as err:
            self.error(f"eval: {err.message}", ("eval",) if "eval" in d else ("bots",))
        params = tuple(self.parameter(name, value, players) for name, value in d["parameters"].items())
        terms = tuple(self.term(i, item, players) for i, item in enumerate(d["objective"]))
        search, confirm = d.get("search") or {}, d.get("confirm") or {}
        return Spec(self.doc.file, self.pack, players, bots, evaluation, tuple(sorted(options.items())), d.get("seed", 0),
                    params, terms, search.get("trials", DEFAULTS["trials"]), search.get("block", DEFAULTS["block"]),
                    search.get("blocks", DEFAULTS["blocks"]), search.get("prune", DEFAULTS["prune"]),
                    confirm.get("candidates", DEFAULTS["candidates"]), confirm.get("games", DEFAULTS["games"]), d)

    def parameter(self, name: str, value: Any, players: int) -> Parameter:
        at = ("parameters", name)
        written = self.written(name, players)
        if isinstance(value, list):
            p = Parameter(name, choices=tuple(value), written=written)
            if len(set(map(repr, value))) < len(value):
                self.error(f"parameter '{name}': a value is listed twice", at)
            checks = [(v, at + (i,)) for i, v in enumerate(value)]
        else:
            low, high, step = value["low"], value["high"], value.get("step")
            integer = all(isinstance(x, int) and not isinstance(x, bool) for x in (low, high, step if step is not None else 1))
            p = Parameter(name, low=low, high=high, step=step, integer=integer, written=written)
            if high < low:
                self.error(f"parameter '{name}': high ({high}) is below low ({low})", at + ("high",))
            if step is not None and step <= 0:
                self.error(f"parameter '{name}': step must be above 0, found {step}", at + ("step",))
            checks = [(low, at + ("low",)), (high, at + ("high",))]
        for v, path in checks:          # each as --set checks it (a value a pack file could not hold there is refused)
            try:
                load_game(self.pack, (p.setting(v),), generate=False)
            except PackInvalid as err:
                for e in err.problems.errors:
                    self.error(f"parameter '{name}': {e.message}", path, getattr(e, "hint", None))
            except MeepleError as err:
                self.error(f"parameter '{name}': {err.message}", path)
        return p

    def written(self, name: str, players: int) -> Any:
        """A parameter's value in the pack as written (None where it has none)."""
        target = name.split("/")[-1]
        if "." in target:
            cid, _, field = target.partition(".")
            card = next((c for c in self.game.pack.cards if c.id == cid), None)
            return dict(card.fields).get(field, getattr(card, field, None)) if card is not None else None
        const = next((c for c in self.game.pack.game.constants if c.name == target), None)
        return const.value(players) if const is not None else None

    def term(self, i: int, item: dict, players: int) -> Term:
        (kind, body), = item.items()
        body = body or {}
        at = ("objective", i, kind)
        weight = body.get("weight", 1)
        if weight <= 0:
            self.error(f"{kind}: weight must be above 0, found {weight}", at + ("weight",))
        zone = body.get("zone", "")
        if kind in ("cards", "card") and zone not in self.tables.kind_names:
            self.error(f"{kind}: no zone kind '{zone}' in {self.game.id}", at + ("zone",),
                       suggest(zone, self.tables.kind_names) or f"zone kinds: {', '.join(self.tables.kind_names)}")
        card = body.get("card", "")
        if kind == "card" and card not in self.tables.def_ids:
            self.error(f"card: no card '{card}' in {self.game.id}", at + ("card",), suggest(card, self.tables.def_ids))
        measure = next((m for m in ("rounds", "decisions") if m in body), "")
        if kind == "length" and not measure:
            self.error("length: give the target mean, rounds: N or decisions: N", at)
        if kind == "length" and "rounds" in body and "decisions" in body:
            self.error("length: give rounds or decisions, not both", at)
        seats = tuple(s - 1 for s in body.get("seats", ()))
        for j, s in enumerate(seats):
            if s >= players:
                self.error(f"skill: there is no seat {s + 1} with {players} players", at + ("seats", j))
        return Term(kind, weight, zone, card, body.get(measure, 0) if measure else 0, measure, seats)


# ---------------------------------------------------------------- figures
class Figures:
    """How a game's outcome becomes a figure vector, and an objective is read from one.

    Layout: [games, win shares of each seat..., first chooser's win shares, rounds,
    decisions, then per card followed (zone kind, card): holders, their win shares]."""

    def __init__(self, spec: Spec, game: Game):
        from meeple.workbench.simulate import card_tables
        t = card_tables(game)
        self.spec, self.players = spec, spec.players
        self.width, self.ndefs = t.width, t.ndefs
        self.keys: dict[int, int] = {}          # zone kind * ndefs + card -> its place in the vector
        self.zones: dict[str, list[int]] = {}   # zone kind -> the places of its cards
        for term in spec.terms:
            if term.kind in ("cards", "card") and term.zone not in self.zones:
                k = t.kind_names.index(term.zone)
                places = []
                for d in range(t.ndefs):
                    places.append(self.keys.setdefault(k * t.ndefs + d, self.base + 2 * len(self.keys)))
                self.zones[term.zone] = places
        self.def_ids = t.def_ids
        self.size = self.base + 2 * len(self.keys)

    @property
    def base(self) -> int:
        return self.players + 4

    def empty(self) -> list:
        return [0] * self.size

    def add(self, v: list, o) -> None:
        """Fold one finished game (an ``Outcome``) into the vector ``v``."""
        players, shares = self.players, o.shares()
        v[0] += 1
        for p in range(players):
            v[1 + p] += shares[p]
        v[1 + players] += shares[o.first]
        v[2 + players] += o.rounds
        v[3 + players] += o.decisions
        if self.keys:
            width, keys = self.width, self.keys
            for code in o.held:
                if code >= 0:
                    p, key = divmod(code, width)
                    at = keys.get(key)
                    if at is not None:
                        v[at] += 1
                        v[at + 1] += shares[p]

    def objective(self, v: list) -> float:
        """The weighted sum of the terms, read from a vector's sums."""
        return sum(t.weight * self.term(t, v) for t in self.spec.terms)

    def term(self, t: Term, v: list) -> float:
        n, players = v[0], self.players
        if not n:
            return 0.0
        fair = 1 / players
        if t.kind == "seats":
            return math.sqrt(sum((v[1 + p] / n - fair) ** 2 for p in range(players)) / players)
        if t.kind == "first_player":
            return abs(v[1 + players] / n - fair)
        if t.kind == "length":
            return abs(v[(2 if t.measure == "rounds" else 3) + players] / n - t.target)
        if t.kind == "skill":
            return len(t.seats) * fair - sum(v[1 + s] for s in t.seats) / n
        places = self.zones[t.zone]
        holders = sum(v[at] for at in places)
        if not holders:
            return 0.0 if t.kind == "cards" else 1.0
        mean = sum(v[at + 1] for at in places) / holders
        if t.kind == "cards":
            return math.sqrt(sum((v[at + 1] / v[at] - mean) ** 2 * v[at] for at in places if v[at]) / holders)
        at = places[self.def_ids.index(t.card)]
        return abs(v[at + 1] / v[at] - mean) if v[at] else 1.0     # a card nobody had: the largest effect


def add_vectors(vectors) -> list:
    """The sum of figure vectors (their games together)."""
    vectors = list(vectors)
    out = list(vectors[0])
    for v in vectors[1:]:
        for i, x in enumerate(v):
            out[i] += x
    return out
