"""A seat's observation vector read from a state through the seat's sight, without a view.

``Layout.encode`` (``meeple.rl.observe``) says what the vector is: it writes a view
(``game.view(state, seat)``) into the layout. Building the view (a label for every card
the seat sees, each variable shown as text) then reading it back is most of a step's
cost, so ``SeatReader`` does the same work once per seat and player count instead: it
takes the seat's ``Sight`` from the observer (``meeple.runtime.views``: which zone slots
the seat sees the cards of, which only the size of, which variables it reads, the very
table ``view`` reads the state through) and compiles, for every zone slot and card, the
place the card's count goes to when the card lies there (none where the seat does not
see the slot's cards). Reading a state reads nothing the sight does not name.

A seat's reader keeps its last vector with what it was read from (the card locations as
bytes, the dice's places, the variable lists, the decision's marks), and reads again only
what differs: the cards whose location bytes differ (one big-number xor finds them), the
dice that moved or rolled, the variables whose values differ, each moving a count or
rewriting a column. It compares with what it read, not with what it was told changed, so
any state may come next (another game's, an earlier one); many cards moved at once (a
deal) are counted again whole. ``read_old`` is the reader as it was before, every card
counted at once by numpy (``read_whole`` starts a kept vector so).

The vector is meant to be the view's vector exactly, bit for bit:
tests/test_rl_observation.py compares the two at every step of random games of every
shipped pack at its smallest and largest player counts, and the environment's vectors in
a game (each seat reading from its last) with both the view's and ``read_old``'s.
"""
from __future__ import annotations

from itertools import compress
from operator import ne, or_
from typing import Any, Callable, Optional

import numpy as np

from meeple.runtime.views import Sight

from meeple.rl.catalogue import prompt_form
from meeple.rl.columns import Scalars, getter
from meeple.rl.observe import Layout


NO_PLACES = np.zeros(0, dtype=np.intp)
NO_VALUE = object()     # a die read where no value is shown (``show_values: false``): by its label alone
MANY = 48           # cards moved since a seat's last vector past which all are counted again
FEW = 12            # bits differing in the card locations up to which the moved cards are found one by one


def resolver(classes: dict[str, int]) -> Callable[[str], Any]:
    """How ``Layout.encode`` finds a listed card's place in its zone's counts: its label,
    else its label without the die value, else its card id (None: not counted)."""
    get = classes.get

    def place(label: str):
        i = get(label)
        if i is None:
            i = get(label.split("=", 1)[0], get(label.split("@", 1)[0].split("=", 1)[0]))
        return i
    return place


class Readers:
    """The seats' readers of one table (a pack and player count), made at once, with what
    they share: each card's place among a kind's counts, and the reading of the variables
    between seats whose sights name the same ones."""

    def __init__(self, layout: Layout):
        self.layout = layout
        observer = layout.game.observer
        self.labels, self.valued = observer.labels, observer.valued
        self.card_classes: dict[int, np.ndarray] = {}       # id of a kind's classes -> each card's class (-1: none)
        self.scalars: dict[tuple, Scalars] = {}
        self.resolvers: dict[int, Callable[[str], Any]] = {}       # id of a kind's classes -> its resolver
        self.seats = [SeatReader(self, seat) for seat in range(layout.players)]

    def classes_of(self, classes: dict[str, int]) -> np.ndarray:
        """Each card's place among ``classes`` as a listed card (-1: not counted, or a die,
        whose place its value decides)."""
        got = self.card_classes.get(id(classes))
        if got is None:
            find = resolver(classes)
            got = np.array([-1 if valued else (-1 if (i := find(label)) is None else i)
                            for label, valued in zip(self.labels, self.valued)], dtype=np.intp)
            self.card_classes[id(classes)] = got
        return got

    def resolver_of(self, classes: dict[str, int]) -> Callable[[str], Any]:
        """The one ``resolver`` of ``classes`` (what lets a die's place be kept by its classes)."""
        got = self.resolvers.get(id(classes))
        if got is None:
            got = self.resolvers[id(classes)] = resolver(classes)
        return got

    def scalars_of(self, sight: Sight) -> "Scalars":
        key = (sight.player_vars, sight.game_vars)
        got = self.scalars.get(key)
        if got is None:
            got = self.scalars[key] = Scalars(self.layout, *key)
        return got


