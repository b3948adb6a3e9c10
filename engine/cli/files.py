"""The files a command writes: checked before it starts, written whole or not at all.

An output file is refused before the command starts (``OutputFile``), so a
long run or a human's game never ends in an unwritable path; it is then
written whole or not at all (engine/core/outputs.py), and a file system
refusal at the end is one line naming the path, not a crash.
"""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Optional

import click

from meeple.cli.group import ExitCode

if TYPE_CHECKING:
    from meeple.core.outputs import Replacement


class OutputFile(click.ParamType):
    """A file a command will write: refused before the command starts (usage error) when
    its folder is missing, it is a folder, or it cannot be opened for writing (nor a
    file created beside it, where it is written before it is renamed into place)."""

    name = "file"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> Any:
        reason = unwritable(Path(value))
        if reason:
            self.fail(f"cannot write {value!r}: {reason}", param, ctx)
        return value


class ReportFile(OutputFile):
    """An HTML report: writable, and matplotlib must be there to draw it."""

    name = "file.html"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> Any:
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


def distinct(**paths: Optional[str]) -> None:
    """Refuse, before anything runs, two output options naming one file (one would
    overwrite the other): usage error."""
    from meeple.core.outputs import same_file
    named = [(option, path) for option, path in paths.items() if path]
    for i, (a, pa) in enumerate(named):
        for b, pb in named[i + 1:]:
            if same_file(pa, pb):
                click.echo(f"error: --{a} and --{b} both name {pb}; give each its own file", err=True)
                sys.exit(ExitCode.USAGE)


def written(path: str, write: Callable[[], Any]) -> Optional[ExitCode]:
    """Run ``write`` (which writes ``path`` whole or not at all: engine/core/outputs.py);
    None if it worked, else the exit code. A file system refusal is one line naming
    the path, not a crash: exit 4 when the system failed the write (a full disk),
    2 when the path did (a folder removed meanwhile, a file where a folder was)."""
    try:
        write()
    except OSError as err:
        return cannot_write(path, err)
    return None


def write_or_exit(path: str, write: Callable[[], Any]) -> None:
    """``written``, or exit with its code."""
    code = written(path, write)
    if code:
        sys.exit(code)


def cannot_write(path: str, err: OSError) -> ExitCode:
    """Say that ``path`` could not be written (it is as it was); the exit code: 4 when
    the system failed the write (a full disk), 2 when the path did."""
    from meeple.core.outputs import system_fault
    click.echo(f"error: cannot write {path}: {(err.strerror or str(err)).lower()} (the file is as it was)", err=True)
    return ExitCode.OUTPUT_FAILED if system_fault(err) else ExitCode.USAGE


def replacement(path: str) -> Replacement:
    """An ``outputs.Replacement`` for ``path``, or exit as ``cannot_write`` says."""
    from meeple.core.outputs import Replacement
    try:
        return Replacement(path, newline="")
    except OSError as err:
        sys.exit(cannot_write(path, err))


def folder_failed(err: OSError, target: Path) -> NoReturn:
    """A new folder that could not be written (nothing of it is left): one line, exit 4
    for a full disk, else 2."""
    from meeple.core.outputs import system_fault
    click.echo(f"error: cannot write {target}: {(err.strerror or str(err)).lower()}; nothing was written", err=True)
    sys.exit(ExitCode.OUTPUT_FAILED if system_fault(err) else ExitCode.USAGE)
