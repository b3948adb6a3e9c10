"""``meeple rl``: the research adapters' commands (meeple.rl, docs/research.md), so a
researcher or a modder's CI need not know module paths.

    rl catalogue   make a pack's action catalogue again, or check it is not stale (--check)
    rl info        a pack's environment: observation size, actions, decision limit, build time

``rl catalogue`` needs nothing beyond meeple; ``rl info`` makes the environment's table
and needs the extra ``meeple[rl]`` (numpy): without it the command says how to install
it (exit 2), and nothing else of the command line imports it.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Optional

import click

from meeple.cli import arguments
from meeple.cli.group import ExitCode, fail, main


@main.group("rl")
def rl_group() -> None:
    """Research adapters (PettingZoo, OpenSpiel): a pack's action catalogue and its
    environment's sizes."""


def _file(game, file: Optional[str]) -> Path:
    """The catalogue file named, else the one stored with meeple.rl for a shipped pack."""
    from meeple.rl.catalogue import shipped, stored_path
    if file is not None:
        return Path(file)
    if not shipped(game):
        click.echo(f"error: {game.pack.info.root} is not a shipped pack: name the catalogue's file with --file FILE "
                   "(an environment reads it as meeple.rl.env(PACK, N, catalogue=FILE))", err=True)
        sys.exit(ExitCode.USAGE)
    return stored_path(game.id)


@rl_group.command("catalogue")
@click.argument("pack")
@click.option("--file", "file", type=click.Path(dir_okay=False), default=None,
              help="the catalogue file to write or check (default: the one stored with meeple.rl, for a shipped pack)")
@click.option("--games", type=click.IntRange(1, 10 ** 6), default=None,
              help="random games to play (default: 1000; with --check, as many as the catalogue was made with)")
@click.option("--check", is_flag=True,
              help="write nothing: exit 1, naming the command that makes it again, if the catalogue is missing or stale")
def catalogue_cmd(pack: str, file: Optional[str], games: Optional[int], check: bool) -> None:
    """Make PACK's action catalogue (the fixed list of option keys an environment's action
    numbers name): the keys its declarations give, then those met in random games. With
    --check, make it in memory and compare: a catalogue made for another version of the
    pack, lacking a declared key, or differing in any way from the one this command would
    write (an action number meaning another key) exits 1. Run it in a pack's CI."""
    from meeple.rl.catalogue import GAMES, build, rebuild_command, stale, write
    game = arguments.load(pack)
    target = _file(game, file)
    if check:
        why = stale(game, target, games)     # a missing or unreadable one: its error (exit 1)
        if why is not None:
            click.echo(f"error: {why}; make it again: {rebuild_command(game, target)}", err=True)
            sys.exit(ExitCode.CONTENT_INVALID)
        click.echo(f"{target}: up to date ({game.id} {game.pack.info.version})")
        return
    cat = build(game, games or GAMES)
    try:
        write(cat, target)
    except OSError as err:
        click.echo(f"error: cannot write {target}: {err.strerror or err}", err=True)
        sys.exit(ExitCode.OUTPUT_FAILED)
    click.echo(f"{game.id}: {len(cat.keys)} keys, {len(cat.prompts)} prompts, {cat.max_options} menu positions "
               f"({cat.games} random games) -> {target}")


@rl_group.command("info")
@click.argument("pack")
@click.option("-p", "--players", type=int, default=None, help="players (default: the pack's smallest and largest counts)")
@click.option("--file", "file", type=click.Path(dir_okay=False), default=None,
              help="the catalogue file (default: the stored one of a shipped pack, else one made from 50 random games)")
@click.option("--max-decisions", type=click.IntRange(1), default=None,
              help="the decisions after which a game is truncated (default: the pack's own limit)")
def info_cmd(pack: str, players: Optional[int], file: Optional[str], max_decisions: Optional[int]) -> None:
    """PACK's environment for each player count: its observation size, its actions (catalogue
    keys, and menu positions for actions="index"), its decision limit, and the time to make
    it from the loaded pack. Needs: pip install 'meeple[rl]'."""
    try:
        import meeple.rl.reading, meeple.rl.table  # noqa: F401,E401  (imported before the clock starts)
    except ImportError as err:
        click.echo(f"error: meeple rl info needs the extra meeple[rl] ({err}): pip install 'meeple[rl]'", err=True)
        sys.exit(ExitCode.USAGE)
    from meeple.core.errors import MeepleError
    from meeple.rl import make_table
    game = arguments.load(pack)
    counts = sorted({game.min_players, game.max_players}) if players is None else [players]
    for n in counts:
        arguments.players(game, n)
    for n in counts:
        start = time.process_time()
        try:
            table = make_table(game, n, catalogue=file, max_decisions=max_decisions)
        except MeepleError as err:
            fail(err, ExitCode.CONTENT_INVALID)
        took = time.process_time() - start
        cat = table.catalogue
        click.echo(f"{game.id} {game.pack.info.version}, {n} players: observation {table.layout.size}, "
                   f"actions {len(cat.keys)} (index: {cat.max_options}), prompts {len(cat.prompts)}, "
                   f"decision limit {table.limit}, built in {took:.3f} s")
