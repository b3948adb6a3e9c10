"""How much work a piece of code did, counted rather than timed.

Why: a test that asserts "within a second" fails on a loaded or slow machine and passes
on a fast one whatever the code does; how fast the engine is belongs to the benchmarks
(benchmarks/). What a test can bound, the same on every machine, is how much work a thing
takes: the steps the rules took (the engine's own meter, ``meeple.dsl.steps``), the
items or the decisions, or the function calls made, counted here. A refusal that must come
"before anything is read" makes a few thousand calls; one that reads the whole input first
makes hundreds of thousands; a quadratic walk over a long text makes tens of millions. The
bounds in the tests sit well above what the code makes today (each says what it made),
far below what the mistake it guards against would make.

The count is CPython's own profiler's (``cProfile``, written in C, so it costs little):
every call of a Python function and of a built-in one. It does not see the work inside a
built-in (a regular expression, a sort), which the items it is given bound.
"""
from __future__ import annotations

import cProfile
from contextlib import contextmanager
from typing import Iterator


class Work:
    """What a ``counted()`` block did: ``calls``, known once the block has ended."""

    __slots__ = ("calls",)

    def __init__(self) -> None:
        self.calls = 0

    def __repr__(self) -> str:
        return f"{self.calls:,} calls"


@contextmanager
def counted() -> Iterator[Work]:
    """Count the function calls made inside the block (also when it raises)::

        with counted() as work:
            load_yaml_text(text, "f.yaml")
        assert work.calls < 20_000, work
    """
    work = Work()
    profile = cProfile.Profile()
    profile.enable()
    try:
        yield work
    finally:
        profile.disable()
        work.calls = sum(entry.callcount for entry in profile.getstats())
