"""The ``meeple`` command line: thin wrappers over library calls.

Exit codes are a documented IntEnum and never renumbered. The command group
owns them: whatever a command lets escape ends here (``Main.invoke``), a
meeple error with its code (1, or 2 for usage), Ctrl-C with 130, SIGTERM with
143 (engine/workbench/stops.py), a standard output that fails with 4, and anything
else as one line and exit 3 (``meeple --debug`` shows the traceback).
Output files are checked before a command starts (``OutputFile``), so a long
run or a human's game never ends in an unwritable path, and are written whole
or not at all (engine/core/outputs.py).
"""
from __future__ import annotations

import json
import os
import stat
import sys
import time
import traceback
from enum import IntEnum
from pathlib import Path
from typing import Optional

import click

from meeple import __version__
from meeple.core.errors import MeepleError, PackInvalid, Problems, Refusal, RuleError, UsageError, as_json, location, render
from meeple.runtime.flow import in_game
from meeple.runtime.game import Game, load_game


class ExitCode(IntEnum):
    OK = 0
    CONTENT_INVALID = 1      # also: a scenario failed, a replay diverged, a broken log
    USAGE = 2
    INTERNAL = 3
    OUTPUT_FAILED = 4        # an output could not be written (a full disk, a full or closed standard output)
    WORKER_LOST = 5          # a worker process of a run died (killed, out of memory); the games before it are kept
    INTERRUPTED = 130        # Ctrl-C (128 + SIGINT), as shells report it
    BROKEN_PIPE = 141        # the output's reader closed it (128 + SIGPIPE), e.g. piped into head
    TERMINATED = 143         # SIGTERM (128 + SIGTERM), handled as Ctrl-C is


SEEDS = click.IntRange(-2 ** 63, 2 ** 64 - 1)      # a seed is taken modulo 2**64; logs keep it in this range
MAX_WORKERS = 256


def _fail(err: MeepleError, code: ExitCode) -> None:
    for e in (err.problems.errors if isinstance(err, PackInvalid) else [err]):
        click.echo(render(e), err=True)
    from meeple.workbench.simulate import stopped_game
    note = stopped_game(err)       # simulate, compare: which game stopped the run, and its seed
    if note:
        click.echo(note, err=True)
    sys.exit(code)


def _written(path: str, write) -> Optional[ExitCode]:
    """Run ``write`` (which writes ``path`` whole or not at all: engine/core/outputs.py);
    None if it worked, else the exit code. A file system refusal is one line naming
    the path, not a crash: exit 4 when the system failed the write (a full disk),
    2 when the path did (a folder removed meanwhile, a file where a folder was)."""
    try:
        write()
    except OSError as err:
        return _cannot_write(path, err)
    return None


def _cannot_write(path: str, err: OSError) -> ExitCode:
    """Say that ``path`` could not be written (it is as it was); the exit code: 4 when
    the system failed the write (a full disk), 2 when the path did."""
    from meeple.core.outputs import system_fault
    click.echo(f"error: cannot write {path}: {(err.strerror or str(err)).lower()} (the file is as it was)", err=True)
    return ExitCode.OUTPUT_FAILED if system_fault(err) else ExitCode.USAGE


def _replacement(path: str):
    """An ``outputs.Replacement`` for ``path``, or exit as ``_cannot_write`` says."""
    from meeple.core.outputs import Replacement
    try:
        return Replacement(path, newline="")
    except OSError as err:
        sys.exit(_cannot_write(path, err))


def _write(path: str, write) -> None:
    """``_written``, or exit with its code."""
    code = _written(path, write)
    if code:
        sys.exit(code)


def _distinct(**paths: Optional[str]) -> None:
    """Refuse, before anything runs, two output options naming one file (one would
    overwrite the other): usage error."""
    from meeple.core.outputs import same_file
    named = [(option, path) for option, path in paths.items() if path]
    for i, (a, pa) in enumerate(named):
        for b, pb in named[i + 1:]:
            if same_file(pa, pb):
                click.echo(f"error: --{a} and --{b} both name {pb}; give each its own file", err=True)
                sys.exit(ExitCode.USAGE)


def _finish_run(outputs: list, text: str, stopped_early: bool, finished: int, requested: int, what: str) -> None:
    """The end of a run (simulate, compare): its files written, then its figures
    printed (a standard output that fails cannot lose the files), a SIGTERM waiting
    until both are done; then, for a run stopped early, why and how much of it
    finished. Exit as the first file that could not be written says, else with the
    stop's code."""
    from meeple.workbench.stops import deferred
    with deferred():
        failed = [code for code in (_written(path, write) for path, write in outputs) if code]
        click.echo(text)
    code = failed[0] if failed else ExitCode.OK
    if stopped_early:
        code = code or _say_stopped(finished, requested, what)
    if code:
        sys.exit(code)


def _stop_code(stop: Optional[BaseException]) -> ExitCode:
    """The exit code of a run stopped early: Ctrl-C, SIGTERM or a worker lost."""
    from meeple.workbench.stops import Terminated, WorkerLost
    if isinstance(stop, Terminated):
        return ExitCode.TERMINATED
    if isinstance(stop, WorkerLost):
        return ExitCode.WORKER_LOST
    return ExitCode.INTERRUPTED


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
    return _stop_code(stop)


def _pack_invalid(err: PackInvalid) -> None:
    for e in err.problems.errors:
        click.echo(render(e), err=True)
    click.echo(f"{len(err.problems.errors)} error(s): the pack is invalid (run 'meeple validate' for details)", err=True)
    sys.exit(ExitCode.CONTENT_INVALID)


def _load(game: str, generate: bool = True) -> Game:
    """A pack loaded and compiled; ``generate=False`` for commands that only read it
    (cards, diff), which need no generated Python."""
    try:
        return load_game(game, generate=generate)
    except PackInvalid as err:
        _pack_invalid(err)
    except UsageError as err:
        click.echo(f"error: {err.message}" + (f"; {err.hint}" if err.hint else ""), err=True)
        sys.exit(ExitCode.USAGE)


