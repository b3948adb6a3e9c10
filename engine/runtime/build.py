"""A pack's vocabulary and zone layout, built in named steps before any rule is compiled.

``vocabulary_of`` turns the loaded pack into the ``meeple.dsl.vocabulary.Vocabulary``
the compiler reads (names, index tables, zone slots); ``layout_of`` adds the engine's
own slot tables. Both run once per pack, for ``meeple.runtime.game.Game``.
"""
from __future__ import annotations

from typing import Any

from meeple.dsl.typesys import Card
from meeple.dsl.vocabulary import Vocabulary

from meeple.loading import model as M
from meeple.runtime.tables import Layout


def vocabulary_of(pack: M.Pack) -> Vocabulary:
    """The vocabulary of ``pack``: every table the compiler may read."""
    g = pack.game
    v = Vocabulary(min_players=g.min_players, max_players=g.max_players)
    _resources(v, g)
    _options_constants_enums(v, g)
    _variables(v, g)
    _card_kinds(v, g)
    _cards(v, g, list(pack.cards))
    _zones(v, g)
    _definitions(v, g, pack)
    return v


def _resources(v: Vocabulary, g: M.GameDef) -> None:
    """Counters every player has, with bounds and starting values."""
    v.res_names = [r.name for r in g.resources]
    v.res_index = {n: i for i, n in enumerate(v.res_names)}
    v.nres = len(v.res_names)
    v.res_min = [r.minimum for r in g.resources]
    v.res_max = [r.maximum for r in g.resources]
    v.res_start = [r.start for r in g.resources]
    v.score_res = v.res_index.get(g.score)


def _options_constants_enums(v: Vocabulary, g: M.GameDef) -> None:
    """Enums first: the types of everything declared later may name one."""
    v.enums = {k: vs for k, vs in g.enums}
    v.enum_of_value = {x: k for k, vs in g.enums for x in vs}
    v.constants = {c.name: {n: c.value(n) for n in range(g.min_players, g.max_players + 1)} for c in g.constants}
    v.option_index = {o.name: i for i, o in enumerate(g.options)}
    v.option_defaults = [o.default for o in g.options]


def _variables(v: Vocabulary, g: M.GameDef) -> None:
    """Game and player variables: columns of ``st.gvars`` / ``st.pvars``."""
    v.gvar_index = {x.name: i for i, x in enumerate(g.variables)}
    v.gvar_types = [v.type_of(x.type) for x in g.variables]
    v.gvar_defaults = [x.default for x in g.variables]
    v.pvar_index = {x.name: i for i, x in enumerate(g.player_variables)}
    v.pvar_types = [v.type_of(x.type) for x in g.player_variables]
    v.pvar_defaults = [x.default for x in g.player_variables]
    v.npvars = len(g.player_variables)


def _card_kinds(v: Vocabulary, g: M.GameDef) -> None:
    """Per kind: its fields, its card variables (columns of ``st.cvars``) and hooks."""
    v.kind_hooks = {k.name: k.hooks for k in g.card_kinds}
    v.all_hooks = tuple(h for k in g.card_kinds for h in k.hooks)
    cvar_defaults: dict[str, Any] = {}
    for k in g.card_kinds:
        v.kind_fields[k.name] = {f.name: v.type_of(f.type) for f in k.fields}
        v.all_fields.update(v.kind_fields[k.name])
        v.kind_cvars[k.name] = {x.name: v.type_of(x.type) for x in k.variables}
        v.all_cvars.update(v.kind_cvars[k.name])
        for x in k.variables:
            cvar_defaults[x.name] = x.default
    v.field_index = {n: i for i, n in enumerate(v.all_fields)}
    v.cvar_index = {n: i for i, n in enumerate(v.all_cvars)}
    v.ncvars = len(v.all_cvars)
    v.cvar_default_row = [cvar_defaults[n] for n in v.all_cvars]


