"""Bots that look ahead: greedy (one ply) and information-set MCTS.

A planning bot never reads the true state. It gets a ``Perspective``: the
game, and samples of states consistent with what its player knows (the
hidden cards dealt again at random among the places they could be, every
hidden variable drawn again from the values it may take, and a fresh random
generator for what is still to come). It judges positions with
an evaluation written in the effect language: the pack's ``score:
evaluation`` unless a simulation gives another (``--eval``), so designers
say what "good" means without Python.
"""
from __future__ import annotations

import math
import random as _random
import time
from typing import Callable, Optional

from dsl.runtime import Frame
from dsl.types import RULE_FAULTS
from dsl.typesys import BOOL, INT, PLAYER, Card, Enum

from .errors import IllegalChoice, MeepleError
from .state import State

Evaluate = Callable[[State, int], float]


def hidden_slots(game, player: int) -> list[int]:
    """Zone slots whose contents (or order) ``player`` does not see."""
    out = []
    for zi, z in enumerate(game.zone_defs):
        base = game.zone_base[zi]
        count = len(game.kind_cards.get(z.of_card, ())) if z.of_card is not None else None
        for k in range(count if count is not None else (game.max_players if z.per_player else 1)):
            slot = base + k
            if z.visibility == "public" and not z.ordered:
                continue
            if z.visibility == "owner" and z.per_player and k == player:
                continue
            out.append(slot)
    return out


def hidden_variables(game, players: int) -> tuple[list[tuple[int, tuple]], list[tuple[int, tuple]]]:
    """The hidden variables (``visibility: nobody``) of a game of ``players``, each as
    (column, the values a player may believe it holds): game variables, then player
    variables (the same values for every seat).

    A hidden variable is out of every player's view, so what a player knows of
    it is its declared type, not its value: the values are the type's own (true
    and false; the seats of the game; an enum's values; the cards of the kind,
    pieces of absent seats left out), with none when the type allows it. A
    number or a text has no such list: it is believed to hold its declared
    default. Drawn uniformly, a sample never depends on the true value (sound,
    if uninformed: a player who set a face-down marker plans as if they had
    forgotten it)."""
    cache = game.__dict__.setdefault("_hidden_variables", {})
    if players not in cache:
        defn = game.defn
        out: tuple[list, list] = ([], [])
        for decls, index, types, defaults, dest in ((defn.variables, game.gvar_index, game.gvar_types, game.gvar_defaults, out[0]),
                                                    (defn.player_variables, game.pvar_index, game.pvar_types, game.pvar_defaults, out[1])):
            for d in decls:
                if d.visibility != "nobody":
                    continue
                i = index[d.name]
                values = _values_of(game, types[i], players) or [defaults[i]]
                if d.type.nullable and None not in values:
                    values.append(None)
                dest.append((i, tuple(values)))
        cache[players] = out
    return cache[players]


def _values_of(game, t, players: int) -> Optional[list]:
    """Every value of a declared type in a game of ``players`` (None for a number or a text)."""
    if t == BOOL:
        return [False, True]
    if t == PLAYER:
        return list(range(players))
    if isinstance(t, Enum):
        return list(game.enums.get(t.name, ()))
    if isinstance(t, Card):
        cards = game.kind_cards.get(t.kind, ()) if t.kind is not None else range(game.ncards)
        return [c for c in cards if game.card_seat[c] < players]
    return None


