"""What a seat cannot see, dealt again: the samples a planning bot plans on.

A planning bot must decide from its seat's information and its own seed, nothing
else. Its samples are therefore built from what the seat sees (``Observer.view``),
never from where the hidden cards truly lie:

- the cards of every place the seat cannot see are gathered per card kind, put in
  the order of their ids (not the order they lie in) and dealt back at random into
  the same places, each keeping its size; a public zone whose order is hidden is
  shuffled within itself;
- cards the seat's own pending decision names (its options, which it sees) stay
  where they are;
- the locals of the paused rules that hold cards (the compiler types every local:
  ``Code.card_slots``), and the card a running hook belongs to, follow the deal by
  place: a local that held the card at some hidden place now holds the card dealt
  there. A paused 'for each ... by' walk puts the items it has still to visit in
  its order again;
- the variables of the cards dealt again are what the seat believes of a card it
  cannot see: their declared defaults; every hidden variable is drawn again from
  the values its type allows; the random generator is new.

Two states a seat cannot tell apart therefore give the same samples for the same
random generator, and a bot seeded alike chooses alike in both (tests/test_fair_bots.py).

What a seat was told but no longer sees (a card it watched go to the bottom of the
deck) is not used: samples are uninformed rather than wrong, the same for every seat.
A value the rules worked out from hidden cards and kept in a local that is not a card
(a count of red cards in another hand) is not dealt again; the compiler cannot tell
where a number came from.
"""
from __future__ import annotations

import random as _random
from typing import Optional

from meeple.dsl.runtime import Frame
from meeple.dsl.types import zone_to_write
from meeple.dsl.typesys import BOOL, PLAYER, Card, Enum

from meeple.core.errors import MeepleError
from meeple.runtime.state import State, StepMeter


def hidden_slots(game, player: int) -> list[int]:
    """Zone slots whose contents (or order) ``player`` does not see."""
    out = []
    for zi, z in enumerate(game.vocab.zone_defs):
        base = game.vocab.zone_base[zi]
        count = len(game.vocab.kind_cards.get(z.of_card, ())) if z.of_card is not None else None
        for k in range(count if count is not None else (game.max_players if z.per_player else 1)):
            slot = base + k
            if z.visibility == "public" and not z.ordered:
                continue
            if z.visibility == "owner" and z.per_player and k == player and not z.ordered:
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
    return game.observer.knowledge.hidden_variables(players)


def _hidden_variables(game, players: int) -> tuple[list[tuple[int, tuple]], list[tuple[int, tuple]]]:
    defn = game.defn
    out: tuple[list, list] = ([], [])
    for decls, index, types, defaults, dest in ((defn.variables, game.vocab.gvar_index, game.vocab.gvar_types, game.vocab.gvar_defaults, out[0]),
                                                (defn.player_variables, game.vocab.pvar_index, game.vocab.pvar_types, game.vocab.pvar_defaults, out[1])):
        for d in decls:
            if d.visibility != "nobody":
                continue
            i = index[d.name]
            values = _values_of(game, types[i], players) or [defaults[i]]
            if d.type.nullable and None not in values:
                values.append(None)
            dest.append((i, tuple(values)))
    return out


def _values_of(game, t, players: int) -> Optional[list]:
    """Every value of a declared type in a game of ``players`` (None for a number or a text)."""
    if t == BOOL:
        return [False, True]
    if t == PLAYER:
        return list(range(players))
    if isinstance(t, Enum):
        return list(game.vocab.enums.get(t.name, ()))
    if isinstance(t, Card):
        cards = game.vocab.kind_cards.get(t.kind, ()) if t.kind is not None else range(game.ncards)
        return [c for c in cards if game.vocab.card_seat[c] < players]
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


def _hidden_slot_kinds(game, slots: list[int]) -> tuple[tuple[int, str, bool], ...]:
    """A seat's hidden ``slots`` (``Knowledge.hidden_slots``), each with the card kind its zone holds
    and whether only its order is hidden (a public zone with a hidden order: its cards are
    shuffled among themselves): what ``Redeal`` walks every decision."""
    out = []
    for slot in slots:
        z = game.vocab.zone_defs[game.layout.slot_zone[slot]]
        out.append((slot, z.holds, z.visibility == "public"))
    return tuple(out)


class Knowledge:
    """What each seat of a compiled game cannot see, worked out once a seat (or a player
    count) and kept here: the game itself is left as loading made it. The observer, the
    re-deal of the planning bots and the tests ask it; it holds nothing of a state."""

    def __init__(self, game):
        self.game = game
        self._slots: dict[int, list[int]] = {}
        self._slot_kinds: dict[int, tuple[tuple[int, str, bool], ...]] = {}
        self._variables: dict[int, tuple[list, list]] = {}

    def hidden_slots(self, player: int) -> list[int]:
        """Zone slots whose cards (or their order) ``player`` does not see."""
        out = self._slots.get(player)
        if out is None:
            out = self._slots[player] = hidden_slots(self.game, player)
        return out

    def hidden_slot_kinds(self, player: int) -> tuple[tuple[int, str, bool], ...]:
        out = self._slot_kinds.get(player)
        if out is None:
            out = self._slot_kinds[player] = _hidden_slot_kinds(self.game, self.hidden_slots(player))
        return out

    def hidden_variables(self, players: int) -> tuple[list[tuple[int, tuple]], list[tuple[int, tuple]]]:
        out = self._variables.get(players)
        if out is None:
            out = self._variables[players] = _hidden_variables(self.game, players)
        return out


