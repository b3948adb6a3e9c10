"""Shared pieces of the compiler: code units, scopes, run-time signals.

The types the checker gives expressions are in ``meeple.dsl.typesys``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .errors import MeepleError, RuleError, RuleFault, in_words
from .runtime import Frame
from .steps import FOLD_MAX, STEP_BUDGET, Where, charge, counted, out_of_steps  # noqa: F401  (re-exports: the budget's own module)
from .ir import Caches
from .typesys import AnyT, Card, List, Type

# Bounds on what running rules may build (docs/limits.md, "Running games"): checked only where a list or
# a number can grow (a join, a range, a product, a value stored in the game), never on reads.
MAX_ITEMS = 10_000        # items in a list a rule builds (a join 'a + b', a range 'a..b')
MAX_NUMBER = 10**18       # size of a product, a range's ends and any number stored in the game
SUSPEND = -1
CALL = -2
STOP = -3

Fn = Callable[[Any, Frame], Any]


@dataclass
class Code:
    """A compiled unit: instructions, the span of each, and the locals it needs."""

    name: str
    instrs: list = field(default_factory=list)
    spans: list = field(default_factory=list)
    nlocals: int = 0
    # generated units that never pause: the whole unit as one function, which callers
    # run in place (no frame pushed, no trip through the run loop)
    direct: Optional[Callable] = None
    # what each local may hold, as far as a re-deal of hidden cards needs to know: by slot,
    # the HOLDS_* bits of every type it was given (``note``, ``card_slots``)
    slot_holds: list = field(default_factory=list)
    # the 'for each' walks with an order ('by ...'): (items slot, index slot, variable slot,
    # the order's closure), so a re-deal that changes the cards a paused walk has still to
    # visit can put them in order again
    ordered_walks: list = field(default_factory=list)
    # what the unit was compiled from ('unit', 'expression' or 'binder', its Source, its
    # parameters, whether a current player is certain): a fault while it runs is told in
    # the language's words by compiling it again, watched (``meeple.dsl.faults``); kept there after
    recipe: Any = field(default=None, repr=False, compare=False)
    faults: Any = field(default=None, repr=False, compare=False)
    # steps of one run that no charge of its own takes: the walks folded into it (see FOLD_MAX)
    # and the statements it runs (those of its loops left out); and the steps a call of it is
    # charged (1 + both; 0 for a procedure run in place that folds no walk)
    cost: int = 0
    statements: int = 0
    steps: int = 1
    # an action parameter's walk (a binder): (factor, where) as ``meeple.dsl.steps.StepPlanner.walk`` decided
    walk: Optional[tuple] = None

    def note(self, slot: int, t: Optional[Type]) -> None:
        """Record that local ``slot`` may hold a value of type ``t`` (None: not known)."""
        kinds = self.slot_holds
        while len(kinds) <= slot:
            kinds.append(0)
        kinds[slot] |= holds(t)

    def card_slots(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The locals that hold cards (a card, none, or a list of cards: nothing else),
        and those that may hold a card among values of other types, or values of no
        known type: what a re-deal cannot follow."""
        cards: list[int]
        unclear: list[int]
        cards, unclear = [], []
        for i, h in enumerate(self.slot_holds):
            if h & (HOLDS_CARD | HOLDS_CARDS):
                (unclear if h & (HOLDS_OTHER | HOLDS_UNKNOWN) else cards).append(i)
            elif h & HOLDS_UNKNOWN:
                unclear.append(i)
        return tuple(cards), tuple(unclear)


# what a local holds (``holds``), as bits: a local given several types has each one's bit
HOLDS_OTHER, HOLDS_CARD, HOLDS_CARDS, HOLDS_UNKNOWN = 1, 2, 4, 8


def holds(t: Optional[Type]) -> int:
    """What a value of type ``t`` is, for a re-deal: a card (or none), a list of cards,
    something else, or not known (no type, or one the checker could not tell)."""
    if t is None or isinstance(t, AnyT):
        return HOLDS_UNKNOWN
    if isinstance(t, Card):
        return HOLDS_CARD
    if isinstance(t, List):
        e = t.elem_t
        if isinstance(e, Card):
            return HOLDS_CARDS
        if isinstance(e, (AnyT, List)):
            return HOLDS_UNKNOWN
    return HOLDS_OTHER


