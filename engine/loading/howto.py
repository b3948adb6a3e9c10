"""A pack's how-to-play (its file of ``kind: howto``): the rules in the pack's own
words, per language, which ``meeple rules`` prints and '?' at a prompt reads.

It is data beside the rules, never read by them: a game plays the same with or
without it. One file per pack; a pack that extends another writes what it
changes, and the loaded pack keeps every layer's, base first.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any, Optional

from meeple.core.errors import ContentError, Problems
from meeple.loading import model as M
from meeple.loading.yamlsrc import Document


def _names(value: Any) -> M.Names:
    if isinstance(value, str):
        return M.Names((("en", value),))
    if isinstance(value, dict):
        return M.Names(tuple((str(k), str(v)) for k, v in value.items()))
    return M.Names(())


def read_howto(pack: M.PackInfo, docs: list[Document], problems: Problems) -> Optional[M.HowTo]:
    """The pack's how-to-play from its howto documents (schema-checked), or None
    without one; a second file is an error (a pack has one)."""
    if not docs:
        return None
    for extra in docs[1:]:
        problems.add(ContentError(f"a second howto file (the first is {docs[0].file}); a pack has one",
                                  extra.span(("kind",))))
    doc = docs[0]
    d = doc.data
    sections = tuple(M.HowToSection(_names(s.get("title")), _names(s.get("text")),
                                    tuple(_names(p) for p in s.get("points") or ()))
                     for s in d.get("sections") or () if isinstance(s, dict))
    choices = tuple(M.ChoiceHelp(str(prompt), _names(c.get("text")),
                                 tuple((str(k), _names(v)) for k, v in (c.get("options") or {}).items()),
                                 doc.key_span(("choices", prompt)))
                    for prompt, c in (d.get("choices") or {}).items() if isinstance(c, dict))
    glossary = tuple((str(k), _names(v)) for k, v in (d.get("glossary") or {}).items())
    return M.HowTo(pack.id, pack.name, _names(d.get("overview")), sections, choices, doc.span(("kind",)), glossary)


def choice_help(howtos: tuple[M.HowTo, ...]) -> dict[str, M.ChoiceHelp]:
    """Every pack's help for a choice by prompt; a later pack's (an expansion's) wins."""
    out: dict[str, M.ChoiceHelp] = {}
    for h in howtos:
        for c in h.choices:
            first = out.get(c.prompt)
            out[c.prompt] = c if first is None else M.ChoiceHelp(
                c.prompt, c.text if c.text.by_locale else first.text, (*first.options, *c.options), c.span)
    return out


def paragraphs(text: str) -> list[str]:
    """A howto text's paragraphs (blank lines part them), each on one line to be wrapped:
    the lines of a paragraph join with a space, or with none between two wide (CJK) letters."""
    def wide(ch: str) -> bool:
        return unicodedata.east_asian_width(ch) in "WF"
    out: list[str] = []
    for para in re.split(r"\n\s*\n", text.strip()):
        joined = ""
        for line in (ln.strip() for ln in para.split("\n") if ln.strip()):
            joined += line if not joined or (wide(joined[-1]) and wide(line[0])) else " " + line
        out.append(joined)
    return out
