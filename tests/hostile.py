"""Builders of hostile packs and YAML texts, shared by the tests that refuse them.

Each builder writes a small broken copy of tests/content/valid/minimal (or
returns a text) in a temporary folder: a scalar YAML cannot build, a number out
of range, an alias bomb, deep nesting, a big file, a long line, a long chain of
packs that extend packs, a link out of the pack folder, an id with a control
character. Big files are made here, never committed; small static hostile packs
live under tests/content/hostile/. A later fuzz or hostile-corpus test can call
the same builders.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MINIMAL = REPO / "tests" / "content" / "valid" / "minimal"
HOSTILE = REPO / "tests" / "content" / "hostile"


def minimal_files() -> dict[str, str]:
    """The minimal pack's files, by name."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(MINIMAL.glob("*.yaml"))}


def write_pack(root: Path, changes: dict[str, str | bytes | None] | None = None) -> Path:
    """The minimal pack in ``root`` with ``changes`` (file name -> new text, bytes, or None to drop it)."""
    root.mkdir(parents=True, exist_ok=True)
    files: dict[str, str | bytes | None] = {**minimal_files(), **(changes or {})}
    for name, text in files.items():
        if text is None:
            continue
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    return root


def with_value(file: str, key: str, value: str, nth: int = 0) -> dict[str, str]:
    """The minimal pack's ``file`` with the ``nth`` line ``KEY: ...`` changed to ``KEY: VALUE``."""
    text = minimal_files()[file]
    lines = text.split("\n")
    pattern = re.compile(rf"^(\s*(?:- )?){re.escape(key)}:")
    hits = [i for i, line in enumerate(lines) if pattern.match(line)]
    i = hits[nth]
    lines[i] = pattern.match(lines[i]).group(1) + f"{key}: {value}"
    return {file: "\n".join(lines)}


def manifest(pack_id: str, extends: list | None = None, version: str = "0.1") -> str:
    """A pack.yaml."""
    out = f"kind: pack\nid: {pack_id}\nname: {pack_id}\nversion: \"{version}\"\n"
    if extends is not None:
        out += "extends:\n" + "".join(f"  - {e}\n" for e in extends)
    return out


def extending_pack(root: Path, extends: list, pack_id: str = "child") -> Path:
    """A pack that extends ``extends`` and changes nothing."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pack.yaml").write_text(manifest(pack_id, extends), encoding="utf-8")
    return root


def extends_chain(root: Path, length: int) -> Path:
    """``length`` packs beside the minimal one (``base``), each extending the one before; returns the last."""
    write_pack(root / "base")
    before = "base"
    for i in range(1, length + 1):
        extending_pack(root / f"p{i}", [before], f"p{i}")
        before = f"p{i}"
    return root / before


# ------------------------------------------------------------------ YAML texts
def alias_bomb(levels: int = 9, width: int = 10) -> str:
    """The "billion laughs": each anchor is a list of ``width`` aliases of the one before (width**levels values)."""
    lines = ["kind: cards", "card_kind: coin", "a0: &a0 [lol]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    lines.append("cards: []")
    return "\n".join(lines) + "\n"


def deep_flow(depth: int) -> str:
    """``depth`` nested flow lists: ``x: [[[...]]]``."""
    return "kind: cards\ncard_kind: coin\nx: " + "[" * depth + "]" * depth + "\ncards: []\n"


def deep_block(depth: int) -> str:
    """``depth`` nested block mappings, each indented one space more."""
    return "kind: cards\ncard_kind: coin\nx:\n" + "".join(" " * i + "b:\n" for i in range(1, depth + 1)) + "cards: []\n"


def deep_dashes(depth: int) -> str:
    """``depth`` nested lists on one line: ``- - - 1`` under ``x:``."""
    return "kind: cards\ncard_kind: coin\nx:\n" + "- " * depth + "1\ncards: []\n"


def big_cards_file(size: int) -> str:
    """A valid cards file of about ``size`` characters (many cards)."""
    head = "kind: cards\ncard_kind: coin\ncards:\n"
    card = "  - id: c{0}\n    name: Coin number {0}\n    cost: 1\n"
    parts = [head]
    total, i = len(head), 0
    while total < size:
        part = card.format(i)
        parts.append(part)
        total += len(part)
        i += 1
    return "".join(parts)


def long_line(size: int) -> str:
    """A cards file whose one card has a name ``size`` characters long on one line."""
    return "kind: cards\ncard_kind: coin\ncards:\n  - id: c\n    name: " + "x" * size + "\n    cost: 1\n"


def link(path: Path, target: Path) -> Path:
    """A symbolic link at ``path`` to ``target``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path