class _Scope:
    def __init__(self, parent: Optional["_Scope"] = None):
        self.names: dict[str, tuple[int, Type]] = {}     # name -> (local slot, its type)
        self.parent = parent

    def lookup(self, name: str) -> Optional[tuple[int, Type]]:
        s: Optional[_Scope] = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> list[str]:
        out = []
        s: Optional[_Scope] = self
        while s is not None:
            out += list(s.names)
            s = s.parent
        return out


class Unit:
    """Compilation state of one code unit (its code, locals, scope, origin).

    ``me_bound`` is true where a current player is certain (actions, and
    inside ``as`` blocks), so generated code there reads it without a check."""

    def __init__(self, code: Code, origin, scope: _Scope, me_bound: bool = False):
        self.code = code
        self.origin = origin
        self.scope = scope
        self.me_bound = me_bound
        # sub-expressions evaluated once per walk of a comprehension, each with its cache slot
        self.hoist: Optional[Caches] = None

    def new_slot(self, t: Optional[Type] = None, known: bool = False) -> int:
        """A new local, of type ``t`` (what a re-deal of hidden cards reads, ``Code.note``);
        ``known`` with no type: one the rules never read across a decision (a cache)."""
        code = self.code
        code.nlocals += 1
        slot = code.nlocals - 1
        if t is not None or not known:
            code.note(slot, t)
        return slot

    def bind(self, scope: "_Scope", name: str, slot: int, t: Type) -> None:
        """Name local ``slot`` in ``scope``, holding values of type ``t``."""
        scope.names[name] = (slot, t)
        self.code.note(slot, t)



Scope = _Scope

# A cache slot not yet filled in this walk (see dsl/hoist.py). Built at run time so no
# other string is ever the same object; compared with 'is'.
UNSET = "".join(("\x00", "unset"))
SKIP = "\x00skip"    # a string so decisions stay JSON-serialisable


def _me(st, fr) -> int:
    me = fr.me
    if me is None or me < 0:
        raise RuleFault("no current player here (use 'as PLAYER:' or 'of PLAYER')")
    return me


# Python errors a rule's data can cause (none where none was expected, a wrong index):
# reported as rule errors at the rule's line, not as tracebacks
RULE_FAULTS = (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError)


def named_error(game, exc: BaseException, code: Code, span, st=None, fr=None) -> MeepleError:
    """The error a running unit raised, told where it happened, once: the statement
    on the generated line that raised it (the line table), else ``span``; and
    '(in UNIT)'. A fault of a value (Python's own errors, ``RULE_FAULTS``, and
    ``RuleFault``) is told in the language's words when the state and frame it
    happened in are given: ``meeple.dsl.faults`` replays the statement, watched, and names
    the expression that made the value, at its line and column. ``named`` marks it
    done, so a caller further out (the run loop around a unit run in place) leaves it be."""
    if isinstance(exc, MeepleError):
        if not exc.named:
            where = exc.span if exc.span.line else _located(game, exc, span)
            told = _told(game, exc, code, where, st, fr) if isinstance(exc, RuleFault) else None
            if told is not None:
                exc.message, where = told
            exc.span = where
            exc.message = f"{exc.message} (in {code.name})"
            exc.named = True
        return exc
    where = _located(game, exc, span)
    told = _told(game, exc, code, where, st, fr)
    if told is None:
        told = in_words(exc), where
    err = RuleError(f"{told[0]} (in {code.name})", told[1])
    err.named = True
    return err


def _told(game, exc: BaseException, code: Code, where, st, fr):
    """(message, span) of a fault in the language's words, or None (no state to replay it on)."""
    if st is None or fr is None or where is None:
        return None
    explain = getattr(game, "explain_fault", None)      # RunningGame.explain_fault (optional)
    return explain(exc, code, where, st, fr) if explain is not None else None


def _located(game, exc: BaseException, span):
    gen = getattr(game, "pygen", None)
    found = gen.locate(exc.__traceback__) if gen is not None else None
    return found or span


def call_direct(st, code: Code, frame) -> None:
    """Run a unit that never pauses, in place; its errors are named as the run loop names them."""
    try:
        code.direct(st, frame)  # type: ignore[misc]  # only a unit that never pauses is run in place
    except MeepleError as err:
        raise named_error(st.game, err, code, code.spans[0] if code.spans else err.span, st, frame)
    except RULE_FAULTS as exc:
        raise named_error(st.game, exc, code, code.spans[0] if code.spans else None, st, frame) from None


