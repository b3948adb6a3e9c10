"""Broken content never crashes the loader: a property test over mutated packs.

Hypothesis mutates the YAML text of tests/content/valid/minimal (deletes,
duplicates or swaps lines, changes a character, replaces a value or a word of
a rule) and loads the result. Whatever the damage, reading and compiling may
only report problems (``meeple.core.errors.MeepleError``), and ``meeple validate``
may only exit 0 (valid) or 1 (invalid), never with a traceback.
"""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from meeple.cli import main
from meeple.core.errors import MeepleError, Problems
from meeple.runtime.game import Game
from meeple.loading.pack import read_pack
from fuzzing import apply      # the one mutator of pack texts (tools/fuzz.py shares it)

MINIMAL = Path(__file__).parent / "content" / "valid" / "minimal"
FILES = {p.name: p.read_text(encoding="utf-8") for p in sorted(MINIMAL.glob("*.yaml"))}

# Values that are wrong in interesting ways: other types, YAML surprises, other names of the pack.
VALUES = ['""', "null", "0", "-1", "1.5", "true", "yes", '"three"', "[]", "{}", "[1, 2]", "{a: 1}", "~", "2020-01-01",
          "99999999", '"x: y"', "&a 1", "*a", "!!binary aGk=", "|", "gold", "coin", "hand", "deck", "turn", "taken",
          "bonus", "crown", "player", "int", "coin?", "=cost", "=nope", "nobody", "[bonus, bonus]", "{type: coin}",
          "{type: int, default: x}", "{en: X}", "{by_players: {2: 1}}", "c in hand", "gain 2", "if:", "me", "none"]
# Words of the effect language and of the pack, to swap into rules.
WORDS = ["gold", "coin", "hand", "deck", "turn", "taken", "bonus", "crown", "c", "p", "me", "this", "none", "true",
         "players", "round", "passed", "cost", "value", "id", "all", "others", "0", "-1", "99999", "==", "<", "+", "/",
         "..", ".", ",", "(", ")", "[", "]", "and", "not", "in", "is", "of", "if", "else", "size", "count", "sum",
         "first", "top", "holder", "move", "draw", "gain", "pay", "choose", "may", "set", "let", "call", "emit", "do",
         "stop", '"x"', "for", "each", "where", "by", "while", "to", "from", ":", "#"]


@st.composite
def mutations(draw):
    """A small list of (file, operation, arguments)."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(sorted(FILES)))
        op = draw(st.sampled_from(["delete", "duplicate", "char", "swap", "value", "word"]))
        a, b = draw(st.integers(0, 10_000)), draw(st.integers(0, 10_000))
        extra = draw(st.sampled_from(VALUES if op == "value" else WORDS if op == "word"
                                     else list(" :-{}[],'\"#|>&*!%@`\tabz09_.()=<") + ["\x00", "é"]))
        out.append((name, op, a, b, extra, 1))       # the shape of fuzzing.apply's mutations
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz") / "pack"


# No deadline: how long an example takes is no verdict (a loaded machine is slow); the
# brief run is 150 examples, the soak run (``slow``, MEEPLE_SLOW=1) 2,000.
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(FUZZ, max_examples=150)
@given(mutations())
def test_mutated_pack_reports_problems_never_crashes(workdir, muts):
    _check(workdir, muts)


@pytest.mark.slow
@settings(FUZZ, max_examples=2000)
@given(mutations())
def test_mutated_pack_reports_problems_never_crashes_soak(workdir, muts):
    _check(workdir, muts)


def _check(workdir, muts):
    files = dict(FILES)
    for m in muts:
        apply(files, m)
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir()
    for name, text in files.items():
        (workdir / name).write_text(text, encoding="utf-8")

    problems = Problems()
    try:
        pack = read_pack(workdir, problems)
        if pack is not None and not problems.errors:
            Game(pack, problems)
    except MeepleError:
        pass            # raising a located error is allowed; anything else fails the test
    for err in problems.errors:
        assert isinstance(err, MeepleError)
        assert err.message and err.span.file != "<unknown>", err     # every problem names its file
    event("invalid" if problems.errors else "valid")

    result = CliRunner().invoke(main, ["validate", str(workdir)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1), result.output
    assert (result.exit_code == 1) == bool(problems.errors), result.output
