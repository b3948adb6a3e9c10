"""Dice are cards with ``faces`` and a ``value``: ``roll`` gives each a value
from the game's seeded generator. ``choose A..B xs from ...`` picks between A
and B items one at a time; its where-clause sees the picks so far as
``chosen`` (here: dice of one colour). Uses the engine test pack
tests/packs/dice, which is not a game."""
from pathlib import Path

import pytest

from meeple.core.errors import IllegalChoice, PackInvalid
from meeple.runtime.game import load_game

PACK = str(Path(__file__).parent / "packs" / "dice")
GAME = load_game(PACK)
VALUE = GAME.vocab.cvar_index["value"]
POOL = GAME.vocab.zone_base[GAME.vocab.zone_index["pool"]]


def values(st, ids=None):
    return {GAME.vocab.card_def_ids[c] + f"@{c}": st.cvars[c * GAME.vocab.ncvars + VALUE] for c in st.zones[POOL]}


def test_rolls_stay_within_faces_and_cover_them():
    seen = {"red_die": set(), "white_d4": set()}
    for seed in range(200):
        st = GAME.new_state(1, seed)
        for c in st.zones[POOL]:
            kind = GAME.vocab.card_def_ids[c]
            v = st.cvars[c * GAME.vocab.ncvars + VALUE]
            faces = 4 if kind == "white_d4" else 6
            assert v in range(1, faces + 1)
            if kind in seen:
                seen[kind].add(v)
    assert seen == {"red_die": {1, 2, 3, 4, 5, 6}, "white_d4": {1, 2, 3, 4}}


def test_same_seed_same_rolls():
    assert values(GAME.new_state(1, 42)) == values(GAME.new_state(1, 42))


def test_at_least_one_die_before_done_and_only_one_colour():
    st = GAME.new_state(1, 3)
    assert sorted(st.pending.keys()) == ["red_die", "white_d4", "white_die=1", "white_die=2"]   # no 'done' yet
    with pytest.raises(IllegalChoice):
        GAME.apply(st, "done")
    GAME.apply(st, "white_die=1")
    assert sorted(st.pending.keys()) == ["done", "white_d4", "white_die"]   # red is another colour
    GAME.apply(st, "white_d4")
    GAME.apply(st, "done")
    assert st.res[0] == 1 + 2      # seed 3: the first white d6 shows 1, the white d4 2


def test_a_single_red_die_ends_the_choice_and_counts_double():
    st = GAME.new_state(1, 3)
    GAME.apply(st, "red_die")      # nothing else qualifies: the choice ends at once
    assert st.res[0] == 2 * 5      # seed 3: red shows 5, counts double


def test_up_to_three():
    st = GAME.new_state(1, 3)
    for key in ("white_die=1", "white_die", "white_d4"):
        GAME.apply(st, key)
    assert st.round == 2            # the third pick ended the choice: next round's decision


def test_roll_needs_dice(tmp_path):
    import shutil
    shutil.copytree(PACK, tmp_path / "pack")
    game = tmp_path / "pack" / "game.yaml"
    game.write_text(game.read_text().replace("roll pool", "roll score"))
    with pytest.raises(PackInvalid) as info:
        load_game(str(tmp_path / "pack"))
    assert "expected cards to roll, found a number" in info.value.problems.errors[0].message


@pytest.mark.parametrize("value, message", [
    ("a.colour == b.colur", "die cards have no field 'colur'"),
    ("same_colour(a, b)", "function 'same_colour' uses itself (functions are expanded where used)"),
])
def test_function_errors_are_located_in_its_definition(tmp_path, value, message):
    import shutil
    shutil.copytree(PACK, tmp_path / "pack")
    game = tmp_path / "pack" / "game.yaml"
    game.write_text(game.read_text().replace("    value: a.colour == b.colour", f"    value: {value}"))
    with pytest.raises(PackInvalid) as info:
        load_game(str(tmp_path / "pack"))
    errors = info.value.problems.errors
    assert errors[0].message == message and len(errors) == 1
    assert errors[0].span.file.endswith("game.yaml") and errors[0].span.line == 11
