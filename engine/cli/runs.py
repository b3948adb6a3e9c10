"""Commands that play many games with bots: ``simulate`` (one pack: win rates and
scores with their intervals) and ``compare`` (the same games with two packs,
and every difference). A run stopped early (Ctrl-C, SIGTERM, a worker lost)
still writes its files and prints the figures of the games that finished,
then says how much of it finished and exits with the stop's code.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Callable, NoReturn, Optional

import click

from meeple.cli import arguments
from meeple.cli.files import OutputFile, ReportFile, cannot_write, distinct, replacement, written
from meeple.cli.group import ExitCode, fail, main, stop_code, usage
from meeple.core.errors import MeepleError, PackInvalid, UsageError, render
from meeple.runtime.game import load_game


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("-n", "--games", type=click.IntRange(min=1), default=1000, show_default=True, help="number of games (at least 1)")
@click.option("--players", "-p", type=int, required=True)
@click.option("--seed", type=arguments.SEEDS, default=0, show_default=True)
@click.option("--workers", default="auto", show_default=True, help="worker processes, or 'auto' (one per core)")
@click.option("--bots", default="random", show_default=True,
              help="bots per seat, comma-separated: random, greedy, mcts, mcts:200 (iterations), mcts:50ms (time per decision); "
                   "one name plays every seat; fewer names than seats: the others are random (as in play)")
@click.option("--eval", "evaluation", default="", help="the bots' evaluation, an effect-language expression (default: the pack's)")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="a rules option of the pack (repeatable)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local processes, or a Ray cluster (needs: pip install 'meeple[ray]')")
@click.option("--address", default="", help="with --backend ray: the cluster's HOST:PORT (default: start a local Ray)")
@click.option("--records", "records_path", type=OutputFile(), default=None, help="write one CSV row per player per game")
@click.option("--report", "report_path", type=ReportFile(), default=None,
              help="write a self-contained HTML report with plots (needs: pip install 'meeple[report]')")
@click.option("--metrics/--no-metrics", default=True, show_default=True,
              help="measure the game's shape: length, branching, forced decisions, lead changes, drama, decisiveness, "
                   "winning margin (--no-metrics: none of it, and none of its cost)")
def simulate(game_name: str, games: int, players: int, seed: int, workers: str, bots: str, evaluation: str,
             option_pairs: tuple[str, ...], fmt: str, backend: str, address: str, records_path: Optional[str],
             report_path: Optional[str], metrics: bool) -> None:
    """Play many games with bots and report win rates and scores with 95% intervals."""
    from meeple.workbench.simulate import RecordsUnwritable, SimConfig, format_text, simulate as run_sim
    distinct(records=records_path, report=report_path)
    game = arguments.load(game_name)
    arguments.players(game, players)
    bots = arguments.bots(bots, players, humans=False)       # names first, as play, compare and tune read them
    arguments.agents(game, bots, players, 0, evaluation)     # then the evaluation
    k = arguments.workers(workers)
    options = arguments.options(game, option_pairs)
    cfg = SimConfig(game_name, games, players, seed, max(1, k), bots, tuple(sorted(options.items())), evaluation,
                    backend=backend, address=address, metrics=metrics)
    # --records rows are written as each game finishes (meeple.workbench.simulate.RecordWriter), into a
    # file beside the one named, put in its place once the run is over (engine/core/outputs.py)
    records = replacement(records_path) if records_path else None
    try:
        try:
            if sys.stderr.isatty():
                from meeple.workbench.progress import Progress
                with Progress(games, "simulating", sys.stderr) as bar:
                    summary = run_sim(cfg, bar.update, game, records.file if records else None)
            else:
                summary = run_sim(cfg, game=game, records=records.file if records else None)
        except MeepleError as err:
            fail(err, ExitCode.CONTENT_INVALID)
        except RecordsUnwritable as err:
            sys.exit(cannot_write(records_path, err.error))
        except RuntimeError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(ExitCode.USAGE)
        if summary.interrupted and not summary.games:
            sys.exit(_say_stopped(0, games, "games"))
        d = summary.to_dict()
        outputs: list[tuple[str, Callable[[], Any]]] = []
        if records is not None:
            outputs.append((records_path, records.commit))
        if report_path:
            from meeple.workbench.report import write_report
            outputs.append((report_path, lambda: write_report(report_path, [d])))
        _finish_run(outputs, json.dumps(d, indent=2) if fmt == "json" else format_text(d), summary.interrupted,
                   summary.games, games, "games")
    finally:
        if records is not None:
            records.discard()        # nothing once committed; else the file named stays as it was


@main.command("compare")
@click.argument("base", metavar="BASE")
@click.argument("variant", metavar="[VARIANT]", required=False)
@click.option("-n", "--games", type=click.IntRange(min=1), default=1000, show_default=True, help="number of games (at least 1)")
@click.option("--players", "-p", type=int, required=True)
@click.option("--seed", type=arguments.SEEDS, default=0, show_default=True)
@click.option("--workers", default="auto", show_default=True, help="worker processes, or 'auto' (one per core)")
@click.option("--bots", default="random", show_default=True, help="bots per seat, as for simulate")
@click.option("--eval", "evaluation", default="", help="the bots' evaluation (default: the pack's)")
@click.option("--set", "sets", multiple=True, metavar="CARD.FIELD=VALUE",
              help="a one-off change for the variant (repeatable): keep.cost=4, GAME/FILE/keep.cost=4, hand_size=8")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="a rules option, for both (repeatable)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--full", is_flag=True, help="list every figure in the text output (by default: the answer and the 10 clearest others)")
@click.option("--report", "report_path", type=ReportFile(), default=None,
              help="write an HTML report with both side by side (needs: pip install 'meeple[report]')")
@click.option("--metrics/--no-metrics", default=True, show_default=True,
              help="compare the game's shape too, game by game (as simulate measures it; --no-metrics leaves it out)")
def compare_cmd(base: str, variant: Optional[str], games: int, players: int, seed: int, workers: str, bots: str,
                evaluation: str, sets: tuple[str, ...], option_pairs: tuple[str, ...], fmt: str, full: bool,
                report_path: Optional[str], metrics: bool) -> None:
    """Play the same games (seeds, bots) with BASE and with VARIANT (a pack, an
    expansion, or BASE with --set changes) and say what changed: the changed
    values, the differences significant after the correction (then the
    suggestive ones), each changed card's direct effects, then every other
    figure with its 95% interval, clearest first."""
    from meeple.authoring.diff import changed_values, diff_packs
    from meeple.workbench.answer import format_text as compare_text
    from meeple.workbench.compare import compare
    from meeple.workbench.simulate import SimConfig
    if variant is None and not sets:
        click.echo("error: give a VARIANT pack, or --set changes to BASE", err=True)
        sys.exit(ExitCode.USAGE)
    game = arguments.load(base)
    vname = variant or base
    try:
        vgame = load_game(vname, tuple(sets))
    except PackInvalid as err:
        _set_invalid(err)
    except UsageError as err:
        usage(err)
    for g in (game, vgame):
        arguments.players(g, players)
    bots = arguments.bots(bots, players, humans=False)
    for g in (game, vgame):
        arguments.agents(g, bots, players, 0, evaluation)
    options = tuple(sorted(arguments.options(game, option_pairs).items()))
    changes = changed_values(diff_packs(game.pack, vgame.pack))
    k = arguments.workers(workers)
    a = SimConfig(base, games, players, seed, k, bots, options, evaluation, metrics=metrics)
    b = SimConfig(vname, games, players, seed, k, bots, options, evaluation, tuple(sets), metrics=metrics)
    try:
        if sys.stderr.isatty():
            from meeple.workbench.progress import Progress
            with Progress(2 * games, "simulating both", sys.stderr) as bar:
                result = compare(a, b, bar.update, (game, vgame), changes)
        else:
            result = compare(a, b, games=(game, vgame), changes=changes)
    except MeepleError as err:
        fail(err, ExitCode.CONTENT_INVALID)
    if result.get("interrupted") and not result["games"]:
        sys.exit(_say_stopped(0, games, "pairs of games"))
    outputs: list[tuple[str, Callable[[], Any]]] = []
    if report_path:
        from meeple.workbench.report import write_report
        outputs.append((report_path, lambda: write_report(report_path, result["summaries"], result)))
    text = json.dumps({k2: v for k2, v in result.items() if k2 != "summaries"}, indent=2) if fmt == "json" \
        else compare_text(result, full)
    _finish_run(outputs, text, bool(result.get("interrupted")), result["games"], games, "pairs of games")


def _set_invalid(err: PackInvalid) -> NoReturn:
    """A variant that does not load: when a --set change is at fault (a value a pack
    file could not hold there either), a usage error, one line per problem naming
    the option; otherwise the variant pack's own errors, exit 1."""
    from meeple.loading.expansion import SET_FILE
    if not any(e.span.file == SET_FILE for e in err.problems.errors):
        fail(err, ExitCode.CONTENT_INVALID)
    for e in err.problems.errors:
        click.echo(f"error: {e.message}" + (f"; {e.hint}" if e.hint else "") if e.span.file == SET_FILE else render(e), err=True)
    sys.exit(ExitCode.USAGE)


