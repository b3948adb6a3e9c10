"""The optional PyPy runtime's pieces that CPython can check (no test needs PyPy):
benchmarks/py39compat.py makes dataclass(slots=True) classes as CPython 3.11
does; benchmarks/runtimes.py refuses bad arguments before running anything, keeps
PyPy's parser caches in a folder of its own (never beside an installed Python) and
measures the two interpreters in alternating rounds."""
import dataclasses
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import py39compat  # noqa: E402
import runtimes  # noqa: E402


def _both(frozen: bool):
    """The same class made by CPython's slots=True and by the compat's _add_slots."""
    def body():
        class Point:
            x: int
            y: tuple = ()

            def total(self) -> int:
                return self.x + len(self.y)
        return Point
    native = dataclasses.dataclass(frozen=frozen, slots=True)(body())
    compat = py39compat._add_slots(dataclasses.dataclass(frozen=frozen)(body()), frozen)
    return native, compat


@pytest.mark.parametrize("frozen", [True, False])
def test_compat_slots_match_cpython(frozen):
    native, compat = _both(frozen)
    refused = []
    for cls in (native, compat):
        p = cls(1, (2, 3))
        assert cls.__slots__ == ("x", "y")
        assert not hasattr(p, "__dict__")
        assert p == cls(1, (2, 3)) and p.total() == 3 and repr(p).endswith(".body.<locals>.Point(x=1, y=(2, 3))")
        assert cls.__qualname__.endswith("body.<locals>.Point")
        with pytest.raises(Exception) as new_attribute:    # 3.11 itself: TypeError if frozen
            p.z = 1
        refused.append(new_attribute.type)
        if frozen:
            with pytest.raises(dataclasses.FrozenInstanceError):
                p.x = 2
            assert hash(p) == hash(cls(1, (2, 3)))
    assert refused[0] is refused[1]
    assert [f.name for f in dataclasses.fields(compat)] == [f.name for f in dataclasses.fields(native)]


def test_compat_slotted_base_fields_not_slotted_twice():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        a: int

    @dataclasses.dataclass(frozen=True)
    class Child(Base):
        b: int
    child = py39compat._add_slots(Child, True)
    assert child.__slots__ == ("b",)
    assert child(1, 2).a == 1


def test_compat_frozen_state_is_field_values():
    _, compat = _both(True)
    p = compat(4, (5,))
    state = p.__getstate__()
    assert state == [4, (5,)]
    q = object.__new__(compat)
    q.__setstate__(state)
    assert q == p


def test_compat_install_is_a_no_op_on_3_10_and_newer():
    before = dataclasses.dataclass
    py39compat.install()
    assert dataclasses.dataclass is before


@pytest.mark.parametrize("argv, message", [
    ([], "--pypy PATH is required (benchmarks/pypy.sh passes it)"),
    (["--pypy", "x", "--only", "citadels:5"], "--only: choose among citadels:4, troyes:4, signorie:4, citadels:7"),
    (["--pypy", "x", "--games", "0"], "--warmup must be >= 0, --games and --rounds >= 1"),
    (["--pypy", "x", "--warmup", "-1"], "--warmup must be >= 0, --games and --rounds >= 1"),
    (["--pypy", "x", "--rounds", "0"], "--warmup must be >= 0, --games and --rounds >= 1"),
])
def test_runtimes_refuses_bad_arguments(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        runtimes.main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip().endswith(f"runtimes.py: error: {message}")


def test_the_pypy_caches_go_to_a_temporary_folder_or_the_one_given(monkeypatch, tmp_path):
    """Never beside the interpreter's installation (the venv's python is a link to it): a
    temporary folder, removed after the run, unless --pypy-cache names one."""
    import tempfile
    seen = []
    monkeypatch.setattr(runtimes, "compare", lambda args, lines, interpreters: seen.append(interpreters))
    assert runtimes.main(["--pypy", sys.executable]) == 0
    (cpython, none), (pypy, cache) = seen[-1]
    assert none is None and pypy == sys.executable
    assert Path(cache).parent == Path(tempfile.gettempdir()) and not Path(cache).exists()
    assert runtimes.main(["--pypy", sys.executable, "--pypy-cache", str(tmp_path / "c")]) == 0
    assert seen[-1][1] == (sys.executable, str(tmp_path / "c"))


def test_the_runtimes_are_measured_in_alternating_rounds():
    calls = []
    records = runtimes.alternating((("a", None), ("b", "c")), 3, lambda py, cache: calls.append(py) or {"x": float(len(calls))})
    assert calls == ["a", "b", "b", "a", "a", "b"]
    assert runtimes.middle(records[0]) == {"x": 4.0, "rounds": 3} and runtimes.middle(records[1]) == {"x": 3.0, "rounds": 3}