def divide(a: int, b: int) -> int:
    """a / b rounded down, as every rule here does; a rule error when b is 0."""
    if b == 0:
        raise RuleFault("division by zero")
    return a // b


def remainder(a: int, b: int) -> int:
    if b == 0:
        raise RuleFault("division by zero")
    return a % b


def number_range(lo: int, hi: int) -> list:
    """lo..hi, both ends included; bounded so a rule cannot build a huge list."""
    if hi - lo >= MAX_ITEMS:
        raise RuleFault(f"range {lo}..{hi} is too long (at most {MAX_ITEMS} numbers)")
    if not -MAX_NUMBER <= lo <= MAX_NUMBER or not -MAX_NUMBER <= hi <= MAX_NUMBER:
        raise too_big(lo if not -MAX_NUMBER <= lo <= MAX_NUMBER else hi)
    return list(range(lo, hi + 1))


def join(a: list, b: list) -> list:
    """``a + b`` of two lists; a rule error past MAX_ITEMS items (a list doubled in a loop
    would otherwise fill the memory long before the step budget stops the loop)."""
    n = len(a) + len(b)
    if n > MAX_ITEMS:
        raise RuleFault(f"a list of {n} items is too long (a rule builds lists of at most {MAX_ITEMS} items)")
    return a + b


def too_big(n: int) -> RuleError:
    """The error for a number beyond MAX_NUMBER (said by its size: a huge number cannot
    always be written out)."""
    size = f"{len(str(abs(n)))} digits" if n.bit_length() < 10_000 else f"about {int(n.bit_length() * 0.30103) + 1} digits"
    return RuleFault(f"a number of {size} is too large (a product, or a number kept in the game, "
                     f"is at most 10^{len(str(MAX_NUMBER)) - 1} in size)")


def overflow(n: int):
    """Raise ``too_big(n)``: generated code tests a product inline and calls this past the bound."""
    raise too_big(n)


def product(a: int, b: int) -> int:
    """``a * b``, bounded: a product squared in a loop grows without limit within the step budget."""
    n = a * b
    if -MAX_NUMBER <= n <= MAX_NUMBER:
        return n
    raise too_big(n)


def card_zone_of(vocab, zi: int, name: str) -> Callable[[int], int]:
    """The slot of a card's own zone ``name`` (zone ``zi``); a rule error for a card
    of another kind (the checker cannot always tell which card it will be)."""
    base, pos, host_kind, ids = vocab.zone_base[zi], vocab.kind_pos, vocab.zone_defs[zi].of_card, vocab.card_def_ids
    is_host = [vocab.card_defs[d].kind == host_kind for d in vocab.card_def_index]

    def zone_of(c: int) -> int:
        if not is_host[c]:
            raise RuleFault(f"'{name}' belongs to {host_kind} cards, not to {ids[c]}")
        return base + pos[c]
    return zone_of


class KindCheck:
    """For a move the checker cannot type: the test that each card moved is of the kind the
    zone holds (a zone holds its kind only, which bounds every walk of it). Data, which the
    generated code calls: the kind of each card, their ids (for the message) and the kind held."""

    __slots__ = ("kinds", "ids", "holds")

    def __init__(self, kinds: list, ids: list, holds: str):
        self.kinds, self.ids, self.holds = kinds, ids, holds

    def __call__(self, cards: list) -> None:
        kinds, holds = self.kinds, self.holds
        for c in cards:
            if kinds[c] != holds:
                raise RuleError(f"card {self.ids[c]} is a {kinds[c]} card: it cannot go into a zone of {holds} cards")


class CheckedOnly(RuntimeError):
    """A rule run in a game loaded to be checked only (``generate=False``: 'meeple validate',
    'cards', 'diff'): the checker writes no code, so such a game runs none. A defect of
    the caller's (load the game with ``generate=True``), never of a pack."""


CHECKED_ONLY = ("this game was loaded to be checked only (generate=False): its rules were not written "
                "as Python, so it runs none; load it with generate=True to play it")


def unwritten(st, fr) -> int:
    """The instruction of a statement no generator wrote: in a game loaded to be checked only
    (each of its instructions), or a statement of a run written whole (``Compiler.fused``)."""
    raise CheckedOnly(CHECKED_ONLY)


