"""What '?' at a prompt says: the commands, a card's or an action's full text, and
from the pack's howto (meeple.loading.howto) an option of a choice that names no
card explained by the help the pack declares for that choice, and '? rules', the
game's overview. Read-only, like the view."""
from __future__ import annotations

import re
from typing import Any, Optional

from meeple.dsl.runtime import ActionDescriber

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
        return view.word("  this pack has no how-to-play (`{command}` says so)", command=where)
    body: list[str] = []
    for para in paragraphs(pack.howto[0].overview.get(view.lang)):
        body += ([""] if body else []) + [view.wrap("  " + para, 2)]
    return "\n".join(body + ["", view.word("  all of it: `{command}`", command=where)])


def answer_help(view: Any, answer: str, options: list[list], st: Any) -> str:
    """What '?' answers at a prompt: the commands ('?'), how to play ('? rules'), what
    option N does and its card ('? 3'), or a card's full text ('? ruby', '? ID')."""
    ref = answer[1:].strip()
    if not ref:
        command = f"meeple rules {view.game.pack.info.id}" + ("" if view.lang == "en" else f" --lang {view.lang}")
        return "\n".join((view.word("  a number or a key in brackets: choose that option") if view.keys_shown
                          else view.word("  a number: choose that option (its key, which ? N names, too)"),
                          view.word("  ? N: what option N does, and its card, in full"),
                          view.word("  ? ID or ? NAME: that card, in full (ids as `meeple cards` lists them)"),
                          view.word("  ? rules: how to play, in short (all of it: `{command}`)", command=command),
                          view.word("  undo: take back your choices in the action under way "
                                    "(not once anything random or hidden is out)"),
                          view.word("  ?: this help")))
    if ref == "rules":
        return rules_help(view)
    if ref.isdigit():
        n = int(ref)
        if not 1 <= n <= len(options):
            return view.word("  no option {n}: give 1-{m}", n=n, m=len(options))
        said, key = _helped(view, st, options, n - 1), options[n - 1][0]
        if view.keys_shown or f"[{key}]" in said:     # the menu shows keys, or the help names it (an action's id)
            return said
        return view.word("  option {n}: key [{key}]", n=n, key=key) + "\n" + said
    else:
        c = view.find_card(ref)
        if c is None:
            like = cards_starting(view, ref)
            if len(like) > 1:
                defs = [view.game.vocab.card_defs[view.game.card_def_index[x]] for x in like]
                listed = ", ".join(f"{d.names.get(view.lang)} [{d.id}]" for d in defs)
                return view.wrap(view.word("  cards whose name starts with '{ref}': {cards}; give one's id or whole name",
                                           ref=ref, cards=listed), 4)
            if not like:
                return view.word("  no card '{ref}': give an option's number or a card's id or name", ref=ref)
            c = like[0]
    return "\n".join("  " + ln for ln in view.card_text(c).splitlines())


def _helped(view: Any, st: Any, options: list[list], i: int) -> str:
    """'? N' for option ``i``: its action's text, the card granting it and the card it
    names; else the howto's help of the choice, and the card it names."""
    c = view.subject(st.pending, i, st, st.pending.player)
    action = action_of(st.pending, i)
    if action is not None:      # the action's text, the card granting it, the card it names
        ai, granted = action
        shown = [x for x in dict.fromkeys((granted, c)) if x is not None]
        parts = [action_text(view, ai)] + [view.card_text(x) for x in shown]
        return "\n".join("  " + ln for ln in "\n".join(parts).splitlines())
    told = choice_help(view, st, options, i)
    if c is None:
        return told or view.word("  option {n} names no card", n=i + 1)
    card = "\n".join("  " + ln for ln in view.card_text(c).splitlines())
    return told + "\n" + card if told else card


def cards_starting(view: Any, ref: str) -> list[int]:
    """The first copy of each card whose id or name (in any language) starts with
    ``ref``, in any case: '? Orsini' finds the tiles named 'Orsini (5)' and so on."""
    g, ref = view.game, ref.strip().lower()
    found: dict[str, int] = {}
    for c in range(g.ncards):
        d = g.vocab.card_defs[g.card_def_index[c]]
        if d.id not in found and (d.id.startswith(ref) or any(n.lower().startswith(ref) for _, n in d.names.by_locale)):
            found[d.id] = c
    return list(found.values())


def action_of(dec: Any, i: int) -> Optional[tuple[int, Optional[int]]]:
    """(action index, the card granting it or None) of an action menu's option ``i``."""
    if not isinstance(dec.describer, ActionDescriber):
        return None
    ai, card, _ = dec.values[i]
    return ai, (None if card is None or card < 0 else card)


def action_text(view: Any, ai: int) -> str:
    """An action's entry: 'Take 2 coins  [take_coins]  (action)' and its ``text:``."""
    a = view.action_defs[ai]
    if a is None:
        return f"{view.game.actions[ai].name}  [{view.game.actions[ai].id}]  " + view.word("(action)")
    lines = [f"{a.names.get(view.lang)}  [{a.id}]  " + view.word("(action)")]
    text = a.text.get(view.lang)
    if text:
        lines.append(view.wrap("  " + text, 2, view.width - 2))     # '?' shows it two columns in
    return "\n".join(lines)
