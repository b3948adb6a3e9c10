"""The modding guides (content/GAME/MODDING.md) stay true: each worked
example's files are read from the guide itself (a line "File `PATH`:" and
the ```yaml block after it), must be the copy kept under tests/modding/,
and, written to a fresh folder, must validate and pass their scenarios;
every file, field, zone and procedure the guides name in backquotes exists."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import main

ROOT = Path(__file__).resolve().parent.parent
GUIDES = {game: ROOT / "content" / game / "MODDING.md" for game in ("troyes", "citadels", "signorie")}
EXAMPLES = {"troyes": "mytroyes", "citadels": "mycitadels", "signorie": "mysignorie"}
BLOCK = re.compile(r"^File `([^`]+)`:\n\n```yaml\n(.*?)^```$", re.S | re.M)


def example_files(game: str) -> dict[str, str]:
    return {path: text for path, text in BLOCK.findall(GUIDES[game].read_text(encoding="utf-8"))}


def test_each_shipped_game_has_a_guide_linked_from_the_readmes():
    import doctext
    for game, guide in GUIDES.items():
        assert guide.is_file(), guide
        assert f"content/{game}/MODDING.md" in doctext.links("README.md"), game
        assert f"../content/{game}/MODDING.md" in doctext.links("docs/modding.md"), game
        assert "MODDING.md" in (ROOT / "content" / game / "README.md").read_text(encoding="utf-8"), game


@pytest.mark.parametrize("game", list(GUIDES))
def test_guide_example_is_the_copy_under_tests(game):
    files = example_files(game)
    name = EXAMPLES[game]
    assert files, f"{GUIDES[game]} has no example files"
    assert all(p.startswith(f"{name}/") for p in files), list(files)
    kept = ROOT / "tests" / "modding" / name
    on_disk = {f"{name}/{p.relative_to(kept).as_posix()}": p.read_text(encoding="utf-8")
               for p in sorted(kept.rglob("*.yaml"))}
    assert files == on_disk


@pytest.mark.parametrize("game", list(GUIDES))
def test_guide_example_validates_and_its_scenario_passes(game, tmp_path):
    for path, text in example_files(game).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    pack = tmp_path / EXAMPLES[game]
    runner = CliRunner()
    checked = runner.invoke(main, ["validate", str(pack)])
    assert checked.exit_code == 0, checked.output
    assert f"{EXAMPLES[game]}: valid ({EXAMPLES[game]} 0.1.0: " in checked.output
    tested = runner.invoke(main, ["test", str(pack / "tests")])
    assert tested.exit_code == 0, tested.output
    assert "FAIL" not in tested.output and re.search(r"^[1-9]\d* passed, 0 failed$", tested.output, re.M), tested.output


@pytest.mark.parametrize("game", list(GUIDES))
def test_names_in_the_guide_exist_in_the_pack(game):
    """A name in backquotes that looks like a pack name (a field of a card
    kind, a zone, a procedure, a function, a hook, a variable, a resource)
    must be one: the guide follows the YAML when the YAML changes."""
    text = GUIDES[game].read_text(encoding="utf-8")
    text = BLOCK.sub("", text)
    declared = _declared(game)
    said = set(re.findall(r"`([a-z][a-z0-9_]*)`", text))
    unknown = sorted(n for n in said if n not in declared)
    assert not unknown, f"{GUIDES[game].name} names what {game} does not declare: {unknown}"


def _declared(game: str) -> set[str]:
    """Every name of the pack's YAML (keys and words of values), the cards'
    ids, and the words a guide may use that are not names of the pack."""
    import yaml
    words: set[str] = set()

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                words.add(str(k))
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            words.update(re.findall(r"[a-z_][a-z0-9_]*", v))
        elif v is not None:
            words.add(str(v).lower())
    for f in sorted((ROOT / "content" / game).glob("*.yaml")):
        walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    # the format's own words and the example packs' ids
    words |= {"cards", "patch", "replace", "remove", "add", "override", "copies", "per_player", "hooks", "triggers",
              "actions", "text", "name", "id", "kind", "extends", "rules", "none", "true", "false", "me", "this",
              "players", "round", "player_count", "group", "per_turn", "when", "with", "effect", "start",
              "scenario", "offered", "choose", "expect", "by", "seed", "pack", "provisional", "refusal", "arrange",
              "validate", "test", "play", "simulate", "compare", "cards", "diff"}
    words |= set(EXAMPLES.values())
    for root in (ROOT / "tests" / "modding").glob("*"):
        for f in root.rglob("*.yaml"):
            walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    return words