class Main(click.Group):
    """The command group, where every exception a command lets escape gets its exit code."""

    def main(self, *args, **kwargs):
        """All of a run of meeple, from reading its arguments (``--help``, ``--version``)
        on: SIGTERM handled as Ctrl-C is, and a standard output that fails one line."""
        from meeple.core.outputs import StdoutFailed, guarded_stdout
        from meeple.workbench.stops import sigterm_stops
        if sys.stdout is None:          # started with file descriptor 1 closed: what it prints would be lost
            click.echo("error: the standard output is closed; give the command somewhere to print (> FILE)", err=True)
            sys.exit(ExitCode.OUTPUT_FAILED)
        with sigterm_stops(), guarded_stdout():
            try:
                return super().main(*args, **kwargs)
            except StdoutFailed as err:
                _stdout_failed(err)

    def invoke(self, ctx: click.Context):
        from meeple.core.outputs import StdoutFailed, silence_stdout
        from meeple.workbench.stops import WorkerLost
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except WorkerLost as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(ExitCode.WORKER_LOST)
        except KeyboardInterrupt as err:     # Ctrl-C, or SIGTERM (engine/workbench/stops.py)
            click.echo(f"\n{str(err) or 'interrupted'}", err=True)
            sys.exit(_stop_code(err))
        except BrokenPipeError:
            # the reader went away (``meeple cards x | head``): not a defect; stop quietly, as Unix tools do
            silence_stdout()
            sys.exit(ExitCode.BROKEN_PIPE)
        except StdoutFailed as err:
            _stdout_failed(err)
        except PackInvalid as err:
            _pack_invalid(err)
        except UsageError as err:
            click.echo(f"error: {err.message}" + (f"; {err.hint}" if err.hint else ""), err=True)
            sys.exit(ExitCode.USAGE)
        except MeepleError as err:
            _fail(err, ExitCode.CONTENT_INVALID)
        except Exception as err:     # a defect of meeple's, not of the input: say so in one line
            if ctx.params.get("debug"):
                traceback.print_exc()
            text = str(err).strip().splitlines()[0] if str(err).strip() else ""
            text = text if len(text) <= 200 else text[:197] + "..."
            click.echo(f"internal error: {type(err).__name__}" + (f": {text}" if text else "")
                       + ("" if ctx.params.get("debug") else " (run 'meeple --debug ...' to see the traceback)"), err=True)
            sys.exit(ExitCode.INTERNAL)


def _stdout_failed(err: Exception) -> None:
    """A full disk (or ``> /dev/full``) under the standard output: the input is fine,
    the output is lost; one line, exit 4, and nothing more tried on the output."""
    from meeple.core.outputs import silence_stdout
    silence_stdout()
    click.echo(f"error: cannot write the standard output: {err}", err=True)
    sys.exit(ExitCode.OUTPUT_FAILED)


class OutputFile(click.ParamType):
    """A file a command will write: refused before the command starts (usage error) when
    its folder is missing, it is a folder, or it cannot be opened for writing (nor a
    file created beside it, where it is written before it is renamed into place)."""

    name = "file"

    def convert(self, value, param, ctx):
        reason = unwritable(Path(value))
        if reason:
            self.fail(f"cannot write {value!r}: {reason}", param, ctx)
        return value


class ReportFile(OutputFile):
    """An HTML report: writable, and matplotlib must be there to draw it."""

    name = "file.html"

    def convert(self, value, param, ctx):
        value = super().convert(value, param, ctx)
        try:
            import matplotlib  # noqa: F401
        except ImportError as err:
            self.fail(f"the HTML report needs matplotlib: pip install 'meeple[report]' ({err})", param, ctx)
        return value


def unwritable(path: Path) -> Optional[str]:
    """Why ``path`` cannot be written, or None. Opens it (creating it, then removing
    it again), so permissions are what the system says, not a guess."""
    try:
        return _unwritable(path)
    except OSError as err:             # a name too long, a loop of links
        return (err.strerror or type(err).__name__).lower()
    except ValueError as err:          # a NUL in the name
        return str(err)


def _unwritable(path: Path) -> Optional[str]:
    if path.is_symlink():
        path = Path(os.path.realpath(path))       # a write changes the file the link leads to (engine/core/outputs.py)
    if path.is_dir():
        return "it is a folder"
    folder = path.parent
    if not folder.exists():
        return f"the folder {str(folder)!r} does not exist"
    if not folder.is_dir():
        return f"{str(folder)!r} is not a folder"
    existed = path.exists()
    if existed and stat.S_ISFIFO(path.stat().st_mode):
        return None                       # opening a pipe would wait for its reader
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | (0 if existed else os.O_CREAT | os.O_EXCL), 0o666)
    except OSError as err:
        return (err.strerror or type(err).__name__).lower()
    os.close(fd)
    if not existed:
        os.unlink(path)
    from meeple.core.outputs import probe
    return probe(path)          # the file is written beside, then renamed: the folder must take a new file


@click.group(cls=Main)
@click.version_option(__version__, prog_name="meeple")
@click.option("--debug", is_flag=True, envvar="MEEPLE_DEBUG", help="on an internal error (exit 3), show the traceback")
def main(debug: bool) -> None:
    """meeple: a rules-as-data engine for board games."""


# ---------------------------------------------------------------- validate
@main.command()
@click.argument("packs", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--only-mine", is_flag=True,
              help="Hide the warnings (provisional values) located in the packs a pack extends; the summary counts them.")
@click.option("--maybe-none", is_flag=True,
              help="Also warn of every use of a value that may be none (first, random, top, min, max, holder, host, "
                   "a plain choose) with no test of it: many are safe by the pack's data.")
