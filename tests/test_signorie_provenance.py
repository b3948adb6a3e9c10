"""Signorie's own provenance checks. That every number of the pack is cited
(its sources: data, naming the references of pack.yaml) or marked provisional
is the generic tests/test_provenance.py; here, what is particular to this pack:

- a card whose hooks hold the rules text (assistants, bonus spaces, reward
  tiles) has its `text` marked when no source gives it;
- the values the rules checks named are marked."""
from golden_games import game_of

PACK = game_of("signorie").pack


def test_a_text_held_by_hooks_is_marked():
    bare = [card.id for card in PACK.cards if card.hooks and "text" not in {f.split(".")[0] for f, _ in card.provisional}]
    assert not bare, "cards whose hooks hold an unconfirmed text, not marked:\n" + "\n".join(bare)


def test_the_ranks_cited_are_those_the_sources_give():
    """Only the first initiative space's rank is cited (every disc starts there): no
    source numbers a profession track's spaces (the help says only that a new son goes
    on the lowest and that a rank is compared with a city space's number), so every
    profession rank is marked provisional, as are the initiative ranks past the first."""
    from meeple.loading.pack import provenance
    status = {row.who: row.status for row in provenance(PACK) if row.kind == "track_space" and row.what == "rank"}
    assert status and {who for who, s in status.items() if s == "cited"} == {"initiative_1"}
    assert set(status.values()) == {"cited", "provisional"}


def test_the_marks_asked_for_are_there():
    """The values the rules check named: bride_cap, city_spaces, the starting
    family, the alliance tiles' values, the administration tiles' fields."""
    game = {what for what, _, _ in PACK.game.provisional}
    assert {"bride_cap", "city_spaces", "start_men", "start_women", "open_gate_space"} <= game
    by_kind: dict[str, list] = {}
    for card in PACK.cards:
        by_kind.setdefault(card.kind, []).append(card)
    assert all({"value", "copies", "family"} <= {f for f, _ in c.provisional} for c in by_kind["alliance"])
    for tile in by_kind["assignment"]:
        written = {name for name, _ in tile.field_spans}
        assert written and written <= {f for f, _ in tile.provisional}, tile.id
