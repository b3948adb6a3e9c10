"""Bots that look ahead: greedy (one ply) and information-set MCTS.

A planning bot never reads the true state. It gets a ``Perspective``
(engine/runtime/redeal.py): the game, its own decision, and samples of states built
from what its seat sees (the hidden cards dealt again at random among the
places they could be, the paused rules' cards following them, every hidden
variable drawn again from the values it may take, and a fresh random
generator for what is still to come), so its choice is a function of its
seat's information and its own seed. It judges positions with
an evaluation written in the effect language: the pack's ``score:
evaluation`` unless a simulation gives another (``--eval``), so designers
say what "good" means without Python.
"""
from __future__ import annotations

import functools
import gc
import math
import random as _random
import time
from typing import Callable, Optional

from meeple.dsl.runtime import Frame
from meeple.dsl.types import RULE_FAULTS, STEP_BUDGET, named_error
from meeple.dsl.typesys import INT

from meeple.core.errors import IllegalChoice, MeepleError, RuleError, Span
from meeple.runtime.redeal import Perspective
from meeple.runtime.state import OverBudget, State, StepMeter, refill

Evaluate = Callable[[State, int], float]


def evaluator(game, text: Optional[str] = None) -> Evaluate:
    """The value of a state for a player: the pack's evaluation (or ``text``, one given
    on the command line, ``--eval``: checked as the pack's own texts are, by
    ``Game.expression``), else the score resource; a finished game counts its result.
    Each evaluation has a step budget of its own (``meeple.dsl.types.STEP_BUDGET``). A fault
    (a division by zero, a walk past the budget) stops the game with a rule error at
    the evaluation's text, never a silent 0: a bot that judged such positions 0 would
    play blind and the figures would not say so. The function returned also has
    ``every(st)``: the values of all players at once, which is what a bot judging a
    position asks for (``values_of``)."""
    if text:
        fn, code = game.expression(text, INT)
        at = Span("--eval", 1, 1, max(1, len(text)))
    elif game.compiled.evaluation:
        fn, code = game.compiled.evaluation
        at = game.defn.evaluation.span
    else:
        fn, code, at = None, None, None
    nlocals = max(1, code.nlocals) if code is not None else 1
    nres, score = game.vocab.nres, game.compiled.score_res

    def value(st: State, p: int) -> float:
        if fn is None:
            return st.res[p * nres + score]
        st.budget = STEP_BUDGET
        fr = Frame(-1, 0, [None] * nlocals, p, -1)
        try:
            v = float(fn(st, fr) or 0)
        except MeepleError as err:
            raise named_error(game, err, code, at, st, fr) from None
        except RULE_FAULTS as exc:
            raise named_error(game, exc, code, at, st, fr) from None
        if st.meter is not None:        # a planning bot's sample: the steps go to its decision's budget
            refill(st)
        return v

    seats: dict[int, list[Frame]] = {}      # players -> a frame per seat, made once (see every)

    def every(st: State) -> list[float]:
        if fn is None:
            return st.res[score::nres][:st.players]
        frames = seats.get(st.players)
        if frames is None:
            frames = seats[st.players] = [Frame(-1, 0, [None] * nlocals, p, -1) for p in range(st.players)]
        # a bot judges thousands of positions a decision: one frame per seat serves them all,
        # each evaluation given fresh locals (nothing of the last one is left to read) and its budget
        blank = [None] * nlocals
        out = []
        meter = st.meter
        f = frames[0]
        try:
            for f in frames:
                f.locals = blank[:]
                st.budget = STEP_BUDGET
                out.append(float(fn(st, f) or 0))
                if meter is not None:
                    meter.take(STEP_BUDGET - st.budget)
        except MeepleError as err:
            raise named_error(game, err, code, at, st, f) from None
        except RULE_FAULTS as exc:
            raise named_error(game, exc, code, at, st, f) from None
        st.budget = STEP_BUDGET
        return out
    value.every = every      # type: ignore[attr-defined]
    return value


