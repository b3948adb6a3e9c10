"""Statements that involve players or other code: choices, procedure calls, card hooks,
events and the action loop. Each is an instruction of its own (it pauses, or pushes a
frame, so the running effect stays plain data: ``meeple.dsl.runtime.Frame``), checked into
one ``meeple.dsl.ir`` record that the generator writes (``meeple.dsl.gen.pausing``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from .errors import RuleError, RuleFault, suggest
from .runtime import ChoiceDescriber, OneOfDescriber

from . import ast as A
from . import ir
from .steps import Where
from .types import SKIP, Unit, _Scope, _jump, unwritten
from .typesys import BOOL, INT, PLAYER, List, Type, Zone, card_kind, compatible

if TYPE_CHECKING:
    from .compiler import Compiler


# the prompt and kind of every action decision
ACTION_PROMPT = "choose an action"
ACTION_KIND = "action"
CHOOSE_KIND = "choose"       # and of every one-pick choice


def picks_prompt(prompt: str, picked: int) -> str:
    """The prompt of one more pick of 'choose up to': how many are chosen so far."""
    return f"{prompt} ({picked} chosen)"


def no_such_chooser(st, who) -> RuleError:
    """The error of a choice put to someone who is not a player of this game (a fault of
    the value the rule gave as the chooser: ``meeple.dsl.faults`` names that expression)."""
    return RuleFault(f"a choice for {'none' if who is None else repr(who)}: the one who chooses must be "
                     f"one of the {st.players} players")


class InteractionChecker:
    """Checks choose, choose one, roll, call, do, emit and play actions."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against

    def chooser(self, unit: Unit, node: Optional[A.Node]) -> Optional[ir.Expr]:
        return self.c.exprs.player_expr(unit, node) if node is not None else None

    @staticmethod
    def checked(node: Optional[A.Node], t: Type, e: Optional[ir.Expr]) -> Optional[ir.Expr]:
        """An expression of a statement as checked, for the generator (None when absent)."""
        return ir.Expr(node, t, e.fn) if node is not None and e is not None else None

    def s_Choose(self, unit, s):
        src = self.c.expr(unit, s.source)
        st_ = src.type
        if not st_.is_collection:
            raise self.c.err(unit, s.source.pos, f"choose from a zone or list, not {st_.describe()}")
        et = st_.elem()
        who = self.chooser(unit, s.chooser)
        slot = unit.new_slot(List(et) if s.up_to is not None else et)
        acc = unit.new_slot(List(et)) if s.up_to is not None else -1
        cond = None
        tested = 0            # steps folded into the where-clause's test of each item
        fresh: tuple = ()     # the slots of the where-clause's cached parts
        if s.cond is not None:
            inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
            inner.bind(inner.scope, s.var, slot, et)
            if acc >= 0:          # in 'choose up to', the where-clause sees the picks so far
                inner.bind(inner.scope, "chosen", acc, List(et))
            self.c.exprs.hoist_invariants(inner, s.var, [s.cond])
            with self.c.steps.apart() as each:
                cond = self.c.truth(inner, s.cond)
            tested = each.steps
            fresh = inner.hoist.places() if inner.hoist else ()
        # the options are walked when a where-clause tests them, or the picks so far are left
        # out ('choose up to'): folded, or charged as the walk starts (``fold``)
        factor, where = self.c.steps.walk(unit, s, self.c.steps.bound(s.source, st_), tested) if cond is not None or s.up_to is not None \
            else (0, None)
        up_to = self.c.exprs.number(unit, s.up_to) if s.up_to is not None else None
        at_least = self.c.exprs.number(unit, s.at_least) if s.at_least is not None else None
        unit.bind(unit.scope, s.var, slot, List(et) if up_to else et)
        keyer, text, shown = self.g.describe(et)
        described = ChoiceDescriber(keyer, text, SKIP, "done" if up_to is not None else "skip", self.g.detail(et))
        if s.price:
            described.priced = (slot, self.prices(unit, s.price))
        prompt = s.prompt or (f"choose {s.var}")
        gen = self.c.writer()
        checked = self.checked
        asked = ir.Choose(ir.Expr(s.source, st_, src.fn), isinstance(st_, Zone), checked(s.cond, BOOL, cond), fresh, factor,
                          where, checked(s.chooser, PLAYER, who), slot, acc, checked(s.up_to, INT, up_to),
                          checked(s.at_least, INT, at_least), s.optional, prompt, described, tuple(shown or ()))
        nxt = self.c.here(unit) + 1
        self.c.emit(unit, s.pos, gen.pausing.i_Choose(asked, nxt, gen.head(self.c, unit, s.pos)) if gen is not None else None)

    def prices(self, unit: Unit, price: tuple) -> tuple:
        """A choose's ``price AMOUNT RESOURCE, ...``, checked in its scope (the item's name
        bound): ((resource, amount), ...), the amount its generated function (None when
        checking only). Display only: worked out for each option while the choice waits,
        never run by the rules, so its steps are charged to nothing."""
        out = []
        for amount, res, pos in price:
            if res not in self.g.res_index:
                raise self.c.err(unit, pos, f"price: unknown resource '{res}'", suggest(res, list(self.g.res_index)))
            with self.c.steps.apart():
                out.append((res, self.c.exprs.number(unit, amount).fn))
        return tuple(out)

    def about(self, unit: Unit, node: A.Node) -> Any:
        """An option's ``about EXPR``, checked in its scope: a card (or none). Display only,
        as a price is: read while the choice waits, never run by the rules."""
        with self.c.steps.apart():
            return self.c.exprs.card_expr(unit, node).fn

    def s_Roll(self, unit, s):
        g = self.g
        kind, factor, where = self.c.statements.cards_of(unit, s.dice, "roll")
        fields = g.kind_fields.get(kind, g.all_fields) if kind else g.all_fields
        cvars = g.kind_cvars.get(kind, g.all_cvars) if kind else g.all_cvars
        if fields.get("faces") != INT or cvars.get("value") != INT:
            raise self.c.err(unit, s.dice.pos, f"only dice roll: {kind or 'these'} cards need an int field 'faces' "
                                             "and an int variable 'value'")
        self.c.result.rolled.add(kind or "")      # their faces are checked once all is compiled (1 or more)
        self.c.note(ir.Roll(self.c.statements._cards_t, factor, where, g.card_fields, g.field_index["faces"], g.cvar_index["value"]))
        self.c.plain(unit, s.pos)

    def s_ChooseOne(self, unit, s):
        who = self.chooser(unit, s.chooser)
        conds = [self.c.truth(unit, o.cond) if o.cond is not None else None for o in s.options]
        gen = self.c.writer()
        head = self.c.placeholder(unit, s.pos)
        jumps = []
        starts = []
        for o in s.options:
            starts.append(self.c.here(unit))
            self.c.block(unit, o.body)
            jumps.append(self.c.placeholder(unit, o.pos))
        end = self.c.here(unit)
        for j in jumps:
            self.c.patch(unit, j, _jump(end))
        described = OneOfDescriber([o.label for o in s.options], SKIP)
        if any(o.price for o in s.options):
            described.priced = tuple(self.prices(unit, o.price) if o.price else None for o in s.options)
        if any(o.about is not None for o in s.options):
            described.about = tuple(self.about(unit, o.about) if o.about is not None else None for o in s.options)
        prompt = s.prompt or "choose one"
        asking = unwritten
        if gen is not None:
            asked = ir.ChooseOne(self.checked(s.chooser, PLAYER, who), tuple(self.checked(o.cond, BOOL, f) for o, f in zip(s.options, conds)),
                                 tuple(starts), end, s.optional, prompt, described)
            asking = gen.pausing.i_ChooseOne(asked, gen.head(self.c, unit, s.pos))
        self.c.patch(unit, head, asking)

    def call_args(self, unit: Unit, pos: A.Pos, what: str, params: tuple, args: tuple) -> tuple[ir.Expr, ...]:
        """The arguments of a call, each checked against its parameter's type."""
        if len(args) != len(params):
            takes = f"takes {len(params)} argument(s) ({', '.join(p.name for p in params)})" if params else "takes no arguments"
            raise self.c.err(unit, pos, f"{what} {takes}, given {len(args)}")
        out = []
        for p, a in zip(params, args):
            e = self.c.expr(unit, a)
            want = self.g.type_of(p.type)
            if not compatible(e.type, want):
                raise self.c.err(unit, a.pos, f"{what}: '{p.name}' must be {want.describe()}, found {e.type.describe()}")
            out.append(ir.Expr(a, e.type, e.fn))
        return tuple(out)

    def s_CallProc(self, unit, s):
        g = self.g
        if s.name not in g.proc_defs:
            raise self.c.err(unit, s.pos, f"unknown procedure '{s.name}'", suggest(s.name, list(g.proc_defs)))
        pdef = g.proc_defs[s.name]
        call = ir.Call(s.name, self.call_args(unit, s.pos, f"procedure '{s.name}'", pdef.params, s.args), Where(unit.origin, s.pos))
        gen = self.c.writer()
        nxt = self.c.here(unit) + 1
        self.c.emit(unit, s.pos, gen.pausing.i_CallProc(call, nxt, gen.head(self.c, unit, s.pos)) if gen is not None else None)

    def s_DoHook(self, unit, s):
        g = self.g
        card = self.c.exprs.card_expr(unit, s.card)
        kind = card_kind(card.type)
        hooks = g.kind_hooks.get(kind, ()) if kind else g.all_hooks
        if s.hook not in hooks:
            raise self.c.err(unit, s.pos, f"'{s.hook}' is not a hook of {kind or 'any card kind'}", suggest(s.hook, list(hooks)))
        done = ir.Hook(ir.Expr(s.card, card.type, card.fn), s.hook, Where(unit.origin, s.pos))
        gen = self.c.writer()
        nxt = self.c.here(unit) + 1
        self.c.emit(unit, s.pos, gen.pausing.i_DoHook(done, nxt, gen.head(self.c, unit, s.pos)) if gen is not None else None)

    def s_Emit(self, unit, s):
        g = self.g
        if s.event not in g.event_defs:
            raise self.c.err(unit, s.pos, f"unknown event '{s.event}' (declare it under events:)", suggest(s.event, list(g.event_defs)))
        edef = g.event_defs[s.event]
        emitted = ir.Emit(s.event, self.call_args(unit, s.pos, f"event '{s.event}'", edef.params, s.args), Where(unit.origin, s.pos))
        gen = self.c.writer()
        nxt = self.c.here(unit) + 1
        self.c.emit(unit, s.pos, gen.pausing.i_Emit(emitted, nxt, gen.head(self.c, unit, s.pos)) if gen is not None else None)

    def s_PlayActions(self, unit, s):
        """Two instructions: the turn's start (its first menu's folded walks charged, no action
        used yet), then the menu, offered until the end test holds or nothing is left."""
        g = self.g
        if s.group not in g.action_groups:
            raise self.c.err(unit, s.pos, f"unknown action group '{s.group}'", suggest(s.group, list(g.action_groups)))
        until = self.c.truth(unit, s.until)
        usage = unit.new_slot(List(INT))
        gen = self.c.writer()
        played = ir.PlayActions(s.group, ir.Expr(s.until, BOOL, until.fn), usage, Where(unit.origin, s.pos))
        head = gen.head(self.c, unit, s.pos) if gen is not None else ""
        nxt = self.c.here(unit) + 1
        self.c.emit(unit, s.pos, gen.pausing.play_start(played, nxt, head) if gen is not None else None)
        self.c.emit(unit, s.pos, gen.pausing.i_PlayActions(played, nxt + 1, head) if gen is not None else None)