def option_cards(game, st: State, player: int) -> set:
    """The cards ``player``'s own pending decision names (its options, which the seat sees)."""
    dec = st.pending
    if dec is None or dec.player != player or dec.describer is None:
        return set()
    out: set = set()
    for i in range(len(dec.values)):
        named = game.observer.named_cards(dec, i)
        if named:
            out.update(c for c in named if c is not None)
    return out


def _option_keys(dec) -> Optional[list]:
    """A decision's option keys, in order, as the seat sees them (None when it cannot say them)."""
    try:
        return dec.keys()
    except (MeepleError, TypeError, ValueError, IndexError, KeyError, AttributeError):
        return None


class Redeal:
    """What every sample of one decision deals again, worked out once: the pools of
    hidden cards (per card kind, in the order of their ids; per slot for a public zone
    whose order is hidden), the places they go back to, the paused locals that follow
    them, and the cards whose variables go back to their defaults. A planning bot draws
    many samples of the same decision (MCTS one per iteration); only the shuffle changes
    between them.

    The seat sees its own options. Where they name cards lying where it cannot see and
    say where those lie (a choice among cards offered face down to the chooser), a
    sample must keep them there, or it would offer other options. Whether they do is
    found by a trial: one deal with every hidden card free, drawn by a generator of its
    own (so from what the seat sees alone), and the decision asked again from it; if its
    options differ from the seat's, the option cards stay where they are in every sample
    (``pinned``), else none does (a choice that names cards wherever they lie:
    pinning them would tell where)."""

    __slots__ = ("pools", "follow", "before", "resets", "game", "pinned")

    TRIAL_SEED = 0x5EA7     # the trial deal's own generator (see the class's docstring)

    def __init__(self, game, st: State, player: int):
        self.game = game
        self.pinned: frozenset = frozenset()
        self._plan(st, player, frozenset())
        options = option_cards(game, st, player)
        if options and not options.isdisjoint(c for _, cards, _ in self.pools for c in cards):
            mine = _option_keys(st.pending)
            trial = st.clone()
            self.deal(trial, _random.Random(self.TRIAL_SEED))
            try:
                game.rules.repose(trial)
                theirs = _option_keys(trial.pending) if trial.pending is not None else None
            except MeepleError:
                theirs = None
            if theirs is None or theirs != mine:
                self.pinned = frozenset(options)
                self._plan(st, player, self.pinned)

    def _plan(self, st: State, player: int, pinned: frozenset) -> None:
        game = self.game
        zones = st.zones
        nzones = len(zones)
        # pools: (cards sorted by id, the cards as they lie, runs) where a run is (slot,
        # positions or None, start, end): None when every card of the slot is dealt again
        pools: dict = {}
        for slot, kind, order_only in game.observer.knowledge.hidden_slot_kinds(player):
            if slot >= nzones:
                continue
            zone = zones[slot]
            if not zone:
                continue
            key = ("slot", slot) if order_only else kind
            entry: Optional[tuple[list[int], list[tuple]]] = pools.get(key)
            if entry is None:
                entry = pools[key] = ([], [])     # the cards, and the runs of slots they came from
            cards, runs = entry
            start = len(cards)
            if pinned and not pinned.isdisjoint(zone):
                free = [i for i, c in enumerate(zone) if c not in pinned]
                if not free:
                    continue
                cards.extend([zone[i] for i in free])
                runs.append((slot, None if len(free) == len(zone) else free, start, len(cards)))
            else:
                cards += zone
                runs.append((slot, None, start, len(cards)))
        self.pools: list[tuple[list[int], list[int], list[tuple]]] = [
            (sorted(cards), cards, runs) for cards, runs in pools.values() if len(cards) >= 2]
        hidden: set = set()
        for _, cards, _ in self.pools:
            hidden.update(cards)
        # the paused frames whose card locals (or hook card) hold a card dealt again
        follow = []
        for fi, fr in enumerate(st.frames):
            if fr.code < 0:
                continue
            code = game.codes[fr.code]
            slots = code.card_slots()[0]
            loc = fr.locals
            held = fr.this in hidden
            for i in slots:
                if held:
                    break
                if i < len(loc):
                    v = loc[i]
                    held = (not hidden.isdisjoint(v)) if v.__class__ is list else v in hidden
            if held:
                follow.append((fi, slots, code.ordered_walks))
        self.follow = follow
        self.before = [c for _, cards, _ in self.pools for c in cards] if follow else None
        # cards dealt again whose variables are not their defaults: reset in every sample
        n = game.vocab.ncvars
        resets = []
        if n:
            row, cvars = game.vocab.cvar_default_row, st.cvars
            for c in hidden:
                if cvars[c * n:(c + 1) * n] != row:
                    resets.append(c * n)
        self.resets = sorted(resets)

    def deal(self, s: State, rng: _random.Random) -> None:
        """Deal the hidden cards of ``s`` (a copy of the state this was made from) again."""
        zones, loc, own = s.zones, s.loc, s.own
        dealt: Optional[list[int]] = [] if self.follow else None
        for ordered, _, runs in self.pools:
            cards = ordered[:]
            shuffle_as_random(rng, cards)
            if dealt is not None:
                dealt += cards
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
        if self.resets:
            n = self.game.vocab.ncvars
            row, cvars = self.game.vocab.cvar_default_row, s.cvars
            for i in self.resets:
                cvars[i:i + n] = row
        if dealt is not None:
            self._follow(s, dict(zip(self.before, dealt)))

    def _follow(self, s: State, moved: dict) -> None:
        """Make the paused locals that held a card dealt again hold the card now at its place."""
        get = moved.get
        for fi, slots, walks in self.follow:
            fr = s.frames[fi]
            loc = fr.locals
            for i in slots:
                if i >= len(loc):
                    continue
                v = loc[i]
                if v.__class__ is list:
                    loc[i] = [get(x, x) for x in v]     # a new list: the original's is shared
                elif v is not None:
                    loc[i] = get(v, v)
            if fr.this in moved:
                fr.this = moved[fr.this]
            for items_slot, idx_slot, var_slot, order in walks:
                _reorder(s, fr, items_slot, idx_slot, var_slot, order)


