"""The key facts shown beside a card's name (``view: facts:``): its printed fields, and
the card variables the pack lists there too, read from the state (a man's track and
rank, which change as the game goes), and the pack's functions of one such card, worked
out from the state (how many cards lie on it, plus one). Display only.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from meeple.dsl.runtime import Frame
from meeple.dsl.typesys import PLAYER, Card
from meeple.runtime.prices import evaluate, worked_out


def card_facts(game: Any, facts: dict[str, tuple[str, ...]], c: int, st: Optional[Any] = None,
               word: Callable[[str], str] = str, card: Optional[Callable[[int], str]] = None,
               lang: str = "en", glossary: Optional[dict] = None, derived: bool = True) -> list[str]:
    """The declared facts of card ``c``: an enum or text value as it is (an enum value
    in the words of the pack's howto glossary for ``lang`` when it has them, ``glossary``:
    'Medici' for ``medici``), a number with its name ('rank 3'; a card variable's
    declared ``name:`` in ``lang`` if it has one: 'slot VP 2'), a true flag as its name,
    a player as 'P2', a card by its name;
    nothing for a value that is none or false, nor for a variable at 0. A card variable
    or a function is read only given a state (``st``); without one it is left out. ``word`` puts a
    field's name or a value in the reader's language (the pack's ``view: words``), ``card``
    names a card (its id without it). ``derived=False`` leaves the functions out: the
    narration tells what changed, and a function's value changes only with what it reads,
    told in its own place."""
    v = game.vocab
    d = v.card_defs[game.card_def_index[c]]
    fields = dict(d.fields)
    kind_vars = v.kind_cvars.get(d.kind, {})
    named = {x.name: x.names for k in game.defn.card_kinds if k.name == d.kind for x in k.variables if x.names}
    out = []
    for f in facts.get(d.kind, ()):
        t, worked = None, False
        if f in fields:
            value = fields[f]
        elif f in kind_vars and st is not None:
            value, t = st.cvars[c * v.ncvars + v.cvar_index[f]], kind_vars[f]
            if value == 0 and value is not False:     # a variable at zero: no fact yet (a man on no track)
                continue
        elif derived and (d.kind, f) in game.compiled.fact_functions and st is not None:
            fn, code, t = game.compiled.fact_functions[(d.kind, f)]
            if fn is None:          # checked only (generate=False): nothing to work it out with
                continue
            value = worked_out(st, fn, Frame(-1, 0, [c] + [None] * (max(1, code.nlocals) - 1), -1, -1))
            worked = True
        else:
            continue
        if value is None or value is False:
            continue
        name = named[f].get(lang) if f in named else word(f)
        if t == PLAYER:
            out.append(f"P{value + 1}")
        elif isinstance(t, Card):       # a function's card is told with the function's name: 'tile: Medici (3)'
            shown = card(value) if card is not None else v.card_def_ids[value]
            out.append(f"{name}: {shown}" if worked else shown)
        elif isinstance(value, str) and glossary and lang in glossary.get(value, {}):
            out.append(glossary[value][lang])
        else:
            out.append(name if value is True else f"{name} {value}" if isinstance(value, int) else word(str(value)))
    return out


def zone_total(game: Any, st: Any, cards, var: str) -> int:
    """The total of card variable ``var`` over ``cards`` (view: totals)."""
    i, n = game.vocab.cvar_index[var], game.vocab.ncvars
    return sum(st.cvars[c * n + i] or 0 for c in cards)


def total_bound(game: Any, st: Any, zone: str, lang: str, word: Callable[..., str], before: str) -> str:
    """What a zone's total is read against (view: totals' ``at_most``), after ``before``:
    'the reward: at most 13', or '' where none is declared or it cannot be worked out."""
    limit = game.compiled.limits.get(zone)
    if limit is None or limit[0] is None:
        return ""
    fn, code, names = limit
    n = evaluate(st, fn, Frame(-1, 0, [None] * max(1, code.nlocals), -1, -1))
    if n is None:
        return ""
    what = names.get(lang) if names else ""
    return before + (word("{what}: at most {n}", what=what, n=n) if what else word("at most {n}", n=n))
