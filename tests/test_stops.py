"""Runs stopped from outside lose nothing (engine/workbench/stops.py): SIGTERM is handled
as Ctrl-C is, a worker process killed under a run stops it cleanly, and a
parent killed outright leaves no half file and silent workers.

The signal tests run the real command (``simulate --workers 2``) in its own
process and signal it once its workers exist and have played a while; each
checks the exit code, the words, that no traceback was printed, and that the
records file is whole (a header and two rows for each of the first N games,
N the count the command printed). A run stopped before its first game is
tried again with a longer wait: the waits bound nothing the test asserts.
The CLI's side of each stop is also checked in-process, deterministically.
"""
from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import meeple.workbench.simulate as simulate_module
from meeple.workbench import stops
from meeple.cli import ExitCode, main

REPO = Path(__file__).resolve().parent.parent
MINIMAL = str(REPO / "tests" / "content" / "valid" / "minimal")
GUARD = 300         # seconds: what a process that never ended would take to fail the test
linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the workers in /proc")


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output, result.output
    return result


# ---------------------------------------------------------------- in-process: the command line's side
def _stop_at(monkeypatch, index: int, stop: BaseException):
    real = simulate_module.run_one

    def run_one(game, cfg, i):
        if i == index:
            raise stops.note(stop)
        return real(game, cfg, i)
    monkeypatch.setattr(simulate_module, "run_one", run_one)


@pytest.mark.parametrize("stop, code, line", [
    (stops.Terminated(), ExitCode.TERMINATED, "terminated: 7 of 20 games finished; the figures are of those only"),
    (stops.WorkerLost(4242, -9), ExitCode.WORKER_LOST,
     "error: a worker process (pid 4242) was killed by SIGKILL (out of memory?); 7 of 20 games finished; "
     "the figures are of those only"),
    (stops.WorkerLost(4242, 1), ExitCode.WORKER_LOST,
     "error: a worker process (pid 4242) exited with status 1; 7 of 20 games finished; the figures are of those only"),
], ids=["SIGTERM", "a worker killed", "a worker exited"])
def test_a_run_stopped_keeps_and_writes_the_games_finished(monkeypatch, tmp_path, stop, code, line):
    _stop_at(monkeypatch, 7, stop)
    records = tmp_path / "r.csv"
    r = invoke("simulate", MINIMAL, "-p", 2, "-n", 20, "--workers", 1, "--records", records)
    assert r.exit_code == code
    assert "interrupted: 7 of 20 games finished (partial figures)\n7 games of" in r.output
    assert r.output.endswith(line + "\n"), r.output
    assert [row["game"] for row in csv.DictReader(records.open())] == [str(g) for g in range(7) for _ in range(2)]


def test_sigterm_before_any_pair_of_games_in_compare(monkeypatch):
    _stop_at(monkeypatch, 0, stops.Terminated())
    r = invoke("compare", MINIMAL, "-p", 2, "-n", 10, "--workers", 1, "--set", "silver.cost=3")
    assert r.exit_code == ExitCode.TERMINATED and r.output == "terminated before any pair of games finished\n"


def test_a_sigterm_while_the_outputs_are_written_waits_for_them():
    with stops.sigterm_stops():
        with pytest.raises(stops.Terminated):
            with stops.deferred():
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):          # the handler runs between bytecodes: it has run by now
                    pass
                written = True
        assert written and isinstance(stops.stopped(), stops.Terminated)
    assert signal.getsignal(signal.SIGTERM) is not stops._on_sigterm        # the handler is the command's only


# ---------------------------------------------------------------- real processes
def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (its workers), from /proc."""
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead and not yet collected, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _simulate(records: Path, *extra) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "meeple", "simulate", MINIMAL, "-p", "2", "-n", "1000000",
                             "--workers", "2", "--records", str(records), *extra],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _workers_then(proc: subprocess.Popen, play: float) -> list[int]:
    """Wait until the run's two workers exist (the pack is loaded), then ``play`` seconds more."""
    for _ in range(GUARD * 20):
        workers = _children(proc.pid)
        if len(workers) >= 2:
            time.sleep(play)
            return workers
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    pytest.fail("the workers never started")


def _stopped_run(tmp_path: Path, hit) -> tuple:
    """Start a long run, ``hit`` it once its workers have played a while (longer
    each try until some game had finished), and return (process, stdout, stderr,
    games finished, records)."""
    for attempt, play in enumerate((1.0, 3.0, 8.0, 30.0)):
        records = tmp_path / f"r{attempt}.csv"
        proc = _simulate(records)
        hit(proc, _workers_then(proc, play))
        out, err = proc.communicate(timeout=GUARD)
        assert "Traceback" not in err, err
        if "before any game finished" not in err:
            games = int(out.split(" of 1000000 games finished")[0].rsplit(" ", 1)[1])
            return proc, out, err, games, records
    pytest.fail("no game finished in 30 seconds of two workers")


def _whole(records: Path, games: int) -> None:
    rows = list(csv.DictReader(records.open()))
    assert [row["game"] for row in rows] == [str(g) for g in range(games) for _ in range(2)]
    assert all(row["cards"] is not None for row in rows)       # every row has all its columns


@linux
def test_sigterm_to_a_run_with_workers_reports_and_writes_the_games_finished(tmp_path):
    proc, out, err, games, records = _stopped_run(tmp_path, lambda p, workers: p.send_signal(signal.SIGTERM))
    assert proc.returncode == ExitCode.TERMINATED
    assert err == f"terminated: {games} of 1000000 games finished; the figures are of those only\n"
    assert out.startswith(f"interrupted: {games} of 1000000 games finished (partial figures)\n{games} games of")
    _whole(records, games)


@linux
def test_a_worker_killed_under_a_run_stops_it_with_the_games_finished(tmp_path):
    killed = []

    def kill_a_worker(proc, workers):
        killed.append(workers[0])
        os.kill(workers[0], signal.SIGKILL)
    proc, out, err, games, records = _stopped_run(tmp_path, kill_a_worker)
    assert proc.returncode == ExitCode.WORKER_LOST
    assert err == (f"error: a worker process (pid {killed[-1]}) was killed by SIGKILL (out of memory?); {games} of 1000000 "
                   "games finished; the figures are of those only\n")
    _whole(records, games)


@linux
def test_a_run_killed_outright_leaves_the_old_file_and_silent_workers(tmp_path):
    records = tmp_path / "r.csv"
    records.write_text("the previous run's records\n")
    proc = _simulate(records)
    workers = _workers_then(proc, 1.0)
    proc.kill()
    out, err = proc.communicate(timeout=GUARD)       # ends when the workers, which share its stderr, are gone
    for _ in range(GUARD * 20):
        if not any(_alive(w) for w in workers):
            break
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers)
    assert proc.returncode == -signal.SIGKILL and err == ""
    assert records.read_text() == "the previous run's records\n"


@linux
def test_sigterm_to_a_game_waiting_for_a_human_exits_143():
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "play", MINIMAL, "-p", "2", "--bots", "human,random",
                             "--seed", "1"], cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    first = proc.stdout.readline()             # the game began
    assert first.startswith("Minimal")
    seen = ""
    while not seen.endswith("your choice: "):  # it waits for the human's choice (click.prompt, which takes
        c = proc.stdout.read(1)                 # a KeyboardInterrupt, as SIGTERM is here, for an abort)
        assert c, seen
        seen += c
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=GUARD)
    assert proc.returncode == ExitCode.TERMINATED and err.endswith("\nterminated\n") and "Traceback" not in err
