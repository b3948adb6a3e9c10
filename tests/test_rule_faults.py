"""Every way pack text can fault at run time is told in the language's words: the
expression as written, at its own YAML line and column, and what went wrong, never
Python's text (dsl/faults.py).

One small pack (written into tmp_path) plays its round as P1; each case puts a rule
there (or in an action's 'when'/'with', or the end test) that faults, and names the
message and the text the error points at.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from meeple.core.errors import Problems, RuleError, render
from meeple.runtime.game import Game
from meeple.dsl.errors import in_words
from meeple.loading.folders import shipped_packs
from meeple.loading.pack import read_pack
from fuzzing import PYTHON_WORDS       # Python's words: no message may hold any of them

GAME = """\
kind: game
players: {min: 2, max: 2}
resources:
  gold: {min: 0}
variables:
  total: int
  who: player
player_variables:
  mark: int
card_kinds:
  coin:
    starts_in: pile
    fields: {cost: int}
    variables: {bonus: int}
    hooks: [bonus]
  die:
    starts_in: tray
    fields: {faces: int}
    variables: {value: {type: int, default: 1}}
  space:
    starts_in: board
zones:
  pile: {per: game, visibility: public, holds: coin}
  empty: {per: game, visibility: public, holds: coin}
  hand: {per: player, visibility: public, holds: coin}
  tray: {per: game, visibility: public, holds: die}
  no_dice: {per: game, visibility: public, holds: die}
  board: {per: game, visibility: public, holds: space}
  occupant: {per: card, of: space, visibility: public, holds: coin}
functions:
  worth:
    params: {c: coin}
    value: c.cost + 1
actions:
  turn:
    - id: take
      name: Take
      with: WITH
      when: WHEN
      effect: |
        move c to hand
procedures:
  place:
    params: {c: card}
    effect: |
      set total = size(occupant of c)
  worth_of:
    params: {c: card}
    effect: |
      set total = c.cost + 1
flow:
  setup: |
    set total = 0
  round: |
    as player(1):
        RULE
  end_when: END
  scoring: |
    set total = 0
score:
  resource: gold
