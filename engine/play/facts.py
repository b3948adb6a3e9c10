"""The key facts shown beside a card's name (``view: facts:``): its printed fields, and
the card variables the pack lists there too, read from the state (a man's track and
rank, which change as the game goes). Display only.
"""
from __future__ import annotations

from typing import Any, Optional

from meeple.dsl.typesys import PLAYER, Card


def card_facts(game: Any, facts: dict[str, tuple[str, ...]], c: int, st: Optional[Any] = None,
               lang: str = "en", words: Optional[dict] = None) -> list[str]:
    """The declared facts of card ``c``: an enum or text value as it is (an enum value
    in the words of the pack's howto glossary for ``lang`` when it has them, ``words``:
    'Medici' for ``medici``), a number with
    its name ('rank 3'; a card variable's declared ``name:`` in ``lang`` if it has one:
    'slot VP 2'), a true flag as its name, a player as 'P2', a card by its id;
    nothing for a value that is none or false, nor for a variable at 0. A card variable
    is read only given a state (``st``); without one it is left out."""
    v = game.vocab
    d = v.card_defs[game.card_def_index[c]]
    fields = dict(d.fields)
    kind_vars = v.kind_cvars.get(d.kind, {})
    named = {x.name: x.names for k in game.defn.card_kinds if k.name == d.kind for x in k.variables if x.names}
    out = []
    for f in facts.get(d.kind, ()):
        t = None
        if f in fields:
            value = fields[f]
        elif f in kind_vars and st is not None:
            value, t = st.cvars[c * v.ncvars + v.cvar_index[f]], kind_vars[f]
            if value == 0 and value is not False:     # a variable at zero: no fact yet (a man on no track)
                continue
        else:
            continue
        if value is None or value is False:
            continue
        if t == PLAYER:
            out.append(f"P{value + 1}")
        elif isinstance(t, Card):
            out.append(v.card_def_ids[value])
        elif isinstance(value, str) and words and lang in words.get(value, {}):
            out.append(words[value][lang])
        else:
            word = named[f].get(lang) if f in named else f
            out.append(word if value is True else f"{word} {value}" if isinstance(value, int) else str(value))
    return out
