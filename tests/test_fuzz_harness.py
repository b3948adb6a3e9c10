"""A brief run of the pack fuzzer (tools/fuzz.py runs thousands on demand).

Every mutated pack must be reported (located errors) or load and play: no
traceback, no error without a file and line, no case over two seconds.
"""
import pytest

import fuzzing as F

CASES = 60


@pytest.mark.parametrize("number", range(CASES))
def test_mutated_pack_is_reported_or_plays(number, tmp_path):
    case = F.make_case(seed=20261201, number=number)
    out = F.run_case(case, tmp_path / "pack")
    assert out.kind in ("valid", "invalid"), (
        f"case {number} ({case.source}, mutations {[m[:2] for m in case.mutations]}): {out.kind}\n{out.detail}")


def test_the_mutator_is_deterministic():
    a, b = F.make_case(3, 17), F.make_case(3, 17)
    assert a.files == b.files and a.mutations == b.mutations
    assert F.make_case(3, 18).files != a.files


def test_the_verdicts_catch_a_crash_and_a_hang(tmp_path, monkeypatch):
    """The harness itself can fail: an exception that is not a MeepleError is a
    traceback, and a case that runs past the hard stop is slow, not a stuck run."""
    case = F.make_case(1, 0, ["minimal"])

    def crash(*args, **kwargs):
        raise KeyError("boom")
    monkeypatch.setattr(F, "read_pack", crash)
    assert F.run_case(case, tmp_path / "a").kind == "traceback"

    def hang(*args, **kwargs):
        while True:
            pass
    monkeypatch.setattr(F, "read_pack", hang)
    monkeypatch.setattr(F, "HARD_SECONDS", 0.2)
    out = F.run_case(case, tmp_path / "b")
    assert out.kind == "slow" and out.seconds < 2