def _reorder(s: State, fr: Frame, items_slot: int, idx_slot: int, var_slot: int, order) -> None:
    """Put the items a paused 'for each ... by' walk has still to visit in its order again,
    as the sample now has them (a stable sort, none last, as the walk's start sorts)."""
    loc = fr.locals
    items, i = loc[items_slot], loc[idx_slot]
    if items.__class__ is not list or i.__class__ is not int or len(items) - i < 2:
        return
    current = loc[var_slot]
    keyed = []
    try:
        for k, x in enumerate(items[i:]):
            loc[var_slot] = x
            v = order(s, fr)
            keyed.append((v is None, v if v is not None else 0, k, x))
        keyed.sort(key=lambda t: t[:3])
    except (MeepleError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError):
        return      # an order the sample cannot work out: the items stay as dealt
    finally:
        loc[var_slot] = current
    loc[items_slot] = items[:i] + [t[3] for t in keyed]


def determinize(game, st: State, player: int, rng: _random.Random, deal: Optional[Redeal] = None,
                meter: Optional[StepMeter] = None) -> State:
    """A copy of ``st`` as ``player`` might believe it (see the module's docstring): the
    hidden cards dealt again, every hidden variable drawn again from the values it may
    take (``hidden_variables``) and a new random generator; the pending decision is asked
    again from the copy. ``deal`` is the decision's ``Redeal`` when the caller keeps it
    across samples; ``meter``, a planning decision's budget, goes with the copy (the rules
    asking the decision again take from it, and so does whatever is played on the copy).

    Where asking the decision again fails (a deal the paused rules cannot go on from),
    another deal is drawn, up to four; after that the copy keeps the decision as the
    player sees it. The true state is never what a bot plans on."""
    deal = deal or Redeal(game, st, player)
    for attempt in range(5):
        s = st.clone()
        s.meter = meter
        deal.deal(s, rng)
        gvars, pvars = hidden_variables(game, s.players)
        for i, values in gvars:
            s.gvars[i] = values[rng.randrange(len(values))]
        if pvars:
            n = game.vocab.npvars
            for p in range(s.players):
                for i, values in pvars:
                    s.pvars[p * n + i] = values[rng.randrange(len(values))]
        s.rng = rng.getrandbits(64) or 1
        if s.pending is None or attempt == 4:
            return s
        try:
            game.rules.repose(s)
            return s
        except MeepleError:
            continue
    raise AssertionError("unreachable")      # pragma: no cover


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
        self._deal: Optional[Redeal] = None
        self.meter: Optional[StepMeter] = None      # the decision's budget of steps, set by the bot deciding

    def sample(self, rng: _random.Random) -> State:
        if self._deal is None:
            self._deal = Redeal(self.game, self._state, self.player)
        return determinize(self.game, self._state, self.player, rng, self._deal, self.meter)

    def where(self) -> tuple:
        """What names the decision in a message: (the game's seed, the choice's number, the
        seat, the prompt): all the seat knows."""
        st = self._state
        return st.seed, st.choices() + 1, self.player, self.decision.prompt if self.decision is not None else ""

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
