"""Every function the effect language offers, in one registry.

A primitive is a plain Python function over runtime values (players and
cards are ints; collections are lists) plus its declared argument and result
types, which the checker uses. Aggregates over comprehensions (count, sum,
any, every, first, those, min, max) are compiled specially but are listed
here too so the registry is the single reference.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from .errors import RuleFault
from .typesys import ANY, BOOL, CARD, COLLECTION, COMPREHENSION, ELEM, INT, PLAYER, ZONE, List, Type


@dataclass(frozen=True, slots=True)
class Primitive:
    name: str
    fn: Optional[Callable[..., Any]]   # None for aggregates compiled by the compiler
    params: tuple[Type, ...]           # the arguments' types (COMPREHENSION for an aggregate)
    returns: Type                      # a type, or ELEM (the element type of the first argument); may be none
    needs_state: bool
    doc: Optional[str]                 # the function's docstring (None under python -OO)
    pure: bool = True                  # false: has side effects, so never evaluated once for many items
    variadic: bool = False             # the last parameter repeats: lesser(a, b, ...)


def size(st, coll):
    """Number of cards in a zone or items in a list."""
    return len(st.zones[coll]) if isinstance(coll, int) else len(coll)


def holder(st, card):
    """The player whose zone holds the card, or none when it lies in a shared zone."""
    owner = st.game.slot_owner[st.loc[card]]
    return None if owner < 0 else owner


def host(st, card):
    """The card whose own zone holds this card (a cube on an event card), or none."""
    h = st.game.slot_card[st.loc[card]]
    return None if h < 0 else h


def top(st, zone):
    """The top card of a zone (the next one drawn), or none when it is empty."""
    z = st.zones[zone]
    return z[-1] if z else None


def turn_order(st, first):
    """All players in seating order starting with ``first``."""
    n = st.players
    return [(first + i) % n for i in range(n)]


def next_player(st, p):
    """The player seated after ``p`` (to the left)."""
    return (p + 1) % st.players


def previous_player(st, p):
    """The player seated before ``p`` (to the right)."""
    return (p - 1) % st.players


def player(st, n):
    """Player number ``n`` as shown to people (1-based: player(1) is P1)."""
    if not 1 <= n <= st.players:
        raise RuleFault(f"there is no player {n} (there are {st.players} players)")
    return n - 1


def random(st, coll):
    """One item of a list (or card of a zone) picked with the game's seeded generator; none if empty."""
    items = st.zones[coll] if isinstance(coll, int) else coll
    return items[st.rand_below(len(items))] if items else None


def distance(st, a, b):
    """Seats from player ``a`` to player ``b`` going left (0 when equal)."""
    return (b - a) % st.players


def neighbours(st, a, b):
    """Whether two players sit next to each other."""
    n = st.players
    return a != b and ((a - b) % n == 1 or (b - a) % n == 1)


def absolute(a):
    """Absolute value of a number."""
    return -a if a < 0 else a


def lesser(*values):
    """The smallest of its arguments: lesser(a, b, ...)."""
    return min(values)


def greater(*values):
    """The largest of its arguments: greater(a, b, ...)."""
    return max(values)


def top_sum(numbers, n):
    """Sum of the ``n`` largest numbers of a list: top_sum([3, 6, 1, 5], 2) is 11 (the best two dice)."""
    return sum(sorted(numbers, reverse=True)[:max(0, n)])


def tier(n, thresholds, points):
    """Points for the highest threshold ``n`` reaches: tier(5, [3, 5, 7], [1, 3, 6]) is 3; below the first, 0."""
    if len(thresholds) != len(points):
        raise RuleFault(f"{len(thresholds)} thresholds but {len(points)} point values")
    best = 0
    for t, v in zip(thresholds, points):
        if n >= t:
            best = v
    return best


