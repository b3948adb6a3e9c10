"""Compiling a pack's rules against its vocabulary, once, for ``meeple.runtime.game.Game``.

``compile_rules`` checks and compiles every rule: functions (checked, inlined where
used), procedures, card hooks and handlers, actions, the flow (setup, rounds, end
test, scoring) and the ranking's expressions; it works out what each is charged in
steps, and (``generate``) writes the rules as Python (``meeple.dsl.pygen``). The code
units go to the vocabulary's ``result``; the engine's tables come back as one
``CompiledRules``.
"""
from __future__ import annotations

from typing import Callable, Optional

from meeple.dsl.compiler import Code, Compiler
from meeple.dsl.runtime import ActionDescriber, Frame
from meeple.dsl.steps import ONCE_FREE
from meeple.dsl.typesys import BOOL, CARD, INT, Bool, Card, Enum, Int, Player, Text
from meeple.dsl.vocabulary import Vocabulary

from meeple.core.errors import ContentError, MeepleError, Problem, Problems, suggest
from meeple.loading import model as M
from meeple.runtime.checks import check_cards, check_declarations, check_dice, check_view, fact_functions
from meeple.runtime.tables import CompiledAction, CompiledRules, Layout

FACT_TYPES = (Int, Bool, Text, Player, Enum, Card)      # what a function named in view: facts may give


def compile_rules(pack: M.Pack, v: Vocabulary, layout: Layout, problems: Problems,
                  generate: bool = True, maybe_none: bool = False) -> CompiledRules:
    """Check and compile every rule of ``pack``. ``generate`` (games that will run; 'meeple
    validate' passes False) also writes the rules as Python (dsl/pygen.py), the one back
    end; without it the rules are checked only, and run by nothing. Values that are always
    none where none stops the game are warned of (dsl/guards.py); with ``maybe_none``,
    every unguarded use of one that may be."""
    return _Compiling(pack, v, layout, problems, generate, maybe_none).run()


