"""The play view: what ``meeple play`` prints for people, from the pack's declarations.

A pack says how it wants to be read (``view:`` in its game file): the key
facts of each card kind (``facts: {gem: [colour, cost]}``), the board's
shared lines and each player's lines in order (``board:``, ``player:``), the
zones shown as a count (``count:``), and under ``score: live`` a running
score. Without ``view:`` every variable, resource and listed zone is shown,
as before. Everything here reads the state and never changes it: a game
plays the same with or without this module (the golden games prove it).

Lines are wrapped at the terminal's width (100 columns unless told), so a
board of many cards is a few short lines rather than one of 400 columns.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Optional

from meeple.dsl.runtime import ActionDescriber, ChoiceDescriber, Frame, OneOfDescriber
from meeple.dsl.types import RULE_FAULTS, STEP_BUDGET
from meeple.dsl.typesys import PLAYER, Card
from meeple.play.lines import width_of, wrap

from meeple.core.catalogue import say
from meeple.core.errors import MeepleError
from meeple.play.facts import card_facts, total_bound, zone_total
from meeple.runtime.prices import decision_floors, decision_prices, option_about

WIDTH = 100       # columns when the terminal does not say


def _one(word: str, n: int, lang: str) -> str:
    """An English resource word for one of it: 'pay 1 coin', not '1 coins' (a plural
    in -s loses it; 'influence' stays as it is). Other languages have no plural here."""
    if n == 1 and lang == "en" and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _amounts(view, price) -> str:
    """'2 coins, 1 gem': a price's amounts, each resource by its name in the view's language."""
    return ", ".join(view.word("{n} {what}", n=n, what=_one(view.zone_name(res), n, view.lang)) for res, n in price)


def _running(names, lang: str) -> str:
    """A declared name in running text: an English name's capital lowered unless it is an acronym."""
    text = names.get(lang) if names else ""
    return text[0].lower() + text[1:] if text and text[:2] != text[:2].upper() else text


def _rounds(game, st) -> Optional[int]:
    """How many rounds the game lasts (the pack's ``view: rounds``), or None: display only."""
    if game.compiled.rounds is None:
        return None
    fn, code = game.compiled.rounds
    st.budget = STEP_BUDGET
    try:
        return int(fn(st, Frame(-1, 0, [None] * max(1, code.nlocals), -1, -1)) or 0) or None
    except (MeepleError, *RULE_FAULTS):
        return None


@dataclass(frozen=True)
class Line:
    """One thing the board shows: a variable, a resource or a zone, and how."""

    name: str
    what: str              # 'variable' | 'resource' | 'pvariable' | 'zone'
    count: bool = False    # a zone shown as its number of cards
    revealed: bool = False     # a player's zone every player sees once the game is over (view: reveal)
    total: Optional[str] = None     # a number variable of its cards whose total is shown after them (view: totals)
    working: bool = False  # a variable shown only while set, its return to 0 / none not told (view: working)