def _finish_run(outputs: list[tuple[str, Callable[[], Any]]], text: str, stopped_early: bool, finished: int,
               requested: int, what: str) -> None:
    """The end of a run (simulate, compare): its files written, then its figures
    printed (a standard output that fails cannot lose the files), a SIGTERM waiting
    until both are done; then, for a run stopped early, why and how much of it
    finished. Exit as the first file that could not be written says, else with the
    stop's code."""
    from meeple.workbench.stops import deferred
    with deferred():
        failed = [code for code in (written(path, write) for path, write in outputs) if code]
        click.echo(text)
    code = failed[0] if failed else ExitCode.OK
    if stopped_early:
        code = code or _say_stopped(finished, requested, what)
    if code:
        sys.exit(code)


def _say_stopped(finished: int, requested: int, what: str) -> ExitCode:
    """For a run stopped early: say why (Ctrl-C, SIGTERM, a worker lost) and how much
    of it finished (``what``: 'games' or 'pairs of games'); its exit code."""
    from meeple.workbench.stops import WorkerLost, stopped
    stop = stopped()
    head = f"error: {stop}" if isinstance(stop, WorkerLost) else str(stop or "interrupted")
    if finished:
        sep = "; " if isinstance(stop, WorkerLost) else ": "
        click.echo(f"{head}{sep}{finished} of {requested} {what} finished; the figures are of those only", err=True)
    else:
        click.echo(f"{head} before any {'pair of games' if what == 'pairs of games' else 'game'} finished", err=True)
    return stop_code(stop)
