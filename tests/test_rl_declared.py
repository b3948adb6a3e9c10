"""The numbers a ``choose n from A..B`` may offer, read from the declarations
(meeple.rl.declared, issue 26): the catalogue names them before any game is played, so
a number random games rarely meet still has an action."""
from __future__ import annotations

import pytest

from meeple.dsl.parser import parse
from meeple.rl import catalogue as C
from meeple.rl.declared import MAX_RANGE, Bounds
from golden_games import game_of


def numbers(lo: int, hi: int) -> list[str]:
    return [str(x) for x in range(lo, hi + 1)]


# Citadels: gold is a resource bounded below only (min 0); starting_gold is 2 and
# city_size 7 at every count; a hand holds districts, of which there are 66.
CASES = [
    ("choose n from 1..4 'p'", numbers(1, 4)),
    ("choose n from 0..lesser(3, gold) 'p'", numbers(0, 3)),
    ("choose n from greater(1, gold)..3 'p'", numbers(1, 3)),      # at least 1, whatever gold is
    ("choose n from 0..gold 'p'", []),                              # no declared maximum
    ("choose n from starting_gold..city_size 'p'", numbers(2, 7)),
    ("let k = size(hand)\nchoose n from 1..k 'p'", numbers(1, 66)),
    ("let k = 2\nset k = 5\nchoose n from k..k + 1 'p'", numbers(2, 6)),
    ("let k = 1\nset k = k + 1\nchoose n from 0..k 'p'", []),       # built up at play: not bounded here
    ("choose n from -2..2 * 1 'p'", numbers(-2, 2)),
    ("choose n from 1..(if gold > 3 then 2 else 4) 'p'", numbers(1, 4)),
    ("choose n from 3..2 'p'", []),
    (f"choose n from 1..{MAX_RANGE + 1} 'p'", []),                 # too loose to be worth naming
    ("choose n from [7, 9] 'p'", ["7", "9"]),
]


@pytest.mark.parametrize("text, keys", CASES, ids=[c[0].replace("\n", "; ") for c in CASES])
def test_the_bounds_of_a_range_come_from_the_declarations(text, keys):
    game = game_of("citadels")
    tree = parse(text.replace("'", '"') + "\n", None, "start")
    assert Bounds(game, [("procedure t", (), tree)]).range_keys() == keys


def test_a_parameter_is_bounded_through_every_call_of_its_procedure():
    """A procedure ``take(n)`` called with 2 and with lesser(gold, 5): n is 0..5 at most."""
    game = game_of("citadels")
    take = parse('choose x from 1..n "p"\n', None, "start")
    calls = parse("call take(2)\ncall take(lesser(gold, 5))\n", None, "start")
    bounds = Bounds(game, [("procedure take", (("n", None),), take), ("action a", (), calls)])
    assert bounds.range_keys() == numbers(1, 5)
    assert Bounds(game, [("procedure take", (("n", None),), take)]).range_keys() == []     # never called: unbounded


@pytest.mark.parametrize("pack, keys, why", [
    # the Abbot's income 'choose g from 0..n', n the districts of a colour in the city (counted
    # over a city, which holds districts: 84 in the 2016 pack), through call collect_income(n)
    ("citadels-2016", numbers(0, 84), "Abbot's income"),
    # a dowry 'choose n from least..greater(least, lesser(dowry_cap, florins))', least the
    # size of a city's married members (92 member cards) + 1
    ("signorie", numbers(1, 93), "dowry"),
    # 'choose n from 1..most', most = total / a.divisor: total is a variable without bounds
    ("troyes", [], "activations"),
])
def test_the_shipped_packs_declare_their_numbers(pack, keys, why):
    game = game_of(pack)
    declared = C.declared_keys(game)
    assert [k for k in declared if k.lstrip("-").isdigit()] == keys, why
    assert set(keys) <= set(C.for_game(game).keys)