def validate(packs: tuple[str, ...], fmt: str, only_mine: bool, maybe_none: bool) -> None:
    """Check packs: YAML, schemas, references and every DSL text. Exit 1 on any error."""
    from meeple.runtime.game import check_pack
    from meeple.loading.folders import resolve_all
    from meeple.loading.pack import provisional_warnings, read_packs
    report = []
    any_error = False
    for name in packs:
        try:
            roots = resolve_all(name)
        except UsageError as err:
            click.echo(f"error: {err.message}" + (f"; {err.hint}" if err.hint else ""), err=True)
            sys.exit(ExitCode.USAGE)
        start = time.perf_counter()
        problems = Problems()
        pack = read_packs(roots, problems)
        game = check_pack(pack, problems, maybe_none) if pack is not None else None
        if game is not None and not problems.errors:
            from meeple.authoring.cardtext import number_warnings
            problems.warnings += number_warnings(pack)     # texts naming numbers their rules do not
        seconds = time.perf_counter() - start
        warnings = provisional_warnings(pack) if pack is not None else []
        hidden = (0, 0)      # provisional values, other warnings: hidden as located in base packs
        if only_mine and pack is not None:
            in_base = _in_base_pack(pack, roots)
            kept = [w for w in warnings if not in_base(w[3].file)]
            others = [w for w in problems.warnings if not in_base(w.span.file)]
            hidden = (len(warnings) - len(kept), len(problems.warnings) - len(others))
            warnings, problems.warnings = kept, others
        any_error |= bool(problems.errors)
        report.append((name, pack, game, problems, warnings, seconds, hidden))
    if fmt == "json":
        out = []
        for name, pack, game, problems, warnings, seconds, hidden in report:
            out.append({
                "pack": name, "valid": not problems.errors, "seconds": round(seconds, 4),
                "errors": [as_json(e) for e in problems.errors],
                "warnings": [as_json(w) for w in problems.warnings] +
                            [{"severity": "warning", "file": s.file, "line": s.line, "col": s.col,
                              "message": f"provisional value {cid}.{fld}: {reason}"} for cid, fld, reason, s in warnings],
                "held_back": [as_json(e) for e in problems.hidden],
                "base_provisional_hidden": hidden[0], "base_warnings_hidden": hidden[1],
                "compiled": game is not None,
                "cards": len(pack.cards) if pack else 0,
                "load_order": [{"pack": i, "version": v} for i, v, _ in pack.load_order] if pack else [],
            })
        click.echo(json.dumps(out if len(out) > 1 else out[0], indent=2, ensure_ascii=False))
    else:
        for name, pack, game, problems, warnings, seconds, hidden in report:
            also = (f"; {hidden[0]} provisional value(s) in base packs hidden" +
                    (f" (and {hidden[1]} other warning(s))" if hidden[1] else "")) if only_mine else ""
            for e in problems.errors:
                click.echo(render(e))
            for w in problems.warnings:
                click.echo(render(w))
            for cid, fld, reason, span in warnings:
                click.echo(f"{location(span)}: warning: provisional value {cid}.{fld}: {reason}")
            if pack is not None and len(pack.load_order) > 1:
                click.echo(f"{name}: load order " + " -> ".join(f"{i} {v}" for i, v, _ in pack.load_order))
            if problems.hidden:
                click.echo(f"{name}: note: {_held_back(problems)}")
            if problems.declarations_broken:
                click.echo(f"{name}: note: the rule texts were not compiled, as the declarations they use have errors (above)")
            if problems.errors:
                click.echo(f"{name}: {len(problems.errors)} error(s), {len(warnings)} provisional value(s){also}")
            else:
                kinds: dict[str, list[int]] = {}
                for c in pack.cards:
                    counts = kinds.setdefault(c.kind, [0, 0])
                    counts[0] += c.copies
                    counts[1] += c.per_player
                what = ", ".join(f"{n} {k}" if not per else (f"{per} {k} per player" if not n else f"{n} {k} + {per} per player")
                                 for k, (n, per) in kinds.items())
                click.echo(f"{name}: valid ({pack.info.id} {pack.info.version}: {what}; {len(game.codes)} rule texts compiled) "
                           f"in {seconds:.2f} s; {len(warnings)} provisional value(s){also}")
    sys.exit(ExitCode.CONTENT_INVALID if any_error else ExitCode.OK)


def _in_base_pack(pack, roots: list[Path]):
    """Whether a file (as a span names it) lies in a pack that the packs named on the
    command line extend (the innermost pack folder holding it decides)."""
    mine = {Path(r).resolve() for r in roots}
    layers = [Path(root).resolve() for _, _, root in pack.load_order if not root.startswith("<")]

    def in_base(file: str) -> bool:
        try:
            path = Path(file).resolve()
        except (OSError, RuntimeError, ValueError):
            return False
        owner = max((r for r in layers if path.is_relative_to(r)), key=lambda r: len(r.parts), default=None)
        return owner is not None and owner not in mine
    return in_base