class _Compiling:
    """One compile of a pack: the compiler, the errors found and the actions made so far."""

    def __init__(self, pack: M.Pack, v: Vocabulary, layout: Layout, problems: Problems, generate: bool, maybe_none: bool):
        self.pack, self.g, self.v, self.layout, self.problems = pack, pack.game, v, layout, problems
        self.errors: list[MeepleError] = []
        self.comp = Compiler(v, self.errors)
        self.comp.keep = not generate      # a game checked only keeps its texts as checked, for the rules text
        if not generate:       # warnings are for 'meeple validate': a game that will run skips the look
            from meeple.dsl.guards import Guards
            self.comp.guards = Guards(set(v.zone_index), set(v.function_defs), maybe_none)
        if generate:
            from meeple.dsl.pygen import PyGen
            self.comp.gen = PyGen(v, pack.info.id)
        self.actions: list[CompiledAction] = []
        self.rule_actions: dict[str, list[CompiledAction]] = {}
        self.card_actions: dict[int, list[CompiledAction]] = {}
        self.action_prices: dict[int, list] = {}     # action index -> (resource, amount, locals): display only
        self.action_floors: dict[int, list] = {}     # the same for what its later choices cost at least
        self.action_abouts: dict[int, tuple] = {}    # action index -> (the card it is about, locals): display only
        self.price_errors: list[MeepleError] = []
        self.max_action_locals = 1

    def run(self) -> CompiledRules:
        g, v, comp, problems = self.g, self.v, self.comp, self.problems
        check_declarations(self.pack, v, problems)
        check_cards(self.pack, v, problems)
        self._routines()
        self._all_actions()
        setup, round_ = (comp.unit(name, src) for name, src in (("setup", g.setup), ("round", g.round)))
        scoring = tuple(comp.unit("scoring" if part.id == "scoring" else f"scoring {part.id}", part.body) for part in g.scoring)
        end_when, end_code = comp.expression("end_when", g.end_when, want=BOOL)
        comp.settle_steps()
        codes = v.result.codes
        # a round, its statements, its end test and the walks folded into them are charged as
        # the round begins; the setup and the final scoring theirs as they begin (each once a game)
        round_steps = 1 + codes[round_].cost + codes[round_].statements + end_code.cost
        setup_steps = 1 + codes[setup].cost + codes[setup].statements
        scoring_steps = tuple(1 + codes[c].cost + codes[c].statements for c in scoring)     # each part's, as it begins
        for a in self.actions:          # an effect run once a choice: charged only when it does much (ONCE_FREE)
            code = codes[a.effect]
            a.steps = code.cost + code.statements if code.cost + code.statements > ONCE_FREE else 0
        menu_steps = self._menu_steps()
        tiebreak = [comp.expression(f"tiebreak {i + 1}", t, want=INT) for i, t in enumerate(g.tiebreak)]
        evaluation = comp.expression("evaluation", g.evaluation, want=INT) if g.evaluation else None
        live_score = comp.expression("live score", g.live, want=INT) if g.live else None
        rounds = comp.expression("view rounds", g.view.rounds, want=INT) if g.view.rounds else None
        limits = {zone: (*comp.expression(f"view totals {zone} at_most", src, want=INT), names)
                  for zone, src, names, _ in g.view.limits}
        fact_functions = self._fact_functions()
        self._report()
        describer = self._describer()
        menus = self._menus()
        return CompiledRules(
            actions=self.actions, rule_actions=self.rule_actions, card_actions=self.card_actions,
            action_prices=self.action_prices, action_floors=self.action_floors, action_abouts=self.action_abouts, max_action_locals=self.max_action_locals, menus=menus,
            action_describer=describer, menu_steps=menu_steps, setup_code=setup, round_code=round_,
            scoring_codes=scoring, end_when=end_when, end_code=end_code, setup_steps=setup_steps,
            round_steps=round_steps, scoring_steps=scoring_steps, tiebreak=tiebreak, evaluation=evaluation,
            live_score=live_score, rounds=rounds, limits=limits, score_res=v.res_index.get(g.score, 0),   # the loader has checked it is a resource (or reported it)
            can_refuse=v.result.uses_require, pygen=comp.gen, fact_functions=fact_functions)

    def _fact_functions(self) -> dict[tuple[str, str], tuple]:
        """The functions ``view: facts`` names, each compiled as a value of its one card:
        (its generated function, its code, its type), a number, a flag, a text, a seat, an
        enum's value or a card (``check_view`` has reported any other name)."""
        g, v, out = self.g, self.v, {}
        functions = {f.name: f for f in g.functions}
        for kind, _, names in g.view.facts:
            for name, span in names:
                if name not in fact_functions(g, kind) or (kind, name) in out:
                    continue
                f = functions[name]
                params = tuple((x.name, v.type_of(x.type)) for x in f.params)
                fn, code, t = self.comp.typed_expression(f"view facts {kind} {name}", f.body, params)
                if t is not None and not isinstance(t, FACT_TYPES):
                    self.problems.add(ContentError(f"view: facts: '{name}' gives {t.describe()}; a fact is a number, "
                                                   "a flag, a text, a seat, an enum's value or a card", span))
                    fn = None
                out[(kind, name)] = (fn, code, t)
        return out

    def _routines(self) -> None:
        """Functions (checked once here, errors reported here; inlined where they are used, so
        nothing is generated for them here: it would never run), procedures, and the cards'
        hooks and handlers."""
        g, v, comp, out = self.g, self.v, self.comp, self.v.result
        gen, comp.gen = comp.gen, None
        for f in g.functions:
            before = len(self.errors)
            comp.expression(f"function {f.name}", f.body, tuple((x.name, v.type_of(x.type)) for x in f.params))
            if len(self.errors) > before:
                out.broken_functions.add(f.name)
        comp.gen = gen
        comp.plan_calls({p.name: p.body for p in g.procedures})
        for p in g.procedures:
            out.proc_code[p.name] = comp.unit(f"procedure {p.name}", p.body, tuple((x.name, v.type_of(x.type)) for x in p.params))
        for di, c in enumerate(self.pack.cards):
            for hook, src in c.hooks:
                out.hook_code[(di, hook)] = comp.unit(f"{c.id}.{hook}", src)
            for event, src in c.handlers:
                if event not in v.event_defs:
                    self.errors.append(ContentError(f"unknown event '{event}'", src.span, suggest(event, list(v.event_defs))))
                    continue
                params = tuple((x.name, v.type_of(x.type)) for x in v.event_defs[event].params)
                out.handler_code[(di, event)] = comp.unit(f"{c.id} on {event}", src, params)

    def _all_actions(self) -> None:
        """The rules' actions by group, then each card's (a card's action needs a group)."""
        for a in self.g.actions:
            self.rule_actions.setdefault(a.group, []).append(self._action(a, -1))
        for di, c in enumerate(self.pack.cards):
            for a in c.actions:
                if not a.group:
                    self.errors.append(ContentError(f"card action '{a.id}' needs a group (one of: "
                                                    f"{', '.join(self.v.action_groups) or 'none'})", a.span))
                    continue
                self.card_actions.setdefault(di, []).append(self._action(a, di))

    def _action(self, a: M.ActionDef, card_def: int) -> CompiledAction:
        comp, codes = self.comp, self.v.result.codes
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
            effect = len(codes)
            codes.append(Code(f"action {a.id}"))
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
        self._price(a, ca, params)
        self.max_action_locals = max(self.max_action_locals, ca.nlocals)
        self.actions.append(ca)
        return ca

    def _price(self, a: M.ActionDef, ca: CompiledAction, params: tuple) -> None:
        """What the action costs, and what its later choices cost at least, shown beside it
        (meeple play): display only, never run by a game."""
        for key, declared, table in (("price", a.price, self.action_prices),
                                     ("then_at_least", a.then_at_least, self.action_floors)):
            for res, src, span in declared:
                if res not in self.v.res_index:
                    self.price_errors.append(ContentError(f"action '{a.id}': {key}: unknown resource '{res}'", span,
                                                          suggest(res, self.v.res_names)))
                    continue
                fn, pcode = self.comp.expression(f"{a.id} {key}", src, params, want=INT, me_bound=True)
                if fn is not None:
                    table.setdefault(ca.index, []).append((res, fn, max(pcode.nlocals, ca.nlocals)))
        if a.about is not None:
            fn, acode = self.comp.expression(f"{a.id} about", a.about, params, want=CARD, me_bound=True)
            if fn is not None:
                self.action_abouts[ca.index] = (fn, max(acode.nlocals, ca.nlocals))

    def _menu_steps(self) -> dict[str, int]:
        """Per action group, the steps of a menu that no choice precedes (the first of a
        'play actions'), charged as it starts: each action's folded walks and, where cards
        grant actions, every card the player's zones may hold (a menu looks at each)."""
        out = {}
        for group in self.v.action_groups:
            acts = list(self.rule_actions.get(group, ())) + [a for acts in self.card_actions.values() for a in acts if a.group == group]
            granted = any(a.group == group for acts in self.card_actions.values() for a in acts)
            out[group] = 1 + sum(a.menu_cost for a in acts) + (self.v.ncards if granted else 0)
        return out

    def _report(self) -> None:
        """The errors and warnings found, and the checks that need the rules compiled."""
        problems, layout = self.problems, self.layout
        problems.extend(self.errors)
        if self.comp.guards is not None:
            started = {self.g.zones[layout.slot_zone[slot]].name for slot in layout.card_home}
            problems.warnings += [Problem(message, span) for message, span in self.comp.guards.warnings(started)]
        check_dice(self.pack, self.v, problems)
        check_view(self.pack, self.v, problems)
        problems.extend(self.price_errors)

    def _describer(self) -> ActionDescriber:
        """Keys and labels of action decisions' options: per action (id, name, keyer or None,
        text or None), and how a parameter's option is told in detail."""
        described: list[tuple] = []
        details: list[Optional[Callable]] = []
        for a in self.actions:
            if a.binder is None:
                described.append((a.id, a.name, None, None))
                details.append(None)
            else:
                keyer, text, shown = self.v.describe(a.binder[2])
                a.shown = shown
                described.append((a.id, a.name, keyer, text))
                details.append(self.v.detail(a.binder[2]))
        return ActionDescriber(described, details)

    def _menus(self) -> dict[str, Callable]:
        """The generated action menus by group, when the rules were generated without error."""
        menus: dict[str, Callable] = {}
        gen = self.comp.gen
        if gen is not None and not self.errors and not self.problems.errors:
            for group in self.v.action_groups:
                granted = {d: [a for a in acts if a.group == group] for d, acts in self.card_actions.items()}
                granted = {d: acts for d, acts in granted.items() if acts}
                menus[group] = gen.menu(group, self.rule_actions.get(group, []), granted, self.layout.player_live_slots,
                                        self.v.card_def_index, self.max_action_locals, self.v.ncards, Frame)
            gen.finish()
        return menus