class Items:
    """An action parameter's items (``x in SOURCE where ...``), for the engine's listing of a
    menu (``ActionMenus.action_options``) and the replay of a fault: plain data, the
    source's generated function (None when checking only), whether it gives a zone (its
    cards are copied: the options outlive changes to it) and the frame slots of the
    where-clause's cached parts, emptied before each walk (dsl/hoist.py)."""

    __slots__ = ("source", "zone", "fresh")

    def __init__(self, source: Optional[Fn], zone: bool, fresh: tuple):
        self.source, self.zone, self.fresh = source, zone, fresh

    def __call__(self, st, fr) -> list:
        loc = fr.locals
        for s in self.fresh:
            loc[s] = UNSET
        v = self.source(st, fr)  # type: ignore[misc]  # a game that runs has its rules generated
        return st.zones[v][:] if self.zone else v


def _jump(target: int) -> Callable:
    """An instruction going to ``target``: data (its target, ``jump_to``), which ``thread_jumps``
    replaces by the instruction it leads to."""
    op = lambda st, fr: target      # noqa: E731
    op.jump_to = target             # type: ignore[attr-defined]  # what ``thread_jumps`` looks for
    return op


def thread_jumps(code: "Code") -> None:
    """Put at each jump's place the instruction it leads to (through chains of
    jumps), with that instruction's span: one dispatch fewer for every jump taken
    (a loop's way back, the end of an 'if' branch).

    Sound because every instruction gives the absolute place to go next and keeps
    what it needs in its closure and the frame's locals, never its own place: a
    copy runs as the original does. A pause at the copy is resumed at the copy
    (the frame keeps where it paused), which is the same instruction. A jump to
    the end of the code ends the code there (STOP, which the run loop treats as
    the end); a loop made of jumps alone stays as it is."""
    instrs, spans = code.instrs, code.spans
    n = len(instrs)
    for pc in range(n):
        target = getattr(instrs[pc], "jump_to", None)
        if target is None:
            continue
        seen = {pc}
        while target < n and target not in seen and getattr(instrs[target], "jump_to", None) is not None:
            seen.add(target)
            target = instrs[target].jump_to
        if target in seen:
            continue
        if target >= n:
            instrs[pc] = _end
            continue
        instrs[pc] = instrs[target]
        spans[pc] = spans[target]


def order_key(k: tuple) -> tuple:
    """The sort key of a 'for each ... by' item kept as (order value, place, item):
    none last, ties by place (a stable sort)."""
    return (k[0] is None, k[0] if k[0] is not None else 0, k[1])


def _end(st, fr) -> int:
    return STOP


def own_zone(st, slot: int) -> list:
    """The zone list at ``slot`` made this state's own, to write: a clone shares its
    zone lists with the original until one of them writes (copy-on-write), so the
    first write of either side copies the list and marks it owned. Every writer
    tests ``st.own[slot]`` inline and calls this only when the flag is clear, so a
    state that owns its lists (every random playout) pays no call."""
    z = st.zones[slot][:]
    st.zones[slot] = z
    st.own[slot] = True
    return z


def zone_to_write(st, slot: int) -> list:
    """The zone list at ``slot``, owned (see ``own_zone``): for writers off the hot path."""
    return st.zones[slot] if st.own[slot] else own_zone(st, slot)


def _move(st, card: int, zone: int, bottom: bool) -> None:
    old = st.loc[card]
    zones, own = st.zones, st.own
    (zones[old] if own[old] else own_zone(st, old)).remove(card)
    if old == zone and not bottom:
        zones[zone].append(card)          # owned a line above
        return
    if bottom:
        (zones[zone] if own[zone] else own_zone(st, zone)).insert(0, card)
    else:
        (zones[zone] if own[zone] else own_zone(st, zone)).append(card)
    st.loc[card] = zone
    if st.track is not None:
        st.track.add((zone, card))


def uses(used: list, key: int) -> int:
    """Times an action was used this turn: ``used`` is a flat list [key, count, key, count, ...]
    of small integers (plain data: it is saved and cloned with the frame's locals)."""
    keys = used[0::2]          # C-level walks: this runs for every action of every menu
    if key in keys:
        return used[2 * keys.index(key) + 1]
    return 0


def used_once_more(used: list, key: int) -> list:
    """A new list with one more use of ``key`` (the old one may be shared with a clone)."""
    keys = used[0::2]
    if key in keys:
        out = used[:]
        out[2 * keys.index(key) + 1] += 1
        return out
    return used + [key, 1]
