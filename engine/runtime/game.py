"""A compiled game: the pack's vocabulary as index tables plus compiled code.

``Game`` is built once per pack and shared, read-only, by every state (and
every worker process). It owns the decision protocol: ``new_state``,
``apply`` (refuses an illegal choice with a reason, state untouched),
``view`` (what one player may see), and final scores.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Callable, Optional

from meeple.dsl.compiler import Code, Compiler
from meeple.dsl.steps import ONCE_FREE
from meeple.dsl.runtime import ActionDescriber, Frame
from meeple.dsl.typesys import BOOL, INT, PLAYER, Card, Type
from meeple.dsl.vocabulary import Vocabulary

from meeple.loading import model as M
from meeple.runtime.actions import Actions
from meeple.core.errors import ContentError, MeepleError, PackInvalid, Problem, Problems, Span, suggest
from meeple.runtime.flow import MAIN, MAX_DECISIONS, MAX_DEPTH, STEP_BUDGET, Flow
from meeple.runtime.redeal import Knowledge
from meeple.runtime.state import State
from meeple.runtime.views import Views

if TYPE_CHECKING:
    from meeple.dsl.source import Source

__all__ = ["Game", "load_game", "MAIN", "MAX_DECISIONS", "MAX_DEPTH", "STEP_BUDGET"]


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
    menu_meta: Optional[tuple] = None     # generated menus: the parameter's source before copying, its type, caches
    shown: tuple = ()                     # card variables its options' labels read (a die's value): kept with the decision
    # its part of a menu, in steps: its walks folded (``meeple.dsl.steps.StepPlanner.fold``), in
    # its 'when' and its parameter; and how the parameter's walk is charged when it is not: (factor, where)
    menu_cost: int = 0
    walk: tuple = (0, None)
    steps: int = 0                        # what its effect is charged as it starts (0: little enough to be free)
    # the frame its effect runs in when the effect never pauses: reused, since such an
    # effect runs to its end before the next action can be chosen (no state keeps it)
    scratch: Frame = field(default_factory=lambda: Frame(-1, 0, [], -1, -1))
    # the codes its 'when' and 'with' were compiled into (their recipes): a fault while a
    # menu lists it is told in the language's words (``Actions.action_fault``)
    when_code: Optional[Code] = None
    binder_code: Optional[Code] = None


class Game(Flow, Actions, Views):
    """A pack compiled. The constructor builds, in named steps, the pack's
    ``Vocabulary`` (what the compiler may know: names, index tables, zone slots)
    and the engine's own tables; ``compile`` hands the vocabulary to the compiler.
    Every vocabulary table is also an attribute of the game (the same object)."""

    def __init__(self, pack: M.Pack):
        self.pack = pack
        g = pack.game
        self.defn = g
        self.id = pack.info.id
        self.min_players, self.max_players = g.min_players, g.max_players
        self.max_decisions = g.max_decisions       # choices per game before it is stopped (a loop that never ends)
        self.vocab = Vocabulary(min_players=g.min_players, max_players=g.max_players)
        self._resources()
        self._options_constants_enums()
        self._variables()
        self._card_kinds()
        self._cards()
        self._zones()
        self._definitions()
        self._expose()
        self._engine_tables()
        self._card_homes()
        self.var_columns = self._var_columns()
        self.knowledge = Knowledge(self)      # what each seat cannot see, worked out as asked

    # ------------------------------------------------------------ vocabulary, step by step
    def _resources(self) -> None:
        """Counters every player has, with bounds and starting values."""
        v, g = self.vocab, self.defn
        v.res_names = [r.name for r in g.resources]
        v.res_index = {n: i for i, n in enumerate(v.res_names)}
        v.nres = len(v.res_names)
        v.res_min = [r.minimum for r in g.resources]
        v.res_max = [r.maximum for r in g.resources]
        v.res_start = [r.start for r in g.resources]

    def _options_constants_enums(self) -> None:
        """Enums first: the types of everything declared later may name one."""
        v, g = self.vocab, self.defn
        v.enums = {k: vs for k, vs in g.enums}
        v.enum_of_value = {x: k for k, vs in g.enums for x in vs}
        v.constants = {c.name: {n: c.value(n) for n in range(g.min_players, g.max_players + 1)} for c in g.constants}
        v.option_index = {o.name: i for i, o in enumerate(g.options)}
        v.option_defaults = [o.default for o in g.options]

    def _variables(self) -> None:
        """Game and player variables: columns of ``st.gvars`` / ``st.pvars``."""
        v, g = self.vocab, self.defn
        v.gvar_index = {x.name: i for i, x in enumerate(g.variables)}
        v.gvar_types = [v.type_of(x.type) for x in g.variables]
        v.gvar_defaults = [x.default for x in g.variables]
        v.pvar_index = {x.name: i for i, x in enumerate(g.player_variables)}
        v.pvar_types = [v.type_of(x.type) for x in g.player_variables]
        v.pvar_defaults = [x.default for x in g.player_variables]
        v.npvars = len(g.player_variables)
        self.hidden_vars = {x.name for x in (*g.variables, *g.player_variables) if x.visibility == "nobody"}

    def _card_kinds(self) -> None:
        """Per kind: its fields, its card variables (columns of ``st.cvars``) and hooks."""
        v, g = self.vocab, self.defn
        self.kinds = {k.name: k for k in g.card_kinds}
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

    def _cards(self) -> None:
        """Card instances (a definition's copies, and per-seat pieces) and their tables."""
        v, g = self.vocab, self.defn
        self.card_defs = list(self.pack.cards)
        v.card_defs = self.card_defs
        v.card_index = {c.id: i for i, c in enumerate(self.card_defs)}
        v.kind_cards = {k.name: [] for k in g.card_kinds}
        for di, c in enumerate(self.card_defs):
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
        v.card_def_ids = [self.card_defs[d].id for d in v.card_def_index]
        # a card-typed field holds a card id in YAML and that card (its first copy) at run time
        first_copy: dict[str, int] = {}
        for c, d in enumerate(v.card_def_index):
            first_copy.setdefault(self.card_defs[d].id, c)
        card_fields = [i for n, i in v.field_index.items() if isinstance(v.all_fields[n], Card)]
        if card_fields:
            rows = []
            for values in v.card_fields:
                row = list(values)
                for i in card_fields:
                    row[i] = first_copy.get(row[i]) if row[i] is not None else None
                rows.append(tuple(row))
            v.card_fields = rows
        v.card_names = [self.card_defs[d].names.get() for d in v.card_def_index]
        v.ncards = len(v.card_def_index)

    def _zones(self) -> None:
        """Zones and their slots (numbered for the largest game, see ``_layout``)."""
        v = self.vocab
        self.zone_defs = list(self.defn.zones)
        v.zone_defs = self.zone_defs
        v.zone_index = {z.name: i for i, z in enumerate(self.zone_defs)}
        self._layout(self.defn.max_players)

    def _definitions(self) -> None:
        """Events, procedures, functions and action groups a rule may name."""
        v, g = self.vocab, self.defn
        v.event_defs = {e.name: e for e in g.events}
        v.proc_defs = {p.name: p for p in g.procedures}
        v.function_defs = {f.name: f for f in g.functions}
        v.action_groups = sorted({a.group for a in g.actions} | {a.group for c in self.pack.cards for a in c.actions})

    def _expose(self) -> None:
        """The vocabulary's tables as attributes of the game (the same objects), and the
        code tables the compiler will fill (``uses_require`` and ``broken_functions``
        are read from the compile result through properties)."""
        v = self.vocab
        for f in fields(Vocabulary):
            if f.name != "result":
                setattr(self, f.name, getattr(v, f.name))
        r = v.result
        self.codes: list[Code] = r.codes
        self.proc_code: dict[str, int] = r.proc_code
        self.hook_code: dict[tuple[int, str], int] = r.hook_code
        self.handler_code: dict[tuple[int, str], int] = r.handler_code

    def _engine_tables(self) -> None:
        """What only the engine reads: dice values in views, compiled actions and menus."""
        self.value_var = self.cvar_index.get("value")     # dice show their value in views
        self.has_value = [self.card_defs[d].kind in self.kind_cvars and "value" in self.kind_cvars[self.card_defs[d].kind]
                          for d in self.card_def_index]
        self.actions: list[CompiledAction] = []
        self.action_prices: dict[int, list] = {}     # action index -> (resource, amount, locals): display only
        self.price_errors: list = []
        self.max_action_locals = 1
        self.rule_actions: dict[str, list[CompiledAction]] = {}
        self.card_actions: dict[int, list[CompiledAction]] = {}
        self.menus: dict[str, Callable] = {}      # generated action menus by group (see dsl/pygen.py)

    def _card_homes(self) -> None:
        """The starting zone slot of each card."""
        self.card_home: list[int] = []
        for c, di in enumerate(self.card_def_index):
            d = self.card_defs[di]
            zone = d.starts_in or (self.kinds[d.kind].starts_in if d.kind in self.kinds else None)
            zi = self.zone_index.get(zone) if zone is not None else None
            self.card_home.append(self.zone_base[zi] + max(0, self.card_seat[c]) if zi is not None else 0)

    @property
    def uses_require(self) -> bool:
        """Some rule can refuse mid-effect: apply() then keeps a copy to restore (set by the compiler)."""
        return self.vocab.result.uses_require

    @property
    def broken_functions(self) -> set[str]:
        """Pack functions whose body did not compile (set by compiling)."""
        return self.vocab.result.broken_functions

    # ------------------------------------------------------------ layout
    def _layout(self, players: int) -> None:
        """Zone slots: per-player zones take one slot per *seat of the largest
        game*, so compiled code (which captured zone bases) works at every count."""
        v = self.vocab
        zone_base, slot_owner, slot_card = [], [], []
        self.slot_zone = []
        slot = 0
        for zi, z in enumerate(self.zone_defs):
            zone_base.append(slot)
            if z.of_card is not None:
                hosts = v.kind_cards.get(z.of_card, [])
                for c in hosts:
                    slot_owner.append(-1)
                    self.slot_zone.append(zi)
                    slot_card.append(c)
                    slot += 1
                continue
            for p in range(players if z.per_player else 1):
                slot_owner.append(p if z.per_player else -1)
                self.slot_zone.append(zi)
                slot_card.append(-1)
                slot += 1
        v.zone_base = self.zone_base = zone_base
        v.slot_owner = self.slot_owner = slot_owner
        v.slot_card = self.slot_card = slot_card
        self.nslots = slot
        self.in_play_slots = [s for s in range(slot) if self.zone_defs[self.slot_zone[s]].in_play]
        self.player_live_slots = [[s for s in self.in_play_slots if self.slot_owner[s] == p] for p in range(players)]

    def live_slots(self, st: State) -> list[int]:
        return [s for s in self.in_play_slots if self.slot_owner[s] < st.players]

    def evaluate(self, st: State, text: str, player: Optional[int] = None) -> Any:
        """The value of an effect-language expression in a state (``me`` is
        ``player``): for tests, tools and a designer's console. Errors are raised."""
        from meeple.dsl.parser import parse
        from meeple.dsl.types import Unit, _Scope
        from meeple.dsl.source import TextOrigin
        origin = TextOrigin("<expression>", 1, 1, False)
        unit = Unit(Code("expression"), origin, _Scope())
        errors: list = []
        fn, _ = Compiler(self.vocab, errors).expr(unit, parse(text, origin, "expr_start"))
        st.budget = STEP_BUDGET            # an evaluation has a step budget of its own
        return fn(st, Frame(-1, 0, [None] * (unit.code.nlocals + 1), -1 if player is None else player, -1))

    def expression(self, text: str, want: Optional[Type] = None, name: str = "--eval") -> tuple[Callable, Code]:
        """Compile an effect-language expression given outside the pack (a bot's evaluation
        on the command line, ``--eval``), checked as the pack's own texts are: (closure, its
        code: the locals it needs and the name its run-time errors give). Its text is a file
        of one line named ``name`` for its errors, which show it with a caret; PackInvalid
        lists them."""
        from meeple.dsl.source import Source, TextOrigin
        from meeple.core.errors import remember_source
        remember_source(name, text)
        origin = TextOrigin(name, 1, 1, False)
        errors: list = []
        fn, code = Compiler(self.vocab, errors).expression(name, Source(text, origin, Span(name, 1, 1, max(1, len(text)))), want=want)
        if errors or fn is None:
            problems = Problems()
            problems.extend(errors)
            raise PackInvalid(problems)
        return fn, code

    def hidden_slots_of(self, player: int) -> list[int]:
        """Zone slots whose cards (or their order) ``player`` does not see."""
        return self.knowledge.hidden_slots(player)

    # ------------------------------------------------------------ the vocabulary's questions
    def seat_cards(self, kind: str) -> list[list[int]]:
        """The pieces of a kind that belong to each seat."""
        return self.vocab.seat_cards(kind)

    def type_of(self, t: M.TypeRef) -> Type:
        return self.vocab.type_of(t)

    def known_names(self) -> list[str]:
        return self.vocab.known_names()

    def describe(self, t: Type) -> tuple[Callable, Callable, tuple]:
        """How options of type ``t`` are shown (see ``Vocabulary.describe``)."""
        return self.vocab.describe(t)

    def compile(self, problems: Problems, generate: bool = True, maybe_none: bool = False) -> None:
        """Check and compile every rule. ``generate`` (games that will run; 'meeple
        validate' passes False) also writes the rules as Python (dsl/pygen.py);
        without it the closures run, which tests keep as the reference back end.
        Values that are always none where none stops the game are warned of
        (dsl/guards.py); with ``maybe_none``, every unguarded use of one that may be."""
        g = self.defn
        errors: list[MeepleError] = []
        comp = Compiler(self.vocab, errors)
        if not generate:       # warnings are for 'meeple validate': a game that will run skips the look
            from meeple.dsl.guards import Guards
            comp.guards = Guards(set(self.zone_index), set(self.function_defs), maybe_none)
        if generate:
            from meeple.dsl.pygen import PyGen
            comp.gen = PyGen(self.vocab, self.id)
        self._check_vocabulary(problems)
        self._check_cards(problems)
        out = self.vocab.result      # what compiling produces (self.codes, self.proc_code, ... are its tables)
        # functions are checked once here, errors reported here; inlined where they are used (so
        # nothing is generated for them here: it would never run)
        gen, comp.gen = comp.gen, None
        for f in g.functions:
            before = len(errors)
            comp.expression(f"function {f.name}", f.body, tuple((x.name, self.type_of(x.type)) for x in f.params))
            if len(errors) > before:
                out.broken_functions.add(f.name)
        comp.gen = gen
        comp.plan_calls({p.name: p.body for p in g.procedures})
        for p in g.procedures:
            out.proc_code[p.name] = comp.unit(f"procedure {p.name}", p.body, tuple((x.name, self.type_of(x.type)) for x in p.params))
        for di, c in enumerate(self.card_defs):
            for hook, src in c.hooks:
                out.hook_code[(di, hook)] = comp.unit(f"{c.id}.{hook}", src)
            for event, src in c.handlers:
                if event not in self.event_defs:
                    errors.append(ContentError(f"unknown event '{event}'", src.span, suggest(event, list(self.event_defs))))
                    continue
                params = tuple((x.name, self.type_of(x.type)) for x in self.event_defs[event].params)
                out.handler_code[(di, event)] = comp.unit(f"{c.id} on {event}", src, params)
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
        self.end_when, self._end_code = comp.expression("end_when", g.end_when, want=BOOL)
        comp.settle_steps()
        self.menu_steps = self._menu_steps()
        # a round, its statements, its end test and the walks folded into them are charged as
        # the round begins; the setup and the final scoring theirs as they begin (each once a game)
        self.round_steps = 1 + self.codes[self.round_code].cost + self.codes[self.round_code].statements + self._end_code.cost
        self.setup_steps, self.scoring_steps = (1 + c.cost + c.statements for c in (self.codes[self.setup_code], self.codes[self.scoring_code]))
        for a in self.actions:          # an effect run once a choice: charged only when it does much (ONCE_FREE)
            code = self.codes[a.effect]
            a.steps = code.cost + code.statements if code.cost + code.statements > ONCE_FREE else 0
        self.tiebreak = [comp.expression(f"tiebreak {i + 1}", t, want=INT) for i, t in enumerate(g.tiebreak)]
        self.evaluation = comp.expression("evaluation", g.evaluation, want=INT) if g.evaluation else None
        self.live_score = comp.expression("live score", g.live, want=INT) if g.live else None
        self.score_res = self.res_index.get(g.score, 0)     # the loader has checked it is a resource (or reported it)
        problems.extend(errors)
        if comp.guards is not None:
            started = {self.zone_defs[self.slot_zone[slot]].name for slot in self.card_home}
            problems.warnings += [Problem(message, span) for message, span in comp.guards.warnings(started)]
        self._check_dice(problems)
        self._check_view(problems)
        problems.extend(self.price_errors)
        described: list[tuple] = []     # per action: (id, name, keyer or None, text or None)
        details: list[Optional[Callable]] = []
        for a in self.actions:
            if a.binder is None:
                described.append((a.id, a.name, None, None))
                details.append(None)
            else:
                keyer, text, shown = self.describe(a.binder[2])
                a.shown = shown
                described.append((a.id, a.name, keyer, text))
                details.append(self.vocab.detail(a.binder[2]))
        self.action_describer = ActionDescriber(described, details)
        if comp.gen is not None and not errors and not problems.errors:
            for group in self.action_groups:
                granted = {d: [a for a in acts if a.group == group] for d, acts in self.card_actions.items()}
                granted = {d: acts for d, acts in granted.items() if acts}
                self.menus[group] = comp.gen.menu(group, self.rule_actions.get(group, []), granted, self.player_live_slots,
                                                  self.card_def_index, self.max_action_locals, self.ncards, Frame)
            comp.gen.finish()
        self.pygen = comp.gen
        self.can_refuse = self.uses_require      # read at every choice: a plain attribute

    def _menu_steps(self) -> dict[str, int]:
        """Per action group, the steps of a menu that no choice precedes (the first of a
        'play actions'), charged as it starts: each action's folded walks and, where cards
        grant actions, every card the player's zones may hold (a menu looks at each)."""
        out = {}
        for group in self.action_groups:
            acts = list(self.rule_actions.get(group, ())) + [a for acts in self.card_actions.values() for a in acts if a.group == group]
            granted = any(a.group == group for acts in self.card_actions.values() for a in acts)
            out[group] = 1 + sum(a.menu_cost for a in acts) + (self.ncards if granted else 0)
        return out

    def _check_vocabulary(self, problems: Problems) -> None:
        """Rules of the vocabulary that need the whole pack; unknown names, kinds and
        types in the game definition are the loader's checks (engine/loading/reader.py)."""
        g = self.defn
        for c in self.card_defs:
            if c.per_player and self.kind_cvars.get(c.kind, {}).get("owner") != PLAYER:
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

    def _check_view(self, problems: Problems) -> None:
        """Every name of ``view:`` is one the pack declares, in the place it may
        stand: a wrong one is an error at its line, as a wrong rule name is."""
        v = self.defn.view
        zones = {z.name: z for z in self.zone_defs}
        kinds = {k.name: k for k in self.defn.card_kinds}

        def bad(message: str, span: Span, name: str, known) -> None:
            problems.add(ContentError(message, span, suggest(name, list(known))))
        for kind, span, fs in v.facts:
            if kind not in kinds:
                bad(f"view: facts: unknown card kind '{kind}'", span, kind, kinds)
                continue
            have = [f.name for f in kinds[kind].fields]
            for f, fspan in fs:
                if f not in have:
                    bad(f"view: facts: card kind '{kind}' has no field '{f}'", fspan, f, have)
        shared = [n for n in self.gvar_index] + [z for z, zd in zones.items() if not zd.per_player]
        for name, span in v.board:
            if name not in shared:
                bad(f"view: board: '{name}' is not a game variable or a shared zone", span, name, shared)
        own = list(self.res_names) + list(self.pvar_index) + [z for z, zd in zones.items() if zd.per_player]
        for name, span in v.player:
            if name not in own:
                bad(f"view: player: '{name}' is not a resource, a player variable or a per-player zone", span, name, own)
        listed = {n for n, _ in v.board + v.player}
        for name, span in v.count:
            if name not in zones or name not in listed:
                bad(f"view: count: '{name}' is not a zone listed in view: board or view: player", span, name,
                    [z for z in zones if z in listed])
        if v.prompts:       # a warning, for the pack that wrote them: an expansion may leave out what asked one
            asked = self._texts_written()
            own = self.pack.load_order[-1][2] if len(self.pack.load_order) > 1 else None
            for text, _, span in v.prompts:
                if text not in asked and (own is None or os.path.abspath(span.file).startswith(os.path.abspath(own) + os.sep)):
                    hint = suggest(text, list(asked))
                    problems.warnings.append(Problem(f"view: prompts: no rule asks '{text}'" + (f"; {hint}" if hint else ""), span))

    def _texts_written(self) -> set[str]:
        """Every quoted text of the rules (the prompts a person may be asked), and the menu's own."""
        g = self.defn
        sources: list[Optional[Source]] = [g.setup, g.round, g.scoring, *(p.body for p in g.procedures)]
        for a in [*g.actions, *(a for c in self.card_defs for a in c.actions)]:
            sources += [a.when, a.with_, a.effect]
        for c in self.card_defs:
            sources += [src for _, src in (*c.hooks, *c.handlers)]
        found = {"choose an action"}
        for src in sources:
            if src is not None:
                found.update(m.group(1) for m in re.finditer(r'"([^"\n]*)"', src.text))
        return found

    def _check_dice(self, problems: Problems) -> None:
        """Every card a ``roll`` may roll has 1 to MAX_FACES faces: a die of 0 faces (or
        none, or a negative number) cannot be rolled, and a roll happens at play time."""
        rolled = self.vocab.result.rolled
        if not rolled:
            return
        dice = {k for k in self.kinds if self.kind_fields[k].get("faces") == INT and self.kind_cvars[k].get("value") == INT}
        kinds = dice if "" in rolled else rolled & dice
        for c in self.card_defs:
            if c.kind not in kinds:
                continue
            faces = dict(c.fields).get("faces")
            if faces is not None and (not isinstance(faces, int) or isinstance(faces, bool) or 1 <= faces <= M.MAX_FACES):
                continue           # in range, or not a number at all (which the card checks report)
            where = dict(c.field_spans).get("faces")
            if where is None:         # the kind's default
                where = next((f.span for f in self.kinds[c.kind].fields if f.name == "faces"), c.span)
            problems.add(ContentError(f"card '{c.id}': a die has 1 to {M.MAX_FACES} faces, not {'none' if faces is None else faces} "
                                      f"(a roll gives it a value from 1 to its faces)", where))

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
                elif t.name == "int" and f.minimum is not None and value < f.minimum:
                    problems.add(ContentError(f"card '{c.id}': {name} must be at least {f.minimum}, not {value}", spans[name]))
                elif t.name == "int" and f.maximum is not None and value > f.maximum:
                    problems.add(ContentError(f"card '{c.id}': {name} must be at most {f.maximum}, not {value}", spans[name]))

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
        when, wcode = comp.expression(f"{a.id} when", a.when, want=BOOL, me_bound=True) if a.when else (None, Code(""))
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
        ca.menu_meta = comp.gen.binder_meta if comp.gen is not None and binder else None
        ca.when_code = wcode if a.when else None
        ca.binder_code = bcode if binder else None
        ca.menu_cost = 1 + wcode.cost + (bcode.cost if binder else 0)
        ca.walk = bcode.walk if binder and bcode.walk is not None else (0, None)
        for res, src, span in a.price:      # display only (meeple play): never run by a game
            if res not in self.res_index:
                self.price_errors.append(ContentError(f"action '{a.id}': price: unknown resource '{res}'", span,
                                                      suggest(res, self.res_names)))
                continue
            fn, pcode = comp.expression(f"{a.id} price", src, params, want=INT, me_bound=True)
            if fn is not None:
                self.action_prices.setdefault(ca.index, []).append((res, fn, max(pcode.nlocals, ca.nlocals)))
        self.max_action_locals = max(self.max_action_locals, ca.nlocals)
        self.actions.append(ca)
        return ca


def check_pack(pack: M.Pack, problems: Problems, maybe_none: bool = False) -> Optional[Game]:
    """Build and compile ``pack`` for checking only ('meeple validate'), also when loading
    it reported errors: what loaded is still compiled, so the errors of its rules are
    reported in the same run. When the game's declarations have errors (an unknown
    type, a zone holding an unknown card kind: ``Problems.declarations_broken``), or the
    pack as loaded cannot be built, the rules are not compiled (they would only echo
    those errors): None, with the errors found before.  A pack without load errors is
    compiled as always. ``maybe_none``: also warn of every unguarded use of a value that
    may be none (dsl/guards.py)."""
    if problems.declarations_broken:
        return None
    errors, hidden = len(problems.errors), len(problems.hidden)
    try:
        game = Game(pack)
        game.compile(problems, generate=False, maybe_none=maybe_none)      # checking only: nothing is generated
    except Exception:
        if not errors:
            raise
        del problems.errors[errors:], problems.hidden[hidden:]
        return None
    return game


def load_game(name: str, sets: tuple = (), generate: bool = True) -> Game:
    """Load, validate and compile a pack (an id or a folder, or several joined by '+':
    a game and packs that extend it); PackInvalid lists every error."""
    from meeple.loading.folders import resolve_all
    from meeple.loading.pack import read_packs
    problems = Problems()
    pack = read_packs(resolve_all(name), problems, tuple(sets))
    if pack is None or problems.errors:
        raise _invalid(problems, sets)
    game = Game(pack)
    game.compile(problems, generate=generate)
    if problems.errors:
        raise _invalid(problems, sets)
    return game


def _invalid(problems: Problems, sets: tuple) -> PackInvalid:
    """The pack's errors, those about a --set change naming it."""
    if sets:
        from meeple.loading.sets import name_set_changes
        name_set_changes(problems.errors, tuple(sets))
    return PackInvalid(problems)


if TYPE_CHECKING:
    from meeple.dsl.runtime import RunningGame

    def _runs_compiled_rules(game: Game) -> RunningGame:
        """Read by the type checker only (tests/test_types.py runs it): a ``Game`` offers
        all that the compiled rules read of ``st.game``, each with its type; a table or
        method it lacks, or has of another type, is an error here."""
        return game