def majority_share(n, counts, first, second):
    """Award for a contributor with ``n`` among all ``counts`` (zeros do not take part).

    Most gets ``first`` and second-most ``second``; several tied for most split
    first + second equally, rounded down, and no one gets second; several tied
    for second split ``second``; a lone contributor gets both.
    """
    if n <= 0:
        return 0
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    if not levels:
        return 0
    top = [c for c in counts if c == levels[0]]
    if len(levels) == 1 and len(top) == 1:
        return first + second
    if n == levels[0]:
        return (first + second) // len(top) if len(top) > 1 else first
    if len(top) > 1 or len(levels) < 2 or n != levels[1]:
        return 0
    return second // sum(1 for c in counts if c == levels[1])


PRIMITIVES: dict[str, Primitive] = {
    "size": Primitive("size", size, (COLLECTION,), INT, True, size.__doc__),
    "holder": Primitive("holder", holder, (CARD,), PLAYER, True, holder.__doc__),
    "top": Primitive("top", top, (ZONE,), ELEM, True, top.__doc__),
    "host": Primitive("host", host, (CARD,), CARD, True, host.__doc__),
    "turn_order": Primitive("turn_order", turn_order, (PLAYER,), List(PLAYER), True, turn_order.__doc__),
    "next_player": Primitive("next_player", next_player, (PLAYER,), PLAYER, True, next_player.__doc__),
    "previous_player": Primitive("previous_player", previous_player, (PLAYER,), PLAYER, True, previous_player.__doc__),
    "player": Primitive("player", player, (INT,), PLAYER, True, player.__doc__),
    "random": Primitive("random", random, (COLLECTION,), ELEM, True, random.__doc__, pure=False),
    "distance": Primitive("distance", distance, (PLAYER, PLAYER), INT, True, distance.__doc__),
    "neighbours": Primitive("neighbours", neighbours, (PLAYER, PLAYER), BOOL, True, neighbours.__doc__),
    "abs": Primitive("abs", absolute, (INT,), INT, False, absolute.__doc__),
    "lesser": Primitive("lesser", lesser, (INT,), INT, False, lesser.__doc__, variadic=True),
    "greater": Primitive("greater", greater, (INT,), INT, False, greater.__doc__, variadic=True),
    "tier": Primitive("tier", tier, (INT, List(INT), List(INT)), INT, False, tier.__doc__),
    "top_sum": Primitive("top_sum", top_sum, (List(INT), INT), INT, False, top_sum.__doc__),
    "majority_share": Primitive("majority_share", majority_share, (INT, List(INT), INT, INT), INT, False,
                                majority_share.__doc__),
    # Aggregates over a collection or a comprehension ``x in coll where cond``.
    "count": Primitive("count", None, (COMPREHENSION,), INT, False,
                       "How many items of the collection satisfy the condition: count(c in hand where c.cost > 3)."),
    "sum": Primitive("sum", None, (COMPREHENSION,), INT, False,
                     "Sum of a value over a collection: sum(c.cost for c in hand); 0 when empty."),
    "min": Primitive("min", None, (COMPREHENSION,), INT, False,
                     "Smallest value over a collection: min(d.cost for d in hand); none when empty."),
    "max": Primitive("max", None, (COMPREHENSION,), INT, False,
                     "Largest value over a collection: max(c.rank for c in picked); none when empty."),
    "any": Primitive("any", None, (COMPREHENSION,), BOOL, False,
                     "Whether some item satisfies the condition: any(c in hand where c.value > 3)."),
    "every": Primitive("every", None, (COMPREHENSION,), BOOL, False,
                       "Whether all items satisfy the condition (true when empty)."),
    "first": Primitive("first", None, (COMPREHENSION,), ELEM, False,
                       "The first item satisfying the condition, in collection order; none if there is none."),
    "those": Primitive("those", None, (COMPREHENSION,), List(ANY), False,
                       "The items satisfying the condition, as a list: those(d in hand where d.cost < 3)."),
    "values": Primitive("values", None, (COMPREHENSION,), List(ANY), False,
                        "A value per item, as a list: values(coins of p for p in players)."),
}