class TerminalView:
    """Renders boards, standings, changes, option labels and card texts for one game."""

    def __init__(self, game, width: int = WIDTH, lang: str = "en"):
        self.game = game
        self.width = max(40, width)
        self.lang = lang
        # an option's key (the pack's id, English words) shown in brackets in English only:
        # a reader of another language chooses by the menu's numbers ('? N' names the key)
        self.keys_shown = lang == "en"
        g = game.defn
        self.facts: dict[str, tuple[str, ...]] = {k: tuple(f for f, _ in fs) for k, _, fs in g.view.facts}
        # the texts of cards that read no state (``card``), and the kinds whose facts read one (a card variable)
        self._card_texts: dict[tuple[int, bool], str] = {}
        self._read_state = {k for k, fs in self.facts.items()
                            if any(f in game.vocab.kind_cvars.get(k, {}) or (k, f) in game.compiled.fact_functions for f in fs)}
        zones = {z.name: z for z in game.vocab.zone_defs}
        counted = {n for n, _ in g.view.count}
        revealed = {n for n, _ in g.view.reveal}
        totals = {n: var for n, var, _ in g.view.totals}
        self.working = working = {n for n, _ in g.view.working}     # view: working: told when set, not when put back
        if g.view.span is not None:
            self.shared = [Line(n, "variable" if n in game.vocab.gvar_index else "zone", n in counted, total=totals.get(n),
                                working=n in working) for n, _ in g.view.board]
            self.own = [Line(n, "resource" if n in game.vocab.res_index else "pvariable" if n in game.vocab.pvar_index else "zone",
                             n in counted, n in revealed, totals.get(n), n in working) for n, _ in g.view.player]
        else:       # no declared layout: every variable, resource and zone listed on the board
            self.shared = ([Line(v, "variable") for v in game.vocab.gvar_index if v not in game.observer.hidden_vars]
                           + [Line(z.name, "zone") for z in game.vocab.zone_defs if z.board and not z.per_player])
            self.own = ([Line(r, "resource") for r in game.vocab.res_names]
                        + [Line(z.name, "zone") for z in game.vocab.zone_defs if z.board and z.per_player])
        self.zones = zones
        self.resource_names = {r.name: r.names for r in g.resources}
        self.action_defs = [_action_def(game, a) for a in game.actions]
        # the words of the pack's rules in other languages: its prompts, then its other words
        self.texts = {text: names for text, names, _ in (*g.view.words, *g.view.prompts)}
        enums = {value for _, values in g.enums for value in values}     # their words in the howto's glossary
        self.glossary = {n: dict(w.by_locale) for h in game.pack.howto for n, w in h.glossary if n in enums}
        self.var_names = {x.name: x.names for x in (*g.variables, *g.player_variables) if x.names is not None}

    def word(self, text: str, **values) -> str:
        """One of the view's own phrases in the view's language ('your {z}'), from the
        message catalogue (``meeple.core.catalogue``)."""
        return say(text, self.lang, **values)

    def pack_word(self, text: str) -> str:
        """A word of the pack's in the view's language: what its ``view: words`` or
        ``view: prompts`` say for it, else as the pack writes it."""
        names = self.texts.get(text)
        if names is not None and self.lang in dict(names.by_locale):
            return names.get(self.lang)
        return text

    def var_name(self, name: str) -> str:
        """A variable as people call it: its ``name:``, else the pack's word for its id."""
        names = self.var_names.get(name)
        return names.get(self.lang) if names is not None else self.pack_word(name)

    def zone_name(self, name: str) -> str:
        """A zone or a resource as people call it (its ``name:``; a resource's in running
        text: a resource 'pts' named 'Points won' reads 'points won 3'), else its id."""
        z = self.zones.get(name)
        return (z.names.get(self.lang) if z is not None and z.names else "") or _running(self.resource_names.get(name), self.lang) or name

    def prompt(self, prompt: str) -> str:
        """A decision's prompt in the view's language: the pack's (``view: prompts:``),
        else the view's own word, else as the rules write it."""
        if prompt in self.texts:
            return self.pack_word(prompt)
        picks = re.fullmatch(r"(.*) \((\d+) chosen\)", prompt)      # a pick of several says how many so far
        if picks:
            return self.word("{prompt} ({n} chosen)", prompt=self.prompt(picks.group(1)), n=picks.group(2))
        return self.word(prompt)

    # ------------------------------------------------------------ cards
    def name(self, c: int) -> str:
        """A card's name in the view's language."""
        return self.game.vocab.card_defs[self.game.card_def_index[c]].names.get(self.lang)

    def fact_values(self, c: int, st=None, derived: bool = True) -> list[str]:
        """The declared key facts of a card: its fields, and given a state its
        variables and functions listed there (``meeple.play.facts``; ``derived=False``: not
        the functions)."""
        return card_facts(self.game, self.facts, c, st, self.pack_word, self.name, self.lang, self.glossary, derived)

    def card(self, c: int, st=None, seat: bool = True, derived: bool = True) -> str:
        """'Ruby (red, cost 4)'; a player's piece with its seat, a die with its value. A
        card whose text reads nothing of the state (no value shown, no variable among its
        facts) is written once: a game's narration and menus name the same cards thousands
        of times."""
        kept = self._card_texts.get((c, seat))
        if kept is not None:
            return kept
        g = self.game
        text = self.name(c)
        face = g.observer.face(c, st)
        if face is not None:
            text += f"={face}"
        if seat and g.vocab.card_seat[c] >= 0:
            text += f" P{g.vocab.card_seat[c] + 1}"
        facts = self.fact_values(c, st, derived)
        text += f" ({', '.join(facts)})" if facts else ""
        if not g.observer.valued[c] and g.vocab.card_defs[g.card_def_index[c]].kind not in self._read_state:
            self._card_texts[(c, seat)] = text
        return text

    def cards(self, cs, st=None, seat: bool = True) -> str:
        """Cards grouped: 'Worker x8, Emerald (green, cost 1) x2'."""
        counts = Counter(self.card(c, st, seat) for c in cs)
        return ", ".join(k if n == 1 else f"{k} x{n}" for k, n in counts.items())

    def find_card(self, ref: str) -> Optional[int]:
        """A card (its first copy) by id or by name, in any case."""
        g, ref = self.game, ref.strip().lower()
        for c in range(g.ncards):
            d = g.vocab.card_defs[g.card_def_index[c]]
            if ref == d.id or ref in (n.lower() for _, n in d.names.by_locale):
                return c
        return None

    def card_text(self, c: int) -> str:
        """A card's whole entry: name, kind, every field, its text."""
        g = self.game
        d = g.vocab.card_defs[g.card_def_index[c]]
        lines = [f"{d.names.get(self.lang)}  [{d.id}]  ({self.pack_word(d.kind)})"]
        fields = ", ".join(f"{self.pack_word(k)} {self.value(v, None)}" for k, v in d.fields if v not in (None, False, 0, ""))
        if fields:
            lines.append("  " + fields)
        text = d.text.get(self.lang)
        if text:
            if self.lang not in dict(d.text.by_locale):       # the pack has it in English only: said so
                lines.append("  " + self.word("(this text is in English only)"))
            lines.append(wrap("  " + text, self.width - 2, 2))     # '?' shows it two columns in
        for a in d.actions:
            lines.append("  " + self.word("action: {name}", name=a.names.get(self.lang)))
        return "\n".join(lines)

    # ------------------------------------------------------------ board
    def wrap(self, line: str, indent: int, width: Optional[int] = None) -> str:
        """``line`` in lines of the terminal's width (or ``width``), continued ``indent`` columns in."""
        return wrap(line, width or self.width, indent)

    def value(self, v: Any, t) -> Optional[str]:
        """A variable's value as shown: a player 'P2', a card with its facts, a flag 'yes' or 'no'."""
        if v is None:
            return None
        if t == PLAYER:
            return f"P{v + 1}"
        if isinstance(t, Card):
            return self.card(v)
        if isinstance(v, bool):     # a flag in words, a name (an enum value) in the pack's words
            return self.word("yes" if v else "no")
        return self.pack_word(v) if isinstance(v, str) else str(v)

    def zone_text(self, st, line: Line, p: Optional[int], viewer: Optional[int]) -> Optional[str]:
        """'hand: Ruby (red, cost 4), ...', 'deck: 40', 'hand: 4 hidden'; None when empty."""
        g = self.game
        zi = g.vocab.zone_index[line.name]
        z = g.vocab.zone_defs[zi]
        base = g.vocab.zone_base[zi]
        if z.of_card is not None:        # one zone per card of a kind: 'Field 1: Worker P4; ...'
            hosts = g.vocab.kind_cards.get(z.of_card, ())
            if line.count:
                n = sum(len(st.zones[base + k]) for k in range(len(hosts)))
                return f"{self.zone_name(line.name)}: {n}" if n else None
            parts = [f"{self.name(h)}: {self.cards(st.zones[base + k], st)}" if _sees(z, None, viewer)
                     else f"{self.name(h)}: " + self.word("{n} hidden", n=len(st.zones[base + k]))
                     for k, h in enumerate(hosts) if st.zones[base + k]]
            return f"{self.zone_name(line.name)}: " + "; ".join(parts) if parts else None
        cards = st.zones[base + (p or 0)]
        if not cards:
            return None
        name = self.zone_name(line.name)
        if line.count:
            return f"{name}: {len(cards)}"
        if not _sees(z, p, viewer) and not (st.over and line.revealed):     # what the end made public (view: reveal)
            return f"{name}: " + self.word("{n} hidden", n=len(cards))
        total = ""
        if line.total is not None:        # 'dice taken: ... (total 9)': a sum the player would work out
            total = (" (" + self.word("total {n}", n=zone_total(g, st, cards, line.total))
                     + total_bound(g, st, line.name, self.lang, self.word, "; ") + ")")
        return f"{name}: {self.cards(cards, st, seat=p is None)}{total}"

    def live_scores(self, st) -> Optional[list[int]]:
        """Each player's running score (``score: live``), or None: display only."""
        g = self.game
        if g.compiled.live_score is None or st.over:
            return None
        fn, code = g.compiled.live_score
        out = []
        for p in range(st.players):
            st.budget = STEP_BUDGET       # each evaluation has a step budget of its own
            try:
                out.append(int(fn(st, Frame(-1, 0, [None] * max(1, code.nlocals), p, -1)) or 0))
            except (MeepleError, *RULE_FAULTS):       # a position it cannot judge: the score as it stands
                out.append(st.res[p * g.vocab.nres + g.compiled.score_res])
        return out

    def player_values(self, st, p: int, live: Optional[list[int]]) -> list[str]:
        g = self.game
        out = []
        for line in self.own:
            if line.what == "resource":
                i = g.vocab.res_index[line.name]
                v = live[p] if live is not None and i == g.compiled.score_res else st.res[p * g.vocab.nres + i]
                out.append(f"{self.zone_name(line.name)} {v}")
            elif line.what == "pvariable":
                i = g.vocab.pvar_index[line.name]
                if line.name not in g.observer.hidden_vars:
                    raw = st.pvars[p * g.vocab.npvars + i]
                    shown = self.value(raw, g.vocab.pvar_types[i])
                    if shown is not None and raw is not False and raw != 0:     # at 0 or false: nothing to show
                        out.append(f"{self.var_name(line.name)} {shown}")
        return out

    def board(self, st, viewer: Optional[int]) -> str:
        """The board as ``viewer`` sees it (None: only what is public), in the declared layout."""
        g = self.game
        rounds = _rounds(g, st)
        head = (self.word("── the end, after round {n} ", n=st.round) if st.over else self.word("── set-up ") if st.round == 0
                else self.word("── round {n} of {m} ", n=st.round, m=rounds) if rounds else self.word("── round {n} ", n=st.round))
        lines = [head + "─" * max(4, min(40, self.width - width_of(head)))]
        variables = []
        for line in self.shared:
            if line.what == "variable":
                i = g.vocab.gvar_index[line.name]
                shown = None if line.name in g.observer.hidden_vars else self.value(st.gvars[i], g.vocab.gvar_types[i])
                if shown is not None:
                    variables.append(f"{self.var_name(line.name)}: {shown}")
        if variables:
            lines.append(self.wrap("  " + "  ".join(variables), 4))
        for line in self.shared:
            if line.what == "zone":
                text = self.zone_text(st, line, None, viewer)
                if text:
                    lines.append(self.wrap("  " + text, 4))
        live = self.live_scores(st)
        for p in range(st.players):
            you = self.word(" (you)") if p == viewer else ""
            lines.append(self.wrap(f"  P{p + 1}{you}  " + "  ".join(self.player_values(st, p, live)), 8))
            for line in self.own:
                if line.what == "zone":
                    text = self.zone_text(st, line, p, viewer)
                    if text:
                        lines.append(self.wrap("        " + text, 10))
        return "\n".join(lines)

    def standing(self, st) -> str:
        """One line between turns: every player's resources (the running score where declared)."""
        live = self.live_scores(st)
        g = self.game
        parts = []
        for p in range(st.players):
            res = ", ".join(f"{self.zone_name(r)} {live[p] if live is not None and i == g.compiled.score_res else st.res[p * g.vocab.nres + i]}"
                            for i, r in enumerate(g.vocab.res_names))
            for line in self.own:        # a zone's total (view: totals): 'dice taken total 9', as it grows
                if line.total is not None and line.what == "zone":
                    cards = st.zones[g.vocab.zone_base[g.vocab.zone_index[line.name]] + p]
                    res += f", {self.zone_name(line.name)} " + self.word("total {n}", n=zone_total(g, st, cards, line.total))
                    bound = total_bound(g, st, line.name, self.lang, self.word, "")
                    res += f" ({bound})" if bound else ""
            parts.append(f"P{p + 1} {res}")
        return self.wrap("  -- " + " | ".join(parts), 5)

    # ------------------------------------------------------------ what changed
    def snapshot(self, st, viewer: Optional[int]) -> dict:
        """What ``viewer`` sees of the board's lines, to tell later what changed."""
        g = self.game
        out: dict = {}
        live = self.live_scores(st)
        for p in range(st.players):
            for i, r in enumerate(g.vocab.res_names):
                out[(p, r)] = live[p] if live is not None and i == g.compiled.score_res else st.res[p * g.vocab.nres + i]
        for p, lines in [(None, self.shared)] + [(p, self.own) for p in range(st.players)]:
            for line in lines:
                if line.what in ("variable", "pvariable") and line.name not in g.observer.hidden_vars:
                    v = g.vocab
                    i = v.gvar_index[line.name] if p is None else v.pvar_index[line.name]
                    raw, typed = (st.gvars[i], v.gvar_types[i]) if p is None else (st.pvars[p * v.npvars + i], v.pvar_types[i])
                    if not (line.working and (raw is None or raw is False or raw == 0)):     # a working value unset: no line
                        out[(p, line.name)] = ("=", self.value(raw, typed))
                if line.what != "zone":
                    continue
                zi = g.vocab.zone_index[line.name]
                z = g.vocab.zone_defs[zi]
                if z.of_card is not None:
                    continue
                cards = st.zones[g.vocab.zone_base[zi] + (p or 0)]
                out[(p, line.name)] = (len(cards) if line.count else ("hidden", len(cards)) if not _sees(z, p, viewer)
                                       else Counter(self.card(c, st, seat=p is None, derived=False) for c in cards))
        return out

    def marks(self, st) -> dict:
        """The board's declared variables as shown (public ones only): what a choice
        that sets one (a piece marked, a seat robbed) makes visible at once."""
        g = self.game
        out = {}
        for line in self.shared:
            if line.what == "variable" and line.name not in g.observer.hidden_vars:
                i = g.vocab.gvar_index[line.name]
                out[(None, line.name)] = ("=", self.value(st.gvars[i], g.vocab.gvar_types[i]))
        return out

    def changes(self, before: dict, after: dict, lead: str = "  ") -> list[str]:
        """'P3: coins 2 -> 5; vault +Emerald (green, cost 1)': what differs, by player,
        each line ``lead`` in."""
        by: dict = {}
        for key, new in after.items():
            old = before.get(key)
            if old == new:
                continue
            p, name = key
            if isinstance(new, Counter) and isinstance(old, Counter):
                gained, lost = new - old, old - new
                text = " ".join([f"+{k}" + (f" x{n}" if n > 1 else "") for k, n in gained.items()]
                                + [f"-{k}" + (f" x{n}" if n > 1 else "") for k, n in lost.items()])
            elif isinstance(new, tuple) and new[0] == "=":      # a variable: 'murdered none -> Ruby (red, cost 4)'
                none = self.word("none")
                # a working value newly set (view: working) is told as it is: 'black die intercepted 5'
                text = str(new[1]) if old is None and name in self.working else f"{(old[1] if old else None) or none} -> {new[1] or none}"
            elif isinstance(new, int) and isinstance(old, int):       # a resource, a counted zone
                text = f"{old} -> {new}"
            else:       # hidden cards, or a zone that became visible or hidden
                text = f"{_size(old)} -> {_size(new)} " + self.word("hidden" if isinstance(new, tuple) else "cards")
            shown = self.var_name(name) if name in self.var_names or name in self.game.vocab.gvar_index \
                or name in self.game.vocab.pvar_index else self.zone_name(name)
            by.setdefault(p, []).append(f"{shown} {text}")
        out = []
        for p in sorted(by, key=lambda q: -1 if q is None else q):
            who = self.word("board") if p is None else f"P{p + 1}"
            out.append(self.wrap(f"{lead}{who}: " + "; ".join(by[p]), len(lead) + 4))
        return out

    # ------------------------------------------------------------ options
    def subject(self, dec, i: int, st=None, viewer: Optional[int] = None) -> Optional[int]:
        """The card an option is about: the card chosen, an action's card parameter, or
        given the state (whose pending decision ``dec`` is) what a ``choose one``'s
        option says it is about (``about``), if ``viewer`` sees it."""
        d, v, g = dec.describer, dec.values[i], self.game
        if isinstance(d, OneOfDescriber):
            return option_about(g, st, i, viewer) if st is not None and st.pending is dec else None
        if isinstance(d, ChoiceDescriber):
            return v if v != d.skip and g.observer.keys_cards(d.keyer) else None
        if isinstance(d, ActionDescriber):
            ai, _card, param = v
            keyer = d.actions[ai][2]
            if keyer is not None and param is not None and g.observer.keys_cards(keyer):
                return param
            return option_about(g, st, i, viewer) if st is not None and st.pending is dec else None
        return None

    def where(self, st, c: int, viewer: Optional[int]) -> Optional[str]:
        """'P3's vault' / 'your vault' for a card in a player's zone the viewer sees
        (None: a public one), else None."""
        g = self.game
        slot = st.loc[c]
        z = g.vocab.zone_defs[g.layout.slot_zone[slot]]
        if not z.per_player or z.of_card is not None:
            return None
        if not (z.visibility == "public" if viewer is None else g.observer.sees_card(st, c, viewer)):
            return None
        owner = g.slot_owner[slot]
        name = self.zone_name(z.name)
        return self.word("your {z}", z=name) if owner == viewer else self.word("P{n}'s {z}", n=owner + 1, z=name)

    def places(self, st) -> int:
        """How many zones the pending decision's cards lie in (kept per decision): a
        place is worth saying only when the options' cards lie in more than one."""
        dec = st.pending
        cached = getattr(self, "_places", None)
        if cached is None or cached[0] is not dec:
            slots = set()
            for i in range(len(dec.options)):
                c = self.subject(dec, i, st, dec.player)
                if c is not None:
                    slots.add(st.loc[c])
            self._places = cached = (dec, len(slots))
        return cached[1]

    def label(self, st, i: int, label: str, viewer: Optional[int], priced: bool = False) -> str:
        """An option's label with its card's place (when the options' cards lie in more
        than one zone) and key facts: 'Steal a gem: Emerald (P3's vault; green, cost 1)'.
        A card's facts are its kind's printed ones, public with its name; its place only
        if the viewer sees it there."""
        dec = st.pending
        c = self.subject(dec, i, st, viewer)
        if c is not None and (isinstance(dec.describer, OneOfDescriber) or (
                isinstance(dec.describer, ActionDescriber) and c != dec.values[i][2])):
            face = self.game.observer.face(c, st)     # 'hire: Yellow column assistant 1' (an 'about'), a die with its value
            label += f": {self.name(c)}" + (f"={face}" if face is not None else "")
        if priced:        # the chooser's own menu: a price may read what only they see
            label += self.price(st, i)
        if c is None:
            return label
        place = self.where(st, c, viewer)
        if place and self.game.slot_owner[st.loc[c]] == dec.player and (
                self.places(st) == 1 or self.game.vocab.zone_defs[self.game.layout.slot_zone[st.loc[c]]].visibility != "public"):
            place = None        # the chooser's own hand, or all the options' cards in one place of theirs
        parts = [x for x in (place, ", ".join(self.fact_values(c, st))) if x]
        return f"{label} ({'; '.join(parts)})" if parts else label

    def price(self, st, i: int) -> str:
        """', pay 2 coins': what option ``i`` costs (``meeple.runtime.prices``; display only),
        then what its later choices cost at least (', then at least 2 coins'), worked
        out once per decision, each resource by its name."""
        dec = st.pending
        cached = getattr(self, "_prices", None)
        if cached is None or cached[0] is not dec:
            self._prices = cached = (dec, decision_prices(self.game, st), decision_floors(self.game, st))
        price, floor = (table[i] if i < len(table) else None for table in cached[1:])
        out = self.word(", pay {what}", what=_amounts(self, price)) if price else ""
        return out + (self.word(", then at least {what}", what=_amounts(self, floor)) if floor else "")

    def options(self, st, viewer: int) -> list[list]:
        """The pending decision's options with annotated labels (keys unchanged)."""
        return [[opt[0], self.label(st, i, self.localized(st, i, opt[1]), viewer, priced=True), *opt[2:]]
                for i, opt in enumerate(st.pending.options)]

    def localized(self, st, i: int, label: str) -> str:
        """Option ``i``'s label in the view's language: its action's and its card's
        declared names in place of the English ones ('宝石を盗む: ルビー')."""
        dec, g = st.pending, self.game
        d = dec.describer
        if isinstance(d, (ChoiceDescriber, OneOfDescriber)) and dec.values[i] == d.skip:
            return self.word(label)         # 'skip', 'done': the menu's own words
        if self.lang == "en":
            return label
        if isinstance(d, OneOfDescriber) or (isinstance(d, ChoiceDescriber) and self.subject(dec, i) is None):
            return self.pack_word(label)    # an option the rules name, a name (an enum value)
        if isinstance(dec.describer, ActionDescriber):
            ai = dec.values[i][0]
            a = self.action_defs[ai]
            en = dec.describer.actions[ai][1]
            if a is not None and label.startswith(en):
                label = a.names.get(self.lang) + label[len(en):]
        c = self.subject(dec, i)
        if c is not None:
            names = g.vocab.card_defs[g.card_def_index[c]].names
            label = label.replace(names.get("en"), names.get(self.lang), 1)
            if label.endswith("neutral)"):         # a piece of no player's ('White die (4, neutral)')
                label = label[:-len("neutral)")] + self.word("neutral") + ")"
        return label

    # ------------------------------------------------------------ the ? key
    def help(self, answer: str, options: list[list], st) -> str:
        """What '?' answers: the commands, or a card's full text ('? 3', '? ruby')
        (``meeple.play.choicehelp``)."""
        from meeple.play.choicehelp import answer_help
        return answer_help(self, answer, options, st)


