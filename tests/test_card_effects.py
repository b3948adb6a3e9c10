"""Generated rules text (meeple cards --generated) says what every card of every shipped
pack does: never only its data, never nothing, with cross-references that name rules
which read the card's own field, and in Japanese with no identifier left in English."""
import re

import pytest

import meeple
from meeple.authoring.cardtext import card_lines, field_lines, lexicon, plain_lines
from meeple.dsl.phrases import Renderer
from meeple.loading.folders import shipped_packs

PACKS = shipped_packs()


def _rule_text(pack) -> str:
    """Every text of the game's rules (its actions, procedures and functions)."""
    g = pack.game
    parts = [p.body.text for p in g.procedures] + [f.body.text for f in g.functions]
    for a in g.actions:
        parts += [s.text for s in (a.when, a.with_, a.effect) if s is not None]
    return "\n".join(parts)


def _has_effect(pack, card, rules: str) -> bool:
    """A card does something when it has rules of its own, when the game's rules name it
    (``x is ID``), or when they test a yes/no field it sets."""
    if card.actions or card.hooks or card.handlers:
        return True
    if re.search(rf"\bis\s+{re.escape(card.id)}\b", rules):
        return True
    kind = next(k for k in pack.game.card_kinds if k.name == card.kind)
    defaults = {f.name: f.default for f in kind.fields}
    return any(v is True and not defaults.get(k) and re.search(rf"\.{k}\b", rules) for k, v in card.fields)


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_card_that_does_something_shows_what_not_only_its_data(pack_id):
    game = meeple.load(pack_id)
    pack = game.pack
    lex, rules = lexicon(pack), _rule_text(pack)
    data_only, empty = [], []
    for card in pack.cards:
        lines = card_lines(game, card, "en", lex)
        if not lines:
            empty.append(card.id)
        r = Renderer(lex, "en")
        data = set(field_lines(game, card, r)) | set(plain_lines(card, r, False))
        if _has_effect(pack, card, rules) and all(ln in data for ln in lines):
            data_only.append(card.id)
    assert (data_only, empty) == ([], [])


@pytest.mark.parametrize("pack_id", PACKS)
def test_japanese_generated_text_has_no_identifier_left(pack_id):
    game = meeple.load(pack_id)
    lex = lexicon(game.pack)
    left = sorted({f"{card.id}: {ln.strip()}" for card in game.pack.cards for ln in card_lines(game, card, "ja", lex)
                   if re.search(r"[a-z]{2,}|[A-Z][a-z]", ln)})
    assert left == []


@pytest.mark.parametrize("pack_id, card_id, said", [
    ("citadels", "king", ["In take crown:", "  If character's crown bearer and not resumed:",
                          "    Set the crown's holder to you"]),
    ("citadels-dark-city", "hospital", ["In murdered called:", "  If the holder of C's city has a D where D is Hospital:"]),
    ("citadels-dark-city", "emperor", ["In take crown:", "  If character's crown bearer and not resumed:",
                                       "    If character is Emperor:", "      Do emperor crown"]),
    ("signorie", "betrothal", ["In administer:", "  If T's marriage:", "    Do marry"]),
    ("signorie", "yellow_column", ["Colour yellow: read by the column of a colour"]),
    ("citadels-dark-city", "imperial_treasury", ["Score:", "  Gain Score equal to your Gold"]),
    ("troyes", "chretien", ["    P gains Victory points equal to the value of [1, 3, 6] at the highest of "
                            "([4, 6, 8] if the number of players is 2, else [3, 5, 7]) that N reaches"]),
])
def test_the_cards_the_issue_named_read_as_what_they_do(pack_id, card_id, said):
    game = meeple.load(pack_id)
    lines = card_lines(game, next(c for c in game.pack.cards if c.id == card_id), "en")
    at = lines.index(said[0])
    assert lines[at:at + len(said)] == said


def test_a_field_another_kind_has_as_a_variable_is_told_apart_by_its_type():
    """A die's value is a variable of another kind, read by 'Flip up to 3 dice' and many
    more: the cathedral space's value is read where the checker typed a cathedral space
    (building the cathedral, and picking dice for it: 'n in cathedral where n.value ==
    d.value'), and nowhere a die's value is read."""
    game = meeple.load("troyes")
    lines = card_lines(game, next(c for c in game.pack.cards if c.id == "cathedral_1_2"), "en")
    assert lines == ["Value 2: read by Build the cathedral, pick dice", "Influence 1: read by Build the cathedral"]


@pytest.mark.parametrize("pack_id, names", [
    ("citadels", ["King", "Bishop", "Merchant", "Warlord"]),
    ("citadels-dark-city", ["Emperor", "Abbot", "Diplomat"]),
])
def test_the_school_of_magic_text_names_every_income_character_of_its_game(pack_id, names):
    pack = meeple.load(pack_id).pack
    text = next(c for c in pack.cards if c.id == "school_of_magic").text.get("en")
    assert all(n in text for n in names)


def test_the_2016_school_of_magic_counts_for_every_ability_by_type():
    pack = meeple.load("citadels-2016").pack
    text = next(c for c in pack.cards if c.id == "school_of_magic").text
    assert "every ability" in text.get("en") and "King" not in text.get("en") and text.get("ja").startswith("建物の種類ごとに")