def _held_back(problems: Problems) -> str:
    """The one line saying which errors were not shown: those that only name what a
    part left out for its own error declared."""
    from meeple.core.errors import _MISSING_NAME
    names = sorted({n for e in problems.hidden for n in _MISSING_NAME.findall(e.message) if n in problems.left_out})
    shown = ", ".join(f"'{n}'" for n in names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (f"{len(problems.hidden)} more error(s) not shown: they name {shown}, declared in a part left out "
            "for the errors above; fix those first")


# ---------------------------------------------------------------- play
def _options(game: Game, pairs: tuple[str, ...]) -> dict:
    """``--option name=value`` pairs, checked against the pack's options."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            click.echo(f"error: --option takes NAME=VALUE, not {pair!r}", err=True)
            sys.exit(ExitCode.USAGE)
        out[name.strip()] = value.strip()
    try:
        game.resolve_options(out)
    except MeepleError as err:
        click.echo(f"error: {err.message}" + (f"; {err.hint}" if err.hint else ""), err=True)
        sys.exit(ExitCode.USAGE)
    return out


def _seed(seed: Optional[int]) -> int:
    return seed if seed is not None else int.from_bytes(os.urandom(4), "little")


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-p", type=int, required=True, help="number of players")
@click.option("--seed", type=SEEDS, default=None,
              help="random seed (default: a fresh one; printed at the end of a game with a human, at the start of a bots-only one)")
@click.option("--show-seed", is_flag=True, help="print the seed at the start even with a human playing (it predicts every hidden card)")
@click.option("--bots", default="human,random", show_default=True,
              help="agents per seat, comma-separated (random, human, greedy, mcts, mcts:200, mcts:50ms); "
                   "one name applies to all seats; missing seats are random")
@click.option("--eval", "evaluation", default="", help="the bots' evaluation, an effect-language expression (default: the pack's)")
@click.option("--log", "log_path", type=OutputFile(), default=None, help="write the game log here (checked before the game starts)")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="a rules option of the pack (repeatable)")
@click.option("--quiet", is_flag=True, help="only the final scores")
@click.option("--lang", default="en", show_default=True, help="locale of card names and texts on the board and with '?'")
def play(game_name: str, players: int, seed: Optional[int], show_seed: bool, bots: str, evaluation: str,
         log_path: Optional[str], option_pairs: tuple[str, ...], quiet: bool, lang: str) -> None:
    """Play a game in the terminal with humans and bots.

    A human reads another player's choice only when their own view shows what
    it was (else '(hidden)'); with a human playing, the seed, from which every
    hidden card follows, is printed at the end (--show-seed: at the start)."""
    from meeple.play.agents import make_agents
    from meeple.play.session import make_log, observation, write_log
    from meeple.play.terminal import TerminalView
    from meeple.runtime.views import HIDDEN_CHOICE
    game = _load(game_name)
    if not game.min_players <= players <= game.max_players:
        click.echo(f"error: {game.id} is for {game.min_players}-{game.max_players} players, not {players}", err=True)
        sys.exit(ExitCode.USAGE)
    seed = _seed(seed)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if 1 < len(names) < players:
        names += ["random"] * (players - len(names))
    try:
        from meeple.play.bots import evaluator
        agents = make_agents(",".join(names[:players]) if len(names) > 1 else bots, players, seed, game,
                             evaluator(game, evaluation or None))
    except ValueError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(ExitCode.USAGE)
    except PackInvalid as err:
        _fail(err, ExitCode.USAGE)
    humans = [i for i, a in enumerate(agents) if a.name == "human"]
    options = _options(game, option_pairs)
    seed_first = show_seed or not humans        # the seed predicts every hidden card: a human sees it at the end
    click.echo(f"{game.pack.info.name.get()} with {players} players" + (f", seed {seed}" if seed_first else "")
               + "".join(f", {k}={v}" for k, v in options.items()))
    view = TerminalView(game, width=_width(), lang=lang)
    watcher = humans[0] if len(humans) == 1 else None       # the one whose view the board shows
    for h in humans:
        agents[h].helper = lambda answer, opts: view.help(answer, opts, st)
        agents[h].echo = lambda text: click.echo(view.wrap_block(text))     # option lines fit the terminal
        agents[h].ask = lambda prompt: click.prompt(prompt, type=str)
    last_round, last_turn, seen = -1, -1, None
    try:
        st = game.new_state(players, seed, options=options)     # setup may already break a rule
        while not st.over:
            dec = st.pending
            agent = agents[dec.player]
            if not quiet and st.round != last_round:
                last_round = st.round
                click.echo(view.board(st, watcher))                  # the board once per round
                seen = view.snapshot(st, watcher)
            elif not quiet and dec.kind == "action" and dec.player != last_turn:
                click.echo(view.standing(st))      # between turns: where everyone stands
            if dec.kind == "action":
                last_turn = dec.player
            choices = dec.options
            if agent.name == "human" and not quiet:
                now = view.snapshot(st, dec.player)
                if seen is not None and now != seen:
                    click.echo("  since you last looked:")
                    click.echo("\n".join(view.changes(seen, now)))
                seen = now
                choices = view.options(st, dec.player)
            obs = observation(game, st, agent, dec.player)
            if agent.name == "human" and "decision" in obs:
                obs["decision"] = dict(obs["decision"], prompt=view.prompt(dec.prompt))
            try:
                index = agent.choose(obs, choices)
            except RuleError as err:          # a bot's evaluation broke: told the game's seed and choice
                raise in_game(err, st) from None
            if not quiet:
                who = "you" if agent.name == "human" else agent.name
                watching = [h for h in humans if h != dec.player]     # the humans who see this line
                told = game.told(st, index, watching)
                if told != HIDDEN_CHOICE:
                    told = view.label(st, index, view.localized(st, index, told), watcher)
                click.echo(view.wrap(f"  P{dec.player + 1} ({who}) {view.prompt(dec.prompt)}: {told}", 6))
                marks = view.marks(st)
            try:
                game.apply(st, index)
            except Refusal as err:          # a rule said no: the state is as it was, choose again
                click.echo(f"  refused: {err.message}")
                continue
            if not quiet:       # a board variable the choice set (a piece marked, a seat robbed): said at once
                now = {k: v for k, v in view.marks(st).items() if v[1] is not None}     # set, not cleared
                for line in view.changes({k: marks.get(k) for k in now}, now, lead="    "):
                    click.echo(line)
                if seen is not None:
                    seen.update(now)        # said once: not again under 'since you last looked'
            if st.events:                    # notes the rules wrote with 'log'
                if not quiet:
                    for note in st.events:
                        click.echo(f"    {note}")
                st.events.clear()
    except MeepleError as err:
        _fail(err, ExitCode.CONTENT_INVALID)
    except (EOFError, click.Abort):
        click.echo("\ngame abandoned" + ("" if seed_first else f" (seed {seed})"), err=True)
        sys.exit(ExitCode.USAGE)
    if not quiet:
        click.echo(view.board(st, watcher))        # the human's own last view, their hand too
    _print_scores(game, st)
    if not seed_first:
        click.echo(f"seed {seed}")
    if log_path:
        _write(log_path, lambda: write_log(log_path, make_log(game, st, seed, _logged_name(game_name), options)))
        click.echo(f"log written to {log_path}")


def _width() -> int:
    """The terminal's columns (COLUMNS, else the terminal's own), 100 when it does not say."""
    import shutil
    return shutil.get_terminal_size((100, 24)).columns


def _print_scores(game: Game, st) -> None:
    winners = game.winners(st)
    click.echo(f"final scores after {st.round} rounds:")
    for place, p in enumerate(st.ranking, 1):
        mark = "  winner" if p in winners else ""
        click.echo(f"  {place}. P{p + 1}  {st.scores[p]}{mark}")


# ---------------------------------------------------------------- replay
@main.command()
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False))
@click.option("--pack", "pack_ref", default=None,
              help="replay with this pack: needed when the log names no shipped pack; another than the logged one shows "
                   "whether a rules change alters the game")
@click.option("--steps", is_flag=True, help="show every choice")
def replay(log_file: str, pack_ref: Optional[str], steps: bool) -> None:
    """Re-run a logged game; fail loudly if anything diverges.

    The log's shape is checked first (see 'meeple schema log'): a broken log
    exits 1 naming each bad field. Without --pack, the log must name a shipped
    pack: a pack folder is loaded only when you name it.
    """
    from meeple.core.errors import IllegalChoice
    from meeple.runtime.logs import LogInvalid, read_log
    from meeple.play.session import ReplayDiverged, replay as do_replay

    def show(st, option):
        if steps:
            click.echo(f"  round {st.round}  P{st.pending.player + 1} {st.pending.prompt}: {option[1]}")
    try:
        try:
            log = read_log(log_file)
        except OSError as err:
            click.echo(f"error: cannot read {log_file}: {err.strerror or err}", err=True)
            sys.exit(ExitCode.USAGE)
        game = _load(pack_ref) if pack_ref else _logged_game(log["pack"], log_file)
        st = do_replay(game, log, show, checked=True, same_pack=not pack_ref)
    except LogInvalid as err:
        for e in err.errors:
            where = f"{log_file}:{e.span.line}:{e.span.col}" if e.span.line else log_file
            click.echo(f"{where}: error: {e.message}" + (f"; {e.hint}" if e.hint else ""), err=True)
        sys.exit(ExitCode.CONTENT_INVALID)
    except (ReplayDiverged, IllegalChoice) as err:      # the log no longer fits the game
        click.echo(f"replay diverged: {err.message}" + (f"; {err.hint}" if err.hint else ""), err=True)
        sys.exit(ExitCode.CONTENT_INVALID)
    except MeepleError as err:          # a rule error on the way: located, with the seed and choice
        _fail(err, ExitCode.CONTENT_INVALID)
    click.echo(f"replayed {len(log['choices'])} choices of {game.id} ({log['players']} players, seed {log['seed']}): identical")
    _print_scores(game, st)


def _logged_name(spec: str) -> str:
    """How a log names the pack played: a shipped pack by its id even when it was
    named by its folder (``content/GAME``), so the log replays without --pack."""
    from meeple.loading.folders import resolve, shipped_pack
    names = []
    for part in spec.split("+"):
        folder = resolve(part) if part else None
        shipped = shipped_pack(folder.name) if folder is not None else None
        names.append(shipped.name if shipped is not None and os.path.samefile(shipped, folder) else part)
    return "+".join(names)


def _logged_game(spec: str, log_file: str) -> Game:
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
        _pack_invalid(err)


# ---------------------------------------------------------------- simulate
@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("-n", "--games", type=click.IntRange(min=1), default=1000, show_default=True, help="number of games (at least 1)")
@click.option("--players", "-p", type=int, required=True)
@click.option("--seed", type=SEEDS, default=0, show_default=True)
@click.option("--workers", default="auto", show_default=True, help="worker processes, or 'auto' (one per core)")
@click.option("--bots", default="random", show_default=True,
              help="bots per seat, comma-separated: random, greedy, mcts, mcts:200 (iterations), mcts:50ms (time per decision)")
@click.option("--eval", "evaluation", default="", help="the bots' evaluation, an effect-language expression (default: the pack's)")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="a rules option of the pack (repeatable)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local processes, or a Ray cluster (needs: pip install 'meeple[ray]')")
@click.option("--address", default="", help="with --backend ray: the cluster's HOST:PORT (default: start a local Ray)")
@click.option("--records", "records_path", type=OutputFile(), default=None, help="write one CSV row per player per game")
@click.option("--report", "report_path", type=ReportFile(), default=None,
              help="write a self-contained HTML report with plots (needs: pip install 'meeple[report]')")
def simulate(game_name: str, games: int, players: int, seed: int, workers: str, bots: str, evaluation: str,
             option_pairs: tuple[str, ...], fmt: str, backend: str, address: str, records_path: Optional[str],
             report_path: Optional[str]) -> None:
    """Play many games with bots and report win rates and scores with 95% intervals."""
    from meeple.workbench.simulate import RecordsUnwritable, SimConfig, format_text, simulate as run_sim
    _distinct(records=records_path, report=report_path)
    game = _load(game_name)
    if not game.min_players <= players <= game.max_players:
        click.echo(f"error: {game.id} is for {game.min_players}-{game.max_players} players, not {players}", err=True)
        sys.exit(ExitCode.USAGE)
    if "human" in bots:
        click.echo("error: simulate runs bots only", err=True)
        sys.exit(ExitCode.USAGE)
    try:
        from meeple.play.agents import make_agents
        from meeple.play.bots import evaluator
        make_agents(bots, players, 0, game, evaluator(game, evaluation or None))     # check the names and the evaluation now
    except ValueError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(ExitCode.USAGE)
    except PackInvalid as err:
        _fail(err, ExitCode.USAGE)
    k = _workers(workers)
    options = _options(game, option_pairs)
    cfg = SimConfig(game_name, games, players, seed, max(1, k), bots, tuple(sorted(options.items())), evaluation,
                    backend=backend, address=address)
    # --records rows are written as each game finishes (meeple.workbench.simulate.RecordWriter), into a
    # file beside the one named, put in its place once the run is over (engine/core/outputs.py)
    records = _replacement(records_path) if records_path else None
    try:
        try:
            if sys.stderr.isatty():
                from meeple.workbench.progress import Progress
                with Progress(games, "simulating", sys.stderr) as bar:
                    summary = run_sim(cfg, bar.update, game, records.file if records else None)
            else:
                summary = run_sim(cfg, game=game, records=records.file if records else None)
        except MeepleError as err:
            _fail(err, ExitCode.CONTENT_INVALID)
        except RecordsUnwritable as err:
            sys.exit(_cannot_write(records_path, err.error))
        except RuntimeError as err:
            click.echo(f"error: {err}", err=True)
            sys.exit(ExitCode.USAGE)
        if summary.interrupted and not summary.games:
            sys.exit(_say_stopped(0, games, "games"))
        d = summary.to_dict()
        outputs = []
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


# ---------------------------------------------------------------- compare
def _set_invalid(err: PackInvalid) -> None:
    """A variant that does not load: when a --set change is at fault (a value a pack
    file could not hold there either), a usage error, one line per problem naming
    the option; otherwise the variant pack's own errors, exit 1."""
    from meeple.loading.expansion import SET_FILE
    if not any(e.span.file == SET_FILE for e in err.problems.errors):
        _fail(err, ExitCode.CONTENT_INVALID)
    for e in err.problems.errors:
        click.echo(f"error: {e.message}" + (f"; {e.hint}" if e.hint else "") if e.span.file == SET_FILE else render(e), err=True)
    sys.exit(ExitCode.USAGE)


