"""The table in a browser (``meeple serve``, the optional extra ``meeple[web]``).

Rooms: ``timeline`` (a line of play with checkpoints, so any step shows quickly),
``table`` (one game: seats and their tokens, what each seat was told, bots),
``server`` (the tables of one pack, forks, logs and scenarios), ``pages`` and
``drawer`` (the HTML, made on the server from what a seat may know), ``app`` (the
Starlette application and its bounds). Starlette is imported only by ``app``.
"""
from __future__ import annotations

from typing import Optional


def missing() -> Optional[str]:
    """The first library of the extra ``meeple[web]`` that cannot be imported, or None."""
    import importlib
    for name in ("starlette", "uvicorn"):
        try:
            importlib.import_module(name)
        except ImportError:
            return name
    return None
