"""No path outside the repository anywhere in the product: the packs, the docs,
the README, the engine, the language and the schemas never point at a file a user
does not have (the team's private workspace, a seed text, someone's home folder).
A source is cited as the public document it is (docs/citations.md).

Each rule is a pattern and the reason it is refused; the scan is table-driven and
the table is shown able to fail on a line of each kind."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ["content", "docs", "README.md", "engine", "dsl", "schemas"]
TEXT = {".py", ".md", ".yaml", ".yml", ".json", ".lark", ".txt", ".toml", ".cfg", ".html", ".csv"}

RULES = [
    (re.compile(r"\.\./shared\b"), "a relative path out of the repository to the team's workspace"),
    (re.compile(r"\bshared/reference\b"), "the team's private reference folder"),
    (re.compile(r"\bseeds/\d{3}_"), "a seed text's file name (cite the public document it copies)"),
    (re.compile(r"(?<![\w.:/~-])/(?:work|home|tmp|Users|root|mnt|opt|var)/"), "an absolute path on one machine"),
    (re.compile(r"\b[A-Za-z]:\\\\?[A-Za-z0-9_]"), "an absolute Windows path"),
]

# Lines that need such a path on purpose, each with the reason. README.md is being
# split into docs/ by another change: its benchmark examples still make scratch
# worktrees under /tmp and must be rewritten (e.g. ../before) when the split lands.
ALLOWED: list[tuple[str, str, str]] = []      # (file, text, why): none today


def problems(name: str, text: str) -> list[str]:
    """Every line of a file that points outside the repository, with why."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if any(name.endswith(f) and snippet in line for f, snippet, _ in ALLOWED):
            continue
        for rx, why in RULES:
            m = rx.search(line)
            if m:
                out.append(f"{name}:{n}: {why}: {m.group(0)!r} in {line.strip()[:120]!r}")
    return out


def _files():
    for entry in SCANNED:
        path = ROOT / entry
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from (p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix in TEXT and "__pycache__" not in p.parts)


def test_the_product_points_at_nothing_outside_the_repository():
    found = []
    for path in _files():
        found += problems(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8", errors="replace"))
    assert not found, f"{len(found)} path(s) outside the repository:\n" + "\n".join(found)


def test_every_allowed_line_still_exists():
    """An exception outlives its line only by mistake: each must still be found."""
    for name, snippet, _ in ALLOWED:
        path = ROOT / name
        assert path.is_file() and snippet in path.read_text(encoding="utf-8"), (name, snippet)


@pytest.mark.parametrize("line, why", [
    ("Data: `../../../shared/reference/citadels-cards.md`", "a relative path out of the repository"),
    ("(`shared/reference/seeds/003_3411690253952061.txt`)", "the team's private reference folder"),
    ('  seed-000: "seed 000: ..., seeds/000_edd3324372bbe750.txt; the default rules"', "a seed text's file name"),
    ("# Files: /work/" + "shared/reference/.", "an absolute path on one machine"),      # split: tests/test_docs.py scans tests/ too
    ("see /home/alice/notes.md", "an absolute path on one machine"),
    ("python bench.py /tmp/base", "an absolute path on one machine"),
    (r"copy it to C:\games\meeple", "an absolute Windows path"),
])
def test_a_bad_line_is_found(line, why):
    found = problems("content/x/README.md", line)
    assert len(found) >= 1 and any(why in f for f in found), found


@pytest.mark.parametrize("line", [
    "https://ja.doc.boardgamearena.com/Gamehelpcitadels",
    "http://polo-deepdelver.eklablog.com/soiree-du-14-juin-2011-a84810506",
    "`../citadels-dark-city` and `../citadels-2016`",
    "zones/hand of p, cities/tmp/x (a relative path)",
    "docs/citations.md; src/main/resources/citadels/cards.tsv",
    "ratio 3:1 (a time of 10:30), C:D, key: value",
])
def test_a_good_line_passes(line):
    assert problems("content/x/README.md", line) == []
