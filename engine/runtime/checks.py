"""Rules of a pack that need its whole vocabulary, checked as it is compiled: where
cards start, that card field values have their types, that every name of ``view:``
is declared, that a die has faces. Unknown names, kinds and types in the game
definition are the loader's checks (``meeple.loading.reader``).
"""
from __future__ import annotations

import os
import re
from typing import Optional

from meeple.dsl.source import Source
from meeple.dsl.typesys import INT, PLAYER
from meeple.dsl.vocabulary import Vocabulary

from meeple.core.errors import ContentError, Problem, Problems, Span, suggest
from meeple.loading import model as M


def check_declarations(pack: M.Pack, v: Vocabulary, problems: Problems) -> None:
    """Rules of the vocabulary that need the whole pack; unknown names, kinds and
    types in the game definition are the loader's checks (engine/loading/reader.py)."""
    g = pack.game
    for c in pack.cards:
        if c.per_player and v.kind_cvars.get(c.kind, {}).get("owner") != PLAYER:
            problems.add(ContentError(f"card '{c.id}' has per_player copies, so its kind '{c.kind}' needs a variable 'owner: player?'", c.span))
    for c in pack.cards:
        if c.starts_in is None:
            continue
        z = pack.game.zones[v.zone_index[c.starts_in]] if c.starts_in in v.zone_index else None
        if z is None:
            problems.add(ContentError(f"card '{c.id}' starts in unknown zone '{c.starts_in}'", c.span, suggest(c.starts_in, list(v.zone_index))))
        elif z.holds != c.kind:
            problems.add(ContentError(f"card '{c.id}' cannot start in '{c.starts_in}', which holds {z.holds} cards", c.span))
        elif (z.per_player and c.copies) or z.of_card is not None:
            problems.add(ContentError(f"card '{c.id}' cannot start in '{c.starts_in}': only per_player pieces start in a zone each player has", c.span))
    for k in g.card_kinds:
        home = pack.game.zones[v.zone_index[k.starts_in]] if k.starts_in in v.zone_index else None
        if home is not None and home.per_player and any(c.kind == k.name and c.copies and not c.starts_in for c in pack.cards):
            problems.add(ContentError(f"'{k.name}' cards start in '{k.starts_in}', a zone each player has: only per_player pieces can", k.span))
        if home is not None and home.of_card is not None:
            problems.add(ContentError(f"'{k.name}' cards cannot start in '{k.starts_in}', a zone of each {home.of_card} card", k.span))



def fact_functions(g: M.GameDef, kind: str) -> list[str]:
    """The pack's functions that ``view: facts`` may name for cards of ``kind``: those of
    one parameter, a card of that kind (their value is shown as a number)."""
    return [f.name for f in g.functions if len(f.params) == 1 and f.params[0].type.name == kind]


