"""How to play, as ``meeple rules GAME`` prints it: the pack's howto (its rules
in its own words, per language), base first, then what each pack loaded on top
of it changes. The text is the pack's; this module only lays it out, wrapped
at the terminal's width (wide letters count two columns).
"""
from __future__ import annotations

from meeple.core.catalogue import say
from meeple.loading import model as M
from meeple.loading.howto import paragraphs as howto_paragraphs
from meeple.play.lines import width_of, wrap

HEADINGS = ("{name}: how to play", "What {name} changes", "no how-to-play in this pack")     # meeple.core.catalogue


def paragraphs(text: str, width: int, indent: int = 0) -> list[str]:
    """A text's paragraphs filled to ``width``, a blank line between two."""
    out: list[str] = []
    for para in howto_paragraphs(text):
        out += ([""] if out else []) + [wrap(" " * indent + para, width, indent)]
    return out


def howto_lines(pack: M.Pack, lang: str = "en", width: int = 80) -> list[str]:
    """The whole how-to-play of ``pack`` in ``lang`` (English where a text has none)."""
    title, changes, none = (say(h, lang) for h in HEADINGS)
    if not pack.howto:
        return [title.format(name=pack.info.name.get(lang)), "", none]
    out: list[str] = []
    for i, h in enumerate(pack.howto):
        head = (title if i == 0 else changes).format(name=h.name.get(lang))
        out += ([] if i == 0 else [""]) + [head, "=" * min(width, width_of(head)), ""]
        out += paragraphs(h.overview.get(lang), width)
        for s in h.sections:
            name = s.title.get(lang)
            out += ["", name, "-" * min(width, width_of(name))]
            if s.text.by_locale:
                out += paragraphs(s.text.get(lang), width)
            for p in s.points:
                out += [wrap("- " + " ".join(p.get(lang).split()), width, 2)]
    return out


def missing_locales(pack: M.Pack, lang: str) -> bool:
    """True when some text of the pack's how-to-play has no ``lang`` (it falls back to English)."""
    def has(n: M.Names) -> bool:
        return not n.by_locale or lang in dict(n.by_locale)
    return not all(has(h.overview) and all(has(s.title) and has(s.text) and all(has(p) for p in s.points) for s in h.sections)
                   for h in pack.howto)