def determinize(game, st: State, player: int, rng: _random.Random) -> State:
    """A copy of ``st`` as ``player`` might believe it: the cards of every zone
    hidden from them dealt again at random (each card kind among the hidden
    zones that hold it, every zone keeping its size), every hidden variable
    drawn again from the values it may take (``hidden_variables``) and a new
    random generator; the pending decision is asked again from the copy."""
    s = st.clone()
    slots = [slot for slot in game.hidden_slots_of(player) if slot < len(s.zones) and s.zones[slot]]
    # cards the running rules hold in their locals (a loop's list, a chosen card)
    # stay put: moving them under a running effect would break its premises
    held: set = set()
    for fr in s.frames:
        for v in fr.locals:
            if isinstance(v, int) and not isinstance(v, bool):
                held.add(v)
            elif isinstance(v, list):
                held.update(x for x in v if isinstance(x, int))
    by_kind: dict[str, list[int]] = {}
    for slot in slots:
        by_kind.setdefault(game.zone_defs[game.slot_zone[slot]].holds, []).append(slot)
    for kind_slots in by_kind.values():
        free = [(slot, i) for slot in kind_slots for i, c in enumerate(s.zones[slot]) if c not in held]
        if len(free) < 2:
            continue
        cards = [s.zones[slot][i] for slot, i in free]
        rng.shuffle(cards)
        for (slot, i), c in zip(free, cards):
            s.zones[slot][i] = c
            s.loc[c] = slot
    gvars, pvars = hidden_variables(game, s.players)
    for i, values in gvars:
        s.gvars[i] = values[rng.randrange(len(values))]
    n = game.npvars
    for p in range(s.players):
        for i, values in pvars:
            s.pvars[p * n + i] = values[rng.randrange(len(values))]
    s.rng = rng.getrandbits(64) or 1
    if s.pending is not None:
        try:
            game.repose(s)
        except MeepleError:
            return st.clone()       # a mid-effect state the reshuffle upset: plan on the plain copy
    return s


class Perspective:
    """What a planning bot may use when its player decides."""

    def __init__(self, game, st: State, player: int):
        self.game = game
        self.player = player
        self._state = st

    def sample(self, rng: _random.Random) -> State:
        return determinize(self.game, self._state, self.player, rng)


def evaluator(game, text: Optional[str] = None) -> Evaluate:
    """The value of a state for a player: the pack's evaluation (or ``text``),
    else the score resource; a finished game counts its result."""
    if text:
        fn, nlocals = game.expression(text, INT)
    elif game.evaluation:
        fn, nlocals = game.evaluation[0], game.evaluation[1].nlocals
    else:
        fn, nlocals = None, 0
    nlocals = max(1, nlocals)

    def value(st: State, p: int) -> float:
        if fn is None:
            return st.res[p * game.nres + game.score_res]
        try:
            v = fn(st, Frame(-1, 0, [None] * nlocals, p, -1))
        except (MeepleError, *RULE_FAULTS):      # a position the evaluation cannot judge counts as 0
            return 0.0
        return float(v or 0)
    return value


def outcome(game, st: State) -> list[float]:
    """Each player's share of the win in a finished game."""
    winners = game.winners(st)
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(st.players)]


def relative(values: list[float], p: int) -> float:
    """How far ahead of the best other player ``p`` is."""
    others = [v for q, v in enumerate(values) if q != p]
    return values[p] - (max(others) if others else 0.0)


def _apply_key(game, st: State, key: str | int) -> bool:
    try:
        game.apply(st, key)
        return True
    except IllegalChoice:
        return False


class GreedyAgent:
    """One move: each legal option is played on a sample of the game, and the one
    leaving the player furthest ahead by the evaluation wins (ties at random).
    When an option leads to more choices of the same player (a die taken, then
    what to do with it), those are followed greedily, up to ``follow`` more
    choices, so the option is judged by what it leads to."""

    name = "greedy"
    needs_state = True

    def __init__(self, seed: int, evaluate: Evaluate, follow: int = 4):
        self.rng = _random.Random(seed)
        self.evaluate = evaluate
        self.follow = follow

    def value(self, game, s: State, p: int) -> float:
        if s.over:
            return 1e9 * (outcome(game, s)[p] - 0.5)
        return relative([self.evaluate(s, q) for q in range(s.players)], p)

    def best(self, game, base: State, p: int, keys: list[str]) -> tuple[list[int], float, list[State]]:
        """Indices of the best keys, their value, and the states they lead to."""
        best, best_value, states = [], -math.inf, []
        for i, key in enumerate(keys):
            s = base.clone()
            if not _apply_key(game, s, key):
                states.append(None)
                continue
            states.append(s)
            value = self.value(game, s, p)
            if value > best_value + 1e-9:
                best, best_value = [i], value
            elif abs(value - best_value) <= 1e-9:
                best.append(i)
        return best, best_value, states

    def choose(self, persp: Perspective, options: list[list]) -> int:
        if len(options) == 1:
            return 0
        game, p = persp.game, persp.player
        base = persp.sample(self.rng)
        keys = [o[0] for o in options]
        scored = []
        for i, key in enumerate(keys):
            s = base.clone()
            if not _apply_key(game, s, key):
                continue
            for _ in range(self.follow):         # the same player's next choices, greedily
                if s.over or s.pending is None or s.pending.player != p or s.pending.count() < 1:
                    break
                nxt, _, states = self.best(game, s, p, s.pending.keys())
                if not nxt:
                    break
                s = states[self.rng.choice(nxt)]
            scored.append((self.value(game, s, p), i))
        if not scored:
            return self.rng.randrange(len(options))
        top = max(v for v, _ in scored)
        return self.rng.choice([i for v, i in scored if v >= top - 1e-9])


