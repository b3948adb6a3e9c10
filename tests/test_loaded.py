"""A pack loaded again in the same process is the game already compiled while its files
are unchanged, and a new compilation as soon as one of them changes: an edited card, an
added file, a file of the pack it extends (meeple.runtime.loaded)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from meeple.core.errors import PackInvalid
from meeple.runtime.game import load_game
from meeple.runtime import loaded

CONTENT = Path(__file__).resolve().parent.parent / "content"


def palace_cost(game) -> int:
    v = game.vocab
    return v.card_fields[v.card_def_ids.index("palace")][v.field_index["cost"]]


@pytest.fixture
def packs(tmp_path, fresh_games):
    """Copies of Citadels and of Dark City, which extends it (its sibling is its base)."""
    for name in ("citadels", "citadels-dark-city"):
        shutil.copytree(CONTENT / name, tmp_path / name)
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_unchanged_pack_is_the_game_already_loaded(packs):
    first = load_game(str(packs / "citadels"))
    assert load_game(str(packs / "citadels")) is first
    # what is asked for is part of the key: other changes, or the rules checked only
    assert load_game(str(packs / "citadels"), sets=("palace.cost=6",)) is not first
    assert load_game(str(packs / "citadels"), generate=False) is not first


@pytest.mark.parametrize("change", ["edit a card", "add a file", "remove a file"])
def test_a_changed_file_loads_again(packs, change):
    folder = packs / "citadels"
    if change == "add a file":
        shutil.move(folder / "howto.yaml", packs / "howto.yaml")
    first = load_game(str(folder))
    assert palace_cost(first) == 5
    if change == "edit a card":
        edit(folder / "districts.yaml", "colour: yellow\n    cost: 5\n    copies: 3", "colour: yellow\n    cost: 7\n    copies: 3")
    elif change == "add a file":
        shutil.move(packs / "howto.yaml", folder / "howto.yaml")
    else:
        (folder / "README.md").unlink()          # not YAML: not read, not a change
        assert load_game(str(folder)) is first
        shutil.move(folder / "howto.yaml", packs / "howto.yaml")
    again = load_game(str(folder))
    assert again is not first
    assert bool(again.pack.howto) == (change != "remove a file")
    assert palace_cost(again) == (7 if change == "edit a card" else 5)
    assert load_game(str(folder)) is again


def test_a_change_to_the_base_pack_reaches_its_extension(packs):
    dark = load_game(str(packs / "citadels-dark-city"))
    assert load_game(str(packs / "citadels-dark-city")) is dark
    edit(packs / "citadels" / "districts.yaml", "colour: yellow\n    cost: 5\n    copies: 3", "colour: yellow\n    cost: 7\n    copies: 3")
    again = load_game(str(packs / "citadels-dark-city"))
    assert again is not dark and palace_cost(again) == 7


def test_a_broken_pack_is_read_again_and_reports_again(packs):
    folder = packs / "citadels"
    edit(folder / "districts.yaml", "cost: 5\n    copies: 3", "cost: five\n    copies: 3")
    for _ in range(2):
        with pytest.raises(PackInvalid) as err:
            load_game(str(folder))
        assert any("five" in str(e) for e in err.value.problems.errors)
    edit(folder / "districts.yaml", "cost: five\n    copies: 3", "cost: 5\n    copies: 3")
    assert palace_cost(load_game(str(folder))) == 5


def test_at_most_kept_games_are_kept(packs, monkeypatch):
    monkeypatch.setattr(loaded, "KEPT", 2)
    folder = str(packs / "citadels")
    games = [load_game(folder, sets=(f"palace.cost={c}",)) for c in (4, 6, 7)]
    assert load_game(folder, sets=("palace.cost=7",)) is games[2]
    assert load_game(folder, sets=("palace.cost=6",)) is games[1]
    assert load_game(folder, sets=("palace.cost=4",)) is not games[0]       # the least recently used went first


def test_a_new_pack_folder_where_a_base_is_looked_for_loads_again(tmp_path, fresh_games):
    """Dark City extends 'citadels': alone in its folder it reads the shipped Citadels; a
    copy of Citadels put beside it (looked for before the shipped one) is its base from
    then on, its palace costing what that copy says."""
    shutil.copytree(CONTENT / "citadels-dark-city", tmp_path / "citadels-dark-city")
    first = load_game(str(tmp_path / "citadels-dark-city"))
    assert first.pack.load_order[0][2] == str(CONTENT / "citadels") and palace_cost(first) == 5
    assert load_game(str(tmp_path / "citadels-dark-city")) is first
    shutil.copytree(CONTENT / "citadels", tmp_path / "citadels")
    edit(tmp_path / "citadels" / "districts.yaml", "colour: yellow\n    cost: 5\n    copies: 3", "colour: yellow\n    cost: 7\n    copies: 3")
    again = load_game(str(tmp_path / "citadels-dark-city"))
    assert again is not first and again.pack.load_order[0][2] == str(tmp_path / "citadels") and palace_cost(again) == 7
