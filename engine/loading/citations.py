"""What a citation (a value of ``sources:``) says: which declared references it names,
where in each document, and the words it quotes (docs/citations.md).

A citation is one or more cites joined by ``; ``, each written

    ID "SECTION": "QUOTE" (NOTE)

ID is a reference declared under pack.yaml ``references:``; SECTION is the heading
(or, for a file of data, the file) a reader looks for in that document; QUOTE is a
few of its words, as printed, that carry the value; NOTE, optional, says how. The
quote may be left out only where the document's wording is not at hand (the note then
says what the document gives). A line number is no place: it points into a copy of the
document the reader does not have, so ``meeple validate`` warns about one.

A citation in an older, free form ("house rule 3") still names its reference by its
first word, which is all that is checked of it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

QUOTE_MAX = 45      # letters (about 40): a quote identifies the passage, it does not copy it

_ID = r"[A-Za-z0-9][A-Za-z0-9._-]*"
_CITE = re.compile(rf'({_ID}) "([^"]+)"(?:: "([^"]+)")?(?: \(((?:[^()]|\([^()]*\))+)\))?')
_SEP = "; "
# 'l.90', 'l. 13-17', 'line 59', 'lines 17-19', 'll.3-4': a place in a copy, not in the document
_LINE_NUMBER = re.compile(r"(?<![A-Za-z])(?:l{1,2}\.\s?|lines?\s+)\d+(?:\s?[-–]\s?\d+)?")


@dataclass(frozen=True, slots=True)
class Cite:
    """One document named by a citation: the reference id, the section, the quoted words, a note."""

    ref: str
    section: str
    quote: str = ""
    note: str = ""


def parse(citation: str) -> Optional[tuple[Cite, ...]]:
    """The cites of a citation in the structured form, or None if it is not in that form."""
    text = str(citation)
    out: list[Cite] = []
    pos = 0
    while True:
        m = _CITE.match(text, pos)
        if m is None:
            return None
        out.append(Cite(m.group(1), m.group(2), m.group(3) or "", m.group(4) or ""))
        pos = m.end()
        if pos == len(text):
            return tuple(out)
        if not text.startswith(_SEP, pos):
            return None
        pos += len(_SEP)


def first_reference(citation: str) -> str:
    """The reference id a citation names first: its first word ('house rule 3' -> 'house')."""
    words = str(citation).split()
    return words[0].rstrip(":,;") if words else ""


def references_named(citation: str) -> tuple[str, ...]:
    """Every reference id a citation names: each cite's, in the structured form; else its first word."""
    cites = parse(citation)
    return tuple(c.ref for c in cites) if cites else (first_reference(citation),)


def line_number(citation: str) -> Optional[str]:
    """The line-number locator a citation uses ('l.90', 'line 59'), if any."""
    m = _LINE_NUMBER.search(re.sub(r'"[^"]*"', '""', str(citation)))     # not in the words quoted
    return m.group(0) if m else None
