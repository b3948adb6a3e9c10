"""Python 3.10+ features the code uses, given to a Python 3.9 interpreter (PyPy 7.3).

Why: meeple needs Python 3.10 (pyproject.toml), but the PyPy on this machine
(and the newest Debian's) implements Python 3.9. ``benchmarks/pypy.sh`` loads
this module at the start of every PyPy process of its own environment (a
``.pth`` file in that environment's site-packages), so the engine's code runs
unchanged there; CPython never imports it, and it does nothing on 3.10 or newer.

What it gives: ``dataclass(..., slots=True)``, as CPython 3.11 makes it (a new
class with ``__slots__`` for the fields not already slotted by a base, no
``__dict__``, pickling of frozen slotted classes by field values).
"""
from __future__ import annotations

import dataclasses
import itertools
import sys


def _slots_of(cls) -> tuple:
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def _getstate(self):
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self, state):
    for f, value in zip(dataclasses.fields(self), state):
        object.__setattr__(self, f.name, value)


def _add_slots(cls, frozen: bool):
    """CPython 3.11's dataclasses._add_slots (weakref_slot left out: unused here)."""
    body = dict(cls.__dict__)
    names = tuple(f.name for f in dataclasses.fields(cls))
    inherited = set(itertools.chain.from_iterable(map(_slots_of, cls.__mro__[1:-1])))
    body["__slots__"] = tuple(itertools.filterfalse(inherited.__contains__, names))
    for name in names:
        body.pop(name, None)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    qualname = getattr(cls, "__qualname__", None)
    cls = type(cls)(cls.__name__, cls.__bases__, body)
    if qualname is not None:
        cls.__qualname__ = qualname
    if frozen:
        if "__getstate__" not in body:
            cls.__getstate__ = _getstate
        if "__setstate__" not in body:
            cls.__setstate__ = _setstate
    return cls


def install() -> None:
    """Wrap dataclasses.dataclass so that it takes ``slots=``; no-op on 3.10+."""
    if sys.version_info >= (3, 10) or getattr(dataclasses.dataclass, "_meeple_compat", False):
        return
    plain = dataclasses.dataclass

    def dataclass(cls=None, /, *, slots: bool = False, **kw):
        def wrap(c):
            made = plain(c, **kw)
            return _add_slots(made, kw.get("frozen", False)) if slots else made
        return wrap if cls is None else wrap(cls)

    dataclass._meeple_compat = True
    dataclasses.dataclass = dataclass


install()