def _workers(workers: str) -> int:
    if workers == "auto":
        return min(MAX_WORKERS, os.cpu_count() or 1)
    if workers.isascii() and workers.isdigit() and 0 < int(workers) <= MAX_WORKERS:
        return int(workers)
    click.echo(f"error: --workers must be a number from 1 to {MAX_WORKERS} or 'auto', not {workers!r}", err=True)
    sys.exit(ExitCode.USAGE)


@main.command("compare")
@click.argument("base", metavar="BASE")
@click.argument("variant", metavar="[VARIANT]", required=False)
@click.option("-n", "--games", type=click.IntRange(min=1), default=1000, show_default=True, help="number of games (at least 1)")
@click.option("--players", "-p", type=int, required=True)
@click.option("--seed", type=SEEDS, default=0, show_default=True)
@click.option("--workers", default="auto", show_default=True, help="worker processes, or 'auto' (one per core)")
@click.option("--bots", default="random", show_default=True, help="bots per seat, as for simulate")
@click.option("--eval", "evaluation", default="", help="the bots' evaluation (default: the pack's)")
@click.option("--set", "sets", multiple=True, metavar="CARD.FIELD=VALUE",
              help="a one-off change for the variant (repeatable): keep.cost=4, GAME/FILE/keep.cost=4, hand_size=8")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", help="a rules option, for both (repeatable)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--report", "report_path", type=ReportFile(), default=None,
              help="write an HTML report with both side by side (needs: pip install 'meeple[report]')")
