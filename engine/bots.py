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

import functools
import gc
import math
import random as _random
import time
from typing import Callable, Optional

from dsl.runtime import Frame
from dsl.types import RULE_FAULTS, STEP_BUDGET, named_error, zone_to_write
from dsl.typesys import BOOL, INT, PLAYER, Card, Enum

from .errors import IllegalChoice, MeepleError, Span
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


_SHUFFLE_STEPS: dict[int, tuple] = {}      # size -> its draws (see shuffle_as_random)


def shuffle_as_random(rng: _random.Random, items: list) -> None:
    """``rng.shuffle(items)`` without its Python call a card: the same draws in the same
    order, so the same permutation and the same generator after (tests/test_bots.py).

    CPython's ``shuffle`` draws ``_randbelow(i + 1)`` for i from len - 1 down to 1, and
    ``_randbelow(n)`` takes ``getrandbits(n.bit_length())`` until one is below n: written
    out here, with each size's (i, i + 1, bit length) worked out once. A 66-card shuffle
    took 62,000 instructions instead of 149,000 (valgrind). Drawing all the words in one
    ``getrandbits(32 * m)`` and unpacking them was slower than this. A subclass of
    Random, which may draw otherwise, is shuffled by its own ``shuffle``."""
    if type(rng) is not _random.Random:
        rng.shuffle(items)
        return
    size = len(items)
    steps = _SHUFFLE_STEPS.get(size)
    if steps is None:
        steps = _SHUFFLE_STEPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, n, k in steps:
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        items[i], items[r] = items[r], items[i]


def _hidden_slot_kinds(game, player: int) -> tuple[tuple[int, str], ...]:
    """``player``'s hidden slots (``hidden_slots_of``), each with the card kind its zone holds:
    what ``_Deal`` walks every decision, looked up once a game and player."""
    cache = game.__dict__.setdefault("_hidden_slot_kinds", {})
    out = cache.get(player)
    if out is None:
        out = cache[player] = tuple((slot, game.zone_defs[game.slot_zone[slot]].holds) for slot in game.hidden_slots_of(player))
    return out


class _Deal:
    """What every sample of one decision deals again, worked out once: for each
    card kind, the hidden places (zone slot, position) whose cards are dealt
    again and the cards that fill them, in the order the shuffle sees them.
    A planning bot draws many samples of the same decision (MCTS one per
    iteration), and this part never changes between them; only the shuffle does."""

    __slots__ = ("kinds",)

    def __init__(self, game, st: State, player: int):
        zones = st.zones
        nzones = len(zones)
        # cards the running rules hold in their locals (a loop's list, a chosen card)
        # stay put: moving them under a running effect would break its premises
        held: set = set()
        hold = held.add
        for fr in st.frames:
            for v in fr.locals:
                if v is None:           # most locals (unset ones): skipped first, for speed
                    continue
                if v.__class__ is int or (isinstance(v, int) and not isinstance(v, bool)):
                    hold(v)
                elif isinstance(v, list):
                    held.update([x for x in v if isinstance(x, int)])
        # per kind, in the order of its first hidden slot that has cards: the cards, and the
        # runs they go back to: (slot, None, start, end) when the slot's cards are all dealt
        # again (one slice), else (slot, positions, start, end)
        by_kind: dict[str, tuple[list[int], list[tuple]]] = {}
        for slot, kind in _hidden_slot_kinds(game, player):
            if slot >= nzones:
                continue
            zone = zones[slot]
            if not zone:
                continue
            entry = by_kind.get(kind)
            if entry is None:
                entry = by_kind[kind] = ([], [])
            cards, runs = entry
            start = len(cards)
            if held and not held.isdisjoint(zone):
                free = [i for i, c in enumerate(zone) if c not in held]
                if free:
                    cards.extend([zone[i] for i in free])
                    runs.append((slot, None if len(free) == len(zone) else free, start, len(cards)))
            else:               # the usual case: no card of the slot is held, the whole slot is dealt
                cards += zone
                runs.append((slot, None, start, len(cards)))
        self.kinds: list[tuple[list[int], list[tuple]]] = [entry for entry in by_kind.values() if len(entry[0]) >= 2]

    def deal(self, s: State, rng: _random.Random) -> None:
        """Deal the hidden cards of ``s`` (a copy of the state this was made from) again."""
        zones, loc, own = s.zones, s.loc, s.own
        for cards, runs in self.kinds:
            cards = cards[:]
            shuffle_as_random(rng, cards)
            for slot, positions, a, b in runs:
                if positions is None:
                    zone = zones[slot] = cards[a:b]     # a new list: this state's own (copy-on-write)
                    own[slot] = True
                    for c in zone:
                        loc[c] = slot
                else:
                    zone = zone_to_write(s, slot)
                    for i, c in zip(positions, cards[a:b]):
                        zone[i] = c
                        loc[c] = slot


