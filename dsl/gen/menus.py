"""One function per action group listing its legal actions for the frame's player.

Rule actions, then actions granted by cards in the player's live zones (a table by card,
bound once the module is compiled: ``Module.late_tables``), each with its per-turn limit,
its 'when' and its parameter walked inline. It must agree with the engine's own listing
(``Game.action_options``), which runs where no generated menu does.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from ..types import Fn
from ..typesys import Zone
from .module import _READS_L, Module, comment, headline
from .walks import MEMO_MAKE

if TYPE_CHECKING:
    from ..pygen import PyGen

_ME_ATTR = re.compile(r"(?<![\w.])fr\.me\b")


def _engine_menu(group: str) -> Callable:
    """A group's listing by the engine (``Game.action_options``): what runs where no
    generated menu does."""
    return lambda st, fr, used: st.game.action_options(st, fr, group, used)


class MenuWriter:
    """Writes the groups' menus; ``menu_names`` are the names the generated 'play actions' call them by."""

    def __init__(self, shared: "PyGen", module: Module):
        self.memo = False         # whether the menu being made uses the evaluation's memo (``inline``)
        self.module = module
        self.g = shared.g
        self.source_of = shared.source_of     # generated function -> (setup lines, expression), to inline it
        self.const, self.fresh = module.const, module.fresh
        self.menu_names: dict[str, str] = {}       # action group -> the made name its menu is called by

    def listed_by_engine(self) -> None:
        """A group given no generated menu lists by the engine."""
        for group, made in self.menu_names.items():
            self.module.ns.setdefault(made, _engine_menu(group))

    def menu(self, group: str, rule_actions: list, granted: dict, live_slots: list, defs: list,
             nlocals: int, ncards: int, frame: type) -> Fn:
        """One function listing a group's legal actions for the frame's player:
        rule actions, then actions granted by cards in the player's live zones,
        each with its per-turn limit, its 'when' and its parameter walked inline.
        Options are [key, label, [action, card, value]], the shape logs and views read."""
        name = self.fresh("g")
        every = list(rule_actions) + [a for acts in granted.values() for a in acts]
        texts = any(a.binder is not None and a.shown for a in every)
        scratch = frame(-1, 0, [None] * nlocals, -1, -1)     # one per menu: menus never run inside each other
        lines = [f"def {name}(st, fr, used):",
                 "    me, this = fr.me, fr.this",
                 f"    fr = {self.const(scratch)}",
                 "    fr.me, fr.this = me, this",
                 "    L = fr.locals",
                 "    out = []",
                 f"    tx = {'[]' if texts else 'None'}"]
        header = len(lines)
        self.memo = False
        for a in rule_actions:
            self.menu_action(lines, 1, a, "None", ncards, texts)
        if self.memo:
            lines.insert(header, "    " + MEMO_MAKE)
        helpers = []
        if granted:
            table = {}
            for d, acts in granted.items():
                fns = []
                for a in acts:
                    hname = self.fresh("m")
                    body = [f"def {hname}(st, fr, L, out, tx, used, _c):"]
                    self.memo = False
                    self.menu_action(body, 1, a, "_c", ncards, texts)
                    if self.memo:         # a card's action: a memo of its own (the menu's is not passed)
                        body.insert(2, "    " + MEMO_MAKE)
                    body.append("    return")
                    helpers.append((hname, "\n".join(body[:1] + body[2:]), body[1].strip()))
                    fns.append(hname)
                table[d] = fns
            tname = self.fresh("k")
            lines += [f"    for _s in {self.const(live_slots)}[fr.me]:",
                      "        for _c in st.zones[_s]:",
                      f"            _acts = {tname}[_c]",
                      "            if _acts is not None:",
                      "                fr.this = _c",
                      "                for _m in _acts:",
                      "                    _m(st, fr, L, out, tx, used, _c)"]
            self.module.late_tables.append((tname, (table, defs)))
        lines.append("    return out, tx")
        # the menu's own lines read the chooser as the local 'me' (it never changes while a
        # menu is made; the walks it calls read the frame's)
        lines = lines[:header] + [_ME_ATTR.sub("me", line) for line in lines[header:]]
        if not any(_READS_L.search(line) for line in lines[header:]):
            lines.remove("    L = fr.locals")
        made = self.module.define(name, "\n".join(lines), head=comment(f"the menu of action group '{group}': the actions a player may take"))
        for hname, text, head in helpers:     # each card action's part of it (``late_tables`` lists them by card)
            self.module.add(head, text)
        if group in self.menu_names:      # the generated 'play actions' of the group call it by this name
            self.module.ns[self.menu_names[group]] = made
        return made

    def inline(self, lines: list, depth: int, fn: Fn) -> str:
        found = self.source_of(fn)
        for setup in found[0]:
            if setup == MEMO_MAKE:        # one memo for the whole menu: nothing changes while it is made
                self.memo = True
                continue
            lines.append("    " * depth + setup)
        return found[1]

    def menu_action(self, lines: list, depth: int, a: Any, card: str, ncards: int, texts: bool) -> None:
        """One action's options appended to ``out`` (and, when the menu keeps snapshots,
        ``texts``: a None for each option that has none), after a comment naming it."""
        ind = "    " * depth
        code = self.g.result.codes[a.effect]
        rule = f"action {a.id}" if a.card_def < 0 else f"action {a.id} of card {self.g.card_defs[a.card_def].id}"
        lines.append(ind + headline(rule, code.recipe[1].span if code.recipe else None))
        if a.per_turn is not None:
            key = f"{a.index * (ncards + 1)} + {card} + 1" if card != "None" else str(a.index * (ncards + 1))
            lines.append(f"{ind}if _uses(used, {key}) < {self.const(a.per_turn)}:")
            depth += 1
            ind = "    " * depth
        if a.when is not None:
            lines.append(f"{ind}if {self.inline(lines, depth, a.when)}:")
            depth += 1
            ind = "    " * depth
        if a.binder is None:
            lines.append(f"{ind}out.append(({a.index}, {card}, None))")
            if texts:
                lines.append(f"{ind}tx.append(None)")
            return
        _, slot, _, _, cond = a.binder
        raw, st_, hoist = a.menu_meta       # the parameter's items as generated (``Compiler.binder``)
        for h in hoist:
            lines.append(f"{ind}L[{h}] = _U")
        seq = self.inline(lines, depth, raw)
        if isinstance(st_, Zone):
            seq = f"st.zones[{seq}]"
        elif seq.endswith("[:]"):       # a kind's cards: the menu only reads them, no copy
            seq = seq[:-3]
        factor, where = a.walk
        if factor:               # the parameter's walk charged as ``Game.action_options`` charges it (unless folded)
            lines.append(f"{ind}_xs = {seq}")
            lines += [ind + line for line in self.module.charged("len(_xs)", factor, self.const(where))]
            seq = "_xs"
        lines.append(f"{ind}for _x in {seq}:")
        ind2 = "    " * (depth + 1)
        lines.append(f"{ind2}L[{slot}] = _x")      # the walks the condition calls read it there
        if cond is not None:
            mark = len(lines)
            test = self.inline(lines, depth + 1, cond)
            # the condition's own reads of the item take the loop's local
            item = re.compile(rf"(?<![\w\]])L\[{slot}\]")
            lines[mark:] = [item.sub("_x", line) for line in lines[mark:]]
            lines.append(f"{ind2}if not {item.sub('_x', test)}:")
            lines.append(f"{ind2}    continue")
        lines.append(f"{ind2}out.append(({a.index}, {card}, _x))")
        if a.shown:              # what labels read of the state (a die's value) is kept with the decision
            ncv = self.g.ncvars
            snap = ", ".join(f"st.cvars[_x * {ncv} + {i}]" for i in a.shown)
            lines.append(f"{ind2}tx.append(({snap},))")
        elif texts:
            lines.append(f"{ind2}tx.append(None)")
