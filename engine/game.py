"""A compiled game: the pack's vocabulary as index tables plus compiled code.

``Game`` is built once per pack and shared, read-only, by every state (and
every worker process). It owns the decision protocol: ``new_state``,
``apply`` (refuses an illegal choice with a reason, state untouched),
``view`` (what one player may see), and final scores.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from dsl.compiler import Code, Compiler
from dsl.runtime import ActionDescriber, Frame

from . import model as M
from .actions import Actions
from .errors import ContentError, MeepleError, PackInvalid, Problems, Span, suggest
from .flow import MAIN, MAX_DEPTH, STEP_BUDGET, Flow
from .state import State
from .views import Views

__all__ = ["Game", "load_game", "MAIN", "MAX_DEPTH", "STEP_BUDGET"]


@dataclass
class CompiledAction:
    index: int
    id: str
    group: str
    name: str
    card_def: int            # -1 for a rule action
    when: Optional[Callable]
    when_text: str
    binder: Optional[tuple]  # (var, slot, type, source, cond)
    binder_text: str
    param_slot: int
    effect: int
    per_turn: Optional[int]
    refusal: Optional[str]
    nlocals: int
    label: Optional[Callable] = None
    menu_meta: Optional[tuple] = None     # generated menus: the parameter's source before copying, its type, caches
    stateful: bool = False                # its options' labels read the state (a die's value): made with the decision


class Game(Flow, Actions, Views):
    def __init__(self, pack: M.Pack):
        self.pack = pack
        g = pack.game
        self.defn = g
        self.id = pack.info.id
        self.min_players, self.max_players = g.min_players, g.max_players
        # resources and variables
        self.res_names = [r.name for r in g.resources]
        self.res_index = {n: i for i, n in enumerate(self.res_names)}
        self.nres = len(self.res_names)
        self.res_min = [r.minimum for r in g.resources]
        self.res_max = [r.maximum for r in g.resources]
        self.res_start = [r.start for r in g.resources]
        self.enums = {k: v for k, v in g.enums}
        self.enum_of_value = {v: k for k, vs in g.enums for v in vs}
        self.constants = {}
        for c in g.constants:
            table = {n: c.value(n) for n in range(g.min_players, g.max_players + 1)}
            self.constants[c.name] = table
        self.option_index = {o.name: i for i, o in enumerate(g.options)}
        self.option_defaults = [o.default for o in g.options]
        self.gvar_index = {v.name: i for i, v in enumerate(g.variables)}
        self.gvar_types = [self.type_of(v.type) for v in g.variables]
        self.hidden_vars = {v.name for v in (*g.variables, *g.player_variables) if v.visibility == "nobody"}
        self.gvar_defaults = [v.default for v in g.variables]
        self.pvar_index = {v.name: i for i, v in enumerate(g.player_variables)}
        self.pvar_types = [self.type_of(v.type) for v in g.player_variables]
        self.pvar_defaults = [v.default for v in g.player_variables]
        self.npvars = len(g.player_variables)
        # card kinds, fields, card variables
        self.kinds = {k.name: k for k in g.card_kinds}
        self.all_fields: dict[str, str] = {}
        self.kind_fields: dict[str, dict[str, str]] = {}
        self.all_cvars: dict[str, str] = {}
        self.kind_cvars: dict[str, dict[str, str]] = {}
        self.kind_hooks = {k.name: k.hooks for k in g.card_kinds}
        self.all_hooks = tuple(h for k in g.card_kinds for h in k.hooks)
        cvar_defaults: dict[str, Any] = {}
        for k in g.card_kinds:
            self.kind_fields[k.name] = {f.name: self.type_of(f.type) for f in k.fields}
            self.all_fields.update(self.kind_fields[k.name])
            self.kind_cvars[k.name] = {v.name: self.type_of(v.type) for v in k.variables}
            self.all_cvars.update(self.kind_cvars[k.name])
            for v in k.variables:
                cvar_defaults[v.name] = v.default
        self.field_index = {n: i for i, n in enumerate(self.all_fields)}
        self.cvar_index = {n: i for i, n in enumerate(self.all_cvars)}
        self.ncvars = len(self.all_cvars)
        self.cvar_default_row = [cvar_defaults[n] for n in self.all_cvars]
        # card definitions and instances
        self.card_defs = list(pack.cards)
        self.card_index = {c.id: i for i, c in enumerate(self.card_defs)}
        self.card_def_index: list[int] = []
        self.card_fields: list[tuple] = []
        self.kind_cards: dict[str, list[int]] = {k.name: [] for k in g.card_kinds}
        self.card_seat: list[int] = []       # pieces belong to a seat; other cards: -1
        for di, c in enumerate(self.card_defs):
            row = [None] * len(self.all_fields)
            for name, value in c.fields:
                if name in self.field_index:
                    row[self.field_index[name]] = value
            seats = [-1] * c.copies + [p for p in range(g.max_players) for _ in range(c.per_player)]
            for seat in seats:
                self.kind_cards.setdefault(c.kind, []).append(len(self.card_def_index))
                self.card_def_index.append(di)
                self.card_fields.append(tuple(row))
                self.card_seat.append(seat)
        self.card_home: list[int] = []                    # starting zone slot of each card (after layout)
        self.value_var = self.cvar_index.get("value")     # dice show their value in views
        self.has_value = [self.card_defs[d].kind in self.kind_cvars and "value" in self.kind_cvars[self.card_defs[d].kind]
                          for d in self.card_def_index]
        self.kind_pos = [0] * len(self.card_def_index)    # index of a card among its kind's cards
        for ids in self.kind_cards.values():
            for i, c in enumerate(ids):
                self.kind_pos[c] = i
        self.card_def_ids = [self.card_defs[d].id for d in self.card_def_index]
        # a card-typed field holds a card id in YAML and that card (its first copy) at run time
        first_copy: dict[str, int] = {}
        for c, d in enumerate(self.card_def_index):
            first_copy.setdefault(self.card_defs[d].id, c)
        card_fields = [i for n, i in self.field_index.items() if self.all_fields[n].startswith("card")]
        if card_fields:
            rows = []
            for row in self.card_fields:
                row = list(row)
                for i in card_fields:
                    row[i] = first_copy.get(row[i]) if row[i] is not None else None
                rows.append(tuple(row))
            self.card_fields = rows
        self.card_names = [self.card_defs[d].names.get() for d in self.card_def_index]
        self.ncards = len(self.card_def_index)
        # zones: slots are numbered per player count, so tables are per count
        self.zone_defs = list(g.zones)
        self.zone_index = {z.name: i for i, z in enumerate(self.zone_defs)}
        self.event_defs = {e.name: e for e in g.events}
        self.proc_defs = {p.name: p for p in g.procedures}
        self.function_defs = {f.name: f for f in g.functions}
        self.action_groups = sorted({a.group for a in g.actions} | {a.group for c in pack.cards for a in c.actions})
        self.zone_base: list[int] = []
        self.slot_owner: list[int] = []
        self.slot_zone: list[int] = []
        self.codes: list[Code] = []
        self.proc_code: dict[str, int] = {}
        self.hook_code: dict[tuple[int, str], int] = {}
        self.handler_code: dict[tuple[int, str], int] = {}
        self.uses_require = False      # set by the compiler: apply() then keeps a copy to restore
        self.actions: list[CompiledAction] = []
        self.max_action_locals = 1
        self.rule_actions: dict[str, list[CompiledAction]] = {}
        self.card_actions: dict[int, list[CompiledAction]] = {}
        self.menus: dict[str, Callable] = {}      # generated action menus by group (see dsl/pygen.py)
        self._layout(g.max_players)
        for c, di in enumerate(self.card_def_index):
            d = self.card_defs[di]
            zone = d.starts_in or (self.kinds[d.kind].starts_in if d.kind in self.kinds else None)
            zi = self.zone_index.get(zone)
            self.card_home.append(self.zone_base[zi] + max(0, self.card_seat[c]) if zi is not None else 0)

    # ------------------------------------------------------------ layout
    def _layout(self, players: int) -> None:
        """Zone slots: per-player zones take one slot per *seat of the largest
        game*, so compiled code (which captured zone bases) works at every count."""
        self.zone_base, self.slot_owner, self.slot_zone, self.slot_card = [], [], [], []
        slot = 0
        for zi, z in enumerate(self.zone_defs):
            self.zone_base.append(slot)
            if z.of_card is not None:
                hosts = self.kind_cards.get(z.of_card, [])
                for c in hosts:
                    self.slot_owner.append(-1)
                    self.slot_zone.append(zi)
                    self.slot_card.append(c)
                    slot += 1
                continue
            for p in range(players if z.per_player else 1):
                self.slot_owner.append(p if z.per_player else -1)
                self.slot_zone.append(zi)
                self.slot_card.append(-1)
                slot += 1
        self.nslots = slot
        self.in_play_slots = [s for s in range(slot) if self.zone_defs[self.slot_zone[s]].in_play]
        self.player_live_slots = [[s for s in self.in_play_slots if self.slot_owner[s] == p] for p in range(players)]

    def live_slots(self, st: State) -> list[int]:
        return [s for s in self.in_play_slots if self.slot_owner[s] < st.players]

    def evaluate(self, st: State, text: str, player: Optional[int] = None) -> Any:
        """The value of an effect-language expression in a state (``me`` is
        ``player``): for tests, tools and a designer's console. Errors are raised."""
        from dsl.parser import parse
        from dsl.types import Unit, _Scope
        from dsl.source import TextOrigin
        origin = TextOrigin("<expression>", 1, 1, False)
        unit = Unit(Code("expression"), origin, _Scope())
        errors: list = []
        fn, _ = Compiler(self, errors).expr(unit, parse(text, origin, "expr_start"))
        return fn(st, Frame(-1, 0, [None] * (unit.code.nlocals + 1), -1 if player is None else player, -1))

    def expression(self, text: str, want: str = "") -> tuple[Callable, int]:
        """Compile an effect-language expression once (a bot's evaluation given on
        the command line, say): (closure, locals it needs); PackInvalid lists errors."""
        from dsl.source import Source, TextOrigin
        origin = TextOrigin("<expression>", 1, 1, False)
        errors: list = []
        fn, code = Compiler(self, errors).expression("expression", Source(text, origin, Span("<expression>", 1, 1)), want=want)
        if errors or fn is None:
            problems = Problems()
            problems.extend(errors)
            raise PackInvalid(problems)
        return fn, code.nlocals

    def hidden_slots_of(self, player: int) -> list[int]:
        """Zone slots whose cards (or their order) ``player`` does not see."""
        cache = self.__dict__.setdefault("_hidden_slots", {})
        if player not in cache:
            from .bots import hidden_slots
            cache[player] = hidden_slots(self, player)
        return cache[player]

    def seat_cards(self, kind: str) -> list[list[int]]:
        """The pieces of a kind that belong to each seat."""
        out: list[list[int]] = [[] for _ in range(self.max_players)]
        for c in self.kind_cards.get(kind, ()):
            if self.card_seat[c] >= 0:
                out[self.card_seat[c]].append(c)
        return out

    def type_of(self, t: M.TypeRef) -> str:
        name = t.name
        if name in ("int", "bool", "player", "text"):
            return name
        if name == "card":
            return "card"
        if name in self.enums if hasattr(self, "enums") else False:
            return "enum:" + name
        return "card:" + name

    def known_names(self) -> list[str]:
        return (list(self.option_index) + list(self.constants) + list(self.gvar_index) + list(self.pvar_index) + list(self.res_index)
                + list(self.zone_index) + list(self.enum_of_value) + list(self.enums) + list(self.kind_cards)
                + ["players", "round", "player_count"])

    def describe(self, t: str) -> tuple[Callable, Optional[Callable], Optional[Callable]]:
        """How options of type ``t`` are shown: (key of an item, its label when the
        label does not depend on the state or None, the (key, label) maker that
        reads the state when it does). Keys never depend on the state."""
        if t.startswith("card"):
            ids, names = self.card_def_ids, self.card_names
            kind = t[5:] if t.startswith("card:") else None
            cvars = self.kind_cvars.get(kind, {}) if kind else {}
            if any(v in cvars for v in ("value", "owner")):
                return ids.__getitem__, None, self.labeller(t)
            return ids.__getitem__, names.__getitem__, None
        if t == "player":
            return (lambda p: f"p{p + 1}"), (lambda p: f"P{p + 1}"), None
        return str, str, None

    def labeller(self, t: str) -> Callable[[State, Any], tuple[str, str]]:
        """(key, label) for a choice option of type ``t``."""
        if t.startswith("card"):
            ids, names = self.card_def_ids, self.card_names
            kind = t[5:] if t.startswith("card:") else None
            cvars = self.kind_cvars.get(kind, {}) if kind else {}
            shown = [(self.cvar_index[v], v) for v in ("value", "owner") if v in cvars]
            if not shown:
                return lambda st, c: (ids[c], names[c])
            ncv = self.ncvars

            def with_state(st, c):
                # the label tells identical cards apart for a person: a die's value, a piece's owner
                parts = []
                for i, v in shown:
                    x = st.cvars[c * ncv + i]
                    parts.append(str(x) if v == "value" else ("neutral" if x is None else f"P{x + 1}"))
                return ids[c], f"{names[c]} ({', '.join(parts)})"
            return with_state
        if t == "player":
            return lambda st, p: (f"p{p + 1}", f"P{p + 1}")
        return lambda st, v: (str(v), str(v))

    # ------------------------------------------------------------ compile
    def compile(self, problems: Problems, generate: bool = True) -> None:
        """Check and compile every rule. ``generate`` (games that will run; 'meeple
        validate' passes False) also writes the rules as Python (dsl/pygen.py);
        without it the closures run, which tests keep as the reference back end."""
        g = self.defn
        errors: list[MeepleError] = []
        comp = Compiler(self, errors)
        if generate:
            from dsl.pygen import PyGen
            comp.gen = PyGen(self)
        self._check_vocabulary(problems)
        self._check_cards(problems)
        self.broken_functions: set[str] = set()
        for f in g.functions:      # checked once here, errors reported here; inlined where they are used
            before = len(errors)
            comp.expression(f"function {f.name}", f.body, tuple((x.name, self.type_of(x.type)) for x in f.params))
            if len(errors) > before:
                self.broken_functions.add(f.name)
        for p in g.procedures:
            self.proc_code[p.name] = comp.unit(f"procedure {p.name}", p.body, tuple((x.name, self.type_of(x.type)) for x in p.params))
        for di, c in enumerate(self.card_defs):
            for hook, src in c.hooks:
                self.hook_code[(di, hook)] = comp.unit(f"{c.id}.{hook}", src)
            for event, src in c.handlers:
                if event not in self.event_defs:
                    errors.append(ContentError(f"unknown event '{event}'", src.span, suggest(event, list(self.event_defs))))
                    continue
                params = tuple((x.name, self.type_of(x.type)) for x in self.event_defs[event].params)
                self.handler_code[(di, event)] = comp.unit(f"{c.id} on {event}", src, params)
        for a in g.actions:
            self.rule_actions.setdefault(a.group, []).append(self._action(comp, a, -1))
        for di, c in enumerate(self.card_defs):
            for a in c.actions:
                if not a.group:
                    errors.append(ContentError(f"card action '{a.id}' needs a group (one of: {', '.join(self.action_groups) or 'none'})", a.span))
                    continue
                self.card_actions.setdefault(di, []).append(self._action(comp, a, di))
        self.setup_code = comp.unit("setup", g.setup)
        self.round_code = comp.unit("round", g.round)
        self.scoring_code = comp.unit("scoring", g.scoring)
        self.end_when, self._end_code = comp.expression("end_when", g.end_when, want="bool")
        self.tiebreak = [comp.expression(f"tiebreak {i + 1}", t, want="int") for i, t in enumerate(g.tiebreak)]
        self.evaluation = comp.expression("evaluation", g.evaluation, want="int") if g.evaluation else None
        self.score_res = self.res_index[g.score]     # the loader has checked it is a resource
        problems.extend(errors)
        described = []
        for a in self.actions:
            if a.binder is None:
                described.append((a.id, a.name, None, None))
            else:
                keyer, text, stateful = self.describe(a.binder[2])
                a.stateful = stateful is not None
                described.append((a.id, a.name, keyer, text))
        self.action_describer = ActionDescriber(described)
        if comp.gen is not None and not errors and not problems.errors:
            for group in self.action_groups:
                granted = {d: [a for a in acts if a.group == group] for d, acts in self.card_actions.items()}
                granted = {d: acts for d, acts in granted.items() if acts}
                self.menus[group] = comp.gen.menu(group, self.rule_actions.get(group, []), granted, self.player_live_slots,
                                                  self.card_def_index, self.max_action_locals, self.ncards, Frame)
            comp.gen.finish()
        self.pygen = comp.gen

    def _check_vocabulary(self, problems: Problems) -> None:
        """Rules of the vocabulary that need the whole pack; unknown names, kinds and
        types in the game definition are the loader's checks (engine/pack.py)."""
        g = self.defn
        for c in self.card_defs:
            if c.per_player and self.kind_cvars.get(c.kind, {}).get("owner") != "player":
                problems.add(ContentError(f"card '{c.id}' has per_player copies, so its kind '{c.kind}' needs a variable 'owner: player?'", c.span))
        for c in self.card_defs:
            if c.starts_in is None:
                continue
            z = self.zone_defs[self.zone_index[c.starts_in]] if c.starts_in in self.zone_index else None
            if z is None:
                problems.add(ContentError(f"card '{c.id}' starts in unknown zone '{c.starts_in}'", c.span, suggest(c.starts_in, list(self.zone_index))))
            elif z.holds != c.kind:
                problems.add(ContentError(f"card '{c.id}' cannot start in '{c.starts_in}', which holds {z.holds} cards", c.span))
            elif (z.per_player and c.copies) or z.of_card is not None:
                problems.add(ContentError(f"card '{c.id}' cannot start in '{c.starts_in}': only per_player pieces start in a zone each player has", c.span))
        for k in g.card_kinds:
            home = self.zone_defs[self.zone_index[k.starts_in]] if k.starts_in in self.zone_index else None
            if home is not None and home.per_player and any(c.kind == k.name and c.copies and not c.starts_in for c in self.card_defs):
                problems.add(ContentError(f"'{k.name}' cards start in '{k.starts_in}', a zone each player has: only per_player pieces can", k.span))
            if home is not None and home.of_card is not None:
                problems.add(ContentError(f"'{k.name}' cards cannot start in '{k.starts_in}', a zone of each {home.of_card} card", k.span))

    def _check_cards(self, problems: Problems) -> None:
        """Every card field value has its declared type (enum values spelled right)."""
        for c in self.card_defs:
            kind = self.kinds.get(c.kind)
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
                elif t.name in self.enums:
                    ok = value in self.enums[t.name]
                    want = f"one of {', '.join(self.enums[t.name])}"
                    hint = suggest(str(value), self.enums[t.name])
                elif t.name in self.kinds or t.name == "card":
                    ok = value in self.card_index
                    want = "a card id"
                    hint = suggest(str(value), list(self.card_index))
                else:
                    want = t.name
                if not ok:
                    problems.add(ContentError(f"card '{c.id}': {name} must be {want}, not {value!r}", spans[name], hint))

    def _action(self, comp: Compiler, a: M.ActionDef, card_def: int) -> CompiledAction:
        params: tuple = ()
        binder = None
        binder_text = ""
        if a.with_ is not None:
            if comp.gen is not None:
                comp.gen.binder_meta = None
            binder, bcode = comp.binder(f"{a.id} with", a.with_)
            binder_text = a.with_.text.strip()
            if binder:
                params = ((binder[0], binder[2]),)
        when, wcode = comp.expression(f"{a.id} when", a.when, want="bool", me_bound=True) if a.when else (None, Code(""))
        if a.with_ is not None and binder is None:
            # the parameter did not compile (reported): checking the effect would only repeat that error
            effect = len(self.codes)
            self.codes.append(Code(f"action {a.id}"))
        else:
            effect = comp.unit(f"action {a.id}", a.effect, params, me_bound=True)
        ca = CompiledAction(
            index=len(self.actions), id=a.id, group=a.group, name=a.names.get(), card_def=card_def, when=when,
            when_text=a.when.text.strip() if a.when else "", binder=binder, binder_text=binder_text,
            param_slot=0 if binder else -1, effect=effect, per_turn=a.per_turn, refusal=a.refusal,
            nlocals=max(wcode.nlocals, bcode.nlocals if a.with_ is not None else 0, 1) + 1)
        ca.label = self.labeller(binder[2]) if binder else None
        ca.menu_meta = comp.gen.binder_meta if comp.gen is not None and binder else None
        self.max_action_locals = max(self.max_action_locals, ca.nlocals)
        self.actions.append(ca)
        return ca


def load_game(name: str, sets: tuple = (), generate: bool = True) -> Game:
    """Load, validate and compile a pack (an id or a folder, or several joined by '+':
    a game and packs that extend it); PackInvalid lists every error."""
    from .pack import read_packs, resolve_all
    problems = Problems()
    pack = read_packs(resolve_all(name), problems, tuple(sets))
    if pack is None or problems.errors:
        raise PackInvalid(problems)
    game = Game(pack)
    game.compile(problems, generate=generate)
    if problems.errors:
        raise PackInvalid(problems)
    return game
