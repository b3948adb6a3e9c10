"""Outputs written whole or not at all, inputs that are regular files, and a
standard output that fails (engine/core/outputs.py and where the command line uses it).

A file a command writes is a temporary file beside it until everything is
written, then renamed into place: a fault at any step (a full disk at a write,
at the sync, at the rename; Ctrl-C) leaves the path as it was and no temporary
file. Faults are injected (an OSError(ENOSPC) where the system would raise it);
a full standard output is the real /dev/full, in a subprocess. Pipes and
devices given as inputs are refused without waiting: the subprocess timeouts
here are guards, never what a test measures.
"""
from __future__ import annotations

import csv
import errno
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import arguments
import meeple.core.outputs as outputs
from meeple.cli import ExitCode, main
from meeple.core.outputs import NotRegular, open_regular, replaced, write_text

REPO = Path(__file__).resolve().parent.parent
MINIMAL = str(REPO / "tests" / "content" / "valid" / "minimal")
GUARD = 300         # seconds: a subprocess that would block for ever fails the test instead of hanging it
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output, result.output
    return result


def meeple(*args, **kwargs) -> subprocess.CompletedProcess:
    """The real command, in its own process (stdout and stderr captured unless given)."""
    kwargs.setdefault("capture_output", not ({"stdout", "stderr"} & set(kwargs)))
    return subprocess.run([sys.executable, "-m", "meeple", *map(str, args)], cwd=REPO, text=True, timeout=GUARD, **kwargs)