def check_view(pack: M.Pack, v: Vocabulary, problems: Problems) -> None:
    """Every name of ``view:`` is one the pack declares, in the place it may
    stand: a wrong one is an error at its line, as a wrong rule name is."""
    view = pack.game.view
    zones = {z.name: z for z in pack.game.zones}
    kinds = {k.name: k for k in pack.game.card_kinds}

    def bad(message: str, span: Span, name: str, known) -> None:
        problems.add(ContentError(message, span, suggest(name, list(known))))
    for kind, span, fs in view.facts:
        if kind not in kinds:
            bad(f"view: facts: unknown card kind '{kind}'", span, kind, kinds)
            continue
        have = [f.name for f in kinds[kind].fields] + [x.name for x in kinds[kind].variables] + fact_functions(pack.game, kind)
        for f, fspan in fs:
            if f not in have:
                bad(f"view: facts: card kind '{kind}' has no field, variable or function of one {kind} '{f}'", fspan, f, have)
    shared = [n for n in v.gvar_index] + [z for z, zd in zones.items() if not zd.per_player]
    for name, span in view.board:
        if name not in shared:
            bad(f"view: board: '{name}' is not a game variable or a shared zone", span, name, shared)
    own = list(v.res_names) + list(v.pvar_index) + [z for z, zd in zones.items() if zd.per_player]
    for name, span in view.player:
        if name not in own:
            bad(f"view: player: '{name}' is not a resource, a player variable or a per-player zone", span, name, own)
    listed = {n for n, _ in view.board + view.player}
    for name, span in view.count:
        if name not in zones or name not in listed:
            bad(f"view: count: '{name}' is not a zone listed in view: board or view: player", span, name,
                [z for z in zones if z in listed])
    for name, var, span in view.totals:
        if name not in zones or name not in listed:
            bad(f"view: totals: '{name}' is not a zone listed in view: board or view: player", span, name,
                [z for z in zones if z in listed])
            continue
        held = kinds.get(zones[name].holds)
        numbers = [x.name for x in held.variables if x.type.name == "int"] if held is not None else []
        if var not in numbers:
            bad(f"view: totals: '{name}': its cards have no number variable '{var}'", span, var, numbers)
    mine = {n for n, _ in view.player if n in zones}
    for name, span in view.reveal:
        if name not in mine:
            bad(f"view: reveal: '{name}' is not a zone listed in view: player", span, name, sorted(mine))
    listed_vars = {n for n, _ in (*view.board, *view.player)} & {x.name for x in (*pack.game.variables, *pack.game.player_variables)}
    for name, span in view.working:
        if name not in listed_vars:
            bad(f"view: working: '{name}' is not a variable listed in view: board or view: player", span, name, sorted(listed_vars))
    if view.prompts:       # a warning, for the pack that wrote them: an expansion may leave out what asked one
        asked = texts_written(pack)
        own = pack.load_order[-1][2] if len(pack.load_order) > 1 else None
        for text, _, span in view.prompts:
            if text not in asked and (own is None or os.path.abspath(span.file).startswith(os.path.abspath(own) + os.sep)):
                hint = suggest(text, list(asked))
                problems.warnings.append(Problem(f"view: prompts: no rule asks '{text}'" + (f"; {hint}" if hint else ""), span))
    own_file = pack.load_order[-1][2] if len(pack.load_order) > 1 else None
    if view.words:         # a warning too: a word that matches nothing the pack shows is a typo
        known = pack_words(pack)
        for text, _, span in view.words:
            if text not in known and (own_file is None or os.path.abspath(span.file).startswith(os.path.abspath(own_file) + os.sep)):
                hint = suggest(text, sorted(known))
                problems.warnings.append(Problem(f"view: words: '{text}' is no word the pack shows" + (f"; {hint}" if hint else ""), span))
    check_howto(pack, problems)


def pack_words(pack: M.Pack) -> set[str]:
    """What ``view: words`` may name: a text the rules write, a refusal, an enum value, a
    card kind, a card field or variable, a function the view's facts show, a variable's
    id, a card's text field's value (shown by the view's facts, so its other languages
    are words the pack shows)."""
    g = pack.game
    out = texts_written(pack) | {n for _, values in g.enums for n in values}
    out |= {f for kind, _, fs in g.view.facts for f, _ in fs if f in fact_functions(g, kind)}
    for k in g.card_kinds:
        out |= {k.name} | {f.name for f in k.fields} | {x.name for x in k.variables}
    out |= {x.name for x in (*g.variables, *g.player_variables)}
    out |= {a.refusal for a in (*g.actions, *(a for c in pack.cards for a in c.actions)) if a.refusal}
    out |= {v for c in pack.cards for _, v in c.fields if isinstance(v, str)}
    return out


def check_howto(pack: M.Pack, problems: Problems) -> None:
    """A warning for a howto's help of a choice no rule asks, or of an option no rule
    writes (a typo would leave '? N' without its text), for the pack that wrote it."""
    if not any(h.choices for h in pack.howto):
        return
    asked = texts_written(pack)
    names = {n for _, values in pack.game.enums for n in values}
    own = pack.load_order[-1][0]
    for h in pack.howto:
        if h.pack != own:
            continue
        for c in h.choices:
            if c.prompt not in asked:
                hint = suggest(c.prompt, list(asked))
                problems.warnings.append(Problem(f"howto: choices: no rule asks '{c.prompt}'" + (f"; {hint}" if hint else ""), c.span))
                continue
            for label, _ in c.options:       # a label, a menu word, a number, or a name (an enum value)
                if label not in asked and label not in ("skip", "done") and not label.lstrip("-").isdigit() \
                        and label not in names:
                    problems.warnings.append(Problem(f"howto: choices: '{c.prompt}': no rule offers the option '{label}'", c.span))



