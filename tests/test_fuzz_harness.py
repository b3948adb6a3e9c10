"""A brief run of the pack fuzzer (tools/fuzz.py runs thousands on demand).

Every mutated pack must be reported (located errors) or load and play: no
traceback, no error without a file and line, no case over CASE_CALLS function
calls (counted, not timed: tests/work.py). The brief run is 20 cases, which mutate
each source pack with each kind of damage (test_the_brief_run_uses_every_source_and_damage);
the soak run (``slow``, MEEPLE_SLOW=1) the 640 after them.
"""
import pytest

import fuzzing as F

BRIEF = 20
SOAK = 640
# What one case (reading, compiling and one random game of the mutated pack, at most
# F.MAX_DECISIONS decisions) may cost: the most of the brief run today is 1,742,008 calls;
# a pass quadratic in a file's length (a line repeated 3,000 times took 20 s) makes
# hundreds of millions.
CASE_CALLS = 10_000_000
GUARD = 300          # seconds: the hard stop, only a hung case ever meets it


def _check(number: int, tmp_path) -> None:
    case = F.make_case(seed=20261201, number=number)
    out = F.run_case(case, tmp_path / "pack", slow_seconds=None, max_calls=CASE_CALLS, hard_seconds=GUARD)
    assert out.kind in ("valid", "invalid"), (
        f"case {number} ({case.source}, mutations {[m[:2] for m in case.mutations]}): {out.kind}\n{out.detail}")


@pytest.mark.parametrize("number", range(BRIEF))
def test_mutated_pack_is_reported_or_plays(number, tmp_path):
    _check(number, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("number", range(BRIEF, BRIEF + SOAK))
def test_mutated_pack_is_reported_or_plays_soak(number, tmp_path):
    """The soak run: the next 640 cases of the same seed."""
    _check(number, tmp_path)


def test_the_brief_run_uses_every_source_and_damage():
    """The brief run is short, not narrow: its cases mutate every source pack, with every
    kind of damage the mutator does."""
    cases = [F.make_case(seed=20261201, number=n) for n in range(BRIEF)]
    assert {c.source for c in cases} == set(F.SOURCES)
    assert {m[1] for c in cases for m in c.mutations} == set(F.OPS)


def test_the_mutator_is_deterministic():
    a, b = F.make_case(3, 17), F.make_case(3, 17)
    assert a.files == b.files and a.mutations == b.mutations
    assert F.make_case(3, 18).files != a.files


def test_the_verdicts_catch_a_crash_a_costly_case_and_a_hang(tmp_path, monkeypatch):
    """The harness itself can fail: an exception that is not a MeepleError is a
    traceback, a case over its calls is costly, and a case that runs past the hard
    stop is slow, not a stuck run."""
    case = F.make_case(1, 0, ["minimal"])
    assert F.run_case(case, tmp_path / "ok", slow_seconds=None, max_calls=CASE_CALLS).kind in ("valid", "invalid")
    out = F.run_case(case, tmp_path / "ok", slow_seconds=None, max_calls=1000)
    assert out.kind == "costly" and out.calls > 1000 and out.detail.startswith(f"made {out.calls:,} calls, over 1,000")

    def crash(*args, **kwargs):
        raise KeyError("boom")
    monkeypatch.setattr(F, "read_pack", crash)
    assert F.run_case(case, tmp_path / "a").kind == "traceback"

    def hang(*args, **kwargs):
        while True:
            pass
    monkeypatch.setattr(F, "read_pack", hang)
    out = F.run_case(case, tmp_path / "b", slow_seconds=None, max_calls=CASE_CALLS, hard_seconds=0.2)
    assert (out.kind, out.detail) == ("slow", "stopped after 0.2 s")
