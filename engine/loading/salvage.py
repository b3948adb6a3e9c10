"""Keeping what loaded: the parts of a pack file left out for a schema error.

``meeple validate`` reports every problem of a pack in one run. A file with a
schema error is not thrown away whole when the error sits in a part that can
go on its own: one card of a cards file, one entry of a game section (a
zone, a procedure, an action), one ``add:``/``override:`` entry of a rules
file, an optional key of pack.yaml, an unknown top-level key. That part is
left out, the rest of the file is checked again and kept, and the pack is
still built and compiled, so DSL errors elsewhere are reported in the same
run. An error in a part the file cannot do without (a required key, a
card file's ``card_kind``) leaves the whole file out.

What a left-out part declares (names of cards, zones, resources, ...) is
remembered in ``Problems.left_out``: a later error that only says such a name
is unknown is a consequence, not a mistake of its own, and is held back
(``Problems.hidden``; ``meeple validate`` says how many in one note).
A file that cannot be read at all (YAML syntax, not UTF-8) gives the names
it seems to declare: the ids of a cards file, every word of any other.
"""
from __future__ import annotations

import bisect
import copy
import re
from pathlib import Path
from typing import Any, Optional

from meeple.loading.limits import MAX_FILE_BYTES
from meeple.core.outputs import open_regular
from meeple.loading.schemas import failing_paths, validate, value_at
from meeple.loading.yamlsrc import Document

# A file with more failing parts than this is left out whole: keeping its valid rest would cost
# time (each part is cut and the rest checked again) for a file that is mostly broken anyway.
MAX_PARTS_LEFT_OUT = 200

# game sections that map names to declarations
NAMED = ("constants", "enums", "resources", "variables", "player_variables", "card_kinds", "zones", "events",
         "procedures", "functions", "options", "provisional")


def unit(kind: str, path: tuple) -> Optional[tuple]:
    """The smallest part around a failing ``path`` that a file of ``kind`` can do
    without, or None when the whole file has to go."""
    if not path:
        return None
    head = path[0]
    if kind == "game":
        if head == "kind":
            return None
        if head == "actions":
            return path[:3]
        return path[:2]
    if kind == "cards":
        if head in ("cards", "replace", "patch", "remove"):
            return path[:2]
        return None if head in ("kind", "card_kind") else path[:1]
    if kind == "rules":
        if head in ("add", "override"):
            return path[:4] if len(path) >= 4 and path[1] == "actions" else path[:3]
        return None if head == "kind" else path[:1]
    if kind == "pack":
        return path[:1] if isinstance(head, str) and head not in ("kind", "id", "extends") else None
    if kind == "scenario":
        return path[:2] if head == "scenarios" and len(path) >= 2 else None
    return None


def names_in(kind: str, path: tuple, value: Any) -> set[str]:
    """The names a part (at ``path``, holding ``value``) declares."""
    out: set[str] = set()
    if len(path) >= 2 and isinstance(path[-1], str) and not set(path[:-1]) & {"flow", "players", "score"}:
        out.add(path[-1])                               # an entry by name: zones.hand (not flow.max_rounds)
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            out.add(value["id"])                        # a card, an action
        if len(path) == 1 or (kind == "rules" and len(path) == 2):
            for k, v in value.items():                  # a whole section: every name in it
                out |= names_in(kind, path + (k,), v)
        for sub in ("fields", "variables"):             # a card kind's fields and variables
            if isinstance(value.get(sub), dict):
                out |= {k for k in value[sub] if isinstance(k, str)}
        if isinstance(value.get("hooks"), list):
            out |= {h for h in value["hooks"] if isinstance(h, str)}
    elif isinstance(value, list):
        for x in value:                                 # enum values, a group of actions
            if isinstance(x, str):
                out.add(x)
            elif isinstance(x, dict) and isinstance(x.get("id"), str):
                out.add(x["id"])
    return out


def file_names(kind: str, data: Any) -> set[str]:
    """The names a whole file left out declares."""
    if not isinstance(data, dict):
        return set()
    if kind == "cards":
        return {c["id"] for key in ("cards", "replace", "patch") for c in (data.get(key) or ())
                if isinstance(c, dict) and isinstance(c.get("id"), str)}
    if kind == "rules":
        return {n for sec in ("add", "override") if isinstance(data.get(sec), dict)
                for k, v in data[sec].items() for n in names_in(kind, (sec, k), v)}
    return set()


