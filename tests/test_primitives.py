"""Every primitive of the effect language is documented and has a test case.

The table below is the test: one row per primitive with a DSL expression and
its value in a known state. A primitive added to the registry without a row
(or without a docstring) fails here.
"""
import pytest

from meeple.dsl.primitives import PRIMITIVES
from golden_games import game_of

GAME = game_of("citadels")

# expression, expected value; evaluated with 4 players, me = P2, after a scripted start.
CASES = {
    "size": ("size(hand of player(1))", 4),
    "holder": ("holder(first(d in hand of player(3))) == player(3)", True),
    "top": ("top(deck) is not none", True),
    "host": ("host(first(d in hand of player(1))) is none", True),   # a card in a player's zone has no host card
    "turn_order": ("turn_order(player(3)) == [player(3), player(4), player(1), player(2)]", True),
    "next_player": ("next_player(player(4)) == player(1)", True),
    "previous_player": ("previous_player(player(1)) == player(4)", True),
    "player": ("player(2) == me", True),
    "random": ("random(players) in players", True),
    "distance": ("distance(player(3), player(2))", 3),
    "neighbours": ("neighbours(player(1), player(4)) and not neighbours(player(1), player(3))", True),
    "abs": ("abs(2 - 7)", 5),
    "lesser": ("lesser(4, 2, 9)", 2),
    "greater": ("greater(4, 2, 9)", 9),
    "count": ("count(c in character where c.rank > 5)", 3),
    "sum": ("sum(c.rank for c in character)", 36),
    "min": ("min(c.rank for c in character where c.rank > 2)", 3),
    "max": ("max(c.rank for c in character where c.rank < 8)", 7),
    "any": ("any(c in character where c is king)", True),
    "every": ("every(c in character where c.rank >= 1)", True),
    "first": ("first(c in character where c.rank == 4) is king", True),
    "those": ("size(those(c in character where c.income is not none))", 4),
    "values": ("values(c.rank * 2 for c in character where c.rank < 3)", [2, 4]),
    "tier": ("tier(5, [3, 5, 7], [1, 3, 6]) + tier(2, [3, 5, 7], [1, 3, 6]) * 10 + tier(9, [3, 5, 7], [1, 3, 6]) * 100", 603),
    "majority_share": ("majority_share(3, [3, 1, 0, 1], 5, 3)", 5),
    "top_sum": ("top_sum([3, 6, 1, 5], 2) + top_sum([2], 3) * 100 + top_sum([], 3)", 211),
}

# majority_share: (n, counts, first, second) -> award; the tie rules of a majority
MAJORITY = [
    (3, [3, 1, 0, 1], 5, 3, 5),      # most
    (1, [3, 1, 0, 1], 5, 3, 1),      # tied second split 3, rounded down
    (0, [3, 1, 0, 1], 5, 3, 0),      # no contribution
    (2, [2, 2, 1], 5, 2, 3),         # tied first split 5 + 2, rounded down
    (1, [2, 2, 1], 5, 2, 0),         # and no one gets second
    (4, [4, 0, 0], 5, 2, 7),         # a lone contributor gets both
    (2, [4, 2], 5, 2, 2),            # second
]

# any/every/first over plain collections: items are present, booleans are conditions
PLAIN = [("any(players)", True), ("any([false, false])", False), ("every([true, false])", False),
         ("first(players) == player(1)", True), ("any(c in character where c is assassin)", True),
         ("count(p in players where p == player(1))", 1)]

ARITH = [("7 / 2", 3), ("-7 / 2", -4), ("7 % 3", 1), ("2 + 3 * 4", 14), ("(2 + 3) * 4", 20),
         ("if 1 < 2 then 5 else 6", 5), ("1..3", [1, 2, 3]), ("not (1 == 1) or 2 != 3", True)]


def evaluate(text):
    return GAME.evaluate(GAME.new_state(4, 1), text, player=1)


