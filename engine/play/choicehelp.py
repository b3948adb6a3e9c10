"""What '?' at a prompt says from the pack's howto (meeple.loading.howto): an
option of a choice that names no card explained by the help the pack declares
for that choice, and '? rules', the game's overview. Read-only, like the view."""
from __future__ import annotations

import re
from typing import Any

from meeple.loading.howto import choice_help as declared, paragraphs


def chooser_values(view: Any, st: Any, p: int) -> dict[str, str]:
    """The chooser's resources and player variables (those not hidden), by name, as a
    help text may name them in braces ('{steps_left} steps left')."""
    g = view.game
    out = {name: str(st.res[p * g.vocab.nres + i]) for name, i in g.vocab.res_index.items()}
    for name, i in g.vocab.pvar_index.items():
        if name not in g.observer.hidden_vars:
            shown = view.value(st.pvars[p * g.vocab.npvars + i], g.vocab.pvar_types[i])
            if shown is not None:
                out[name] = shown
    return out


def _filled(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``{name}`` of ``values`` put in (other braces stay as written)."""
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), text)


def choice_help(view: Any, st: Any, options: list[list], i: int) -> str:
    """What the pack's howto says of option ``i`` of the pending choice (found by its
    label, key or value) and of the whole choice, under the choice's prompt, with the
    chooser's values put in; '' if nothing."""
    dec = st.pending
    helps = getattr(view, "_choice_help", None)
    if helps is None:
        helps = view._choice_help = declared(view.game.pack.howto)
    h = helps.get(dec.prompt) or helps.get(re.sub(r" \(\d+ chosen\)$", "", dec.prompt))     # a pick of several says how many so far
    if h is None:
        return ""
    said = dict(h.options)
    opt = options[i]
    mine = next((said[k] for k in (str(dec.options[i][1]), str(opt[0]), str(opt[2])) if k in said), None)
    lines = [f"  {view.prompt(dec.prompt)}: {opt[1]}"]
    values = chooser_values(view, st, dec.player)
    lines += [view.wrap("    " + _filled(t.get(view.lang), values), 4) for t in (mine, h.text) if t is not None and t.by_locale]
    return "\n".join(lines)


def rules_help(view: Any) -> str:
    """'? rules': the pack's overview of the game, and the command that shows all of it."""
    pack = view.game.pack
    where = f"meeple rules {pack.info.id}" + ("" if view.lang == "en" else f" --lang {view.lang}")
    if not pack.howto:
        return f"  this pack has no how-to-play (`{where}` says so)"
    body: list[str] = []
    for para in paragraphs(pack.howto[0].overview.get(view.lang)):
        body += ([""] if body else []) + [view.wrap("  " + para, 2)]
    return "\n".join(body + ["", f"  all of it: `{where}`"])