class _Node:
    __slots__ = ("player", "visits", "reward", "avail", "children")

    def __init__(self, player: int):
        self.player = player      # who made the move leading here
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.children: dict[str, "_Node"] = {}


class MctsAgent:
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse,
    2012): every iteration plays a new sample of the hidden information, moves
    are chosen by UCB among those legal in that sample, random playouts of at
    most ``depth`` decisions are judged by the result, or by the evaluation
    when cut short. The budget is ``iterations``, or ``millis`` per decision."""

    name = "mcts"
    needs_state = True

    def __init__(self, seed: int, evaluate: Evaluate, iterations: int = 200, millis: Optional[float] = None,
                 depth: int = 12, exploration: float = 0.7):
        self.rng = _random.Random(seed)
        self.evaluate = evaluate
        self.iterations = iterations
        self.millis = millis
        self.depth = depth
        self.c = exploration

    def choose(self, persp: Perspective, options: list[list]) -> int:
        if len(options) == 1:
            return 0
        game, me = persp.game, persp.player
        legal = {o[0] for o in options}
        root = _Node(-1)
        rng = self.rng
        deadline = time.perf_counter() + self.millis / 1000 if self.millis else None
        it = 0
        while (it < self.iterations) if deadline is None else (time.perf_counter() < deadline):
            it += 1
            s = persp.sample(rng)
            node, path = root, [root]
            # selection and expansion
            while not s.over:
                dec = s.pending
                keys = [k for k in dec.keys() if node is not root or k in legal]
                if not keys:
                    break
                untried = [k for k in keys if k not in node.children]
                if untried:
                    key = rng.choice(untried)
                    if _apply_key(game, s, key):      # a move refused in this sample gets no node
                        child = _Node(dec.player)
                        node.children[key] = child
                        path.append(child)
                    break
                kids = [(k, node.children[k]) for k in keys]
                for _, kid in kids:
                    kid.avail += 1
                key, node = max(kids, key=lambda kv: kv[1].reward / kv[1].visits
                                + self.c * math.sqrt(math.log(kv[1].avail) / kv[1].visits))
                if not _apply_key(game, s, key):
                    break
                path.append(node)
            rewards = self.playout(game, s)
            for n in path:
                n.visits += 1
                if n.player >= 0:
                    n.reward += rewards[n.player]
        best = max(((k, n) for k, n in root.children.items() if k in legal), key=lambda kv: kv[1].visits, default=None)
        if best is None:
            return rng.randrange(len(options))
        return [o[0] for o in options].index(best[0])

    def playout(self, game, s: State) -> list[float]:
        rng = self.rng
        steps = 0
        try:
            while not s.over and steps < self.depth:
                if not _apply_key(game, s, rng.randrange(s.pending.count())):
                    break
                steps += 1
        except MeepleError:
            return [0.5] * s.players
        if s.over:
            return outcome(game, s)
        # cut short: each player's standing by the evaluation (1 ahead of all, 0 behind all)
        values = [self.evaluate(s, q) for q in range(s.players)]
        n = max(1, s.players - 1)
        return [(sum(1.0 for w in values if w < v) + 0.5 * (sum(1 for w in values if w == v) - 1)) / n for v in values]
