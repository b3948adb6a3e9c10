"""The text of the documentation, for the tests that keep it true.

Examples shown in README.md and docs/*.md are checked against what meeple really
does (the output of a command, a file that must validate, a list that must match
an enum). Every such test reads the documents through this one module, so that a
page moved or a block reworded fails in one clear way: the document or the text
asked for is named.

``doc`` is a path from the repository's root: ``"README.md"``, ``"docs/play.md"``.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$", re.M)


def text(doc: str) -> str:
    """The whole of a document."""
    path = ROOT / doc
    assert path.is_file(), f"{doc} is missing"
    return path.read_text(encoding="utf-8")


def blocks(doc: str, lang: str | None = None, under: str | None = None) -> list[str]:
    """The bodies of the document's fenced code blocks, in order (``lang``: only those
    whose info string is that language, e.g. ``"yaml"``; ``under``: only those in the
    section under that heading)."""
    where = section(doc, under) if under is not None else text(doc)
    return [body for info, body in FENCE.findall(where) if lang is None or info.strip() == lang]


def block_from(doc: str, start: str) -> str:
    """The text of a fenced block from the line that begins with ``start`` to the block's
    end (``start`` itself included): a command and its output, or part of one."""
    for body in blocks(doc):
        at = body.find(start)
        if at != -1 and (at == 0 or body[at - 1] == "\n"):
            return body[at:]
    raise AssertionError(f"{doc} has no code block with a line starting {start!r}")


def output_of(doc: str, command: str) -> str:
    """What a document shows a command print: the lines after ``$ COMMAND`` in a block,
    up to the next ``$ `` line or the block's end."""
    shown = block_from(doc, f"$ {command}\n")
    after = shown.split("\n", 1)[1]
    cut = re.search(r"^\$ ", after, re.M)
    return after[:cut.start()] if cut else after


def section(doc: str, heading: str) -> str:
    """The text under a heading (without it), up to the next heading of the same level
    or higher; code blocks are skipped when looking for headings."""
    whole = text(doc)
    fenced = [(m.start(), m.end()) for m in FENCE.finditer(whole)]
    heads = [m for m in HEADING.finditer(whole) if not any(a <= m.start() < b for a, b in fenced)]
    for i, m in enumerate(heads):
        if m.group(2) == heading:
            level = len(m.group(1))
            end = next((h.start() for h in heads[i + 1:] if len(h.group(1)) <= level), len(whole))
            return whole[m.end():end]
    raise AssertionError(f"{doc} has no heading {heading!r}")


def anchors(doc: str) -> set[str]:
    """The anchors GitHub makes of the document's headings (lower case, punctuation but
    '-' and '_' dropped, spaces as '-', a repeated one numbered '-1', '-2', ...)."""
    whole = text(doc)
    fenced = [(m.start(), m.end()) for m in FENCE.finditer(whole)]
    seen: dict[str, int] = {}
    out = set()
    for m in HEADING.finditer(whole):
        if any(a <= m.start() < b for a, b in fenced):
            continue
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))     # a link in a heading: its text
        slug = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -_").replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(doc: str) -> list[str]:
    """Every link and image target of the document outside code (inline ``[x](target)``)."""
    whole = FENCE.sub("", text(doc))
    whole = re.sub(r"`[^`\n]*`", "", whole)                              # inline code is not a link
    return re.findall(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", whole)