def refused(view: TerminalView, err) -> str:
    """Why the engine refused a choice (an ``IllegalChoice``), in the view's language: its
    message from the catalogue with its values where the engine gave them (``words``),
    else as ``refusal`` says a rule's message."""
    text, values = err.words or (err.message, {})
    return view.word(text, **values) if values else refusal(view, text)


def refusal(view: TerminalView, message: str) -> str:
    """Why a rule refused a choice (a ``require``'s message), in the view's language:
    the pack's words for its own message, the catalogue's for the engine's
    (``meeple.dsl.errors.UNMET``), else as written."""
    return view.pack_word(message) if message in view.texts else view.word(message)


def _action_def(game, a):
    """The declaration of a compiled action: its names and text."""
    listed = game.defn.actions if a.card_def < 0 else game.vocab.card_defs[a.card_def].actions
    return next((d for d in listed if d.id == a.id and (a.card_def >= 0 or d.group == a.group)), None)


def _sees(z, p: Optional[int], viewer: Optional[int]) -> bool:
    """Whether ``viewer`` sees the cards of zone ``z`` (of player ``p``, or the board's)."""
    return (z.visibility == "public" or (z.visibility == "owner" and p is not None and p == viewer)) \
        and not (z.ordered and z.visibility != "public")


def _size(v) -> int:
    if isinstance(v, tuple):
        return v[1]
    return sum(v.values()) if isinstance(v, Counter) else v or 0
