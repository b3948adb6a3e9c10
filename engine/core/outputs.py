"""Files a command writes and reads, so that a run never leaves half of one.

An output is written whole or not at all: ``replaced(path)`` yields a text file
that is a temporary file beside ``path`` (same folder, so the same file
system) and renames it over ``path`` only once everything is written, flushed
and synced. On any failure (a full disk, an exception, Ctrl-C) the temporary
file is removed and ``path`` keeps what it held before. A process killed
outright (SIGKILL) may leave the temporary file (``.NAME.PID.XXXXXXXX.tmp``),
never a half ``path``.

A target that exists and is not a regular file (``/dev/null``, ``/dev/stdout``,
a named pipe) cannot be renamed over: it is written in place. A pipe nobody
reads is refused at once instead of blocking.

Inputs are read only from regular files (``open_regular``): a named pipe or a
device would block for ever or never end, so it is refused before anything
waits on it.

The standard output is an output too: ``guarded_stdout`` turns a failed write
to it (a full disk, ``> /dev/full``) into ``StdoutFailed``, which the command
line reports in one line, instead of an OSError that looks like a defect.
"""
from __future__ import annotations

import errno
import io
import os
import secrets
import stat
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator, Optional, Union

PathLike = Union[str, Path]


# ---------------------------------------------------------------- outputs
# What the system, not the command line, is at fault for when a write fails: no space,
# a quota, a file too big, a failing disk (the command line gets exit 4, not 2).
_SYSTEM_FAULTS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO") if hasattr(errno, name))


def system_fault(err: OSError) -> bool:
    """Whether a failed write is the system's doing (a full disk), not the path's."""
    return err.errno in _SYSTEM_FAULTS


def _target(path: PathLike) -> Path:
    """The file a write of ``path`` changes: a link's target (the link itself stays a link)."""
    return Path(os.path.realpath(path))


def _is_special(path: Path) -> bool:
    """Whether ``path`` exists and is not a regular file (a device, a pipe, a socket)."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


def _temporary(target: Path) -> tuple[int, Path]:
    """A new file beside ``target``, open for writing, with the permissions ``target``
    has (those of any new file when there is none)."""
    while True:
        tmp = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
    except FileNotFoundError:
        pass
    except OSError:
        os.close(fd)
        os.unlink(tmp)
        raise
    return fd, tmp


def _open_special(target: Path) -> int:
    """A device or pipe, opened for writing without waiting: a pipe without a reader
    is an error (ENXIO) rather than a wait for ever."""
    flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(target, flags)
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "no process reads this pipe", str(target)) from None
        raise
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return fd


class Replacement:
    """A text file being written for ``path``, for an output written over a whole run
    (``--records``, a row a game): ``file`` is the temporary file beside ``path``;
    ``commit`` renames it into place once all is written, flushed and synced;
    ``discard`` removes it, leaving ``path`` as it was (and does nothing after a
    commit). ``replaced`` is the same as a ``with`` block."""

    def __init__(self, path: PathLike, newline: Optional[str] = None, encoding: str = "utf-8"):
        target = _target(path)
        self.target: Path = target
        self.tmp: Optional[Path] = None
        if _is_special(target):
            self.file: IO[str] = open(_open_special(target), "w", newline=newline, encoding=encoding)
            return
        fd, self.tmp = _temporary(target)
        try:
            self.file = open(fd, "w", newline=newline, encoding=encoding)
        except BaseException:
            os.close(fd)
            self.discard()
            raise

    def commit(self) -> None:
        """Put the file in place (OSError when the disk refuses: the temporary file is
        then removed, ``path`` as it was)."""
        f = self.file
        try:
            if self.tmp is not None:
                f.flush()
                os.fsync(f.fileno())        # a full disk may only say so here (delayed allocation)
            f.close()
            if self.tmp is not None:
                os.replace(self.tmp, self.target)
                self.tmp = None
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        """Drop what was written: ``path`` stays as it was."""
        try:
            self.file.close()
        except (OSError, AttributeError):
            pass
        if self.tmp is not None:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = None


@contextmanager
def replaced(path: PathLike, newline: Optional[str] = None, encoding: str = "utf-8") -> Iterator[IO[str]]:
    """A text file to write ``path`` with: renamed into place when the block ends
    normally, removed (``path`` untouched) when it raises. OSError on failure."""
    out = Replacement(path, newline, encoding)
    try:
        yield out.file
    except BaseException:
        out.discard()
        raise
    out.commit()


def write_text(path: PathLike, text: str, newline: Optional[str] = None) -> None:
    """``path`` holds ``text``, whole, or is as it was (see ``replaced``)."""
    with replaced(path, newline=newline) as f:
        f.write(text)


@contextmanager
def new_folder(target: PathLike) -> Iterator[Path]:
    """A folder to fill for ``target`` (which does not exist yet): a temporary folder
    beside it, renamed to ``target`` when the block ends normally, removed with what
    it holds when it raises. The folders above ``target`` are made if missing."""
    import shutil
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    while True:
        tmp = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            os.mkdir(tmp)
            break
        except FileExistsError:
            continue
    try:
        yield tmp
        os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def probe(path: PathLike) -> Optional[str]:
    """Why ``replaced(path)`` would fail to create its temporary file, or None. A
    target that is a device or a pipe needs none."""
    target = _target(path)
    if _is_special(target):
        return None
    try:
        fd, tmp = _temporary(target)
    except OSError as err:
        return f"cannot create a file in the folder {str(target.parent)!r}: {(err.strerror or type(err).__name__).lower()}"
    os.close(fd)
    os.unlink(tmp)
    return None


def same_file(a: PathLike, b: PathLike) -> bool:
    """Whether two output paths name one file (spelt differently, or through a link)."""
    if _target(a) == _target(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


# ---------------------------------------------------------------- inputs
class NotRegular(OSError):
    """An input that is not a regular file: a named pipe, a device, a socket."""


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def not_regular(path: PathLike) -> Optional[str]:
    """What ``path`` is when it is not a regular file ('a named pipe', 'a device'), or
    None (a regular file, or nothing there: opening it says why)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _kind(mode)


