"""Text filled to a terminal's width, counted in display columns: a wide (CJK) letter
takes two, and Japanese, written without spaces, breaks between letters but never
before a closing mark."""
from __future__ import annotations

import functools
import re
import textwrap
import unicodedata


def wrap_block(text: str, width: int) -> str:
    """Each line of ``text`` wrapped at ``width``, continued under its text: an option's
    ('  12. ...') under its label, another two columns past its own indent."""
    out = []
    for line in text.split("\n"):
        m = re.match(r" *\d+\. | *", line)
        indent = m.end() if m.group().strip() else m.end() + 2
        out.append(wrap(line, width, indent) if line.strip() else line)
    return "\n".join(out)


def width_of(text: str) -> int:
    """Columns ``text`` takes on a terminal: a wide or full-width letter (CJK) two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# marks that never begin a line (a line is not broken before them), and that never end one
_CLOSING = set("、。，．・：；？！ー）」』】〕〉》”’)]},.:;!?")
_OPENING = set("（「『【〔〈《“‘([{")


@functools.lru_cache(maxsize=4096)         # a game's menus and board lines come back turn after turn
def wrap(line: str, width: int, indent: int) -> str:
    """``line`` filled to ``width`` display columns, later lines ``indent`` in. Words
    break at spaces; wide (CJK) text, written without spaces, between any two
    letters, but never before a closing mark. A word longer than a line stays whole."""
    if line.isascii():         # the common case, as textwrap always did it
        return textwrap.fill(line, width, subsequent_indent=" " * indent,
                             break_long_words=False, break_on_hyphens=False)
    lead = len(line) - len(line.lstrip(" "))
    tokens: list[str] = []         # a space run, one wide letter (with its closing marks), or a narrow word
    for ch in line[lead:]:
        wide = unicodedata.east_asian_width(ch) in "WF"
        if tokens and ch in _CLOSING:
            tokens[-1] += ch
        elif ch == " ":
            tokens.append(ch) if not tokens or not tokens[-1].startswith(" ") else tokens.__setitem__(-1, tokens[-1] + ch)
        elif tokens and tokens[-1][-1] in _OPENING and not tokens[-1].startswith(" "):
            tokens[-1] += ch        # an opening mark stays with what it opens: '(白)' is not broken after '('
        elif wide or not tokens or tokens[-1].startswith(" ") or width_of(tokens[-1][-1]) == 2:
            tokens.append(ch)
        else:
            tokens[-1] += ch
    lines, cur, used = [], " " * lead, lead
    for tok in tokens:
        w = width_of(tok)
        if used + w > width and cur.strip() and not tok.startswith(" "):
            lines.append(cur.rstrip())
            cur, used = " " * indent, indent
        if tok.startswith(" ") and not cur.strip(" "):
            continue        # no spaces at the start of a continued line
        cur += tok
        used += w
    lines.append(cur.rstrip())
    return "\n".join(lines)
