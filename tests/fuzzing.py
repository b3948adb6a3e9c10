"""A seeded mutator of packs and the check of what loading and playing them did.

Shared by ``tools/fuzz.py`` (thousands of cases, on demand) and
``tests/test_fuzz_harness.py`` (a brief run in CI), so the two cannot
disagree about what counts as a failure:

- a *traceback*: any exception that is not a ``MeepleError`` escaped reading,
  compiling or playing the pack;
- an *unlocated* error: a reported problem that names no file (a problem
  of a whole file, e.g. one too big, names the file with line 0), or a rule
  error while playing that names no line;
- a *python* error: a reported problem or rule error that says Python's own words
  (``TypeError``, ``'NoneType'``, ``list indices must be...``): a rule's fault is told
  in the language's words (dsl/faults.py), never Python's;
- a *costly* case (the suite's verdict): reading, compiling and one random game
  made over ``max_calls`` function calls (counted, tests/work.py: the same on any
  machine, so a loaded one cannot fail a case);
- a *slow* case (tools/fuzz.py's verdict, timed, for a long run on a machine one
  watches): they took over ``slow_seconds`` (``SLOW_SECONDS``).

Either way a hard stop after ``hard_seconds`` turns a hang into a slow case
instead of a stuck run: a guard, not a measure.

Why seeded rather than hypothesis: a long run on demand wants a plain loop
that prints counts and keeps every failing case on disk for a bug report;
the case number and the seed reproduce it (``tools/fuzz.py --case N``).
"""
from __future__ import annotations

import random
import re
import shutil
import signal
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from meeple.play.agents import RandomAgent
from meeple.core.errors import MeepleError, Problems
from meeple.runtime.game import Game
from meeple.loading.pack import read_pack
from meeple.play.session import play
from work import counted

ROOT = Path(__file__).resolve().parent.parent
# The packs mutated, with a weight each: small packs often (fast), Troyes rarely (its compile takes ~0.2 s).
SOURCES = {
    "minimal": (ROOT / "tests" / "content" / "valid" / "minimal", 6),
    "citadels": (ROOT / "content" / "citadels", 3),
    "signorie": (ROOT / "content" / "signorie", 1),
    "troyes": (ROOT / "content" / "troyes", 1),
}
SLOW_SECONDS = 2.0
HARD_SECONDS = 20.0
MAX_DECISIONS = 20_000        # a random game of a mutated pack past this many decisions stops (not a failure)

# Values that are wrong in interesting ways: other types, YAML surprises, hostile sizes.
VALUES = ['""', "null", "0", "-1", "1.5", "true", "yes", '"three"', "[]", "{}", "[1, 2]", "{a: 1}", "~",
          "2020-01-01", "2024-02-30", "!!int x", "!!float x", "!!bool x", "!!timestamp x", "!!binary aGk=",
          "99999999", "9" * 5000, "-" + "9" * 30, "1e999", ".nan", ".inf", '"x: y"', "&a 1", "*a", "|", "me",
          "none", "nobody", "coin?", "=cost", "{by_players: {2: 1}}", '"\\u202e evil"', '"a\\nb"', "x" * 3000]
# Words of the effect language, swapped into rule texts.
WORDS = ["c", "p", "me", "this", "none", "true", "false", "players", "round", "cost", "value", "id", "all", "others",
         "0", "-1", "99999", "9" * 40, "==", "<", "+", "-", "*", "/", "%", "..", ".", ",", "(", ")", "[", "]", "and",
         "or", "not", "in", "is", "of", "if", "then", "else", "size", "count", "sum", "first", "top", "holder", "move",
         "draw", "gain", "pay", "choose", "may", "set", "let", "call", "emit", "do", "stop", '"x"', "for", "each",
         "where", "by", "while", "until", "to", "from", ":", "#", "repeat", "max", "min"]
TOKEN = re.compile(r"[A-Za-z_]+|[0-9]+|==|<=|>=|[-+*/<>.,()\[\]:]")
CHARS = list(" :-{}[],'\"#|>&*!%@`\tabz09_.()=<") + ["\x00", "é", "\u202e", "\r", "\x1b"]
OPS = ["delete", "duplicate", "swap", "char", "value", "word", "word", "word", "nest", "repeat"]


# Python's own words, which no message to a person may hold: its exceptions' names and the
# phrases of their texts ("'NoneType' object is not subscriptable", "list indices must be ...")
PYTHON_WORDS = re.compile(r"TypeError|ValueError|IndexError|KeyError|ZeroDivisionError|AttributeError|RecursionError|"
                          r"NoneType|unsupported operand|subscriptable|not iterable|list indices|has no attribute|"
                          r"not supported between|Traceback")


@dataclass
class Outcome:
    kind: str                      # valid, invalid, traceback, unlocated, python, costly, slow
    seconds: float
    detail: str = ""
    decisions: int = 0
    calls: int = 0                 # the function calls the case made (when counted)


@dataclass
class Case:
    number: int
    source: str
    files: dict[str, str]
    mutations: list[tuple] = field(default_factory=list)


def _pack_files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.yaml"))}


_FILES: dict[str, dict[str, str]] = {}


def source_files(name: str) -> dict[str, str]:
    if name not in _FILES:
        _FILES[name] = _pack_files(SOURCES[name][0])
    return _FILES[name]