class SeatReader:
    """One seat's observation vectors of the states of one game and player count (see the
    module's docstring)."""

    def __init__(self, readers: Readers, seat: int):
        layout = readers.layout
        game = layout.game
        observer = game.observer
        v = game.vocab
        self.layout = layout
        self.sight = sight = observer.sight(layout.players, seat)
        size = layout.size
        self.dummy = size                     # where a card not counted is counted (dropped after)
        self.seat = seat
        self.seat_place = layout.seat_at + seat
        self.round_scale = game.defn.max_rounds or 1
        self.prompts: dict[str, int] = {}
        nslots, ncards = game.layout.nslots, v.ncards
        self.cards = np.arange(ncards)
        # where a card lying in a slot is counted: the slot's size (``sized``), and its class
        # among the slot's listed cards (``placed``, slot by slot, card by card); ``dummy``: nowhere
        sized = np.full(nslots, size, dtype=np.intp)
        placed = np.full((nslots, ncards), size, dtype=np.intp)
        self.listed: dict[int, tuple[int, Callable]] = {}        # slot -> (first count place, resolver)
        for z in sight.zones:
            place = layout.zones.get(z.label)
            if place is None:
                continue
            at, total, classes, _ = place
            sized[z.slot] = at
            if not z.listed or classes is None:
                continue
            self.listed[z.slot] = (at + 1, readers.resolver_of(classes))
            cls = readers.classes_of(classes)
            placed[z.slot] = np.where(cls >= 0, at + 1 + cls, size)
        self.sized = sized
        self.placed = placed.reshape(-1)          # looked up flat: far quicker than by two indices
        self.ncards = ncards
        self.nslots = nslots
        # dice: a die's label names its value, so its place is found as it is read
        self.labels = readers.labels
        self.shows_value = observer.shows_value      # each slot: whether a die there is read with its value
        dice = [c for c in range(ncards) if readers.valued[c]]
        self.dice = [(c, c * v.ncvars + observer.value_var) for c in dice]
        self.dice_range = range(len(dice))
        self.dice_at = getter(dice) if dice else None
        self.dice_values = getter([vi for _, vi in self.dice]) if dice else None
        self.dice_read: tuple = (None, None)       # the dice's slots and values last read, and their places
        self.die_places: dict[tuple[int, int, Any], int] = {}
        self.die_classes: dict[tuple[Callable, str, Any], Optional[int]] = {}
        self.scalars = readers.scalars_of(sight)
        # what the last vector was read from, to read only what changed since (``read``)
        self.weight = layout.weights.tolist()      # single-precision weights as exact floats
        self.placed_at = self.placed.tolist()
        self.sized_at = sized.tolist()
        self.base: Optional[np.ndarray] = None     # the last vector less the round and decision
        self.counts: list[int] = []                # cards counted at each place (dummy last)
        self.loc_read: Any = None                  # the card locations read (a bytearray; an array past 256 slots)
        self.dice_counted: list[int] = []           # each die's place counted (dummy: none)
        self.dice_key: tuple = ((), ())             # the dice's slots and values read
        self.vars_read: dict[str, list] = {}       # each variable list read
        self.marks: tuple = ()                     # the places the pending decision set
        self.marks_of: dict[tuple, tuple] = {}     # (prompt, player) -> the places its decision sets
        self.when: Optional[tuple] = None          # the round and end written

    # ------------------------------------------------------------ a state to a vector
    def read(self, st) -> np.ndarray:
        """The seat's vector of ``st``: ``layout.encode(game.view(st, seat), seat)``, read
        through the seat's sight. Only what changed since the seat's last vector is read
        again: the cards whose locations differ, the dice whose places differ, the variables
        whose values differ (each compared with what was read, so any state may come next:
        another game's, an earlier one); ``read_whole`` reads everything."""
        base = self.base
        if base is None:
            return self.read_whole(st)
        touched = self._moved(st)
        if touched is None:
            return self.read_whole(st)
        if self.dice:
            self._rolled(st, touched)
        if touched:
            places = set(touched)
            places.discard(self.dummy)
            counts, weight = self.counts, self.weight
            # a count times its weight is exact in double, rounded once to single as numpy's
            # single product is; many at once in one assignment, a few one by one
            if len(places) > 8:
                at = list(places)
                base[at] = [min(counts[k] * weight[k], 1.0) for k in at]
            else:
                for k in places:
                    x = counts[k] * weight[k]
                    base[k] = x if x < 1.0 else 1.0
        self.scalars.patch(st, self.vars_read, base)
        return self._finish(st, base)

    def _moved(self, st) -> Optional[list]:
        """Count the cards that moved since the last read where they lie now; the places
        whose counts changed, perhaps twice (None: too many moved, all are to be counted again)."""
        loc = st.loc
        if self.nslots > 256:
            return self._moved_far(st)
        now, last = bytearray(loc), self.loc_read      # bytearray(): a quarter of bytes()' time from a list
        if now == last:
            return []
        # the cards whose bytes differ, lowest first: one big-number xor, then its lowest set
        # bit again and again (quicker than numpy's calls for the few cards a step moves; for
        # many, each step of it costs a new big number: numpy compares the bytes at once)
        x = int.from_bytes(now, "little") ^ int.from_bytes(last, "little")
        if x.bit_count() > FEW:
            moved = (np.frombuffer(now, dtype=np.uint8) != np.frombuffer(last, dtype=np.uint8)).nonzero()[0].tolist()
            if len(moved) > MANY:
                return None
            self.loc_read = now
            return self._count_moves(moved, last, now)
        moved, c = [], 0
        while x:
            skip = ((x & -x).bit_length() - 1) >> 3
            c += skip
            moved.append(c)
            if len(moved) > MANY:
                return None
            x >>= (skip + 1) << 3
            c += 1
        self.loc_read = now
        return self._count_moves(moved, last, now)

    def _moved_far(self, st) -> Optional[list]:
        """``_moved`` for a game of more than 256 zone slots (a slot number is not a byte)."""
        loc = st.loc
        now, last = np.array(loc, dtype=np.int32), self.loc_read
        if np.array_equal(now, last):
            return []
        moved = (now != last).nonzero()[0].tolist()
        if len(moved) > MANY:
            return None
        self.loc_read = now
        return self._count_moves(moved, last.tolist(), loc)

    def _count_moves(self, moved: list, was, now) -> list:
        """Move the count of each card of ``moved`` from where it was to where it is now."""
        counts, placed, sized, n = self.counts, self.placed_at, self.sized_at, self.ncards
        touched: list = []
        put = touched.append
        for c in moved:
            old, new = was[c], now[c]
            k, z = placed[old * n + c], sized[old]
            counts[k] -= 1
            counts[z] -= 1
            put(k)
            put(z)
            k, z = placed[new * n + c], sized[new]
            counts[k] += 1
            counts[z] += 1
            put(k)
            put(z)
        return touched

    def _rolled(self, st, touched: list) -> None:
        """Count the dice that moved or changed value since the last read at their places;
        the places whose counts changed added to ``touched``."""
        where, values = self.dice_at(st.loc), self.dice_values(st.cvars)
        was_where, was_values = self.dice_key
        if where == was_where and values == was_values:
            return
        counts, places, dice, known = self.counts, self.dice_counted, self.dice, self.die_places
        # the dice that moved or rolled, found without a Python step a die (most keep both)
        for j in compress(self.dice_range, map(or_, map(ne, where, was_where), map(ne, values, was_values))):
            c, slot, value = dice[j][0], where[j], values[j]
            new = known.get((slot, c, value))
            if new is None:
                new = self._die_place(c, slot, value)
            old = places[j]
            if new != old:
                counts[old] -= 1
                counts[new] += 1
                touched.append(old)
                touched.append(new)
                places[j] = new
        self.dice_key = (where, values)

    def _die_place(self, c: int, slot: int, value: Any) -> int:
        """Where die ``c`` lying in ``slot`` with ``value`` is counted (``dummy``: nowhere)."""
        key = (slot, c, value)      # a die's value is a whole number (the checker types it so)
        place = self.die_places.get(key)
        if place is None:
            got = self.listed.get(slot)
            i = None if got is None else self._die_class(got[1], c, value if self.shows_value[slot] else NO_VALUE)
            place = self.die_places[key] = self.dummy if i is None else got[0] + i
        return place

    def _die_class(self, find: Callable, c: int, value: Any) -> Optional[int]:
        """Die ``c``'s place among the classes ``find`` reads when it shows ``value``, kept
        by the classes (one resolver a zone kind) and the die's label, not by slot and die: the
        slots of one kind read alike dice alike (two dozen dice in some 170 slots miss
        ``die_places`` at most rolls)."""
        label = self.labels[c]
        key = (find, label, value)
        i = self.die_classes.get(key, -1)
        if i == -1:
            i = self.die_classes[key] = find(label if value is NO_VALUE else f"{label}={value}")
        return i

    def _count_all(self, st) -> np.ndarray:
        """Count every card (and die) where the seat sees it: ``counts``, ``loc_read``; the
        counts as an array too."""
        loc = st.loc
        read = bytearray(loc) if self.nslots <= 256 else np.array(loc, dtype=np.int32)
        where = np.frombuffer(read, dtype=np.uint8) if self.nslots <= 256 else read.astype(np.intp)
        at = np.multiply(where, self.ncards, dtype=np.intp)
        at += self.cards
        dice: list[int] = []
        if self.dice:
            self.dice_key = (self.dice_at(loc), self.dice_values(st.cvars))
            dice = [self._die_place(c, slot, value) for (c, _), slot, value in zip(self.dice, *self.dice_key)]
        counted = np.concatenate((self.placed[at], self.sized[where], np.array(dice, dtype=np.intp)))
        counts = np.bincount(counted, minlength=self.dummy + 1)
        self.counts = counts.tolist()
        self.loc_read = read
        self.dice_counted = dice
        return counts

    def read_whole(self, st) -> np.ndarray:
        """The seat's vector of ``st`` read whole (what ``read`` keeps up to date)."""
        counts = self._count_all(st)
        base = counts[:self.dummy].astype(np.float32)     # not from the list: 28 us over 1,707 places
        base *= self.layout.weights
        np.minimum(base, 1.0, out=base)
        base[self.seat_place] = 1.0
        self.scalars.write(st, self.vars_read, base)
        self.base = base
        self.marks, self.when = (), None
        return self._finish(st, base)

    def _finish(self, st, base: np.ndarray) -> np.ndarray:
        """Write the round, the end and the pending decision into ``base`` (the rest written),
        clearing the places the last ones marked; a copy of it."""
        dec = st.pending
        marks: tuple = () if dec is None else self.marks_of.get((dec.prompt, dec.player)) or self._marks(dec)
        if marks != self.marks:
            for k in self.marks:
                base[k] = 0.0
            for k in marks:
                base[k] = 1.0
            self.marks = marks
        when = (st.round, st.over)
        if when != self.when:
            at = self.layout.round_at
            base[at] = max(-1.0, min(1.0, st.round / self.round_scale))
            base[at + 1] = 1.0 if st.over else 0.0
            self.when = when
        return base.copy()

    def _marks(self, dec) -> tuple:
        """The places a decision marks (whose it is, its prompt, whether it is the seat's),
        kept by prompt and player."""
        layout = self.layout
        p = self.prompts.get(dec.prompt)
        if p is None:
            cat = layout.catalogue
            p = self.prompts[dec.prompt] = cat.prompt_index.get(prompt_form(dec.prompt), len(cat.prompts))  # type: ignore[attr-defined]
        marks: tuple = (layout.decider_at + dec.player, layout.prompt_at + p)
        if dec.player == self.seat:
            marks += (layout.decider_at + layout.players,)
        self.marks_of[(dec.prompt, dec.player)] = marks
        return marks

    def read_old(self, st) -> np.ndarray:
        """The seat's vector of ``st`` as the first reader made it (all its cards counted at
        once, its variables by stretches): tests/test_rl_observation.py holds ``read`` to it."""
        layout = self.layout
        loc = st.loc
        # a zone slot number fits a byte in every pack so far: bytes() is the quick way in
        where = np.frombuffer(bytes(loc), dtype=np.uint8) if self.nslots <= 256 else np.array(loc, dtype=np.intp)
        at = np.multiply(where, self.ncards, dtype=np.intp)
        at += self.cards
        counted = np.concatenate((self.placed[at], self.sized[where], self._dice(st) if self.dice else NO_PLACES))
        out = np.bincount(counted, minlength=self.dummy + 1)[:self.dummy].astype(np.float32)
        out *= layout.weights
        np.minimum(out, 1.0, out=out)        # sums of 1/copies may pass 1 by a rounding (as encode clips)
        out[self.seat_place] = 1.0
        a, b, players, c, d, variables = self.scalars.segments(st)
        out[a:b] = players
        out[c:d] = variables
        out[layout.round_at] = max(-1.0, min(1.0, st.round / self.round_scale))
        if st.over:
            out[layout.round_at + 1] = 1.0
        dec = st.pending
        if dec is not None:
            out[layout.decider_at + dec.player] = 1.0
            if dec.player == self.seat:
                out[layout.decider_at + layout.players] = 1.0
            p = self.prompts.get(dec.prompt)
            if p is None:
                cat = layout.catalogue
                p = self.prompts[dec.prompt] = cat.prompt_index.get(prompt_form(dec.prompt), len(cat.prompts))  # type: ignore[attr-defined]
            out[layout.prompt_at + p] = 1.0
        return out

    def _dice(self, st) -> np.ndarray:
        """The count places of the dice lying where the seat sees them, by their values
        (kept while the dice lie where they lay with the values they had)."""
        where, values = self.dice_at(st.loc), self.dice_values(st.cvars)
        key = (where, values)
        last, places = self.dice_read
        if key == last:
            return places
        listed, memo, labels = self.listed, self.die_places, self.labels
        out = []
        for (c, _), slot, value in zip(self.dice, where, values):
            got = listed.get(slot)
            if got is None:
                continue
            memo_key = (slot, c, value)      # a die's value is a whole number (the checker types it so)
            place = memo.get(memo_key)
            if place is None:
                i = got[1](f"{labels[c]}={value}" if self.shows_value[slot] else labels[c])
                place = memo[memo_key] = self.dummy if i is None else got[0] + i
            out.append(place)
        places = np.array(out, dtype=np.intp)
        self.dice_read = (key, places)
        return places