def _cards(v: Vocabulary, g: M.GameDef, card_defs: list[M.CardDef]) -> None:
    """Card instances (a definition's copies, and per-seat pieces) and their tables."""
    v.card_defs = card_defs
    v.card_index = {c.id: i for i, c in enumerate(card_defs)}
    v.kind_cards = {k.name: [] for k in g.card_kinds}
    for di, c in enumerate(card_defs):
        row: list[Any] = [None] * len(v.all_fields)
        for name, value in c.fields:
            if name in v.field_index:
                row[v.field_index[name]] = value
        seats = [-1] * c.copies + [p for p in range(g.max_players) for _ in range(c.per_player)]
        for seat in seats:
            v.kind_cards.setdefault(c.kind, []).append(len(v.card_def_index))
            v.card_def_index.append(di)
            v.card_fields.append(tuple(row))
            v.card_seat.append(seat)
    v.kind_pos = [0] * len(v.card_def_index)    # index of a card among its kind's cards
    for ids in v.kind_cards.values():
        for i, c in enumerate(ids):
            v.kind_pos[c] = i
    v.card_def_ids = [card_defs[d].id for d in v.card_def_index]
    # a card-typed field holds a card id in YAML and that card (its first copy) at run time
    first_copy: dict[str, int] = {}
    for c, d in enumerate(v.card_def_index):
        first_copy.setdefault(card_defs[d].id, c)
    card_fields = [i for n, i in v.field_index.items() if isinstance(v.all_fields[n], Card)]
    if card_fields:
        rows = []
        for values in v.card_fields:
            row = list(values)
            for i in card_fields:
                row[i] = first_copy.get(row[i]) if row[i] is not None else None
            rows.append(tuple(row))
        v.card_fields = rows
    v.card_names = [card_defs[d].names.get() for d in v.card_def_index]
    v.ncards = len(v.card_def_index)


def _zones(v: Vocabulary, g: M.GameDef) -> None:
    """Zones and their slots: per-player zones take one slot per *seat of the largest
    game*, so compiled code (which captured zone bases) works at every count."""
    v.zone_defs = list(g.zones)
    v.zone_index = {z.name: i for i, z in enumerate(g.zones)}
    slot = 0
    for z in g.zones:
        v.zone_base.append(slot)
        if z.of_card is not None:
            for c in v.kind_cards.get(z.of_card, []):
                v.slot_owner.append(-1)
                v.slot_card.append(c)
                slot += 1
            continue
        for p in range(g.max_players if z.per_player else 1):
            v.slot_owner.append(p if z.per_player else -1)
            v.slot_card.append(-1)
            slot += 1


def _definitions(v: Vocabulary, g: M.GameDef, pack: M.Pack) -> None:
    """Events, procedures, functions and action groups a rule may name."""
    v.event_defs = {e.name: e for e in g.events}
    v.proc_defs = {p.name: p for p in g.procedures}
    v.function_defs = {f.name: f for f in g.functions}
    v.action_groups = sorted({a.group for a in g.actions} | {a.group for c in pack.cards for a in c.actions})


def layout_of(v: Vocabulary, pack: M.Pack) -> Layout:
    """The engine's slot tables: each slot's zone, the slots in play (in all and by
    seat) and the slot each card starts in."""
    g = pack.game
    slot_zone = [zi for zi, z in enumerate(g.zones)
                 for _ in range(len(v.kind_cards.get(z.of_card, [])) if z.of_card is not None
                                else (g.max_players if z.per_player else 1))]
    nslots = len(slot_zone)
    in_play = [s for s in range(nslots) if g.zones[slot_zone[s]].in_play]
    kinds = {k.name: k for k in g.card_kinds}
    card_home = []
    for c, di in enumerate(v.card_def_index):
        d = pack.cards[di]
        zone = d.starts_in or (kinds[d.kind].starts_in if d.kind in kinds else None)
        zi = v.zone_index.get(zone) if zone is not None else None
        card_home.append(v.zone_base[zi] + max(0, v.card_seat[c]) if zi is not None else 0)
    return Layout(slot_zone=slot_zone, nslots=nslots, in_play_slots=in_play,
                  player_live_slots=[[s for s in in_play if v.slot_owner[s] == p] for p in range(g.max_players)],
                  card_home=card_home)
