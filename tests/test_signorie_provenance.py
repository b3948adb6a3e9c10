"""Every number of the Signorie pack is either confirmed by a cited source or
marked provisional (with a reason), so that `meeple cards signorie
--provisional` lists every guess.

- a constant of game.yaml is marked in the game's `provisional:` or names its
  source (seed 003, sources.md, signorie.md) in a comment on its line or in
  the comment lines just above it;
- a number written on a card (a field, `copies`, `per_player`) is marked in
  the card's `provisional:` or belongs to the fields below, whose source is
  named here and in the card file's header;
- a card whose hooks hold the rules text (assistants, bonus spaces, reward
  tiles) has its `text` marked when no source gives it."""
import re
from pathlib import Path

from engine.game import load_game

PACK = load_game("signorie").pack
ROOT = Path(__file__).resolve().parent.parent
CITATION = re.compile(r"seed 003|sources\.md|signorie\.md")
PROFESSIONS = {"military", "clerical", "political"}

# (card kind, field) -> (where the value is confirmed, which cards it covers)
CITED = {
    ("die", "faces"): ("signorie.md 1: dice numbered 1-6 (bdml, ludorium)", lambda c: True),
    ("die", "threshold"): ("seed 003 line 17: yellow 1, red 2, purple 3, grey 4, cyan 5", lambda c: True),
    ("white_die", "faces"): ("seed 003 line 44: 1-3 a daughter, 4-6 a son", lambda c: True),
    ("player_board", "number"): ("signorie.md 1: four player boards (hiew, bdml)", lambda c: True),
    ("row", "board"): ("the player board the row is printed on (boards.yaml)", lambda c: True),
    # a son's rank is compared with a city space's number, 1-4 (seed 003 line 48);
    # every disc starts on the first initiative space (signorie.md 3)
    ("track_space", "rank"): ("seed 003 line 48; signorie.md 3",
                              lambda c: c.field("rank") <= (4 if c.field("track") in PROFESSIONS else 1)),
}
# kinds whose counts are confirmed: (kind) -> source
CITED_COUNTS = {
    "member": "signorie.md 1: 12 men and 11 women a player colour (iogames, minaspeltips, bdml, doctormeeple)",
    "assistant": "every player board carries its own assistant slots (seed 003 line 22)",
}


def constant_block(lines: list[str], line: int) -> str:
    """The constant's own line and the comment lines right above it."""
    out, j = [lines[line - 1]], line - 2
    while j >= 0 and lines[j].strip().startswith("#"):
        out.append(lines[j])
        j -= 1
    return "\n".join(out)


def test_every_constant_is_cited_or_provisional():
    marked = {what for what, _, _ in PACK.game.provisional}
    files: dict[str, list[str]] = {}
    bare = []
    for c in PACK.game.constants:
        if c.name in marked:
            continue
        lines = files.setdefault(c.span.file, (ROOT / c.span.file).read_text(encoding="utf-8").splitlines())
        if not CITATION.search(constant_block(lines, c.span.line)):
            bare.append(f"{c.span.file}:{c.span.line}: {c.name}")
    assert not bare, "constants neither cited nor provisional:\n" + "\n".join(bare)


def test_every_number_on_a_card_is_cited_or_provisional():
    bare = []
    for card in PACK.cards:
        marked = {f.split(".")[0] for f, _ in card.provisional}
        written = {name for name, _ in card.field_spans}
        for name, value in card.fields:
            if name not in written or not isinstance(value, (int, bool)) or name in marked:
                continue
            cited = CITED.get((card.kind, name))
            if cited is None or not cited[1](card):
                bare.append(f"{card.id}.{name} = {value}")
        if (card.copies > 1 or card.per_player > 1) and "copies" not in marked and card.kind not in CITED_COUNTS:
            bare.append(f"{card.id}: {card.copies or card.per_player} copies")
        if card.hooks and "text" not in marked:
            bare.append(f"{card.id}.text (its hooks)")
    assert not bare, "numbers neither cited nor provisional:\n" + "\n".join(bare)


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