"""
CARDS = {
    "pack.yaml": 'kind: pack\nid: faults\nname: Faults\nversion: "0.1"\n',
    "coins.yaml": "kind: cards\ncard_kind: coin\ncards:\n  - id: copper\n    name: Copper\n    cost: 1\n    copies: 2\n"
                  "    hooks:\n      bonus: |\n        gain 10 / this.bonus gold\n",
    "dice.yaml": "kind: cards\ncard_kind: die\ncards:\n  - {id: white, name: White, faces: 6, copies: 2}\n",
    "spaces.yaml": "kind: cards\ncard_kind: space\ncards:\n  - {id: well, name: Well, copies: 1}\n",
}
NONE_BONUS = "for each c in pile:\n    set c.bonus = none\n"
UNHELD = "holder(first(c in pile))"          # the pile is no player's: none
EMPTY_MAX = "max(c.cost for c in empty)"     # of no values: none
NO_PLAYER = "no current player here (use 'as PLAYER:' or 'of PLAYER')"

# (id, the rule (round statements, or 'when: ...', 'with: ...', 'end: ...'), the message without
#  its '(in UNIT)', the unit, the text the error points at)
CASES = [
    # a field, a card variable or a die's value of none
    ("field of first", "set total = first(c in empty).cost",
     "`first(c in empty).cost`: `first(...)` found nothing, so `.cost` of none", "round", "first(c in empty).cost"),
    ("variable of random", "set total = random(empty).bonus",
     "`random(empty).bonus`: `random(...)` had nothing to pick from, so `.bonus` of none", "round", "random(empty).bonus"),
    ("die of top", "set total = top(no_dice).value",
     "`top(no_dice).value`: `top(...)` found the zone empty, so `.value` of none", "round", "top(no_dice).value"),
    ("id of none", 'if first(c in empty).id == "copper":\n    set total = 1',
     "`first(c in empty).id`: `first(...)` found nothing, so `.id` of none", "round", "first(c in empty).id"),
    # a player of none
    ("resource of none", f"set total = gold of {UNHELD}",
     f"`gold of {UNHELD}`: `holder(...)` is none (the card is in no player's zone), so `gold of` none", "round",
     f"gold of {UNHELD}"),
    ("player variable of none", f"set total = mark of {UNHELD}",
     f"`mark of {UNHELD}`: `holder(...)` is none (the card is in no player's zone), so `mark of` none", "round",
     f"mark of {UNHELD}"),
    ("zone of none", f"move first(c in pile) to hand of {UNHELD}",
     f"`hand of {UNHELD}`: `holder(...)` is none (the card is in no player's zone), so `hand of` none", "round",
     f"hand of {UNHELD}"),
    ("primitive of none", "set total = distance(me, holder(random(pile)))",
     "`distance(me, holder(random(pile)))`: `holder(...)` is none (the card is in no player's zone), so "
     "`distance(...)` of none", "round", "distance(me, holder(random(pile)))"),
    ("holder of none", "set who = holder(random(empty))",
     "`holder(random(empty))`: `random(...)` had nothing to pick from, so `holder(...)` of none", "round",
     "holder(random(empty))"),
    # a card's own zone: of none, of a card of another kind
    ("card zone of none", "set total = size(occupant of first(s in board where false))",
     "`occupant of first(s in board where false)`: `first(...)` found nothing, so `occupant of` none", "round",
     "occupant of first(s in board where false)"),
    ("card of the wrong kind", "call place(first(c in pile))",
     "`occupant of c`: 'occupant' belongs to space cards, not to copper", "procedure place", "occupant of c"),
    ("field a card of the kind has not", "call worth_of(first(s in board))",
     "`c.cost + 1`: `c.cost` is none (space cards have no 'cost'), so `+` of none", "procedure worth_of", "c.cost + 1"),
    # arithmetic, comparisons, aggregates
    ("min of nothing", "set total = min(c.cost for c in empty) * 2",
     "`min(c.cost for c in empty) * 2`: `min(...)` had no values, so `*` of none", "round", "min(c.cost for c in empty) * 2"),
    ("variable none", "set total = none\nset total = total + 1",
     "`total + 1`: `total` is none, so `+` of none", "round", "total + 1"),
    ("comparison", f"if {EMPTY_MAX} > 3:\n    set total = 1",
     f"`{EMPTY_MAX} > 3`: `max(...)` had no values, so `>` of none", "round", f"{EMPTY_MAX} > 3"),
    ("negation", f"set total = -{EMPTY_MAX}",
     f"`-{EMPTY_MAX}`: `max(...)` had no values, so `-` of none", "round", f"-{EMPTY_MAX}"),
    ("sum of none items", NONE_BONUS + "set total = sum(c.bonus for c in pile)",
     "`sum(c.bonus for c in pile)`: `c.bonus` is none, so `sum(...)` of none (for c = copper)", "round", "c.bonus"),
    ("sum of a list holding none", NONE_BONUS + "set total = sum([first(c in pile).bonus, 1])",
     "`sum([first(c in pile).bonus, 1])`: `[first(c in pile).bonus, 1]` holds none, so `sum(...)` of none", "round",
     "[first(c in pile).bonus, 1]"),
    ("max of values holding none", NONE_BONUS + "set total = max(values(c.bonus for c in pile)) + 1",
     "`max(values(c.bonus for c in pile))`: `values(c.bonus for c in pile)` holds none, so `max(...)` of none", "round",
     "values(c.bonus for c in pile)"),
    ("condition of a count", NONE_BONUS + "set total = count(c in pile where c.bonus > 0)",
     "`c.bonus > 0`: `c.bonus` is none, so `>` of none (for c = copper)", "round", "c.bonus > 0"),
    ("division by zero", "set total = 5 / (round - round)",
     "`5 / (round - round)`: division by zero (`round - round` is 0)", "round", "5 / (round - round)"),
    ("number too large", "set total = 1000000000 * 1000000000 * 10",
     "`1000000000 * 1000000000 * 10`: a number of 20 digits is too large (a product, or a number kept in the game, "
     "is at most 10^18 in size)", "round", "1000000000 * 1000000000 * 10"),
    ("player out of range", "set total = gold of player(3)",
     "`player(3)`: there is no player 3 (there are 2 players)", "round", "player(3)"),
    # statements given none where they need a value
    ("gain none", f"gain {EMPTY_MAX} gold",
     f"`{EMPTY_MAX}` had no values, but `gain` needs a number", "round", EMPTY_MAX),
    ("repeat none", f"repeat {EMPTY_MAX} times:\n    set total = 1",
     f"`{EMPTY_MAX}` had no values, but `repeat` needs a number", "round", EMPTY_MAX),
    ("draw none", f"draw {EMPTY_MAX} from pile to hand",
     f"`{EMPTY_MAX}` had no values, but `draw` needs a number", "round", EMPTY_MAX),
    ("give to none", f"give 2 gold to {UNHELD}",
     f"`{UNHELD}` is none (the card is in no player's zone), but `give` needs a player", "round", UNHELD),
    ("set of none", f"set gold of {UNHELD} = 3",
     f"`{UNHELD}` is none (the card is in no player's zone), but `set` needs a player", "round", UNHELD),
    ("move a list holding none", "move [first(c in empty)] to hand",
     "`[first(c in empty)]` holds none, but `move` needs cards", "round", "[first(c in empty)]"),
    ("as none, then a statement", f"as {UNHELD}:\n    gain 1 gold",
     f"`gain 1 gold`: {NO_PLAYER}", "round", "gain 1 gold"),
    ("as none, then an expression", f"as {UNHELD}:\n    set total = gold",
     f"`gold`: {NO_PLAYER}", "round", "gold"),
    ("chooser none", f"choose c from pile by {UNHELD}",
     f"`{UNHELD}` is none (the card is in no player's zone), but `choose` needs a player", "round", UNHELD),
    # walks, functions, hooks, the flow's expressions, action menus
    ("walk condition", NONE_BONUS + "for each c in pile where c.bonus > 1:\n    set total = 1",
     "`c.bonus > 1`: `c.bonus` is none, so `>` of none (for c = copper)", "round", "c.bonus > 1"),
    ("choice condition", NONE_BONUS + "choose c from pile where c.bonus > 2\nset total = 1",
     "`c.bonus > 2`: `c.bonus` is none, so `>` of none (for c = copper)", "round", "c.bonus > 2"),
    ("pack function", "set total = worth(first(c in empty))",
     "`c.cost`: `c` is none, so `.cost` of none (in function worth, used at GAME:56:21)", "round", "c.cost"),
    ("card hook", "do bonus of first(c in pile)",
     "`10 / this.bonus`: division by zero (`this.bonus` is 0)", "copper.bonus", "coins.yaml|10 / this.bonus"),
    ("end test", f"end: total + {EMPTY_MAX} > 3",
     f"`total + {EMPTY_MAX}`: `max(...)` had no values, so `+` of none", "end_when", f"total + {EMPTY_MAX}"),
    ("action when", "when: first(c in empty).cost > 0",
     "`first(c in empty).cost`: `first(...)` found nothing, so `.cost` of none (in the 'when' of action take)", "round",
     "first(c in empty).cost"),
    ("action with", "with: c in pile where c.bonus > 1",
     "`c.bonus > 1`: `c.bonus` is none, so `>` of none (for c = copper) (in the 'with' of action take)", "round",
     "c.bonus > 1"),
    ("play actions until", f"play: {EMPTY_MAX} > 1",
     f"`{EMPTY_MAX} > 1`: `max(...)` had no values, so `>` of none", "round", f"{EMPTY_MAX} > 1"),
]

def _pack(root: Path, rule: str) -> Path:
    """The pack with ``rule`` put in its place (see CASES)."""
    root.mkdir()
    for name, text in CARDS.items():
        (root / name).write_text(text, encoding="utf-8")
    parts = {"RULE": "set total = 1", "WHEN": "round > 0", "WITH": "c in pile", "END": "round >= 1"}
    if rule.startswith(("when: ", "with: ", "end: ", "play: ")):
        head, text = rule.split(": ", 1)
        if head == "play":
            parts["RULE"] = f"play actions turn until {text}"
        else:
            parts[head.upper()] = text
    else:
        parts["RULE"] = rule.replace("\n", "\n        ")
    if "bonus > 1" in parts["WITH"]:      # the cards' bonus made none before the menu lists them
        parts["RULE"] = NONE_BONUS.replace("\n", "\n        ").rstrip() + "\n        play actions turn until false"
    elif parts["WHEN"] != "round > 0":
        parts["RULE"] = "play actions turn until false"
    text = GAME
    for key, value in parts.items():
        text = text.replace(key, value)
    (root / "game.yaml").write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize("rule, message, unit, written", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_fault_names_the_expression_its_place_and_what_went_wrong(tmp_path, rule, message, unit, written):
    root = _pack(tmp_path / "pack", rule)
    problems = Problems()
    game = Game(read_pack(root, problems), problems)
    assert not problems.errors, [render(e) for e in problems.errors]
    with pytest.raises(RuleError) as info:
        game.new_state(2, 11)
    err = info.value
    expected = message.replace("GAME", err.span.file)      # the function's call, in the same file
    assert err.message == f"{expected} (in {unit}) (game seed 11, before the first choice)"
    assert not PYTHON_WORDS.search(err.message), err.message
    file, _, text = written.rpartition("|")       # 'FILE|TEXT' for a text in another file than game.yaml
    where = root / (file or "game.yaml")
    assert Path(err.span.file).resolve() == where.resolve()
    line = where.read_text(encoding="utf-8").splitlines()[err.span.line - 1]
    assert line[err.span.col - 1:err.span.col - 1 + err.span.length] == text, (line, err.span)


@pytest.mark.parametrize("exc", [
    TypeError("list indices must be integers or slices, not NoneType"),
    TypeError("unsupported operand type(s) for +: 'NoneType' and 'int'"),
    TypeError("'<' not supported between instances of 'NoneType' and 'int'"),
    TypeError("'NoneType' object is not iterable"),
    AttributeError("'NoneType' object has no attribute 'append'"),
    IndexError("list index out of range"),
    KeyError(7),
    ZeroDivisionError("integer division or modulo by zero"),
    ValueError("list.remove(x): x not in list"),
], ids=lambda e: type(e).__name__)
def test_a_fault_no_expression_is_found_for_is_still_said_in_words(exc):
    """The last resort (a fault the replay does not meet again) speaks words too."""
    said = in_words(exc)
    assert said and not PYTHON_WORDS.search(said) and str(exc) not in said
    assert PYTHON_WORDS.search(f"{type(exc).__name__}: {exc}")      # what it replaces is caught by the check


# ---------------------------------------------------------------- what the checker sees coming
def _warnings(tmp_path: Path, rule: str, maybe_none: bool = False) -> list[str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    root = _pack(tmp_path / "pack", rule)
    problems = Problems()
    game = Game(read_pack(root, problems), problems, generate=False, maybe_none=maybe_none)
    assert not problems.errors, [render(e) for e in problems.errors]
    lines = (root / "game.yaml").read_text(encoding="utf-8").splitlines()
    return [f"{w.message} @ {lines[w.span.line - 1][w.span.col - 1:w.span.col - 1 + w.span.length]}"
            for w in problems.warnings if "none" in w.message]


EMPTY = "nothing is ever put in `empty`: no card starts there and no rule moves, draws or swaps one there"


@pytest.mark.parametrize("rule, warned", [
    ("set total = random([]).cost", ["`random([])` is always none (the list `[]` is empty), and `.cost` of none stops the game"
                                     " @ random([])"]),
    ("set total = first(c in pile where false).cost + 1",
     ["`first(c in pile where false)` is always none (its condition is false), and `.cost` of none stops the game"
      " @ first(c in pile where false)"]),
    ("set total = gold of holder(top(empty))",
     [f"`top(empty)` is always none ({EMPTY}), and `holder(...)` of none stops the game @ top(empty)"]),
    ("let c = random(empty)\nset total = c.bonus",
     [f"`c` is always none (`let c = random(...)`: {EMPTY}), and `.bonus` of none stops the game @ c"]),
    ("set total = max(c.cost for c in empty) + 1",
     [f"`max(c.cost for c in empty)` is always none ({EMPTY}), and `+` of none stops the game @ max(c.cost for c in empty)"]),
    # guarded, filled by a rule, none-safe uses, or data the checker cannot see: no warning
    ("let c = random(empty)\nif c is not none:\n    set total = c.bonus", []),
    ("move first(c in pile) to empty\nset total = first(c in empty).cost", []),
    ("set total = size(those(c in pile where false))\nmove first(c in empty) to hand", []),
    ("set total = first(c in hand).cost", []),
    ("let x = first(c in empty)\nif first(c in empty) == x:\n    set total = 1", []),
])
def test_the_checker_warns_of_a_value_that_is_always_none(tmp_path, rule, warned):
    assert _warnings(tmp_path, rule) == warned


@pytest.mark.parametrize("rule, warned", [
    ("set total = first(c in hand).cost", ["`first(c in hand)` may be none (`first(...)` finds nothing), and `.cost` of none "
                                           "stops the game: test `first(c in hand) is not none` first @ first(c in hand)"]),
    ("choose c from hand\nset total = c.cost", ["`c` may be none (`choose c` has nothing to choose), and `.cost` of none "
                                                "stops the game: test `c is not none` first @ c"]),
    ("give 1 gold to holder(first(c in pile))",
     ["`holder(first(c in pile))` may be none (`holder(...)` is given a card in no player's zone), and `give` of none "
      "stops the game: test `holder(first(c in pile)) is not none` first @ holder(first(c in pile))",
      "`first(c in pile)` may be none (`first(...)` finds nothing), and `holder(...)` of none stops the game: "
      "test `first(c in pile) is not none` first @ first(c in pile)"]),
    ("may choose c from hand\nset total = c.cost", []),          # 'may choose' with nothing to choose ends the effect
    ("choose c from hand\nif c is none:\n    stop\nset total = c.cost", []),
])
def test_maybe_none_warns_of_every_unguarded_use(tmp_path, rule, warned):
    assert _warnings(tmp_path, rule, maybe_none=True) == warned
    assert _warnings(tmp_path / "plain", rule) == []           # not without being asked


@pytest.mark.parametrize("pack", shipped_packs())
def test_the_shipped_packs_get_no_new_warning(pack):
    """By default the checker warns only where a value is always none: the shipped packs
    have none of those. (--maybe-none lists every unguarded use; theirs are safe by their
    data: a lookup in a table of spaces, the holder of a card in a player's city.)"""
    from meeple.runtime.game import check_pack
    from meeple.loading.folders import resolve_all
    from meeple.loading.pack import read_packs
    problems = Problems()
    check_pack(read_packs(resolve_all(pack), problems), problems)
    assert not problems.errors
    assert [w.message for w in problems.warnings if "none" in w.message and "provisional" not in w.message] == []


def test_the_documents_show_what_meeple_says(monkeypatch):
    """The documents' fault and warning examples (docs/limits.md, docs/packs.md) are the
    output of the hostile pack they name."""
    import doctext
    from click.testing import CliRunner
    from meeple.cli import main
    repo = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(repo)
    played = (repo / "tests/content/hostile/run_field_of_none/expected.txt").read_text(encoding="utf-8")
    assert played in doctext.text("docs/limits.md")
    result = CliRunner().invoke(main, ["validate", "tests/content/hostile/run_field_of_none"])
    assert result.exit_code == 0
    warned = "\n".join(result.output.splitlines()[:3]) + "\n"
    assert "warning: `first(t in hand where t.worth > 1)` is always none" in warned
    assert warned in doctext.text("docs/packs.md")