_ID = re.compile(r"^\s*(?:-\s*)?id:\s*['\"]?([\w-]+)", re.M)
_WORD = re.compile(r"[A-Za-z_][\w-]*")


def unreadable_names(path: Path) -> set[str]:
    """The names a file that could not be loaded seems to declare: the ids of a
    cards file, every word of any other (a rules file may declare anything)."""
    try:
        with open_regular(path) as f:
            text = f.read(MAX_FILE_BYTES).decode("utf-8", "replace")
    except OSError:
        return set()
    if re.search(r"^kind:\s*['\"]?cards\b", text, re.M):
        return set(_ID.findall(text))
    return set(_WORD.findall(text))


def _without(doc: Document, cut: list[tuple]) -> Document:
    """``doc`` without the parts at ``cut``; later items of a list move up, and
    so do their positions."""
    data = copy.deepcopy(doc.data)
    removed: dict[tuple, list[int]] = {}
    for path in sorted(cut, key=lambda p: [str(x) for x in p], reverse=True):
        parent = value_at(data, path[:-1])
        last = path[-1]
        if isinstance(parent, list) and isinstance(last, int) and 0 <= last < len(parent):
            removed.setdefault(path[:-1], []).append(last)
        elif isinstance(parent, dict) and last in parent:
            del parent[last]
    for lpath, idxs in removed.items():
        lst = value_at(data, lpath)
        for i in sorted(set(idxs), reverse=True):
            del lst[i]

    # each a set or a sorted list, so that moving a key costs its length, not the number of parts cut
    cut_set = set(cut)
    gone = {lpath: sorted(set(idxs)) for lpath, idxs in removed.items()}

    def moved(key: tuple) -> Optional[tuple]:
        if any(key[:n] in cut_set for n in range(1, len(key) + 1)):
            return None
        out = list(key)
        for n in range(len(key) - 1, -1, -1):
            idxs = gone.get(key[:n])
            if idxs is not None and isinstance(key[n], int):
                out[n] = key[n] - bisect.bisect_left(idxs, key[n])
        return tuple(out)

    def table(t: dict) -> dict:
        out = {}
        for k, v in t.items():
            m = moved(k)
            if m is not None:
                out[m] = v
        return out

    return Document(doc.file, data, table(doc.spans), table(doc.key_spans), table(doc.origins))


def keep_valid_parts(doc: Document, kind: str) -> tuple[Optional[Document], set[str]]:
    """``doc`` without its parts that fail the schema (checked again), and the names
    those parts declared; (None, names of the whole file) when it cannot be kept."""
    paths = failing_paths(doc, kind)
    units = [unit(kind, p) for p in paths]
    if not paths or any(u is None for u in units):
        return None, file_names(kind, doc.data)
    if len(set(units)) > MAX_PARTS_LEFT_OUT:        # past this, the file is left out whole (it would only be noise)
        return None, file_names(kind, doc.data)
    outer: set[tuple] = set()
    for u in sorted(set(units), key=len):              # the outermost part only
        if not any(u[:n] in outer for n in range(1, len(u))):
            outer.add(u)
    cut = sorted(outer, key=len)
    left = set()
    for u in cut:
        left |= names_in(kind, u, value_at(doc.data, u))
    kept = _without(doc, cut)
    if kind == "pack":
        _fill_manifest(kept, doc)
    if list(validate(kept, kind)):
        return None, file_names(kind, doc.data)
    return kept, left


def _fill_manifest(kept: Document, doc: Document) -> None:
    """A manifest keeps its place without a bad name or version (the pack is invalid
    anyway and never plays): the name becomes the id, the version the number as
    written (version: 0.1) or 0.0."""
    data = kept.data
    if "name" not in data and isinstance(data.get("id"), str):
        data["name"] = data["id"]
    if "version" not in data:
        raw = doc.data.get("version")
        data["version"] = str(raw) if isinstance(raw, (int, float)) and re.fullmatch(r"\d+\.\d+", str(raw)) else "0.0"
