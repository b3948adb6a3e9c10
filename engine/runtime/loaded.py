"""The games this process has loaded, kept while the files they were loaded from are
unchanged, so that loading the same pack again costs a check of its files and not a
compilation.

A process often loads one pack many times: a server starting tables, a tuner trying
settings, a comparison with a shared base, a notebook re-running its cells. ``Game`` is
read-only once built, so one object serves them all. An entry is kept by what was asked
for (the folders named, the ``--set`` changes, whether the rules are generated) and is
used only while every folder the load read (the pack's own and every pack it extends)
lists the same YAML files with the same bytes: an edited, added or removed file loads
again, as the first time. What is compared is the content, not a modification time (two
writes within one tick of the file system's clock would look alike). The pack folders
inside and beside each of those folders are compared too, by name: a pack named in
``extends`` is looked for there before the shipped ones, so a new folder there may be
the base a load would now read.

Failures are not kept: a broken pack is read again, and reports every error again.
``forget`` empties the store (a benchmark timing cold loads calls ``Game`` itself).
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from meeple.core.errors import Problems
from meeple.loading.folders import is_pack, pack_files
from meeple.loading.limits import MAX_FILE_BYTES

if TYPE_CHECKING:
    from meeple.runtime.game import Game

KEPT = 8            # games kept at most, the least recently used let go first

_games: "OrderedDict[tuple, tuple[bytes, Game]]" = OrderedDict()


def fingerprint(folders: list[str]) -> Optional[bytes]:
    """A digest of the YAML files of ``folders`` as a load lists them, names and bytes
    (None: one cannot be read, so the load is to be done again and report it)."""
    h = hashlib.blake2b(digest_size=20)
    listed: set[Path] = set()       # a base and its extension often lie side by side: their folder once
    for folder in folders:
        root = Path(folder)
        h.update(str(root).encode("utf-8", "surrogateescape") + b"\0")
        # where an extended pack is looked for first (loading.expansion); not for the
        # --set changes' layer, which names no folder
        for near in (root, root.parent) if root.is_dir() else ():
            if near in listed:
                continue
            listed.add(near)
            try:
                names = sorted(p.name for p in near.iterdir() if p.is_dir() and is_pack(p))
            except OSError:
                return None
            h.update("\0".join(names).encode("utf-8", "surrogateescape") + b"\1")
        for path in pack_files(root, Problems()):
            try:
                with open(path, "rb") as f:
                    data = f.read(MAX_FILE_BYTES + 1)
            except OSError:
                return None
            h.update(str(path.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
            h.update(len(data).to_bytes(8, "little") + data)
    return h.digest()


def loaded(key: tuple, load: Callable[[], "Game"]) -> "Game":
    """The game kept under ``key`` if the files it was loaded from are unchanged, else
    ``load()``'s, kept (a load that raises keeps nothing)."""
    got = _games.get(key)
    if got is not None:
        digest, game = got
        if fingerprint(_folders(game)) == digest:
            _games.move_to_end(key)
            return game
        del _games[key]
    game = load()
    digest = fingerprint(_folders(game))
    if digest is not None:
        _games[key] = (digest, game)
        while len(_games) > KEPT:
            _games.popitem(last=False)
    return game


def _folders(game: "Game") -> list[str]:
    """Every folder the game's pack was read from, base first."""
    return [folder for _, _, folder in game.pack.load_order]


def forget() -> None:
    """Let every kept game go."""
    _games.clear()
