"""How a run stops early from outside, and keeps the games it finished.

Ctrl-C raises KeyboardInterrupt in the main thread, and every run catches it
and keeps the games finished so far. SIGTERM (``kill``, ``timeout``, a service
manager stopping meeple) is made the same: while a command runs
(``sigterm_stops``), it raises ``Terminated``, a KeyboardInterrupt, once; a
SIGTERM that follows while meeple is stopping is noted and ignored. A worker
process that dies under a run (killed, out of memory) stops the run the same
way: ``WorkerLost``. Which of them stopped the run is ``stopped()``, for the
exit code; a plain Ctrl-C notes nothing.

Workers are silent whatever happens: they ignore SIGINT (the parent stops
them), die at once on SIGTERM (which is how the parent's pool stops them), die
quietly of SIGPIPE when the parent is gone (instead of a BrokenPipeError
traceback), and on Linux are sent SIGTERM when their parent dies, even by
SIGKILL (``worker_signals``); elsewhere an idle worker of a parent killed
outright is left waiting.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator, Optional


class Stopped(KeyboardInterrupt):
    """A run stopped from outside before its end (a KeyboardInterrupt, so runs keep
    the games finished, as on Ctrl-C)."""

    word = "interrupted"

    def __str__(self) -> str:
        return self.word


class Terminated(Stopped):
    """SIGTERM, while a command ran."""

    word = "terminated"


class WorkerLost(Stopped):
    """A worker process of a run died (killed, or out of memory): the games it was
    playing are lost, and the run stops at the first of them."""

    word = "stopped"

    def __init__(self, pid: Optional[int], exitcode: int):
        super().__init__(pid, exitcode)
        self.pid, self.exitcode = pid, exitcode

    def __str__(self) -> str:
        who = "a worker process" + (f" (pid {self.pid})" if self.pid is not None else "")
        if self.exitcode < 0:
            try:
                name = signal.Signals(-self.exitcode).name
            except ValueError:
                name = f"signal {-self.exitcode}"
            why = " (out of memory?)" if name == "SIGKILL" else ""
            return f"{who} was killed by {name}{why}"
        return f"{who} exited with status {self.exitcode}"


_state = {"stopped": None, "raised": False, "defer": 0, "pending": False}


def stopped() -> Optional[Stopped]:
    """What stopped the current command's run: Terminated, WorkerLost, or None
    (it ran to its end, or Ctrl-C stopped it)."""
    return _state["stopped"]


def note(stop: Stopped) -> Stopped:
    """Record ``stop`` as what stopped the run, and return it (to raise)."""
    _state["stopped"] = stop
    return stop


def _on_sigterm(signum, frame) -> None:
    if _state["raised"] or _state["defer"]:
        _state["pending"] = True
        return
    _state["raised"] = True
    raise note(Terminated())


@contextmanager
def sigterm_stops() -> Iterator[None]:
    """While the block runs, SIGTERM raises Terminated in the main thread (once).
    Elsewhere than the main thread, where no handler can be set, nothing changes."""
    _state.update(stopped=None, raised=False, defer=0, pending=False)
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def deferred() -> Iterator[None]:
    """A SIGTERM during the block (the outputs of a run being written) takes effect
    when the block has ended, so what it writes is written whole."""
    _state["defer"] += 1
    try:
        yield
    finally:
        _state["defer"] -= 1
    if not _state["defer"] and _state["pending"] and not _state["raised"]:
        _state.update(pending=False, raised=True)
        raise note(Terminated())


# ---------------------------------------------------------------- worker processes
_PARENT: dict = {}


@contextmanager
def starting_workers() -> Iterator[None]:
    """Around the creation of a pool of worker processes: forked workers begin with
    SIGINT ignored and SIGTERM held, until ``worker_signals`` sets theirs (a SIGTERM
    then would run the parent's handler in the worker). The parent's own are as
    before once the block ends; a SIGTERM held meanwhile is handled then."""
    _PARENT["pid"] = os.getpid()
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}) if hasattr(signal, "pthread_sigmask") else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def worker_signals() -> None:
    """In a worker process, first thing: silent whatever happens to it or its parent."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    _die_with_parent()
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})


_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """On Linux, have the kernel send this worker SIGTERM when its parent dies (a
    parent killed outright cannot stop its workers itself). Elsewhere, a worker
    whose parent is gone ends, silently, only when it sends its next result
    (SIGPIPE); one waiting for a batch waits on."""
    parent = _PARENT.get("pid")        # set in a forked worker; a spawned one does without
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) != 0:
            return
    except (OSError, AttributeError):
        return
    if parent is not None and os.getppid() != parent:       # the parent died before the line above
        os._exit(0)