def values_of(evaluate: Evaluate) -> Callable[[State], list[float]]:
    """Every player's value by ``evaluate``: its ``every`` when it has one (``evaluator``'s)."""
    every = getattr(evaluate, "every", None)
    return every if every is not None else (lambda st: [evaluate(st, q) for q in range(st.players)])


def outcome(game, st: State) -> list[float]:
    """Each player's share of the win in a finished game."""
    winners = game.winners(st)
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(st.players)]


def relative(values: list[float], p: int) -> float:
    """How far ahead of the best other player ``p`` is."""
    others = values[:p] + values[p + 1:]
    return values[p] - (max(others) if others else 0.0)


def standings(values: list[float]) -> list[float]:
    """Each player's standing among the others by their values: the share of the other
    players they are ahead of, a player level with them counting half (1 ahead of all,
    0 behind all). What an MCTS playout cut short scores."""
    n = max(1, len(values) - 1)
    out = []
    for v in values:
        behind = level = 0
        for w in values:
            if w < v:
                behind += 1
            elif w == v:
                level += 1
        out.append((behind + 0.5 * (level - 1)) / n)
    return out


def collector_paused(choose: Callable) -> Callable:
    """A bot's ``choose`` run with Python's cycle collector paused, and the
    collector as it was after (left off if the caller had turned it off).

    A planning decision makes thousands of short-lived containers (a state's
    copy is a list per zone slot: 173 of them in the largest shipped pack), and every 700 of
    them start a collection that walks the young objects, and now and then all
    of them, the game's compiled rules included; yet a decision leaves no cycle
    behind (every copy, frame and decision is freed by its reference count: the
    collector found nothing to free after any decision of greedy or mcts:100 in
    the three shipped games, tests/test_bots.py). With the collector paused,
    a greedy decision took 0.51 ms instead of 0.88 in the smallest shipped pack,
    7.1 ms instead of 11.8 in the largest. Nothing a bot chooses depends on it."""
    @functools.wraps(choose)
    def paused(*args, **kwargs):
        if not gc.isenabled():
            return choose(*args, **kwargs)
        gc.disable()
        try:
            return choose(*args, **kwargs)
        finally:
            gc.enable()
    return paused


# Steps a planning bot's decision may take, all its samples together (docs/limits.md, "A planning bot's decision"): the
# rules it plays on them and the evaluations it makes, counted as the rules' step budget counts
# (dsl/steps.py). Greedy and MCTS's default search (200 iterations, playouts of 12 decisions)
# get this many; a bigger search, proportionally more (``MctsAgent``). The shipped packs'
# heaviest decisions take several times less (benchmarks/bot_steps.py); a pack or an evaluation
# that would make a bot plan for minutes stops with a message instead.
DECISION_STEPS = 50_000_000
MCTS_DEFAULT_WORK = 200 * 13        # iterations x (playout depth + 1) of the default search


def metered(choose: Callable) -> Callable:
    """A bot's ``choose`` run against its decision's budget of steps (``DECISION_STEPS``, or
    the bot's ``steps``): past it, a rule error naming the game, its seed and the choice."""
    @functools.wraps(choose)
    def run(self, persp: Perspective, options: list) -> int:
        persp.meter = StepMeter(self.steps or DECISION_STEPS)
        try:
            return choose(self, persp, options)
        except OverBudget:
            raise over_budget(self.name, persp) from None
        finally:
            persp.meter = None
    return run


def over_budget(bot: str, persp: Perspective) -> RuleError:
    """The error of a planning decision that went past its budget of steps."""
    seed, choice, seat, prompt = persp.where()
    budget = persp.meter.budget if persp.meter is not None else DECISION_STEPS
    game = f"{persp.game.id}, game seed {seed}" if seed is not None else persp.game.id
    err = RuleError(f"the {bot} bot's decision went past its budget of {budget:,} steps ({game}, choice {choice}, "
                    f"P{seat + 1}: {prompt}): planning costs too much here; give it less to do (fewer MCTS "
                    f"iterations, shorter playouts, a lighter --eval) or play this seat with random")
    err.seed, err.choice = seed, choice - 1
    return err


