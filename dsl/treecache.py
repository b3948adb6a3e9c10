"""Syntax trees kept between runs, so a cold `meeple validate` does not parse again
the texts it parsed last time (parsing is about half of validating a pack).

A tree is stored as JSON, never as a pickle: reading it back builds only the node
classes of ``meeple.dsl.ast`` with the right number of fields, plus ints, texts, bools and
none, so a file someone tampered with can at worst miss (the text is parsed again),
never run code. The file sits next to Lark's table cache, in a folder of the user's
own that no one else may write to (``parser._cache_file``); its name holds a hash of
the grammar, of this module and of the parser (which builds the trees), so a change
to any of them starts a new file. Only trees that parsed are kept (an error is always
Lark's own, made afresh); a key is the hash of the text and its start rule, and the
tree holds positions inside the text only, so the same text anywhere shares it.

Each entry is kept as a JSON text inside the file's one object, and decoded only when
its text is parsed: the entries a process does not use stay plain strings, which the
garbage collector never walks (decoded, a few thousand trees are a quarter of a million
objects, and every full collection of a long simulation would walk them all).

The file is read once per process, on the first parse, and written once, at exit, if
new trees were added (written whole to a temporary file and renamed, so a reader never
sees half a file; when several processes write, the last one wins: a cache may lose
entries, never mix them).
"""
from __future__ import annotations

import atexit
import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Optional

from . import ast as A

MAX_ENTRIES = 4_000           # beyond this the oldest quarter is dropped (a few MB at most)
MAX_FILE = 16 * 1024 * 1024   # a larger file is not read

_CLASSES: dict[str, tuple[type, int]] = {
    name: (cls, len(dataclasses.fields(cls)))
    for name, cls in vars(A).items()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and (issubclass(cls, A.Node) or cls is A.Pos)
}
_TUPLE = "#"                  # the first item of an encoded tuple (no class is named so)


class _Bad(Exception):
    """An entry that is not a tree this module wrote."""


def encode(value: Any) -> Any:
    """A tree as JSON data: a node is [class name, fields...], a tuple ['#', items...]."""
    if isinstance(value, (A.Node, A.Pos)):
        return [type(value).__name__] + [encode(getattr(value, f.name)) for f in dataclasses.fields(value)]  # type: ignore[arg-type]  # a node class is a dataclass
    if isinstance(value, tuple):
        return [_TUPLE] + [encode(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise _Bad(f"cannot keep a {type(value).__name__}")


def decode(data: Any) -> Any:
    """The tree ``encode`` wrote; _Bad for anything else."""
    if isinstance(data, list):
        if not data or not isinstance(data[0], str):
            raise _Bad("not a node or a tuple")
        if data[0] == _TUPLE:
            return tuple(decode(v) for v in data[1:])
        found = _CLASSES.get(data[0])
        if found is None or len(data) - 1 != found[1]:
            raise _Bad(f"not a node: {data[0]!r}")
        return found[0](*(decode(v) for v in data[1:]))
    if data is None or isinstance(data, (bool, int, str)):
        return data
    raise _Bad("not tree data")


class TreeCache:
    """The trees of one grammar, as kept in ``path`` (None: keep nothing)."""

    def __init__(self, path: Optional[Path]):
        self.path = path
        self.entries: Optional[dict[str, Any]] = None    # read on first use
        self.added = 0

    @staticmethod
    def key(text: str, start: str) -> str:
        return hashlib.sha256(f"{start}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()[:32]

    def _load(self) -> dict[str, Any]:
        if self.entries is None:
            self.entries = {}
            try:
                if self.path is not None and self.path.stat().st_size <= MAX_FILE:
                    data = json.loads(self.path.read_text(encoding="utf-8"))
                    if isinstance(data, dict):
                        self.entries = data
            except (OSError, ValueError, RecursionError):
                pass
        return self.entries

    def get(self, text: str, start: str) -> Any:
        """The kept tree of ``text`` or None."""
        if self.path is None:
            return None
        data = self._load().get(self.key(text, start))
        if not isinstance(data, str):
            return None
        try:
            return decode(json.loads(data))
        except (_Bad, TypeError, ValueError, RecursionError):
            return None

    def put(self, text: str, start: str, tree: Any) -> None:
        if self.path is None:
            return
        entries = self._load()
        if len(entries) >= MAX_ENTRIES:        # the oldest first (a dict keeps its order, and JSON too)
            for k in list(entries)[:MAX_ENTRIES // 4]:
                del entries[k]
        try:
            entries[self.key(text, start)] = json.dumps(encode(tree), separators=(",", ":"))
        except (_Bad, RecursionError):
            return
        if not self.added:
            atexit.register(self.write)
        self.added += 1

    def write(self) -> None:
        """Write the file if trees were added (whole, then renamed into place)."""
        if self.path is None or not self.added or self.entries is None:
            return
        self.added = 0
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=".trees-", dir=str(self.path.parent))
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.entries, f, separators=(",", ":"))
            os.replace(tmp, self.path)
        except (OSError, ValueError):
            if tmp is not None and os.path.exists(tmp):
                os.unlink(tmp)
