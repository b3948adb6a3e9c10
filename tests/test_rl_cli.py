"""``meeple rl catalogue`` and ``meeple rl info`` (issue 26): a catalogue made and checked
from the command line (``--check`` fails on a stale or missing one, naming the command
that makes it again: a pack's CI runs it), and an environment's sizes, through click's
CliRunner."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from meeple.cli import ExitCode, main
from meeple.rl import catalogue as C
from golden_games import game_of

pytest.importorskip("numpy", reason="the rl extra (pip install -e '.[rl]') is not installed")

USAGE = "tests/packs/usage"


def cli(*args: str):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result


def test_the_catalogue_is_made_then_checked_and_a_stale_one_fails(tmp_path):
    """Troyes' 'activate how many times' keys (1..most, most built up at play) are met in
    games only (1 to 4 in the first 10): a catalogue lacking one is stale, and --check says
    which and how to make it again."""
    out = tmp_path / "troyes.json"
    made = cli("rl", "catalogue", "troyes", "--games", "10", "--file", out)
    assert made.exit_code == 0, made.output
    data = json.loads(out.read_text())
    cat = C.build(game_of("troyes"), 10)
    assert data["keys"] == list(cat.keys) and data["games"] == 10 and "4" in data["keys"]
    assert "4" not in C.declared_keys(game_of("troyes"))
    assert made.output == (f"troyes: {len(cat.keys)} keys, {len(cat.prompts)} prompts, {cat.max_options} menu positions "
                           f"(10 random games) -> {out}\n")
    ok = cli("rl", "catalogue", "troyes", "--file", out, "--check")
    assert ok.exit_code == 0 and "up to date" in ok.output
    out.write_text(json.dumps({**data, "keys": [k for k in data["keys"] if k != "4"]}))
    stale = cli("rl", "catalogue", "troyes", "--file", out, "--check")
    assert stale.exit_code == ExitCode.CONTENT_INVALID
    assert stale.stderr == (f"error: the action catalogue {out} is stale: 1 key(s) to add (4); "
                            f"make it again: meeple rl catalogue troyes --file {out}\n")
    swapped = data["keys"][:]
    swapped[-1], swapped[-2] = swapped[-2], swapped[-1]
    out.write_text(json.dumps({**data, "keys": swapped}))
    assert "the keys in another order" in cli("rl", "catalogue", "troyes", "--file", out, "--check").stderr


def test_a_missing_or_outdated_catalogue_fails_the_check(tmp_path):
    missing = cli("rl", "catalogue", USAGE, "--file", tmp_path / "none.json", "--check")
    assert missing.exit_code == ExitCode.CONTENT_INVALID
    assert f"no action catalogue at {tmp_path / 'none.json'}" in missing.stderr
    assert "make one: meeple rl catalogue " in missing.stderr and "tests/packs/usage --file" in missing.stderr
    out = tmp_path / "usage.json"
    assert cli("rl", "catalogue", USAGE, "--games", "2", "--file", out).exit_code == 0
    out.write_text(out.read_text().replace('"pack_version": "0.1"', '"pack_version": "0.0.9"'))
    old = cli("rl", "catalogue", USAGE, "--file", out, "--check")
    assert old.exit_code == ExitCode.CONTENT_INVALID and "was made for usage 0.0.9, this is usage 0.1" in old.stderr


def test_a_pack_of_ones_own_names_its_file(tmp_path):
    """A folder of one's own, even a copy of a shipped pack keeping its id, has no catalogue
    stored with meeple.rl: the command asks for a file (and would otherwise overwrite the
    shipped pack's), and an environment builds one from 50 games."""
    import shutil
    from pathlib import Path
    result = cli("rl", "catalogue", USAGE)
    assert result.exit_code == ExitCode.USAGE
    assert "tests/packs/usage is not a shipped pack: name the catalogue's file with --file" in result.stderr
    copy = tmp_path / "citadels"
    shutil.copytree(Path(__file__).parent.parent / "content" / "citadels", copy)
    result = cli("rl", "catalogue", copy, "--check")
    assert result.exit_code == ExitCode.USAGE and f"{copy} is not a shipped pack" in result.stderr
    from meeple.runtime.game import load_game
    game = load_game(str(copy))
    assert game.id == "citadels" and not C.shipped(game) and C.shipped(game_of("citadels"))
    assert C.for_game(game).games == C.QUICK_GAMES and C.for_game(game_of("citadels")).games == C.GAMES


def test_the_shipped_catalogues_are_up_to_date_at_a_glance():
    """--check of a shipped pack reads its stored catalogue (the full check replays the
    1,000 games it was made with: test_rl_env's coverage test and the slow soak)."""
    result = cli("rl", "catalogue", "citadels", "--check", "--games", "1")
    assert result.exit_code == ExitCode.CONTENT_INVALID      # 1 game meets fewer keys than the 1,000 behind it
    assert "is stale" in result.stderr and "make it again: meeple rl catalogue citadels\n" in result.stderr


def test_info_gives_the_environments_sizes():
    import meeple.rl as rl
    result = cli("rl", "info", "citadels", "--max-decisions", "500")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 2             # the smallest and largest counts
    for line, n in zip(lines, (2, 7)):
        t = rl.make_table(game_of("citadels"), n)
        assert line.startswith(f"citadels 1.0.0, {n} players: observation {t.layout.size}, actions {len(t.catalogue.keys)} "
                               f"(index: {t.catalogue.max_options}), prompts {len(t.catalogue.prompts)}, decision limit 500, built in ")
    wrong = cli("rl", "info", "citadels", "-p", "9")
    assert wrong.exit_code == ExitCode.USAGE and "citadels is for 2-7 players, not 9" in wrong.stderr