def compare_cmd(base: str, variant: Optional[str], games: int, players: int, seed: int, workers: str, bots: str,
                evaluation: str, sets: tuple[str, ...], option_pairs: tuple[str, ...], fmt: str, report_path: Optional[str]) -> None:
    """Play the same games (seeds, bots) with BASE and with VARIANT (a pack, an
    expansion, or BASE with --set changes) and report every difference, with
    its 95% interval and whether it is significant: the significant first, then
    by |difference| / half its interval."""
    from meeple.workbench.compare import compare, format_text as compare_text
    from meeple.workbench.simulate import SimConfig
    if variant is None and not sets:
        click.echo("error: give a VARIANT pack, or --set changes to BASE", err=True)
        sys.exit(ExitCode.USAGE)
    game = _load(base)
    vname = variant or base
    try:
        vgame = load_game(vname, tuple(sets))
    except PackInvalid as err:
        _set_invalid(err)
    except UsageError as err:
        click.echo(f"error: {err.message}" + (f"; {err.hint}" if err.hint else ""), err=True)
        sys.exit(ExitCode.USAGE)
    for g in (game, vgame):
        if not g.min_players <= players <= g.max_players:
            click.echo(f"error: {g.id} is for {g.min_players}-{g.max_players} players, not {players}", err=True)
            sys.exit(ExitCode.USAGE)
    try:
        from meeple.play.agents import make_agents
        from meeple.play.bots import evaluator
        for g in (game, vgame):
            make_agents(bots, players, 0, g, evaluator(g, evaluation or None))
    except ValueError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(ExitCode.USAGE)
    except PackInvalid as err:
        _fail(err, ExitCode.USAGE)
    options = tuple(sorted(_options(game, option_pairs).items()))
    k = _workers(workers)
    a = SimConfig(base, games, players, seed, k, bots, options, evaluation)
    b = SimConfig(vname, games, players, seed, k, bots, options, evaluation, tuple(sets))
    try:
        if sys.stderr.isatty():
            from meeple.workbench.progress import Progress
            with Progress(2 * games, "simulating both", sys.stderr) as bar:
                result = compare(a, b, bar.update, (game, vgame))
        else:
            result = compare(a, b, games=(game, vgame))
    except MeepleError as err:
        _fail(err, ExitCode.CONTENT_INVALID)
    if result.get("interrupted") and not result["games"]:
        sys.exit(_say_stopped(0, games, "pairs of games"))
    outputs = []
    if report_path:
        from meeple.workbench.report import write_report
        outputs.append((report_path, lambda: write_report(report_path, result["summaries"], result)))
    text = json.dumps({k2: v for k2, v in result.items() if k2 != "summaries"}, indent=2) if fmt == "json" else compare_text(result)
    _finish_run(outputs, text, bool(result.get("interrupted")), result["games"], games, "pairs of games")


# ---------------------------------------------------------------- test
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
    game = _load(pack_name) if pack_name else None
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


