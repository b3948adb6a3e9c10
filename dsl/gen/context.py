"""Where a piece of generated source is being written (``Ctx``), and the signal that a
node cannot be written (``Unsupported``: an internal error, ``GeneratedCodeError``)."""
from __future__ import annotations

from typing import Optional

from ..ir import Caches
from ..types import Unit


CALLED = "\x00called "       # a key of a region's counting pass: a pack's function called, by name


class Unsupported(Exception):
    """A node the generator cannot write: a defect of meeple's (``PyGen.top`` makes it an
    internal error naming the rule); nothing stands in for it."""


class Ctx:
    """Where a piece of source is being written: the code unit (its frame locals),
    the variables that live only in generated code, and the caches in force."""

    __slots__ = ("unit", "py", "hoist", "pyhoist", "me_bound", "cse", "memo")

    def __init__(self, unit: Optional[Unit], py: dict, hoist: Optional[Caches], pyhoist: Caches, me_bound: bool):
        self.unit = unit
        self.py = py              # DSL name -> (python name, type), innermost wins
        self.hoist = hoist        # the unit's comprehension caches (frame slots), as the checker made them
        self.pyhoist = pyhoist    # this region's caches held in python locals (made names)
        self.me_bound = me_bound
        self.cse: Optional[dict] = None           # source text -> python local, for repeated calls in one region
        # whether the pack's functions called here may keep their values in the evaluation's
        # memo (``_mo``, ``WalkWriter.function``): "menu" in an action's 'with' (evaluated for
        # each item of a menu, one memo for them all), "once" in another top-level expression,
        # and so in the functions expanded in them; None inside a walk's helper (a function of
        # its own)
        self.memo: Optional[str] = None