def determinize(game, st: State, player: int, rng: _random.Random, deal: Optional[_Deal] = None) -> State:
    """A copy of ``st`` as ``player`` might believe it: the cards of every zone
    hidden from them dealt again at random (each card kind among the hidden
    zones that hold it, every zone keeping its size), every hidden variable
    drawn again from the values it may take (``hidden_variables``) and a new
    random generator; the pending decision is asked again from the copy.
    ``deal`` is the decision's ``_Deal`` when the caller keeps it across samples."""
    s = st.clone()
    (deal or _Deal(game, st, player)).deal(s, rng)
    gvars, pvars = hidden_variables(game, s.players)
    for i, values in gvars:
        s.gvars[i] = values[rng.randrange(len(values))]
    if pvars:
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
    """What a planning bot may use when its player decides: the game, the
    decision (the player's own options, which they see) and samples of the
    rest. Bots name options by their index in ``decision``; a sample's
    decision is asked again and may differ (``moves``)."""

    def __init__(self, game, st: State, player: int):
        self.game = game
        self.player = player
        self._state = st
        self.decision = st.pending
        self._deal: Optional[_Deal] = None

    def sample(self, rng: _random.Random) -> State:
        if self._deal is None:
            self._deal = _Deal(self.game, self._state, self.player)
        return determinize(self.game, self._state, self.player, rng, self._deal)

    def indices(self, options: list) -> list[int]:
        """The options an agent was offered as indices into ``decision``: the
        session passes indices already (``needs_labels = False``); a caller
        passing [key, label, value] options gets them found by key."""
        if not options or isinstance(options[0], int):
            return list(options)
        keys = self.decision.keys()
        return [keys.index(o[0]) for o in options]

    def moves(self, s: State, allowed: list[int]) -> list[Optional[int]]:
        """For each allowed option of ``decision``, its index in the decision
        ``s`` (a sample) asks, or None where the sample does not offer it. The
        same describer and the same option values mean the same keys (keys
        never depend on the state): the indices carry over without making a key."""
        mine, theirs = self.decision, s.pending
        if theirs is None:
            return [None] * len(allowed)
        if theirs is mine or (theirs.describer is not None and theirs.describer is mine.describer
                              and theirs.values == mine.values):
            return list(allowed)
        at = {k: j for j, k in enumerate(theirs.keys())}
        return [at.get(mine.key(i)) for i in allowed]


def evaluator(game, text: Optional[str] = None) -> Evaluate:
    """The value of a state for a player: the pack's evaluation (or ``text``, one given
    on the command line, ``--eval``: checked as the pack's own texts are, by
    ``Game.expression``), else the score resource; a finished game counts its result.
    Each evaluation has a step budget of its own (``dsl.types.STEP_BUDGET``). A fault
    (a division by zero, a walk past the budget) stops the game with a rule error at
    the evaluation's text, never a silent 0: a bot that judged such positions 0 would
    play blind and the figures would not say so. The function returned also has
    ``every(st)``: the values of all players at once, which is what a bot judging a
    position asks for (``values_of``)."""
    if text:
        fn, code = game.expression(text, INT)
        at = Span("--eval", 1, 1, max(1, len(text)))
    elif game.evaluation:
        fn, code = game.evaluation
        at = game.defn.evaluation.span
    else:
        fn, code, at = None, None, None
    nlocals = max(1, code.nlocals) if code is not None else 1
    nres, score = game.nres, game.score_res

    def value(st: State, p: int) -> float:
        if fn is None:
            return st.res[p * nres + score]
        st.budget = STEP_BUDGET
        try:
            return float(fn(st, Frame(-1, 0, [None] * nlocals, p, -1)) or 0)
        except MeepleError as err:
            raise named_error(game, err, code, at) from None
        except RULE_FAULTS as exc:
            raise named_error(game, exc, code, at) from None

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
        try:
            for f in frames:
                f.locals = blank[:]
                st.budget = STEP_BUDGET
                out.append(float(fn(st, f) or 0))
        except MeepleError as err:
            raise named_error(game, err, code, at) from None
        except RULE_FAULTS as exc:
            raise named_error(game, exc, code, at) from None
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
    7.1 ms instead of 11.8 in the largest (README). Nothing a bot chooses depends on it."""
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


def _apply(game, st: State, index: int) -> bool:
    """Play option ``index`` of the pending decision; False if the rules refuse it."""
    try:
        game.apply(st, index)
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

    def __init__(self, seed: int, evaluate: Evaluate, follow: int = 4):
        self.rng = _random.Random(seed)
        self.evaluate = evaluate
        self.values = values_of(evaluate)
        self.follow = follow

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
        apply = game.apply
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
    def choose(self, persp: Perspective, options: list) -> int:
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
                 depth: int = 12, exploration: float = 0.7):
        self.rng = _random.Random(seed)
        self.evaluate = evaluate
        self.values = values_of(evaluate)
        self.iterations = iterations
        self.millis = millis
        self.depth = depth
        self.c = exploration

    @collector_paused
    def choose(self, persp: Perspective, options: list) -> int:
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
        apply = game.apply
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
