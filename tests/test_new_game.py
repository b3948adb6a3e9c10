"""`meeple new-game NAME`: a base game folder that validates, plays to its end
with random bots at every player count and passes its own scenario, as
generated; and the names it refuses."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from meeple.cli import main
from meeple.runtime.game import load_game
from random_play import play_checked


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    where = tmp_path_factory.mktemp("games")
    result = CliRunner().invoke(main, ["new-game", "mygame", "--dir", str(where)])
    assert result.exit_code == 0, result.output
    return where, result


def test_new_game_writes_the_files_it_names(made):
    where, result = made
    game = where / "mygame"
    schemas = [f"schemas/{k}.schema.json" for k in ("cards", "game", "pack", "scenario", "howto")]
    assert sorted(str(p.relative_to(game)) for p in game.rglob("*") if p.is_file()) == \
        sorted(["README.md", "cards.yaml", "game.yaml", "pack.yaml", "scenarios/mygame.yaml", "howto.yaml"] + schemas)
    lines = result.output.splitlines()
    assert [line.rsplit("/", 1)[-1] for line in lines[:11]] == \
        ["pack.yaml", "game.yaml", "cards.yaml", "mygame.yaml", "howto.yaml", "README.md",
         "pack.schema.json", "game.schema.json", "cards.schema.json", "scenario.schema.json", "howto.schema.json"]
    assert lines[11].startswith("next: meeple validate ") and lines[11].endswith("--players 2 --bots human,random")
    for f in ("pack.yaml", "game.yaml", "cards.yaml", "scenarios/mygame.yaml", "howto.yaml"):
        first = (game / f).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), f
        target = (game / f).parent / first.split("$schema=", 1)[1]      # a schema inside the game's own folder
        assert target.is_file() and target.resolve().is_relative_to(game.resolve()), f
    assert "id: mygame\n" in (game / "pack.yaml").read_text(encoding="utf-8")


def test_new_game_validates_as_generated(made):
    where, _ = made
    result = CliRunner().invoke(main, ["validate", str(where / "mygame")])
    assert result.exit_code == 0, result.output
    assert "mygame: valid (mygame 0.1.0: 14 item; 7 rule texts compiled)" in result.output
    assert "0 provisional value(s)" in result.output


def test_new_game_scenario_passes_as_generated(made):
    where, _ = made
    result = CliRunner().invoke(main, ["test", str(where / "mygame" / "scenarios")])
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output and "buying a card pays its cost and the Guild pays 1 coin back" in result.output
    assert result.output.rstrip().endswith("1 passed, 0 failed")


def test_new_game_plays_to_the_end_with_random_bots(made):
    where, _ = made
    result = CliRunner().invoke(main, ["play", str(where / "mygame"), "--players", "3", "--bots", "random", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "final scores after" in result.output and "winner" in result.output


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_random_games_keep_the_invariants_and_end_by_its_rule(made, players):
    where, _ = made
    game = load_game(str(where / "mygame"))
    for seed in range(5):
        st = play_checked(game, players, seed, every=10)
        assert st.round < 50, "the market empties before max_rounds"


@pytest.mark.parametrize("args, message", [
    (["mygame"], "already exists; choose another name or folder"),
    (["troyes"], "error: 'troyes' is the id of a shipped pack; give the new game its own id (say 'troyes-mine')"),
    (["My_Game"], "error: 'My_Game' is not a pack id: use lower-case letters, digits and '-', starting with a letter"),
    (["9lives"], "error: '9lives' is not a pack id: use lower-case letters, digits and '-', starting with a letter"),
])
def test_new_game_refuses(made, args, message):
    where, _ = made
    before = sorted(p.name for p in where.iterdir())
    result = CliRunner().invoke(main, ["new-game", *args, "--dir", str(where)])
    assert result.exit_code == 2
    assert message in result.output
    if args == ["mygame"]:
        assert result.output.startswith(f"error: {where / 'mygame'} already exists")
    assert sorted(p.name for p in where.iterdir()) == before, "nothing is written"
