"""The checker's types (dsl/typesys.py): how they are named in messages, which fit
where, and that they behave as values (equal, hashable, spelt and parsed back)."""
import pytest

from meeple.dsl.typesys import (ANY, BOOL, CARD, COLLECTION, INT, NONE, PLAYER, TEXT, ZONE, Card, Enum, EnumSet, List, Zone,
                         card_kind, compatible, declared, parse)

DESCRIBED = [
    (INT, "a number"), (BOOL, "true/false"), (TEXT, "a text"), (PLAYER, "a player"), (NONE, "none"),
    (ANY, "a value"), (CARD, "a card"), (Card("coin"), "a coin card"), (Zone("coin"), "a zone of coin cards"),
    (Enum("colour"), "a colour value"), (EnumSet("colour"), "the colour values"), (COLLECTION, "a zone or list"),
    (List(INT), "a list of numbers"), (List(BOOL), "a list of true/false values"), (List(TEXT), "a list of texts"),
    (List(PLAYER), "a list of players"), (List(CARD), "a list of cards"), (List(ANY), "a list of values"),
    (List(Card("coin")), "a list of coin cards"), (List(Enum("colour")), "a list of a colour value"),
    (List(List(INT)), "a list of a list of numbers"), (List(NONE), "a list of none"),
]


@pytest.mark.parametrize("t, text", DESCRIBED)
def test_messages_name_types_as_before(t, text):
    assert t.describe() == text


@pytest.mark.parametrize("t", [t for t, _ in DESCRIBED])
def test_a_type_is_spelt_and_parsed_back(t):
    assert parse(str(t)) == t
    assert hash(parse(str(t))) == hash(t)


def test_types_are_values():
    assert Card("coin") == Card("coin") and Card("coin") != Card("die") and Card("coin") != CARD
    assert List(Card("coin")) == List(Card("coin")) and List(INT) != List(BOOL)
    assert INT != BOOL and Enum("x") != EnumSet("x") and Zone("x") != Card("x")
    assert len({INT, BOOL, TEXT, PLAYER, NONE, ANY, CARD, Card("coin"), Card("coin")}) == 8
    with pytest.raises(AttributeError):
        Card("coin").kind = "die"


def test_element_types():
    assert List(INT).elem() == INT
    assert Zone("coin").elem() == Card("coin")
    assert EnumSet("colour").elem() == Enum("colour")
    assert ANY.elem() == ANY and INT.elem() == ANY
    assert [t.is_collection for t in (List(INT), Zone("coin"), EnumSet("c"), ANY, INT, CARD, Enum("c"))] == \
        [True, True, True, True, False, False, False]


COMPATIBLE = [
    (INT, INT, True), (INT, BOOL, False), (ANY, BOOL, True), (NONE, Card("coin"), True), (TEXT, ANY, True),
    (Card("coin"), CARD, True), (CARD, Card("coin"), True), (Card("coin"), Card("die"), False),
    (Zone("coin"), List(Card("coin")), True), (Zone("coin"), List(CARD), True), (Zone("coin"), List(Card("die")), False),
    (List(ANY), List(INT), True), (EnumSet("colour"), List(Enum("colour")), True), (List(INT), COLLECTION, True),
    (Zone("coin"), COLLECTION, True), (INT, COLLECTION, False), (TEXT, Enum("colour"), True),
    (Enum("colour"), TEXT, False), (INT, List(INT), False), (Enum("a"), Enum("b"), False),
]


@pytest.mark.parametrize("have, want, ok", COMPATIBLE)
def test_compatibility(have, want, ok):
    assert compatible(have, want) is ok


def test_declared_types_and_kinds():
    enums = {"colour"}
    assert [declared(n, enums) for n in ("int", "bool", "player", "text", "card", "colour", "coin")] == \
        [INT, BOOL, PLAYER, TEXT, CARD, Enum("colour"), Card("coin")]
    assert card_kind(Card("coin")) == "coin" and card_kind(CARD) is None and card_kind(INT) is None
    assert str(ZONE) == "zone" and parse("zone") == ZONE
    with pytest.raises(ValueError):
        parse("list:")