# ---------------------------------------------------------------- cards
@main.command()
@click.argument("game_name", metavar="GAME")
@click.argument("card_id", metavar="[ID]", required=False)
@click.option("--lang", default="en", show_default=True, help="locale of names and texts")
@click.option("--provisional", is_flag=True, help="list the values marked provisional, with their reasons")
@click.option("--provenance", is_flag=True,
              help="every number (and every value cited or marked) with where it comes from: cited, provisional or unmarked")
@click.option("--generated", is_flag=True,
              help="only the rules text generated from the card's rules (in --lang), for one card or every card")
def cards(game_name: str, card_id: Optional[str], lang: str, provisional: bool, provenance: bool, generated: bool) -> None:
    """List a game's cards, or show one with its data and rules text."""
    from meeple.core.errors import suggest
    from meeple.loading.pack import provisional_warnings
    game = _load(game_name, generate=False)
    pack = game.pack
    if provenance:
        _provenance(pack, card_id)
        return
    if provisional:
        rows = provisional_warnings(pack)
        for cid, fld, reason, span in rows:
            click.echo(f"{cid}.{fld}: {reason}  ({location(span)})")
        click.echo(f"{len(rows)} provisional value(s)")
        return
    if card_id:
        card = next((c for c in pack.cards if c.id == card_id), None)
        if card is None:
            click.echo(f"error: no card '{card_id}' in {game.id}" + (f"; {h}" if (h := suggest(card_id, [c.id for c in pack.cards])) else ""), err=True)
            sys.exit(ExitCode.USAGE)
        if generated:
            _generated(pack, [card], lang)
            return
        click.echo(f"{card.names.get(lang)}  [{card.id}]  ({card.kind}, {card.copies} cop{'y' if card.copies == 1 else 'ies'})")
        others = [f"{loc}: {n}" for loc, n in card.names.by_locale if loc != lang]
        if others:
            click.echo("  " + "; ".join(others))
        for k, v in card.fields:
            click.echo(f"  {k}: {v}")
        if card.text.by_locale:
            click.echo(f"  text: {card.text.get(lang)}")
        from meeple.authoring.cardtext import card_lines
        from meeple.core.errors import printable
        made = card_lines(pack, card, lang)
        if made:
            click.echo("  generated:\n" + "\n".join("    " + printable(line) for line in made))
        for hook, src in card.hooks:
            click.echo(f"  {hook}:\n" + _indent(src.text))
        for ev, src in card.handlers:
            click.echo(f"  when {ev}:\n" + _indent(src.text))
        for a in card.actions:
            click.echo(f"  action {a.id} ({a.names.get(lang)}), group {a.group}" + (f", {a.per_turn} per turn" if a.per_turn else ""))
            if a.text.by_locale:
                click.echo(f"    text: {a.text.get(lang)}")
            if a.when:
                click.echo(f"    when: {a.when.text.strip()}")
            if a.with_:
                click.echo(f"    with: {a.with_.text.strip()}")
            click.echo(_indent(a.effect.text, 6))
        for fld, reason in card.provisional:
            click.echo(f"  provisional {fld}: {reason}")
        for fld, cite, _ in card.sources:
            click.echo(f"  source of {fld}: {cite}")
        return
    if generated:
        _generated(pack, list(pack.cards), lang)
        return
    by_kind: dict[str, list] = {}
    for c in pack.cards:
        by_kind.setdefault(c.kind, []).append(c)
    for kind, items in by_kind.items():
        click.echo(f"{kind} ({sum(c.copies for c in items)} cards, {len(items)} kinds)")
        defaults = {f.name: f.default for f in game.kinds[kind].fields}
        for c in items:
            data = ", ".join(f"{k} {v}" for k, v in c.fields
                             if v is not None and (defaults.get(k) is None or (v != defaults[k] and not str(defaults[k]).startswith("="))))
            flag = f"  (provisional: {', '.join(f for f, _ in c.provisional)})" if c.provisional else ""
            click.echo(f"  {c.id:<18} {c.names.get(lang):<16} x{c.copies:<2} {data}{flag}")


def _generated(pack, chosen: list, lang: str) -> None:
    """``meeple cards GAME [ID] --generated``: each card's name and the text made from its rules."""
    from meeple.authoring.cardtext import card_lines, lexicon
    from meeple.core.errors import printable
    lex = lexicon(pack)
    for card in chosen:
        click.echo(f"{printable(card.names.get(lang))}  [{card.id}]")
        for line in card_lines(pack, card, lang, lex):
            click.echo("  " + printable(line))     # content words and labels, control codes escaped


def _provenance(pack, card_id: Optional[str]) -> None:
    """``meeple cards GAME [ID] --provenance``: one line a value (card, field, value, status,
    citation or reason, where), then the count of numbers by status for each card kind."""
    from meeple.core.errors import printable, suggest
    from meeple.loading.pack import provenance
    from meeple.loading.reader import cited_reference
    rows = provenance(pack)
    if card_id:
        rows = [r for r in rows if r.who == card_id]
        if not rows and not any(c.id == card_id for c in pack.cards):
            click.echo(f"error: no card '{card_id}' in {pack.info.id}" + (f"; {h}" if (h := suggest(card_id, [c.id for c in pack.cards])) else ""), err=True)
            sys.exit(ExitCode.USAGE)
    for r in rows:
        value = "" if r.value is None else f" = {printable(str(r.value))}"
        detail = f": {r.detail}" if r.detail else ""
        click.echo(f"{r.who}.{r.what}{value}  {r.status}{detail}  ({location(r.span)})")
    counts: dict[str, dict[str, int]] = {}
    for r in rows:
        if r.value is not None:
            tally = counts.setdefault(r.kind, {"cited": 0, "provisional": 0, "unmarked": 0})
            tally[r.status] += 1
    click.echo("numbers by kind: cited / provisional / unmarked")
    total = {"cited": 0, "provisional": 0, "unmarked": 0}
    for kind, tally in counts.items():
        click.echo(f"  {kind:<14} {tally['cited']:>4} {tally['provisional']:>4} {tally['unmarked']:>4}")
        for k in total:
            total[k] += tally[k]
    click.echo(f"  {'all':<14} {total['cited']:>4} {total['provisional']:>4} {total['unmarked']:>4}")
    used = {cited_reference(r.detail) for r in rows if r.status == "cited"}
    if used:
        click.echo("references:")
        for ref, text, _ in pack.references:
            if ref in used:
                click.echo(f"  {ref}: {printable(text)}")


