"""The command line under faults: broken and tampered logs, unwritable outputs,
counts out of range, Ctrl-C, and exceptions nobody expected.

Every case asserts the exit code and the words a person sees (the path or
field, and the reason), and that no Python traceback reaches them.
"""
from __future__ import annotations

import copy
import functools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import arguments
import meeple.runtime.logs as logs
import meeple.workbench.simulate as simulate_module
from meeple.cli import ExitCode, main
from meeple.core.errors import RuleError, Span, UsageError
from work import counted

REPO = Path(__file__).resolve().parent.parent
MINIMAL = str(REPO / "tests" / "content" / "valid" / "minimal")
GUARD = 300          # seconds: only a process that never ends meets it (never a measure of speed)


def invoke(*args, **kwargs):
    result = CliRunner().invoke(main, [str(a) for a in args], **kwargs)
    # whatever happens, the CLI ends by exiting: never an exception out of it
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output, result.output
    return result


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    """A real log of a small game (the minimal pack, 2 players), as data."""
    path = tmp_path_factory.mktemp("log") / "game.json"
    r = invoke("play", MINIMAL, "-p", 2, "--seed", 11, "--bots", "random", "--quiet", "--log", path)
    assert r.exit_code == 0, r.output
    log = json.loads(path.read_text())
    assert log["state_sha256"] and len(log["choices"]) >= 5
    return log


def _replay(tmp_path, content) -> tuple:
    """Replay a (changed) log of the minimal pack, a folder: named with --pack, as a
    log naming a folder needs."""
    path = tmp_path / "game.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path, invoke("replay", path, "--pack", MINIMAL)


# ---------------------------------------------------------------- broken logs
def _without(key):
    return lambda log: {k: v for k, v in log.items() if k != key}


def _with(key, value):
    return lambda log: dict(log, **{key: value})


def _choice(n, value):
    def change(log):
        log = copy.deepcopy(log)
        log["choices"][n] = value
        return log
    return change


def _on_text(change):
    """A change of the log's text rather than of its data."""
    change.on_text = True
    return change


def _text(old, new):
    return _on_text(lambda text: text.replace(old, new, 1))