def test_every_primitive_has_a_docstring_and_a_case():
    for name, prim in PRIMITIVES.items():
        assert prim.doc and len(prim.doc) > 15, f"{name} lacks a docstring"
    assert set(CASES) == set(PRIMITIVES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_primitive(name):
    text, expected = CASES[name]
    assert evaluate(text) == expected


@pytest.mark.parametrize("n, counts, first, second, expected", MAJORITY)
def test_majority_share_tie_rules(n, counts, first, second, expected):
    assert evaluate(f"majority_share({n}, {counts}, {first}, {second})") == expected


@pytest.mark.parametrize("text, expected", PLAIN, ids=[a for a, _ in PLAIN])
def test_aggregates_over_plain_collections(text, expected):
    assert evaluate(text) == expected


@pytest.mark.parametrize("text, expected", ARITH, ids=[a for a, _ in ARITH])
def test_arithmetic_rounds_down(text, expected):
    assert evaluate(text) == expected


# Parts of a comprehension that do not read its item are evaluated once per walk
# (dsl/hoist.py). Each case gives a different value (or an error) if a part were
# cached wrongly, eagerly, or with its side effects.
INVARIANTS = [
    ("count(a in players where count(b in players where b != a) == player_count - 1)", 4),  # reads a: per item
    ("count(a in players where a == first(b in players where b == me))", 1),                  # the same for every a
    ("sum(count(c in character where c.rank > x) for x in [1, 2, 3])", 18),                  # 7 + 6 + 5
    ("count(x in 1..0 where 1 / 0 == count(players))", 0),       # no item: the part is never evaluated
    ("any(x in [1] where x == 2 and 1 / 0 > count(players))", False),   # 'and' still short-circuits
    ("count(x in 1..200 where random(players) == player(1)) > 0", True),  # random is drawn per item
    ("count(x in 1..200 where random(players) == player(1)) < 200", True),
]


@pytest.mark.parametrize("text, expected", INVARIANTS, ids=[a for a, _ in INVARIANTS])
def test_invariant_parts_are_evaluated_once_and_lazily(text, expected):
    assert evaluate(text) == expected


def test_invariant_parts_found():
    from meeple.dsl.hoist import invariant_parts
    from meeple.dsl.parser import parse
    from meeple.loading.yamlsrc import TextOrigin
    text = "count(a in players where a != me and size(hand of a) > size(deck) and any(p in players where p == me))"
    tree = parse(text, TextOrigin("t.yaml", 1, 1, False), "expr_start")
    comp = tree.args[0]
    parts = invariant_parts([comp.cond], comp.var, lambda f: f == "random")
    assert [text[p.pos.col - 1:p.pos.col - 1 + p.pos.length] for p in parts] == [
        "size(deck)", "any(p in players where p == me)"]


# Comparisons of a local card's field or variable, a local or a constant (once each a
# closure of its own, fused_equality; the generator writes them inline): each shape,
# both ways round.
EQUALITY = [
    ("count(c in character where c.rank == 4)", 1),                 # field == constant
    ("count(c in character where 4 == c.rank)", 1),                 # constant == field
    ("count(c in character where c.rank != 4)", 7),
    ("count(d in district where d.colour == yellow)", 12),          # field == enum value
    ("count(d in district where d.colour != yellow)", 54),
    ("count(a in character where count(b in character where b.rank == a.rank) == 1)", 8),   # field == field
    ("count(a in character where count(b in character where b.rank != a.rank) == 7)", 8),
    ("count(d in district where d.built_round == 0)", 66),          # variable == constant
    ("count(d in district where d.built_round != 0)", 0),
    ("count(n in [1, 2, 3] where n == 2)", 1),                      # local == constant
    ("count(n in [1, 2, 3] where n != 2)", 2),
    ("count(n in [1, 2, 3] where count(c in character where c.rank == n) == 1)", 3),   # field == local
    ("count(n in [0, 1] where count(d in district where d.built_round == n) == 66)", 1),  # variable == local
    ("count(n in [0, 1] where count(d in district where d.built_round != n) == 66)", 1),
]


@pytest.mark.parametrize("text, expected", EQUALITY, ids=[a for a, _ in EQUALITY])
def test_equality_shapes(text, expected):
    assert evaluate(text) == expected