def _apply(game, st: State, index: int) -> bool:
    """Play option ``index`` of the pending decision; False if the rules refuse it."""
    try:
        game.rules.apply(st, index)       # the rules' own: a planning bot applies thousands a decision
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
    needs_labels = False      # options by index: no keys or labels are made for it

    def __init__(self, seed: int, evaluate: Evaluate, follow: int = 4, steps: Optional[int] = None):
        self.rng = _random.Random(seed)
        self.evaluate = evaluate
        self.values = values_of(evaluate)
        self.follow = follow
        self.steps = steps

    def value(self, game, s: State, p: int) -> float:
        if s.over:
            return 1e9 * (outcome(game, s)[p] - 0.5)
        values = self.values(s)
        if len(values) == 2:                # relative(values, p) of two players, without its call and slices
            return values[p] - values[1 - p]
        return relative(values, p)

    def best(self, game, base: State, p: int) -> tuple[list[int], list[Optional[State]], list[float]]:
        """Indices of the best options of ``base``'s decision, the states every
        option leads to (None if refused) and their values. ``base`` itself is
        played on (its last option): pass a copy you still need."""
        best, best_value, states, values = [], -math.inf, [], []
        last = base.pending.count() - 1
        apply = game.rules.apply
        for i in range(last + 1):
            s = base.clone() if i < last else base      # the caller is done with base: the last option plays on it
            try:
                apply(s, i)         # _apply written out: one call fewer an option
            except IllegalChoice:
                states.append(None)
                values.append(-math.inf)
                continue
            states.append(s)
            value = self.value(game, s, p)
            values.append(value)
            if value > best_value + 1e-9:
                best, best_value = [i], value
            elif abs(value - best_value) <= 1e-9:
                best.append(i)
        return best, states, values

    @collector_paused
    @metered
    def choose(self, persp: Perspective, options: list) -> int:
        self.last_values: Optional[list] = None
        if len(options) == 1:
            return 0
        game, p = persp.game, persp.player
        allowed = persp.indices(options)
        base = persp.sample(self.rng)
        scored = []
        moves = persp.moves(base, allowed)
        last = max(i for i, m in enumerate(moves) if m is not None) if any(m is not None for m in moves) else -1
        for i, move in enumerate(moves):
            if move is None:
                continue
            s = base.clone() if i < last else base      # the last option plays on the sample itself
            if not _apply(game, s, move):
                continue
            value = None
            for _ in range(self.follow):         # the same player's next choices, greedily
                if s.over or s.pending is None or s.pending.player != p or s.pending.count() < 1:
                    break
                nxt, states, values = self.best(game, s, p)
                if not nxt:
                    break
                j = self.rng.choice(nxt)
                s, value = states[j], values[j]     # its value is known: not evaluated again
            scored.append((self.value(game, s, p) if value is None else value, i))
        self.last_values = [(i, v, None) for v, i in scored]       # what each option was worth (meeple serve shows it)
        if not scored:
            return self.rng.randrange(len(options))
        top = max(v for v, _ in scored)
        return self.rng.choice([i for v, i in scored if v >= top - 1e-9])