def open_regular(path: PathLike) -> IO[bytes]:
    """``path`` opened for reading in binary, if it is a regular file; NotRegular
    otherwise, decided without waiting (a pipe is opened non-blocking, then refused)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(errno.EINVAL, f"it is {_kind(mode)}, not a regular file", str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return open(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


# ---------------------------------------------------------------- the standard output
class StdoutFailed(Exception):
    """Writing the standard output failed (not a closed pipe: that is BrokenPipeError)."""

    def __init__(self, err: OSError):
        super().__init__((err.strerror or str(err)).lower())
        self.error = err


class _GuardedRaw(io.FileIO):
    """File descriptor 1, whose write failures are StdoutFailed."""

    def write(self, data) -> int:
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise StdoutFailed(err) from None


@contextmanager
def guarded_stdout() -> Iterator[None]:
    """While the block runs, ``sys.stdout`` (when it is file descriptor 1) raises
    StdoutFailed where a write fails. A stream that is not fd 1 (a test's capture)
    is left as it is."""
    real = sys.stdout
    try:
        fd = real.fileno() if real is not None else -1
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        fd = -1
    if fd != 1:
        yield
        return
    real.flush()
    raw = _GuardedRaw(1, "w", closefd=False)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=real.encoding, errors=real.errors,
                                  line_buffering=bool(real.line_buffering))
    try:
        yield
    finally:
        guarded, sys.stdout = sys.stdout, real
        try:
            guarded.flush()
        except (OSError, StdoutFailed, ValueError):
            silence_stdout()        # what is left goes nowhere, and collecting the stream says nothing
            try:
                guarded.flush()
            except (OSError, StdoutFailed, ValueError):
                pass


def silence_stdout() -> None:
    """Point the standard output's file descriptor at the null device, so that what is
    still buffered for a standard output that failed (or whose reader left) goes
    nowhere at exit, quietly. A stream without a descriptor (a test's) is left alone."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        pass
