"""What a command line names, made into what the commands run: a pack loaded (by
name, or as a game log names it), its rules options, a seed, a player count, the
bots, the workers. A bad one ends the command with one line and its exit code
(2 for usage; an invalid pack lists its errors, exit 1), before anything runs.

Every command loads its pack through ``load`` (and a log's pack through
``logged_game``), so a test replaces pack loading here, in one place.
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Optional

import click

from meeple.cli.group import ExitCode, fail, pack_invalid, usage
from meeple.core.errors import MeepleError, PackInvalid, UsageError
from meeple.runtime.game import Game, load_game

if TYPE_CHECKING:
    from meeple.play.agents import Agent

SEEDS = click.IntRange(-2 ** 63, 2 ** 64 - 1)      # a seed is taken modulo 2**64; logs keep it in this range
MAX_WORKERS = 256


def load(game: str, generate: bool = True) -> Game:
    """A pack loaded and compiled; ``generate=False`` for commands that only read it
    (cards, diff), which need no generated Python."""
    try:
        return load_game(game, generate=generate)
    except PackInvalid as err:
        pack_invalid(err)
    except UsageError as err:
        usage(err)


def logged_game(spec: str, log_file: str) -> Game:
    """The game a log names, when it is a shipped pack (or shipped packs joined by
    '+'). A log is data from anywhere: a folder it names is never loaded, nor its
    setup run, unless the user names it (--pack); usage error."""
    from meeple.core.errors import printable, suggest
    from meeple.loading.folders import shipped_pack, shipped_packs
    parts = spec.split("+")
    other = next((p for p in parts if shipped_pack(p) is None), None)
    if other is not None:
        hint = suggest(other, shipped_packs())
        click.echo(f"{log_file}: error: the log names the pack {printable(other)!r}, not a shipped one "
                   f"({', '.join(shipped_packs())}); replay loads another pack only when you name it: --pack PACK"
                   + (f"; {hint}" if hint else ""), err=True)
        sys.exit(ExitCode.USAGE)
    try:
        return load_game("+".join(str(shipped_pack(p)) for p in parts))
    except PackInvalid as err:
        pack_invalid(err)


def logged_name(spec: str) -> str:
    """How a log names the pack played: a shipped pack by its id even when it was
    named by its folder (``content/GAME``), so the log replays without --pack."""
    from meeple.loading.folders import resolve, shipped_pack
    names = []
    for part in spec.split("+"):
        folder = resolve(part) if part else None
        shipped = shipped_pack(folder.name) if folder is not None else None
        names.append(shipped.name if shipped is not None and os.path.samefile(shipped, folder) else part)
    return "+".join(names)


def options(game: Game, pairs: tuple[str, ...]) -> dict[str, str]:
    """``--option name=value`` pairs, checked against the pack's options."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            click.echo(f"error: --option takes NAME=VALUE, not {pair!r}", err=True)
            sys.exit(ExitCode.USAGE)
        out[name.strip()] = value.strip()
    try:
        game.rules.resolve_options(out)
    except MeepleError as err:
        usage(err)
    return out


def seed(seed: Optional[int]) -> int:
    """The seed given, or a fresh one."""
    return seed if seed is not None else int.from_bytes(os.urandom(4), "little")


def players(game: Game, players: int) -> None:
    """Refuse a player count the game is not for: usage error."""
    if not game.min_players <= players <= game.max_players:
        click.echo(f"error: {game.id} is for {game.min_players}-{game.max_players} players, not {players}", err=True)
        sys.exit(ExitCode.USAGE)


def bots(spec: str, players: int, humans: bool = True) -> str:
    """``--bots`` read one way by every command (``meeple.play.agents.seat_names``): an
    unknown name first, with the known ones; one name plays every seat; fewer names
    than seats leave the rest to random; more is an error, as is ``human`` where only
    bots play. The spelling a run records: one name as given, else a name per seat.
    Usage error."""
    from meeple.play.agents import seat_names
    try:
        names = seat_names(spec, players, humans)
    except ValueError as err:
        click.echo(f"error: --bots: {err}", err=True)
        sys.exit(ExitCode.USAGE)
    return names[0] if len(set(names)) == 1 and "," not in spec.strip(", ") else ",".join(names)


def agents(game: Game, spec: str, players: int, seed: int, evaluation: str, humans: bool = True) -> list[Agent]:
    """The agents ``spec`` names for each seat (read as ``bots`` reads it), with the
    evaluation given (else the pack's): a name or an evaluation that does not work
    is a usage error."""
    spec = bots(spec, players, humans)
    try:
        from meeple.play.agents import make_agents
        from meeple.play.bots import evaluator
        return make_agents(spec, players, seed, game, evaluator(game, evaluation or None))
    except ValueError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(ExitCode.USAGE)
    except PackInvalid as err:
        fail(err, ExitCode.USAGE)


def workers(workers: str) -> int:
    """``--workers``: a number of processes, or 'auto' for one per core."""
    if workers == "auto":
        return min(MAX_WORKERS, os.cpu_count() or 1)
    if workers.isascii() and workers.isdigit() and 0 < int(workers) <= MAX_WORKERS:
        return int(workers)
    click.echo(f"error: --workers must be a number from 1 to {MAX_WORKERS} or 'auto', not {workers!r}", err=True)
    sys.exit(ExitCode.USAGE)