class _KeyCache:
    """The option keys of the decisions one MCTS search meets, made once per
    distinct menu: every iteration asks its samples' decisions again, and most
    of them offer the same options as an earlier one (keys are a function of
    the describer and the option values, never of the state)."""

    __slots__ = ("known",)

    def __init__(self):
        self.known: dict = {}

    def __call__(self, dec) -> list[str]:
        d = dec.describer
        if d is None:
            return dec.keys()
        try:
            ident = (id(d), tuple(dec.values))
            keys = self.known.get(ident)
        except TypeError:         # an option value that cannot be a dictionary key
            return dec.keys()
        if keys is None:
            keys = self.known[ident] = dec.keys()
        return keys


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
    needs_labels = False      # options by index (keys for the tree's root only)

    def __init__(self, seed: int, evaluate: Evaluate, iterations: int = 200, millis: Optional[float] = None,
                 depth: int = 12, exploration: float = 0.7, steps: Optional[int] = None):
        self.rng = _random.Random(seed)
        # a search bigger than the default (more iterations, longer playouts) gets a budget as
        # much bigger; one bounded by time gets the default search's
        work = (iterations if millis is None else 200) * (depth + 1)
        self.steps = steps or DECISION_STEPS * max(1, -(-work // MCTS_DEFAULT_WORK))
        self.evaluate = evaluate
        self.values = values_of(evaluate)
        self.iterations = iterations
        self.millis = millis
        self.depth = depth
        self.c = exploration

    @collector_paused
    @metered
    def choose(self, persp: Perspective, options: list) -> int:
        self.last_values: Optional[list] = None
        if len(options) == 1:
            return 0
        game, me = persp.game, persp.player
        allowed = persp.indices(options)
        mine = [persp.decision.key(i) for i in allowed]     # tree nodes are named by key: samples' menus may differ
        legal = set(mine)
        root = _Node(-1)
        rng = self.rng
        c = self.c
        log, sqrt = math.log, math.sqrt
        keys_of = _KeyCache()
        deadline = time.perf_counter() + self.millis / 1000 if self.millis else None
        it = 0
        while (it < self.iterations) if deadline is None else (time.perf_counter() < deadline):
            it += 1
            s = persp.sample(rng)
            node, path = root, [root]
            # selection and expansion
            while not s.over:
                dec = s.pending
                keys = keys_of(dec)
                children = node.children
                moves = [j for j, k in enumerate(keys) if k in legal] if node is root else range(len(keys))
                if not moves:
                    break
                untried = [j for j in moves if keys[j] not in children]
                if untried:
                    j = untried[rng._randbelow(len(untried))]     # rng.choice(untried), its draw without its checks
                    if _apply(game, s, j):      # a move refused in this sample gets no node
                        child = _Node(dec.player)
                        children[keys[j]] = child
                        path.append(child)
                    break
                best, top = None, -math.inf
                for j in moves:
                    kid = children[keys[j]]
                    kid.avail += 1
                    score = kid.reward / kid.visits + c * sqrt(log(kid.avail) / kid.visits)
                    if score > top:             # the first of equals, as max() takes it
                        best, top, node = j, score, kid
                if not _apply(game, s, best):
                    break
                path.append(node)
            rewards = self.playout(game, s)
            for n in path:
                n.visits += 1
                if n.player >= 0:
                    n.reward += rewards[n.player]
        # what each option came to: its mean reward and visits (meeple serve shows them)
        self.last_values = [(mine.index(k), n.reward / n.visits, n.visits) for k, n in root.children.items() if k in legal and n.visits]
        best = max(((k, n) for k, n in root.children.items() if k in legal), key=lambda kv: kv[1].visits, default=None)
        if best is None:
            return rng.randrange(len(options))
        return mine.index(best[0])

    def playout(self, game, s: State) -> list[float]:
        # each move is rng.randrange(n)'s very draw, _randbelow(n), written out: getrandbits of
        # n's bit length until one is below n (random.Random's own _randbelow), so the same
        # choices without a Python call a move; a subclass of Random draws by its own _randbelow
        rng = self.rng
        below = None if type(rng) is _random.Random else rng._randbelow
        getrandbits = rng.getrandbits
        apply = game.rules.apply
        steps, depth = 0, self.depth
        try:
            while not s.over and steps < depth:
                n = len(s.pending.values)
                if not n:
                    break
                if below is None:
                    k = n.bit_length()
                    r = getrandbits(k)
                    while r >= n:
                        r = getrandbits(k)
                else:
                    r = below(n)
                try:
                    apply(s, r)
                except IllegalChoice:
                    break
                steps += 1
        except MeepleError:
            return [0.5] * s.players
        if s.over:
            return outcome(game, s)
        return standings(self.values(s))       # cut short: judged by the evaluation