BROKEN = {   # name: (a change of the log's data, or of its text; what the message says)
    "top level is a list": (lambda log: [log], "the top level: expected an object ({...}), found a list of 1"),
    "top level is a number": (lambda log: 3, "the top level: expected an object ({...}), found the number 3"),
    "pack missing": (_without("pack"), "/pack: missing"),
    "scores missing": (_without("scores"), "/scores: missing"),
    "options missing": (_without("options"), "/options: missing"),
    "pack a number": (_with("pack", 5), "/pack: expected a text, found the number 5"),
    "pack empty": (_with("pack", ""), "/pack: must not be empty"),
    "seed missing": (_without("seed"), "/seed: missing"),
    "seed a text": (_with("seed", "11"), "/seed: expected a whole number, found the text '11'"),
    "seed a fraction": (_text('"seed": 11', '"seed": 11.5'), "/seed: expected a whole number, found the number 11.5 (a fraction)"),
    "seed written as a fraction": (_text('"seed": 11', '"seed": 11.0'), "/seed: expected a whole number, found the number 11.0"),
    "seed beyond 64 bits": (_with("seed", 2 ** 64), "/seed: must be at most 18446744073709551615, found 18446744073709551616"),
    "seed of 22 digits": (_with("seed", 2 ** 70), "a number of 22 digits (at most 20)"),
    "seed of 5000 digits": (_text('"seed": 11', '"seed": 1' + "0" * 4999), "a number of 5000 digits (at most 20)"),
    "players missing": (_without("players"), "/players: missing"),
    "players a text": (_with("players", "2"), "/players: expected a whole number, found the text '2'"),
    "players zero": (_with("players", 0), "/players: must be at least 1, found 0"),
    "players beyond the game": (_with("players", 9), "/players: minimal is for 2-3 players, not 9"),
    "players true": (_with("players", True), "/players: expected a whole number, found true"),
    "choices missing": (_without("choices"), "/choices: missing"),
    "choices an object": (_with("choices", {}), "/choices: expected a list ([...]), found an object"),
    "a choice too short": (_choice(2, [0, 1]), "/choices/2: a choice is [player, option index, option key], found a list of 2"),
    "a choice too long": (_choice(2, [0, 1, "pass", 4]), "/choices/2: a choice is [player, option index, option key], found a list of 4"),
    "a choice a text": (_choice(3, "pass"), "/choices/3: expected a list ([...]), found the text 'pass'"),
    "an index a text": (_choice(1, [1, "0", "pass"]), "/choices/1/1: expected a whole number, found the text '0'"),
    "an index negative": (_choice(1, [1, -1, "pass"]), "/choices/1/1: must be at least 0, found -1"),
    "a player negative": (_choice(0, [-1, 0, "pass"]), "/choices/0/0: must be at least 0, found -1"),
    "a key a number": (_choice(4, [0, 0, 7]), "/choices/4/2: expected a text, found the number 7"),
    "a key null": (_choice(4, [0, 0, None]), "/choices/4/2: expected a text, found null"),
    "options a list": (_with("options", []), "/options: expected an object ({...}), found a list of 0"),
    "options unknown": (_with("options", {"nope": "1"}), "/options: minimal has no option 'nope'"),
    "options nested": (_with("options", {"a": [[[[[[[[[[1]]]]]]]]]]}), "/options/a/0/0/0/0/0/0: nested more than 8 deep (a log is 3 deep)"),
    "format 2": (_with("meeple_log", 2), "/meeple_log: must be 1 (this meeple reads log format 1), found the number 2"),
    "format missing": (_without("meeple_log"), "/meeple_log: missing"),
    "an unknown field": (_with("sede", 3), "/sede: not a field of a log; did you mean 'seed'?"),
    "scores a text": (_with("scores", "5,6"), "/scores: expected a list ([...]), found the text '5,6'"),
    "digest not hex": (_with("state_sha256", "xyz"), "/state_sha256: must be 64 lower-case hexadecimal digits"),
    "NaN": (_text('"seed": 11', '"seed": NaN'), "NaN is not a number a log may hold (no NaN or Infinity)"),
    "Infinity": (_text('"seed": 11', '"seed": -Infinity'), "-Infinity is not a number a log may hold"),
    "a huge exponent": (_text('"seed": 11', '"seed": 1e400'), "/seed: expected a whole number, found the number 1E+400"),
    "a duplicate key": (_text('"seed": 11', '"seed": 11, "seed": 12'), "the key 'seed' appears twice in one object"),
    "100k deep": (_on_text(lambda text: "[" * 100_000 + "]" * 100_000), "brackets nested too deeply"),
    "truncated": (_on_text(lambda text: text[: len(text) // 2]), "not JSON: "),
    "empty file": (_on_text(lambda text: ""), "not JSON: Expecting value"),
    "not UTF-8": (_on_text(lambda text: text.encode("utf-8").replace(b"minimal", b"minim\xe4l", 1)), "not UTF-8 text"),
}


# What refusing a broken log may cost, in function calls (tests/work.py): the most today is
# 12,819 (the log read, checked and, for a bad choice, replayed to it); walking 100,000
# brackets level by level, or a 5,000-digit number digit by digit, would make far more.
BROKEN_LOG_CALLS = 100_000


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_log_exits_1_naming_the_field_and_the_reason(played, tmp_path, name):
    change, message = BROKEN[name]
    content = change(json.dumps(played, indent=1)) if getattr(change, "on_text", False) else change(copy.deepcopy(played))
    with counted() as work:
        path, r = _replay(tmp_path, content)
    assert r.exit_code == ExitCode.CONTENT_INVALID, r.output
    assert str(path) in r.output and "invalid log: " in r.output and message in r.output, r.output
    assert work.calls < BROKEN_LOG_CALLS, work


def test_a_json_syntax_error_is_located(played, tmp_path):
    text = json.dumps(played, indent=1).replace('"seed": 11,', '"seed": 11', 1)
    path, r = _replay(tmp_path, text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if '"seed"' in t) + 1
    assert r.exit_code == 1 and f"{path}:{line}:" in r.output and "not JSON: Expecting ',' delimiter" in r.output


def test_every_problem_of_a_log_is_reported_at_once(played, tmp_path):
    log = dict(played, seed="x", players=0)
    log["choices"] = [[0, "a", "k"]] + played["choices"]
    path, r = _replay(tmp_path, log)
    assert r.exit_code == 1
    for message in ("/choices/0/1: expected a whole number", "/players: must be at least 1", "/seed: expected a whole number"):
        assert message in r.output


def test_a_log_over_the_size_limit_is_refused_unread(played, tmp_path, monkeypatch):
    monkeypatch.setattr(logs, "MAX_LOG_BYTES", 100)
    path, r = _replay(tmp_path, played)
    assert r.exit_code == 1 and f"{path}: error: invalid log: the file is larger than the limit of 100 bytes for a log" in r.output
    assert logs._bytes(16 * 1024 * 1024) == "16 MiB"


def test_a_big_log_is_checked_without_walking_its_valid_choices(played, monkeypatch):
    """The choices' quick check: of 200,000 valid choices (7 MB), jsonschema (some 25,000
    choices a second) walks none; counted, not timed."""
    text = json.dumps(dict(played, choices=played["choices"] * (200_000 // len(played["choices"]))))
    walked = []
    real = logs._schema_errors
    monkeypatch.setattr(logs, "_schema_errors", lambda seen, *a: walked.append(len(seen["choices"])) or real(seen, *a))
    assert len(logs.parse_log(text)["choices"]) >= 199_000
    assert walked == [0]


@pytest.mark.parametrize("name, change, message", [
    ("a key changed", _choice(3, None), "replay diverged: choice 4: option"),
    ("scores changed", lambda log: dict(log, scores=[s + 1 for s in log["scores"]]), "replay diverged: final scores differ"),
    ("rounds changed", lambda log: dict(log, rounds=log["rounds"] + 1), "replay diverged: rounds played differ"),
    ("ranking changed", lambda log: dict(log, ranking=log["ranking"][::-1]), "replay diverged: ranking differ"),
    ("digest changed", lambda log: dict(log, state_sha256="0" * 64), "replay diverged: the final state differs from the logged one"),
    ("a choice dropped", lambda log: dict(log, choices=log["choices"][:-1]), "but the game goes on"),
    ("a choice added", lambda log: dict(log, choices=log["choices"] + [log["choices"][-1]]), "the game ended before this choice"),
    ("a seat changed", lambda log: dict(log, choices=[[1 - log["choices"][0][0]] + log["choices"][0][1:]] + log["choices"][1:]),
     "replay diverged: choice 1: the log has P"),
])
def test_a_well_formed_log_of_another_game_diverges(played, tmp_path, name, change, message):
    log = copy.deepcopy(played)
    if name == "a key changed":
        log["choices"][3] = log["choices"][3][:2] + ["no-such-key"]
    else:
        log = change(log)
    path, r = _replay(tmp_path, log)
    assert r.exit_code == ExitCode.CONTENT_INVALID and message in r.output, r.output


def test_replay_against_another_pack_is_allowed_by_pack(played, tmp_path):
    path, r = _replay(tmp_path, dict(played, pack_version="0.0", pack_id="other"))
    assert r.exit_code == 0 and "identical" in r.output, r.output


@pytest.fixture(scope="module")
def shipped_log(tmp_path_factory) -> Path:
    """A log of a shipped pack (Citadels, 3 players), which replays without --pack."""
    path = tmp_path_factory.mktemp("shipped") / "game.json"
    r = invoke("play", REPO / "content" / "citadels", "-p", 3, "--seed", 5, "--bots", "random", "--quiet", "--log", path)
    assert r.exit_code == 0, r.output
    assert json.loads(path.read_text())["pack"] == "citadels"      # named by its id, though played by its folder
    return path


def test_a_log_of_another_version_of_a_shipped_pack_diverges(shipped_log, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(json.loads(shipped_log.read_text()), pack_version="0.0")))
    r = invoke("replay", path)
    assert r.exit_code == ExitCode.CONTENT_INVALID
    assert ("replay diverged: the log was made with citadels 0.0, this is citadels 1.0.0; replay against another pack "
            "with --pack PACK") in r.output, r.output
    assert invoke("replay", shipped_log).exit_code == 0


@pytest.mark.parametrize("pack, hint", [(MINIMAL, ""), ("no-such-pack", ""), ("citadls", "; did you mean 'citadels'?"),
                                        ("citadels+" + MINIMAL, "")])
def test_replay_loads_only_a_shipped_pack_that_a_log_names(played, tmp_path, monkeypatch, pack, hint):
    """A log is data from anywhere: a folder it names is neither loaded nor set up
    unless the user names it with --pack."""
    loaded = []
    real = arguments.load_game
    monkeypatch.setattr(arguments, "load_game", lambda *a, **k: loaded.append(a) or real(*a, **k))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(dict(played, pack=pack)))
    r = invoke("replay", path)
    other = pack.split("+")[-1]
    assert r.exit_code == ExitCode.USAGE, r.output
    assert r.output == (f"{path}: error: the log names the pack {other!r}, not a shipped one (citadels, citadels-2016, "
                        f"citadels-dark-city, signorie, troyes); replay loads another pack only when you name it: "
                        f"--pack PACK{hint}\n")
    assert not loaded
    assert invoke("replay", path, "--pack", MINIMAL).exit_code == 0      # named by the user, the pack is run


def test_the_log_schema_is_printed_and_exported(tmp_path):
    r = invoke("schema", "log")
    assert r.exit_code == 0 and json.loads(r.output)["$id"].endswith("log.schema.json")
    r = invoke("schema", "--export", tmp_path / "s")
    assert r.exit_code == 0 and (tmp_path / "s" / "log.schema.json").is_file()
    r = invoke("schema", "--export", tmp_path / "s" / "log.schema.json" / "more")
    assert r.exit_code == ExitCode.USAGE and f"error: cannot write {tmp_path / 's' / 'log.schema.json' / 'more'}: not a directory" in r.output


# ---------------------------------------------------------------- tampered logs: a seeded corpus
TAMPERED = int(os.environ.get("MEEPLE_LOG_FUZZ", "220"))     # the brief run's mutations (MEEPLE_LOG_FUZZ=N: N)
SOAK = 2000                                                  # the soak run's (slow, MEEPLE_SLOW=1)


def _mutations(log: dict, rng: random.Random, count: int = 220):
    """(what, the tampered log as text) pairs, each differing from ``log``."""
    text = json.dumps(log, indent=1)
    odd = [None, "x", 1.5, [], {}, True, -1, 10 ** 30, "é" * 3000, [[[[1]]]], 0]
    fields = list(log)
    for _ in range(count):
        kind = rng.randrange(12)
        new = copy.deepcopy(log)
        choices = new["choices"]
        n = rng.randrange(len(choices))
        if kind == 0:
            del new[rng.choice(fields)]
        elif kind == 1:
            new[rng.choice(fields)] = rng.choice(odd)
        elif kind == 2:
            choices[n][rng.randrange(3)] = rng.choice(odd)
        elif kind == 3:
            choices[n][1] = choices[n][1] + rng.choice([-1, 1, 2, 50])
        elif kind == 4:
            choices[n][0] = 1 - choices[n][0]
        elif kind == 5:
            m = rng.randrange(len(choices))
            choices[n], choices[m] = choices[m], choices[n]
        elif kind == 6:
            rng.choice([lambda: choices.pop(n), lambda: choices.insert(n, list(choices[n])),
                        lambda: choices[n].pop(), lambda: choices[n].append(0)])()
        elif kind == 7:
            key = rng.choice(["seed", "players", "rounds"])
            new[key] = new[key] + rng.choice([-1, 1, 2 ** 64])
        elif kind == 8:
            key = rng.choice(fields)
            for _ in range(rng.choice([1, 3, 12])):
                new[key] = [new[key]]
        elif kind == 9:
            yield "truncated", text[: rng.randrange(len(text))]
            continue
        elif kind == 10:
            i = rng.randrange(len(text))
            yield "a byte changed", text[:i] + rng.choice('[]{}",:0aZ\\') + text[i + 1:]
            continue
        else:
            rng.choice([lambda: new.update(scores=[new["scores"][0] + 1] + new["scores"][1:]),
                        lambda: new.update(state_sha256="f" * 64), lambda: new.update(pack_id="other"),
                        lambda: new.update(options={"x": "1"}), lambda: new.update(ranking=[])])()
        yield f"mutation {kind}", json.dumps(new, indent=1)


def _legal_alternative(log: dict, rng: random.Random) -> str:
    """A choice changed to another option that is legal there (index and key both): the
    log of a different, legal game."""
    from meeple.runtime.game import load_game
    game = load_game(log["pack"])
    st = game.new_state(log["players"], log["seed"], options=log["options"])
    at = []                    # (choice number, the decision there) where there was a choice to make
    for n, (player, index, key) in enumerate(log["choices"]):
        if st.pending.count() > 1:
            at.append((n, st.pending))
        game.apply(st, index)
    n, dec = rng.choice(at)
    others = [i for i in range(dec.count()) if i != log["choices"][n][1]]
    new = copy.deepcopy(log)
    i = rng.choice(others)
    new["choices"][n] = [dec.player, i, dec.key(i)]
    return json.dumps(new)


def _same_but_identity(log: dict, played: dict) -> bool:
    """Whether ``log`` differs from ``played`` only in the pack it names (its path, id or version)."""
    identity = ("pack", "pack_id", "pack_version")
    return {k: v for k, v in log.items() if k not in identity} == {k: v for k, v in played.items() if k not in identity}


@pytest.mark.parametrize("tampered", [pytest.param(TAMPERED, id="brief"), pytest.param(SOAK, id="soak", marks=pytest.mark.slow)])
def test_a_thousand_cuts_no_tampered_log_is_accepted_and_none_crashes(played, tmp_path, monkeypatch, tampered):
    """~220 seeded mutations of a real log (MEEPLE_LOG_FUZZ=N: N; the soak run 2,000), each
    through 'meeple replay': exit 1 every time, with a message, within BROKEN_LOG_CALLS
    calls, never a traceback; the choices' quick check never passes a choice jsonschema
    refuses."""
    from jsonschema import Draft202012Validator
    from meeple.runtime.game import load_game
    loaded = functools.lru_cache(maxsize=None)(load_game)      # the pack is not under test: load it once
    monkeypatch.setattr(arguments, "load_game", loaded)
    monkeypatch.setattr(arguments, "load", lambda ref, generate=True: loaded(ref))
    rng = random.Random(2024)
    original = json.dumps(played, sort_keys=True)
    validator = Draft202012Validator(logs.schema("log"))
    path = tmp_path / "game.json"
    without_digest = json.dumps({k: v for k, v in played.items() if k != "state_sha256"}, sort_keys=True)
    tried = 0
    corpus = list(_mutations(played, rng, tampered)) + [("legal alternative", _legal_alternative(played, rng)) for _ in range(10)]
    for what, text in corpus:
        try:
            same = json.dumps(json.loads(text), sort_keys=True) == original
        except ValueError:
            same = False
        if same:
            continue
        tried += 1
        path.write_text(text, encoding="utf-8")
        with counted() as work:
            r = invoke("replay", path, "--pack", MINIMAL)       # the log names a folder: --pack says to load it
        assert work.calls < BROKEN_LOG_CALLS, (what, work)
        try:
            data = json.loads(text)
            stripped = json.dumps(data, sort_keys=True) == without_digest
            renamed = isinstance(data, dict) and _same_but_identity(data, played) and validator.is_valid(data)
        except ValueError:
            stripped = renamed = False
        if stripped:        # a log of before the digest: all it says is still checked, and true
            assert r.exit_code == 0 and "identical" in r.output
            continue
        if renamed:         # --pack replays against another pack: the pack the log names is not asked
            assert r.exit_code == 0 and "identical" in r.output
            continue
        assert r.exit_code == ExitCode.CONTENT_INVALID, (what, text[:300], r.output)
        assert r.output.strip(), what
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("choices"), list):
            refused = {e.absolute_path[1] for e in validator.iter_errors(data)
                       if len(e.absolute_path) >= 2 and e.absolute_path[0] == "choices"}
            assert refused <= set(logs.doubtful_choices(data["choices"])), what
    assert tried >= tampered * 9 // 10


# ---------------------------------------------------------------- outputs, checked before the run
def _no_permission(monkeypatch, target: Path):
    real = os.open

    def refusing(path, *args, **kwargs):
        if Path(path) == target:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *args, **kwargs)
    monkeypatch.setattr(os, "open", refusing)


OUTPUTS = [   # (command line before the option, the option)
    (("play", MINIMAL, "-p", 2, "--bots", "random"), "--log"),
    (("simulate", MINIMAL, "-p", 2, "-n", 5, "--workers", 1), "--records"),
    (("simulate", MINIMAL, "-p", 2, "-n", 5, "--workers", 1), "--report"),
    (("compare", MINIMAL, MINIMAL, "-p", 2, "-n", 5, "--workers", 1), "--report"),
]


@pytest.mark.parametrize("args, option", OUTPUTS, ids=[f"{a[0]} {o}" for a, o in OUTPUTS])
@pytest.mark.parametrize("case", ["missing folder", "a folder", "no permission", "under a file", "a name too long"])
def test_an_unwritable_output_is_a_usage_error_before_anything_runs(tmp_path, monkeypatch, args, option, case):
    (tmp_path / "file").write_text("x")
    target, reason = {
        "missing folder": (tmp_path / "nope" / "out", f"the folder '{tmp_path / 'nope'}' does not exist"),
        "a folder": (tmp_path, "it is a folder"),
        "no permission": (tmp_path / "out", "permission denied"),
        "under a file": (tmp_path / "file" / "out", f"'{tmp_path / 'file'}' is not a folder"),
        "a name too long": (tmp_path / ("x" * 300), "file name too long"),
    }[case]
    if case == "no permission":
        _no_permission(monkeypatch, target)
    ran = []
    monkeypatch.setattr(arguments, "load", lambda *a, **k: ran.append(a) or pytest.fail("the pack was loaded"))
    r = invoke(*args, option, target)
    assert r.exit_code == ExitCode.USAGE, r.output
    assert f"Invalid value for '{option}': cannot write '{target}': {reason}" in r.output
    assert not ran and not (tmp_path / "out").exists()


def test_a_writable_output_is_left_as_it_was_when_the_command_fails(tmp_path):
    out = tmp_path / "records.csv"
    r = invoke("simulate", "no-such-pack", "-p", 2, "--records", out)
    assert r.exit_code == ExitCode.USAGE and not out.exists()
    out.write_text("kept")
    r = invoke("simulate", "no-such-pack", "-p", 2, "--records", out)
    assert out.read_text() == "kept"


@pytest.mark.parametrize("args", [("simulate", MINIMAL, "-p", 2), ("compare", MINIMAL, MINIMAL, "-p", 2)])
def test_a_report_without_matplotlib_is_refused_before_the_games(tmp_path, monkeypatch, args):
    monkeypatch.setitem(sys.modules, "matplotlib", None)       # 'import matplotlib' now fails
    monkeypatch.setattr(arguments, "load", lambda *a, **k: pytest.fail("the pack was loaded"))
    r = invoke(*args, "--report", tmp_path / "r.html")
    assert r.exit_code == ExitCode.USAGE
    assert "Invalid value for '--report': the HTML report needs matplotlib: pip install 'meeple[report]'" in r.output


def test_a_log_that_cannot_be_written_at_the_end_exits_4(tmp_path, monkeypatch):
    import meeple.play.session as session

    def full(path, log):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(session, "write_log", full)
    r = invoke("play", MINIMAL, "-p", 2, "--bots", "random", "--quiet", "--log", tmp_path / "g.json")
    assert r.exit_code == ExitCode.OUTPUT_FAILED
    assert f"error: cannot write {tmp_path / 'g.json'}: no space left on device (the file is as it was)" in r.output


# ---------------------------------------------------------------- counts
@pytest.mark.parametrize("args, message", [
    (("simulate", MINIMAL, "-p", 2, "-n", 0), "Invalid value for '-n' / '--games': 0 is not in the range x>=1"),
    (("simulate", MINIMAL, "-p", 2, "-n", -3), "Invalid value for '-n' / '--games': -3 is not in the range x>=1"),
    (("compare", MINIMAL, MINIMAL, "-p", 2, "-n", 0), "0 is not in the range x>=1"),
    (("compare", MINIMAL, MINIMAL, "-p", 2, "-n", -3), "-3 is not in the range x>=1"),
    (("simulate", MINIMAL, "-p", 2, "--workers", 0), "--workers must be a number from 1 to 256 or 'auto', not '0'"),
    (("simulate", MINIMAL, "-p", 2, "--workers", 100000), "not '100000'"),
    (("simulate", MINIMAL, "-p", 2, "--workers", "٣"), "not '٣'"),
    (("play", MINIMAL, "-p", 2, "--seed", 2 ** 64), "Invalid value for '--seed'"),
    (("simulate", MINIMAL, "-p", 2, "--seed", -2 ** 63 - 1), "Invalid value for '--seed'"),
    (("play", MINIMAL, "-p", 0), "minimal is for 2-3 players, not 0"),
])
def test_counts_out_of_range_are_usage_errors(args, message):
    r = invoke(*args)
    assert r.exit_code == ExitCode.USAGE and message in r.output, r.output
    assert "games of" not in r.output


# ---------------------------------------------------------------- Ctrl-C
def _interrupt_at(monkeypatch, index: int, variant_only: bool = False):
    real = simulate_module.run_one

    def run_one(game, cfg, i):
        if i == index and (cfg.sets or not variant_only):
            raise KeyboardInterrupt
        return real(game, cfg, i)
    monkeypatch.setattr(simulate_module, "run_one", run_one)


def test_ctrl_c_in_simulate_prints_the_finished_games_and_exits_130(monkeypatch, tmp_path):
    _interrupt_at(monkeypatch, 7)
    records = tmp_path / "r.csv"
    r = invoke("simulate", MINIMAL, "-p", 2, "-n", 20, "--workers", 1, "--records", records)
    assert r.exit_code == ExitCode.INTERRUPTED
    assert "interrupted: 7 of 20 games finished (partial figures)\n7 games of" in r.output
    assert "interrupted: 7 of 20 games finished; the figures are of those only" in r.output
    assert len(records.read_text().splitlines()) == 1 + 7 * 2
    r = invoke("simulate", MINIMAL, "-p", 2, "-n", 20, "--workers", 1, "--format", "json")
    d = json.loads(r.output[: r.output.rindex("}") + 1])
    assert r.exit_code == 130 and d["interrupted"] is True and d["games"] == 7 and d["games_requested"] == 20


def test_ctrl_c_before_any_game_finished(monkeypatch):
    _interrupt_at(monkeypatch, 0)
    r = invoke("simulate", MINIMAL, "-p", 2, "-n", 20, "--workers", 1)
    assert r.exit_code == 130 and "interrupted before any game finished" in r.output and "games of" not in r.output


def test_ctrl_c_in_compare_compares_the_pairs_finished(monkeypatch):
    _interrupt_at(monkeypatch, 4, variant_only=True)
    r = invoke("compare", MINIMAL, "-p", 2, "-n", 10, "--workers", 1, "--set", "silver.cost=3")
    assert r.exit_code == 130
    lines = r.output.splitlines()
    assert lines[0] == "interrupted: 4 of 10 pairs of games finished (partial figures)" and lines[2].startswith("4 paired games")
    # base and variant are played side by side: Ctrl-C in the base's game 4 leaves the 4 pairs before it
    _interrupt_at(monkeypatch, 4)
    r = invoke("compare", MINIMAL, "-p", 2, "-n", 10, "--workers", 1, "--set", "silver.cost=3")
    assert r.exit_code == 130
    lines = r.output.splitlines()
    assert lines[0] == "interrupted: 4 of 10 pairs of games finished (partial figures)" and lines[2].startswith("4 paired games")
    _interrupt_at(monkeypatch, 0)
    r = invoke("compare", MINIMAL, "-p", 2, "-n", 10, "--workers", 1, "--set", "silver.cost=3")
    assert r.exit_code == 130 and "interrupted before any pair of games finished" in r.output


def test_ctrl_c_elsewhere_exits_130(monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(arguments, "load", interrupted)
    r = invoke("cards", MINIMAL)
    assert r.exit_code == 130 and "interrupted" in r.output


def test_a_reader_that_closes_the_pipe_is_no_internal_error():
    """``meeple cards citadels | head -1``: the rest of the output has nowhere to go; stop quietly, exit 141.
    The reading end is closed before meeple starts, so its first write meets the closed pipe."""
    r, w = os.pipe()
    os.close(r)
    try:
        proc = subprocess.run([sys.executable, "-m", "meeple", "cards", "citadels"], cwd=REPO,
                              stdout=w, stderr=subprocess.PIPE, text=True, timeout=GUARD)
    finally:
        os.close(w)
    assert proc.returncode == 141, proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def test_a_real_ctrl_c_stops_the_workers_without_tracebacks():
    """SIGINT to the whole process group, as a terminal sends it: the parent prints the
    games finished, the workers print nothing, exit 130. Sent once the two workers exist
    and have played a while: longer each try until some game had finished (a loaded
    machine may finish none in the first second). The run starts with Ctrl-C's default
    action, as a terminal's foreground command does, even when the suite itself was
    started in the background (``pytest &``), which leaves SIGINT ignored for its children."""
    for play in (0.7, 3.0, 8.0, 30.0):
        proc = subprocess.Popen(
            [sys.executable, "-m", "meeple", "simulate", MINIMAL, "-p", "2", "-n", "200000", "--workers", "2", "--seed", "1"],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            deadline = time.monotonic() + GUARD
            while len(_children(proc.pid)) < 2 and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.05)
            assert len(_children(proc.pid)) == 2, "the workers never started"
            time.sleep(play)                                     # some games finish
            os.killpg(proc.pid, signal.SIGINT)
            out, err = proc.communicate(timeout=GUARD)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        assert proc.returncode == 130, (out, err)
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
        if "before any game finished" not in err:
            break
    assert "games finished (partial figures)" in out and "interrupted:" in err, (out, err)


# ---------------------------------------------------------------- exit codes of the unexpected
def _raising(exc):
    def boom(*args, **kwargs):
        raise exc
    return boom


@pytest.mark.parametrize("exc, code, message", [
    (ZeroDivisionError("integer division or modulo by zero"), ExitCode.INTERNAL,
     "internal error: ZeroDivisionError: integer division or modulo by zero (run 'meeple --debug ...' to see the traceback)"),
    (RecursionError("maximum recursion depth exceeded"), ExitCode.INTERNAL, "internal error: RecursionError: maximum recursion depth"),
    (KeyError("x"), ExitCode.INTERNAL, "internal error: KeyError: 'x'"),
    (RuntimeError("line one\nline two"), ExitCode.INTERNAL, "internal error: RuntimeError: line one ("),
    (RuleError("a rule failed", Span("rules.yaml", 3, 5)), ExitCode.CONTENT_INVALID, "rules.yaml:3:5: error: a rule failed"),
    (UsageError("no such thing", hint="try this"), ExitCode.USAGE, "error: no such thing; try this"),
])
@pytest.mark.parametrize("command", [("cards", MINIMAL), ("play", MINIMAL, "-p", 2, "--bots", "random"), ("diff", MINIMAL, MINIMAL)])
def test_whatever_escapes_a_command_gets_its_exit_code_and_one_line(monkeypatch, exc, code, message, command):
    monkeypatch.setattr(arguments, "load", _raising(exc))
    r = invoke(*command)
    assert r.exit_code == code and message in r.output, r.output
    if code == ExitCode.INTERNAL:
        assert len(r.output.strip().splitlines()) == 1


def test_debug_shows_the_traceback_of_an_internal_error(monkeypatch):
    monkeypatch.setattr(arguments, "load", _raising(ZeroDivisionError("boom")))
    r = CliRunner().invoke(main, ["--debug", "cards", MINIMAL])
    assert r.exit_code == ExitCode.INTERNAL
    assert "Traceback (most recent call last)" in r.output and "internal error: ZeroDivisionError: boom" in r.output
    assert "--debug ...'" not in r.output


def test_a_rule_error_before_the_first_decision_is_not_a_traceback(monkeypatch):
    from meeple.runtime.game import Game
    monkeypatch.setattr(Game, "new_state", _raising(RuleError("setup failed", Span("game.yaml", 9, 3))))
    r = invoke("play", MINIMAL, "-p", 2, "--bots", "random")
    assert r.exit_code == ExitCode.CONTENT_INVALID and "game.yaml:9:5" not in r.output and "game.yaml:9:3: error: setup failed" in r.output


# ---------------------------------------------------------------- meeple test
def test_meeple_test_on_a_folder_without_scenarios(tmp_path):
    (tmp_path / "notes.yaml").write_text("kind: cards\n")
    r = invoke("test", tmp_path)
    assert r.exit_code == ExitCode.CONTENT_INVALID
    assert f"no scenario files found in {tmp_path} (a scenario file is YAML with 'kind: scenario')" in r.output