def _indent(text: str, n: int = 4) -> str:
    return "\n".join(" " * n + line for line in text.rstrip().splitlines())


# ---------------------------------------------------------------- diff, new-pack
@main.command()
@click.argument("pack_a")
@click.argument("pack_b")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def diff(pack_a: str, pack_b: str, fmt: str) -> None:
    """What PACK_B adds, replaces, changes and removes against PACK_A, card by card and rule by rule."""
    from meeple.authoring.diff import diff_packs, render
    a, b = _load(pack_a, generate=False), _load(pack_b, generate=False)
    d = diff_packs(a.pack, b.pack)
    click.echo(json.dumps(d, indent=2, ensure_ascii=False, default=str) if fmt == "json" else render(d))


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
        _folder_failed(err, Path(where) / name)
    except UsageError as err:
        _fail(err, ExitCode.USAGE)
    except MeepleError as err:
        _fail(err, ExitCode.CONTENT_INVALID)
    for f in files:
        click.echo(f"wrote {os.path.relpath(f)}")
    click.echo(f"next: meeple validate {os.path.relpath(Path(where) / name)}; meeple test {os.path.relpath(Path(where) / name / 'tests')}")


def _folder_failed(err: OSError, target: Path) -> None:
    """A new folder that could not be written (nothing of it is left): one line, exit 4
    for a full disk, else 2."""
    from meeple.core.outputs import system_fault
    click.echo(f"error: cannot write {target}: {(err.strerror or str(err)).lower()}; nothing was written", err=True)
    sys.exit(ExitCode.OUTPUT_FAILED if system_fault(err) else ExitCode.USAGE)


@main.command("new-game")
@click.argument("name")
@click.option("--dir", "where", type=click.Path(file_okay=False), default=".", show_default=True, help="where to create the folder")
def new_game_cmd(name: str, where: str) -> None:
    """Create a base game folder NAME: valid and playable, with resources, a card kind, zones, actions, flow, scoring and a scenario."""
    from meeple.authoring.scaffold import new_game
    try:
        files = new_game(name, Path(where))
    except OSError as err:
        _folder_failed(err, Path(where) / name)
    except UsageError as err:
        click.echo(f"error: {err.message}", err=True)
        sys.exit(ExitCode.USAGE)
    folder = os.path.relpath(Path(where) / name)
    for f in files:
        click.echo(f"wrote {os.path.relpath(f)}")
    click.echo(f"next: meeple validate {folder}; meeple test {os.path.join(folder, 'scenarios')}; "
               f"meeple play {folder} --players 2 --bots human,random")


# ---------------------------------------------------------------- schema
@main.command()
@click.argument("kind", required=False)
@click.option("--export", "export_dir", type=click.Path(file_okay=False), default=None, help="write the schemas into this folder")
@click.option("--pack", "pack_spec", default=None, metavar="GAME",
              help="the schemas of this pack's files: cards, rules and scenarios narrowed by its declarations")
def schema(kind: Optional[str], export_dir: Optional[str], pack_spec: Optional[str]) -> None:
    """Print the JSON Schema of a YAML kind (pack, game, rules, cards, scenario) or of
    game logs (log), or all of them; with --pack GAME, the schemas of that pack's files."""
    from meeple.loading.schemas import KINDS, pack_schema, schema as get
    every = KINDS + ("log",)
    if kind and kind not in every:
        click.echo(f"error: no kind '{kind}' (kinds: {', '.join(every)})", err=True)
        sys.exit(ExitCode.USAGE)
    kinds = [kind] if kind else list(every)
    if pack_spec is not None:
        try:
            pack = load_game(pack_spec, generate=False).pack
        except UsageError as err:
            _fail(err, ExitCode.USAGE)
        except MeepleError as err:
            _fail(err, ExitCode.CONTENT_INVALID)
        get = lambda k: pack_schema(pack, k)      # noqa: E731
    if export_dir:
        def export() -> None:
            from meeple.core.outputs import write_text
            Path(export_dir).mkdir(parents=True, exist_ok=True)
            for k in kinds:         # each file whole, or as it was
                write_text(Path(export_dir) / f"{k}.schema.json", json.dumps(get(k), indent=2, ensure_ascii=False) + "\n")
        _write(export_dir, export)
        click.echo(f"wrote {len(kinds)} schema(s) to {export_dir}")
        return
    click.echo(json.dumps(get(kinds[0]) if kind else {k: get(k) for k in kinds}, indent=2, ensure_ascii=False))


# ---------------------------------------------------------------- compile
@main.command("compile")
@click.argument("game_name", metavar="GAME")
@click.option("-o", "--output", type=OutputFile(), default=None, help="write the module to this file (default: print it)")
def compile_cmd(game_name: str, output: Optional[str]) -> None:
    """Print the Python that GAME's rules run as: the module generated for a game, each
    function after a comment naming its rule and YAML file:line (meeple validate generates
    nothing). For reading: its names are bound to the pack's tables as it is compiled, so it
    does not run on its own. Tracebacks (meeple --debug) show its lines as <meeple:ID rules>."""
    source = _load(game_name).pygen.source
    if output is None:
        click.echo(source, nl=False)
        return

    def write() -> None:
        from meeple.core.outputs import write_text
        write_text(output, source)
    _write(output, write)
    click.echo(f"wrote {output}: {source.count(chr(10))} lines, {source.count(chr(10) + 'def ')} functions")      # each after its comment


if __name__ == "__main__":  # pragma: no cover
    main()
