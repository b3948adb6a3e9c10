"""``meeple serve``: the table in a browser (meeple.web), to play against bots, to
replay a log step by step, and to look at the cards.

Starlette and uvicorn are an optional extra (``meeple[web]``): without them the command
says how to install them (exit 2), and nothing else of meeple imports them. The server
listens on 127.0.0.1 unless told otherwise, and prints one link per seat: a link opens
that seat's view only.
"""
from __future__ import annotations

import sys
from typing import Optional

import click

from meeple.cli import arguments
from meeple.cli.group import ExitCode, fail, main
from meeple.core.catalogue import say
from meeple.core.errors import MeepleError


def web_modules():
    """meeple.web's application and server, or exit 2 saying how to install the extra."""
    from meeple.web import missing
    name = missing()
    if name is not None:
        click.echo(f"error: meeple serve needs the extra meeple[web] ({name} is not installed): "
                   "pip install 'meeple[web]'", err=True)
        sys.exit(ExitCode.USAGE)
    from meeple.web import app, server
    return app, server


@main.command("serve")
@click.argument("game_name", metavar="GAME", required=False)
@click.option("--players", "-p", type=int, default=None, help="number of players (to play)")
@click.option("--bots", default="human,random", show_default=True,
              help="agents per seat as in meeple play (human seats each get a link); forks of a log play with these too")
@click.option("--seed", type=arguments.SEEDS, default=None, help="random seed (default: a fresh one; never shown to a seat)")
@click.option("--eval", "evaluation", default="", help="the bots' evaluation, an effect-language expression")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="a rules option of the pack (repeatable)")
@click.option("--log", "log_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="replay this logged game instead of playing a new one")
@click.option("--records", "records_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="a 'meeple simulate --records' file: replay one of its games (--game), played again with its bots")
@click.option("--game", "game_index", type=click.IntRange(0), default=0, show_default=True,
              help="with --records: the game's number (the file's 'game' column)")
@click.option("--figures", "figures_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="a 'meeple simulate --format json' file: each card's figures in the card drawer")
@click.option("--table-view", is_flag=True,
              help="also serve the table view, which shows every card and the seed (for designers; never give it to a player)")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on (another than 127.0.0.1 opens the table to the network)")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="port to listen on")
@click.option("--lang", default="en", show_default=True,
              help="language of the pages, their words and the game's (en, ja); a page may ask for another with ?lang=")
def serve(game_name: Optional[str], players: Optional[int], bots: str, seed: Optional[int], evaluation: str,
          option_pairs: tuple[str, ...], log_file: Optional[str], records_file: Optional[str], game_index: int,
          figures_file: Optional[str], table_view: bool, host: str, port: int, lang: str) -> None:
    """Serve the table in a browser: play GAME against bots (--players, --bots), or
    replay a logged game (--log FILE, or a game of a simulate --records FILE) with a
    step slider, every seat's view and forks.

    Prints one link per seat; each shows that seat's view only (an unguessable
    token per seat). Needs: pip install 'meeple[web]'."""
    app_module, server_module = web_modules()
    if records_file is not None:
        log_file = _from_records(game_name, records_file, game_index, option_pairs, evaluation)
    server = _server(server_module, game_name, players, bots, seed, evaluation, option_pairs, log_file,
                     figures_file, table_view, lang)
    table = server.tables[0]
    base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: anyone who can reach it and has a link can open that seat", err=True)
    said = say("replaying {path}", lang, path=log_file) if log_file else say("{n} players", lang, n=table.line.players)
    click.echo(f"{table.game.pack.info.name.get(lang)}: {said}")
    for s in table.seats.values():
        bot = table.view.word(table.bot_names[s.seat]) if s.seat is not None and table.bot_names else say("replay", lang)
        who = s.name(lang) if s.seat is None else f"{s.name(lang)} ({bot})"
        click.echo(f"  {who}: {base}/s/{s.token}")
    click.echo(say("  every link: {url}", lang, url=f"{base}/h/{table.host}"))
    table.advance_in_background()
    stopped_by = app_module.serve(server, host, port)
    if stopped_by is not None:          # Ctrl-C or SIGTERM: said, with its exit code (130, 143)
        import signal
        terminated = stopped_by == signal.SIGTERM
        click.echo("terminated" if terminated else "interrupted", err=True)
        sys.exit(ExitCode.TERMINATED if terminated else ExitCode.INTERRUPTED)


def _server(server_module, game_name, players, bots, seed, evaluation, option_pairs, log_file, figures_file,
            table_view, lang):
    """The server with its first table: a new game, or the logged one."""
    from meeple.runtime.logs import LogInvalid, read_log
    if log_file is None and (game_name is None or players is None):
        click.echo("error: name a GAME and --players to play, or --log FILE to replay", err=True)
        sys.exit(ExitCode.USAGE)
    figures = _figures(figures_file)
    try:
        if log_file is not None:
            log = read_log(log_file)
            game = arguments.load(game_name) if game_name else arguments.logged_game(log["pack"], log_file)
            ref = arguments.logged_name(game_name) if game_name else log["pack"]
            arguments.bots(bots, log["players"])
            server = server_module.Server(game, ref, bots, evaluation, lang, table_view, figures)
            server.replay(log, same_pack=game_name is None)
            return server
        game = arguments.load(game_name)
        arguments.players(game, players)
        arguments.agents(game, bots, players, 0, evaluation)       # checked as meeple play checks them
        options = arguments.options(game, option_pairs)
        server = server_module.Server(game, arguments.logged_name(game_name), bots, evaluation, lang, table_view, figures)
        server.play(players, arguments.seed(seed), options)
        return server
    except LogInvalid as err:
        for e in err.errors:
            where = f"{log_file}:{e.span.line}:{e.span.col}" if e.span.line else log_file
            click.echo(f"{where}: error: {e.message}" + (f"; {e.hint}" if e.hint else ""), err=True)
        sys.exit(ExitCode.CONTENT_INVALID)
    except MeepleError as err:
        fail(err, ExitCode.CONTENT_INVALID)


def _from_records(game_name: Optional[str], records_file: str, index: int, option_pairs: tuple[str, ...],
                  evaluation: str) -> str:
    """Game ``index`` of a records file played again with its bots, as a log file of its
    own (a temporary file, removed when the server stops)."""
    import atexit
    import json
    import os
    import tempfile
    from meeple.web.records import replayed_log
    if game_name is None:
        click.echo("error: --records needs the GAME the run played", err=True)
        sys.exit(ExitCode.USAGE)
    game = arguments.load(game_name)
    try:
        log = replayed_log(game, arguments.logged_name(game_name), records_file, index,
                           arguments.options(game, option_pairs), evaluation)
    except (OSError, ValueError) as err:
        click.echo(f"error: --records {records_file}: {err}", err=True)
        sys.exit(ExitCode.USAGE)
    except MeepleError as err:
        fail(err, ExitCode.CONTENT_INVALID)
    fd, path = tempfile.mkstemp(suffix=".meeple-log.json")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(log, f)
    atexit.register(os.unlink, path)
    return path


def _figures(path: Optional[str]) -> dict:
    if path is None:
        return {}
    from meeple.web.drawer import read_figures
    try:
        return read_figures(path)
    except (OSError, ValueError, KeyError, TypeError) as err:
        click.echo(f"error: --figures {path}: not the JSON of 'meeple simulate --format json' ({err})", err=True)
        sys.exit(ExitCode.USAGE)