def leftovers(folder: Path) -> list[str]:
    """Temporary files (or folders) of outputs left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp"))


# ---------------------------------------------------------------- replaced(): whole or as it was
def test_a_written_file_is_renamed_into_place_with_the_usual_permissions(tmp_path):
    target = tmp_path / "out.txt"
    write_text(target, "new\n")
    assert target.read_text() == "new\n" and leftovers(tmp_path) == []
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def _fail_on(monkeypatch, name: str):
    """Writing fails as on a full disk: at a write of the text (``write``), or at
    os.fsync or os.replace."""
    if name == "write":
        monkeypatch.setattr(outputs, "open", _full_open, raising=False)     # the module's own open, for its files
        return

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, name, full)


def _full_open(file, mode="r", *args, **kwargs):
    f = open(file, mode, *args, **kwargs)
    return _FullFile(f) if "w" in mode else f


class _FullFile:
    """A text file open for writing whose every write fails as on a full disk."""

    def __init__(self, f):
        self.f = f

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()

    def write(self, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.f, name)


FAULTS = ["write", "fsync", "replace"]


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("before", ["an old file", "no file"])
def test_a_full_disk_leaves_the_path_as_it_was_and_no_temporary_file(tmp_path, monkeypatch, fault, before):
    target = tmp_path / "records.csv"
    if before == "an old file":
        target.write_text("old\n")
    _fail_on(monkeypatch, fault)
    with pytest.raises(OSError) as info:
        write_text(target, "new\n" * 1000)
    monkeypatch.undo()
    assert info.value.errno == errno.ENOSPC
    assert (target.read_text() if target.exists() else None) == ("old\n" if before == "an old file" else None)
    assert leftovers(tmp_path) == []


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    target = tmp_path / "private.csv"
    target.write_text("old")
    target.chmod(0o600)
    write_text(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o600


def test_an_exception_in_the_block_keeps_the_old_file(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt):
        with replaced(target) as f:
            f.write("half")
            raise KeyboardInterrupt
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old")
    link.symlink_to(real.name)
    write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_device_is_written_in_place(tmp_path):
    write_text(os.devnull, "nothing")       # not renamed over: /dev/null is still a device
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


@needs_fifo
def test_a_pipe_nobody_reads_is_refused_at_once_and_one_read_gets_the_text(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(OSError) as info:
        write_text(pipe, "x")
    assert info.value.errno == errno.ENXIO and "no process reads this pipe" in str(info.value)
    got = []
    reader = threading.Thread(target=lambda: got.append(Path(pipe).read_text()))
    reader.start()
    for _ in range(200):          # the reader opens its end; then the write goes through
        try:
            write_text(pipe, "through the pipe")
            break
        except OSError as err:
            assert err.errno == errno.ENXIO
            threading.Event().wait(0.01)
    reader.join(GUARD)
    assert got == ["through the pipe"]


# ---------------------------------------------------------------- the commands' files
def test_records_that_cannot_be_written_keep_the_old_file_and_exit_4(tmp_path, monkeypatch):
    records, report = tmp_path / "r.csv", tmp_path / "r.html"
    records.write_text("the previous run's records\n")
    _fail_on(monkeypatch, "fsync")
    r = invoke("simulate", MINIMAL, "-p", 2, "-n", 5, "--workers", 1, "--records", records, "--report", report)
    monkeypatch.undo()
    assert r.exit_code == ExitCode.OUTPUT_FAILED
    assert f"error: cannot write {records}: no space left on device (the file is as it was)" in r.output
    assert f"error: cannot write {report}: no space left on device" in r.output     # each output is tried
    assert f"5 games of {MINIMAL} with 2 players" in r.output           # the figures are printed all the same
    assert records.read_text() == "the previous run's records\n" and not report.exists()
    assert leftovers(tmp_path) == []


def test_a_log_that_cannot_be_written_keeps_the_old_one(tmp_path, monkeypatch):
    log = tmp_path / "game.json"
    log.write_text("{}")
    _fail_on(monkeypatch, "write")
    r = invoke("play", MINIMAL, "-p", 2, "--bots", "random", "--quiet", "--seed", 3, "--log", log)
    monkeypatch.undo()
    assert r.exit_code == ExitCode.OUTPUT_FAILED and f"cannot write {log}: no space left on device" in r.output
    assert log.read_text() == "{}" and leftovers(tmp_path) == []


@pytest.mark.parametrize("second", ["same", "./same", "link"])
def test_two_options_naming_one_file_are_refused_before_anything_runs(tmp_path, monkeypatch, second):
    first = tmp_path / "same"
    (tmp_path / "link").symlink_to("same")
    other = tmp_path / "link" if second == "link" else str(tmp_path) + "/" + second
    monkeypatch.setattr(arguments, "load", lambda *a, **k: pytest.fail("the pack was loaded"))
    r = invoke("simulate", MINIMAL, "-p", 2, "--records", first, "--report", other)
    assert r.exit_code == ExitCode.USAGE
    assert r.output == f"error: --records and --report both name {other}; give each its own file\n"
    assert not first.exists()


def test_a_new_game_folder_is_whole_or_not_there(tmp_path, monkeypatch):
    real = Path.write_text
    count = []

    def full_at_the_third(self, *a, **k):
        count.append(self)
        if len(count) == 3:
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, *a, **k)
    monkeypatch.setattr(Path, "write_text", full_at_the_third)
    r = invoke("new-game", "dice", "--dir", tmp_path)
    monkeypatch.undo()
    assert r.exit_code == ExitCode.OUTPUT_FAILED
    assert r.output == f"error: cannot write {tmp_path / 'dice'}: no space left on device; nothing was written\n"
    assert list(tmp_path.iterdir()) == []
    r = invoke("new-game", "dice", "--dir", tmp_path)
    assert r.exit_code == 0 and (tmp_path / "dice" / "game.yaml").is_file() and leftovers(tmp_path) == []


# ---------------------------------------------------------------- inputs that are not regular files
def test_open_regular_refuses_devices_and_folders(tmp_path):
    (tmp_path / "f").write_bytes(b"data")
    with open_regular(tmp_path / "f") as f:
        assert f.read() == b"data"
    for path, kind in ((os.devnull, "a device"), (tmp_path, "a folder")):
        with pytest.raises(NotRegular, match=f"it is {kind}, not a regular file"):
            open_regular(path)


@needs_fifo
@pytest.mark.parametrize("command, name, message", [
    (("replay", "{path}"), "game.json", "error: cannot read {path}: it is a named pipe, not a regular file"),
    (("test", "{path}"), "s.yaml", "FAIL {path}: (file): cannot read the file (it is a named pipe, not a regular file)"),
    # a pack's files are named as the loader shows them: relative to the working folder
    (("validate", "{folder}"), "pack/extra.yaml", "{shown}: error: this file is a named pipe, not a regular file; it is not read"),
])
def test_a_named_pipe_as_an_input_is_refused_without_waiting(tmp_path, command, name, message):
    folder = tmp_path / "pack"
    if name.startswith("pack/"):
        import shutil
        shutil.copytree(MINIMAL, folder)
    path = tmp_path / name
    os.mkfifo(path)
    args = [a.format(path=path, folder=folder) for a in command]
    proc = meeple(*args)          # nobody ever writes the pipe: a read would wait for ever
    assert proc.returncode in (ExitCode.CONTENT_INVALID, ExitCode.USAGE), proc.stderr
    assert message.format(path=path, shown=os.path.relpath(path, REPO)) in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------- the standard output
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("validate", "citadels"), ("--help",),
                                  ("play", MINIMAL, "-p", 2, "--bots", "random", "--seed", 1)])
def test_a_full_standard_output_is_one_line_and_exit_4(args):
    with open("/dev/full", "w") as full:
        proc = meeple(*args, stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == ExitCode.OUTPUT_FAILED
    assert proc.stderr == "error: cannot write the standard output: no space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_standard_output_still_writes_the_records(tmp_path):
    records = tmp_path / "r.csv"
    with open("/dev/full", "w") as full:
        proc = meeple("simulate", MINIMAL, "-p", 2, "-n", 6, "--workers", 1, "--records", records,
                      stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == ExitCode.OUTPUT_FAILED, proc.stderr
    assert proc.stderr == "error: cannot write the standard output: no space left on device\n"
    assert len(list(csv.DictReader(records.open()))) == 6 * 2


def test_a_closed_standard_output_is_refused():
    proc = subprocess.run(["sh", "-c", 'exec "$0" -m meeple validate citadels >&-', sys.executable], cwd=REPO,
                          stderr=subprocess.PIPE, text=True, timeout=GUARD)
    assert proc.returncode == ExitCode.OUTPUT_FAILED
    assert proc.stderr == "error: the standard output is closed; give the command somewhere to print (> FILE)\n"


def test_the_documents_list_every_exit_code():
    """docs/commands.md's table of exit codes is the ExitCode enum, number for number."""
    import re
    import doctext
    listed = doctext.section("docs/commands.md", "Exit codes")
    numbers = {int(n) for n in re.findall(r"^\| (\d+) \|", listed, re.M)}
    assert numbers == {int(c) for c in ExitCode}, listed
