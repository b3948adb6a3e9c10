"""The ``meeple`` command group and its exit codes.

Exit codes are a documented IntEnum and never renumbered. The group owns
them: whatever a command lets escape ends here (``Main.invoke``), a meeple
error with its code (1, or 2 for usage), Ctrl-C with 130, SIGTERM with 143
(engine/workbench/stops.py), a standard output that fails with 4, and
anything else as one line and exit 3 (``meeple --debug`` shows the
traceback). The helpers below print an error the way every command does and
exit with its code, so a command never renders an error of its own.
"""
from __future__ import annotations

import sys
import traceback
from enum import IntEnum
from typing import Any, NoReturn, Optional

import click

from meeple import __version__
from meeple.core.errors import MeepleError, PackInvalid, UsageError, render


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


def fail(err: MeepleError, code: ExitCode) -> NoReturn:
    """Each error located (all of a pack's), then, for a run, which game stopped it; exit ``code``."""
    for e in (err.problems.errors if isinstance(err, PackInvalid) else [err]):
        click.echo(render(e), err=True)
    from meeple.workbench.simulate import stopped_game
    note = stopped_game(err)       # simulate, compare: which game stopped the run, and its seed
    if note:
        click.echo(note, err=True)
    sys.exit(code)


def pack_invalid(err: PackInvalid) -> NoReturn:
    """A pack a command named that does not load: its errors, a count, exit 1."""
    for e in err.problems.errors:
        click.echo(render(e), err=True)
    click.echo(f"{len(err.problems.errors)} error(s): the pack is invalid (run 'meeple validate' for details)", err=True)
    sys.exit(ExitCode.CONTENT_INVALID)


def usage(err: MeepleError) -> NoReturn:
    """A usage error: its message and hint on one line, exit 2."""
    click.echo(f"error: {err.message}" + (f"; {err.hint}" if err.hint else ""), err=True)
    sys.exit(ExitCode.USAGE)


def stop_code(stop: Optional[BaseException]) -> ExitCode:
    """The exit code of a run stopped early: Ctrl-C, SIGTERM or a worker lost."""
    from meeple.workbench.stops import Terminated, WorkerLost
    if isinstance(stop, Terminated):
        return ExitCode.TERMINATED
    if isinstance(stop, WorkerLost):
        return ExitCode.WORKER_LOST
    return ExitCode.INTERRUPTED


def stdout_failed(err: Exception) -> NoReturn:
    """A full disk (or ``> /dev/full``) under the standard output: the input is fine,
    the output is lost; one line, exit 4, and nothing more tried on the output."""
    from meeple.core.outputs import silence_stdout
    silence_stdout()
    click.echo(f"error: cannot write the standard output: {err}", err=True)
    sys.exit(ExitCode.OUTPUT_FAILED)


class Main(click.Group):
    """The command group, where every exception a command lets escape gets its exit code."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
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
                stdout_failed(err)

    def invoke(self, ctx: click.Context) -> Any:
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
            sys.exit(stop_code(err))
        except BrokenPipeError:
            # the reader went away (``meeple cards x | head``): not a defect; stop quietly, as Unix tools do
            silence_stdout()
            sys.exit(ExitCode.BROKEN_PIPE)
        except StdoutFailed as err:
            stdout_failed(err)
        except PackInvalid as err:
            pack_invalid(err)
        except UsageError as err:
            usage(err)
        except MeepleError as err:
            fail(err, ExitCode.CONTENT_INVALID)
        except Exception as err:     # a defect of meeple's, not of the input: say so in one line
            _internal_error(err, bool(ctx.params.get("debug")))


def _internal_error(err: Exception, debug: bool) -> NoReturn:
    """A defect of meeple's: its type and first line (the traceback with --debug), exit 3."""
    if debug:
        traceback.print_exc()
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    text = text if len(text) <= 200 else text[:197] + "..."
    click.echo(f"internal error: {type(err).__name__}" + (f": {text}" if text else "")
               + ("" if debug else " (run 'meeple --debug ...' to see the traceback)"), err=True)
    sys.exit(ExitCode.INTERNAL)


@click.group(cls=Main)
@click.version_option(__version__, prog_name="meeple")
@click.option("--debug", is_flag=True, envvar="MEEPLE_DEBUG", help="on an internal error (exit 3), show the traceback")
def main(debug: bool) -> None:
    """meeple: a rules-as-data engine for board games."""