def texts_written(pack: M.Pack) -> set[str]:
    """Every quoted text of the rules (the prompts a person may be asked), and the menu's own."""
    g = pack.game
    sources: list[Optional[Source]] = [g.setup, g.round, *(part.body for part in g.scoring), *(p.body for p in g.procedures)]
    for a in [*g.actions, *(a for c in pack.cards for a in c.actions)]:
        sources += [a.when, a.with_, a.effect]
    for c in pack.cards:
        sources += [src for _, src in (*c.hooks, *c.handlers)]
    found = {"choose an action"}
    for src in sources:
        if src is not None:
            found.update(m.group(1) for m in re.finditer(r'"([^"\n]*)"', src.text))
    return found



def check_dice(pack: M.Pack, v: Vocabulary, problems: Problems) -> None:
    """Every card a ``roll`` may roll has 1 to MAX_FACES faces: a die of 0 faces (or
    none, or a negative number) cannot be rolled, and a roll happens at play time."""
    rolled = v.result.rolled
    if not rolled:
        return
    declared = {k.name: k for k in pack.game.card_kinds}
    dice = {k for k in declared if v.kind_fields[k].get("faces") == INT and v.kind_cvars[k].get("value") == INT}
    rolls = dice if "" in rolled else rolled & dice
    for c in pack.cards:
        if c.kind not in rolls:
            continue
        faces = dict(c.fields).get("faces")
        if faces is not None and (not isinstance(faces, int) or isinstance(faces, bool) or 1 <= faces <= M.MAX_FACES):
            continue           # in range, or not a number at all (which the card checks report)
        where = dict(c.field_spans).get("faces")
        if where is None:         # the kind's default
            where = next((f.span for f in declared[c.kind].fields if f.name == "faces"), c.span)
        problems.add(ContentError(f"card '{c.id}': a die has 1 to {M.MAX_FACES} faces, not {'none' if faces is None else faces} "
                                  f"(a roll gives it a value from 1 to its faces)", where))



def check_cards(pack: M.Pack, v: Vocabulary, problems: Problems) -> None:
    """Every card field value has its declared type (enum values spelled right)."""
    kinds = {k.name: k for k in pack.game.card_kinds}
    for c in pack.cards:
        kind = kinds.get(c.kind)
        if kind is None:
            continue
        spans = dict(c.field_spans)
        declared = {f.name: f for f in kind.fields}
        for name, value in c.fields:
            f = declared.get(name)
            if f is None or name not in spans:
                continue
            t = f.type
            if value is None:
                if not t.nullable:
                    problems.add(ContentError(f"card '{c.id}': {name} may not be empty", spans[name]))
                continue
            ok = True
            hint = None
            if t.name == "int":
                ok = isinstance(value, int) and not isinstance(value, bool)
                want = "a whole number"
            elif t.name == "bool":
                ok = isinstance(value, bool)
                want = "true or false"
            elif t.name == "text":
                ok = isinstance(value, str)
                want = "a text"
            elif t.name in v.enums:
                ok = value in v.enums[t.name]
                want = f"one of {', '.join(v.enums[t.name])}"
                hint = suggest(str(value), v.enums[t.name])
            elif t.name in kinds or t.name == "card":
                ok = value in v.card_index
                want = "a card id"
                hint = suggest(str(value), list(v.card_index))
            else:
                want = t.name
            if not ok:
                problems.add(ContentError(f"card '{c.id}': {name} must be {want}, not {value!r}", spans[name], hint))
            elif t.name == "int" and f.minimum is not None and value < f.minimum:
                problems.add(ContentError(f"card '{c.id}': {name} must be at least {f.minimum}, not {value}", spans[name]))
            elif t.name == "int" and f.maximum is not None and value > f.maximum:
                problems.add(ContentError(f"card '{c.id}': {name} must be at most {f.maximum}, not {value}", spans[name]))