def make_case(seed: int, number: int, sources: Optional[list[str]] = None) -> Case:
    """Case ``number`` of the run seeded ``seed``: the same pair gives the same mutated pack."""
    rng = random.Random(seed * 1_000_003 + number)
    names = sources or list(SOURCES)
    source = rng.choices(names, weights=[SOURCES[n][1] for n in names])[0]
    files = dict(source_files(source))
    case = Case(number, source, files)
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(sorted(files))
        op = rng.choice(OPS)
        extra = rng.choice(VALUES if op == "value" else WORDS if op in ("word", "nest") else CHARS)
        m = (name, op, rng.randrange(1 << 30), rng.randrange(1 << 30), extra, rng.choice([2, 30, 300, 3000]))
        apply(files, m)
        case.mutations.append(m)
    return case


def apply(files: dict, mutation: tuple) -> None:
    """One damage to one file's text (in place)."""
    name, op, a, b, extra, n = mutation
    lines = files[name].split("\n")
    i, j = a % len(lines), b % len(lines)
    line = lines[i]
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, line)
    elif op == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "char":
        k = b % (len(line) + 1)
        lines[i] = line[:k] + extra + line[k + 1:]
    elif op == "value":
        keyed = [x for x, text in enumerate(lines) if re.match(r"\s*[\w-]+: ", text)]
        if keyed:
            x = keyed[a % len(keyed)]
            lines[x] = lines[x].split(": ", 1)[0] + ": " + extra
    elif op in ("word", "nest"):
        tokens = list(TOKEN.finditer(line))
        if tokens:
            m = tokens[b % len(tokens)]
            if op == "word":
                new = extra
            else:             # deep nesting: n copies of a prefix operator or an opening bracket
                prefix = rng_pick(("not ", "-", "(", "[", "count(", "if true then "), a)
                closing = {"(": ")", "[": "]", "count(": ")"}.get(prefix, "")
                new = prefix * n + m.group() + closing * n
            lines[i] = line[:m.start()] + new + line[m.end():]
    elif op == "repeat":      # a long line or a long file
        if b % 2:
            lines[i] = line + (" " + line.strip()) * n
        else:
            lines[i:i + 1] = [line] * n
    files[name] = "\n".join(lines)


def rng_pick(items: tuple, k: int):
    return items[k % len(items)]


class _HardStop(BaseException):
    """Raised by the alarm: a case ran past HARD_SECONDS (never caught by content code)."""


def _alarm(signum, frame):
    raise _HardStop()


def run_case(case: Case, workdir: Path, play_games: bool = True, slow_seconds: Optional[float] = SLOW_SECONDS,
             max_calls: Optional[int] = None, hard_seconds: float = HARD_SECONDS) -> Outcome:
    """Write the case's pack into ``workdir``, read, compile and (when valid) play one random game.
    With ``max_calls``, the case's function calls are counted and more is a costly case; with
    ``slow_seconds``, more seconds is a slow case (None: time is no verdict)."""
    if workdir.exists():
        shutil.rmtree(workdir)
    for name, text in case.files.items():
        path = workdir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, hard_seconds)
    try:
        if max_calls is None:
            out = _verdict(case, workdir, play_games, start, hard_seconds)
        else:
            with counted() as work:
                out = _verdict(case, workdir, play_games, start, hard_seconds)
            out.calls = work.calls
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    if out.kind not in ("valid", "invalid"):
        return out
    if max_calls is not None and out.calls > max_calls:
        return Outcome("costly", out.seconds, f"made {out.calls:,} calls, over {max_calls:,}", out.decisions, out.calls)
    if slow_seconds is not None and out.seconds > slow_seconds:
        return Outcome("slow", out.seconds, f"took {out.seconds:.1f} s", out.decisions, out.calls)
    return out


def _verdict(case: Case, workdir: Path, play_games: bool, start: float, hard_seconds: float) -> Outcome:
    """What reading, compiling and playing the pack in ``workdir`` did (the hard stop set)."""
    decisions = 0
    try:
        problems = Problems()
        try:
            pack = read_pack(workdir, problems)
            game = None
            if pack is not None and not problems.errors:
                game = Game(pack, problems)
        except MeepleError as err:
            problems.add(err)
        for err in problems.errors:
            if not isinstance(err, MeepleError) or not err.message or err.span.file in ("", "<unknown>"):
                return Outcome("unlocated", time.perf_counter() - start, f"{type(err).__name__}: {err.message}")
            if PYTHON_WORDS.search(err.message):
                return Outcome("python", time.perf_counter() - start, f"{type(err).__name__}: {err.message}")
        if problems.errors:
            kind = "invalid"
        else:
            kind = "valid"
            if play_games and game is not None:
                decisions = _random_game(game, case.number)
    except _HardStop:
        return Outcome("slow", time.perf_counter() - start, f"stopped after {hard_seconds:g} s")
    except MeepleError as err:
        if err.span.file in ("", "<unknown>") or not err.span.line:     # a rule error names its line
            return Outcome("unlocated", time.perf_counter() - start, f"{type(err).__name__}: {err.message}")
        if PYTHON_WORDS.search(err.message):
            return Outcome("python", time.perf_counter() - start, f"{type(err).__name__}: {err.message}")
        kind = "invalid"          # a located rule error while playing is a reported problem
    except Exception:             # noqa: BLE001 - this is what the fuzzer looks for
        return Outcome("traceback", time.perf_counter() - start, traceback.format_exc(limit=-6))
    return Outcome(kind, time.perf_counter() - start, "", decisions)


def _random_game(game: Game, seed: int) -> int:
    """One random game at the smallest player count, stopped (not failed) after MAX_DECISIONS."""
    players = game.min_players
    count = 0

    def tick(st):
        nonlocal count
        count += 1
        if count > MAX_DECISIONS:
            raise _Enough()
    try:
        play(game, players, seed, [RandomAgent(seed + p) for p in range(players)], on_decision=tick)
    except _Enough:
        pass
    return count


class _Enough(Exception):
    pass
