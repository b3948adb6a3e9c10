"""Commands for writing packs: ``test`` (rules scenarios, as text, JSON or JUnit
XML for CI), ``new-pack`` (a pack extending a game) and ``new-game`` (a base
game), each new folder valid from its first minute.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Optional

import click

from meeple.cli import arguments
from meeple.cli.files import folder_failed
from meeple.cli.group import ExitCode, fail, main
from meeple.core.errors import MeepleError, UsageError, location


@main.command("test")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--pack", "pack_name", default=None, metavar="PACK",
              help="run the scenarios against this pack (a modified copy, an expansion) instead of the one each file names")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "junit"]), default="text", show_default=True,
              help="json: one entry per scenario; junit: JUnit XML for CI")
@click.option("--trace", is_flag=True, help="print the pending decision and its options at each step (on stderr with --format json/junit)")
def test_cmd(paths: tuple[str, ...], pack_name: Optional[str], fmt: str, trace: bool) -> None:
    """Run rules scenario files (or every scenario file under a folder)."""
    from meeple.authoring.scenario import as_json as results_json, as_junit, collect, iter_file
    files = collect(list(paths))
    if not files:
        click.echo(f"no scenario files found in {', '.join(paths)} (a scenario file is YAML with 'kind: scenario')", err=True)
        sys.exit(ExitCode.CONTENT_INVALID)
    game = arguments.load(pack_name) if pack_name else None
    results = []
    for f in files:
        for r in iter_file(f, game, (lambda line: click.echo(f"  {line}", err=fmt != "text")) if trace else None):
            results.append(r)
            if fmt == "text":
                click.echo(f"PASS {location(r.span)}: {r.name}" if r.ok else f"FAIL {location(r.span)}: {r.name}: {r.message}")
    failed = sum(not r.ok for r in results)
    if fmt == "json":
        click.echo(json.dumps(results_json(results, pack_name), indent=2, ensure_ascii=False))
    elif fmt == "junit":
        click.echo(as_junit(results, pack_name))
    else:
        click.echo(f"{len(results) - failed} passed, {failed} failed" + (f" (against {pack_name})" if pack_name else ""))
    sys.exit(ExitCode.CONTENT_INVALID if failed else ExitCode.OK)


@main.command("new-pack")
@click.argument("name")
@click.option("--extends", "base", required=True, help="the game (or GAME+EXPANSION) the new pack extends")
@click.option("--dir", "where", type=click.Path(file_okay=False), default=".", show_default=True, help="where to create the folder")
def new_pack_cmd(name: str, base: str, where: str) -> None:
    """Create a pack folder NAME that extends a game: valid, with an example card of each kind and a scenario test."""
    from meeple.authoring.scaffold import new_pack
    try:
        files = new_pack(name, base, Path(where))
    except OSError as err:
        folder_failed(err, Path(where) / name)
    except UsageError as err:
        fail(err, ExitCode.USAGE)
    except MeepleError as err:
        fail(err, ExitCode.CONTENT_INVALID)
    for f in files:
        click.echo(f"wrote {os.path.relpath(f)}")
    folder = os.path.relpath(Path(where) / name)
    # --only-mine: the base packs' own warnings (provisional values) would come first, before the mod's
    click.echo(f"next: meeple validate {folder} --only-mine; meeple test {os.path.relpath(Path(where) / name / 'tests')}")


@main.command("new-game")
@click.argument("name")
@click.option("--dir", "where", type=click.Path(file_okay=False), default=".", show_default=True, help="where to create the folder")
def new_game_cmd(name: str, where: str) -> None:
    """Create a base game folder NAME: valid and playable, with resources, a card kind, zones, actions, flow, scoring and a scenario."""
    from meeple.authoring.scaffold import new_game
    try:
        files = new_game(name, Path(where))
    except OSError as err:
        folder_failed(err, Path(where) / name)
    except UsageError as err:
        click.echo(f"error: {err.message}", err=True)
        sys.exit(ExitCode.USAGE)
    folder = os.path.relpath(Path(where) / name)
    for f in files:
        click.echo(f"wrote {os.path.relpath(f)}")
    click.echo(f"next: meeple validate {folder}; meeple test {os.path.join(folder, 'scenarios')}; "
               f"meeple play {folder} --players 2 --bots human,random")
