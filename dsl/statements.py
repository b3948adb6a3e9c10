"""Checking the statements that change the state: counters, variables, moves, draws,
shuffles, swaps, and the control flow (if, for each, repeat, while, as).

Each ``s_<Node>`` method checks its statement and appends its instructions to the unit's
code: a statement of a run that never pauses is one instruction of the run, which is
written whole (``Compiler.fused``) from what the checker notes of each statement
(``Compiler.note``: a typed record of ``meeple.dsl.ir``); the control flow around
statements that pause is instructions of its own, generated (``meeple.dsl.gen.instructions``).
Statements that involve players or other code are ``meeple.dsl.interaction``'s.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from . import ast as A
from . import ir
from .errors import MeepleError, suggest
from .steps import Where
from .types import KindCheck, Unit, _Scope, _jump
from .typesys import ANY, INT, PLAYER, AnyT, Card, List, Type, Zone, card_kind, compatible

if TYPE_CHECKING:
    from .compiler import Compiler


class StatementChecker:
    """Checks the statements that change the state, and the control flow."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against
        self._target: tuple = ()      # what the last 'set' assigned, for the generator: (kind, index[, whose])
        self._cards_t: Type = ANY     # the type of what the last ``cards_of`` gives, for the generator

    def s_Counter(self, unit, s):
        g = self.g
        if s.resource not in g.res_index:
            raise self.c.err(unit, s.resource_pos, f"unknown resource '{s.resource}'", suggest(s.resource, list(g.res_index)))
        if s.other is not None:
            self.c.exprs.player_expr(unit, s.other)
        if s.amount.expr is not None:
            self.c.exprs.number(unit, s.amount.expr)
        if s.verb not in ("gain", "lose", "give", "pay", "pay_to", "take"):  # pragma: no cover
            raise self.c.err(unit, s.pos, f"unknown verb {s.verb}")
        self.c.plain(unit, s.pos)

    def assign_target(self, unit: Unit, target: A.Node, vt: Type) -> None:
        """What a 'set' assigns to, resolved into ``_target`` (for the generator): (kind, index[, whose])."""
        g = self.g
        if isinstance(target, A.Name):
            name = target.name
            local = unit.scope.lookup(name)
            if local is not None:
                self._target = ("local", local[0])
                return
            if name in g.gvar_index:
                i = g.gvar_index[name]
                self.check_assign(unit, target, vt, g.gvar_types[i])
                self._target = ("gvar", i)
                return
            if name in g.pvar_index or name in g.res_index:
                self.assign_target(unit, A.Of(name, A.Me(target.pos), "player", target.pos, target.pos), vt)
                return
            raise self.c.err(unit, target.pos, f"cannot set '{name}': not a variable (declare it, or use 'let')",
                           suggest(name, list(g.gvar_index) + list(g.pvar_index) + list(g.res_index)))
        if isinstance(target, A.Of) and target.scope == "player":
            self.c.exprs.player_expr(unit, target.target)  # type: ignore[arg-type]  # a player's variable has a target
            name = target.name
            if name in g.pvar_index:
                i = g.pvar_index[name]
                self.check_assign(unit, target, vt, g.pvar_types[i])
                self._target = ("pvar", i, target.target)
                return
            if name in g.res_index:
                self.check_assign(unit, target, vt, INT)
                self._target = ("res", g.res_index[name], target.target)
                return
            raise self.c.err(unit, target.pos, f"players have no variable '{name}'", suggest(name, list(g.pvar_index) + list(g.res_index)))
        if isinstance(target, A.Field):
            t = self.c.exprs.card_expr(unit, target.target).type
            kind = card_kind(t)
            cvars = g.kind_cvars.get(kind) if kind else g.all_cvars
            if target.name not in cvars:
                raise self.c.err(unit, target.pos, f"cannot set '{target.name}': not a card variable", suggest(target.name, list(cvars)))
            self._target = ("cvar", g.cvar_index[target.name], target.target)
            return
        raise self.c.err(unit, target.pos, "cannot set this: set a variable, 'name of player' or 'card.variable'")

    def check_assign(self, unit, target, have: Type, want: Type) -> None:
        if not compatible(have, want):
            raise self.c.err(unit, target.pos, f"'{getattr(target, 'name', '?')}' holds {want.describe()}, not {have.describe()}")

    def s_Set(self, unit, s):
        vt = self.c.expr(unit, s.value).type
        self.assign_target(unit, s.target, vt)
        self.c.note(ir.Set(self._target, vt))
        self.c.plain(unit, s.pos)

    def s_Let(self, unit, s):
        try:
            vt = self.c.expr(unit, s.value).type
        except MeepleError:
            # keep the name known, so one mistake is reported once, not at every use
            if s.name not in unit.scope.names:
                unit.bind(unit.scope, s.name, unit.new_slot(ANY), ANY)
            raise
        existing = unit.scope.names.get(s.name)
        slot = existing[0] if existing else unit.new_slot(vt)
        unit.bind(unit.scope, s.name, slot, vt)
        self.c.note(ir.Let(slot))
        self.c.plain(unit, s.pos)

    def cards_of(self, unit: Unit, node: A.Node, verb: str = "move") -> tuple[str, int, Optional[Where]]:
        """The kind of the cards a move acts on ('' when unknown; their type in ``_cards_t``),
        and how they are charged to the step budget when they are many (a zone, a list):
        (factor, where) as ``walk`` decides, (0, None) for one card."""
        t = self.c.expr(unit, node).type
        self._cards_t = t
        if isinstance(t, (Card, AnyT)):
            return card_kind(t) or "", 0, None
        if isinstance(t, Zone):
            kind = t.kind or ""
        elif isinstance(t, List) and isinstance(t.elem_t, (Card, AnyT)):
            kind = card_kind(t.elem_t) or ""
        else:
            raise self.c.err(unit, node.pos, f"expected cards to {verb}, found {t.describe()}")
        return (kind, *self.c.steps.walk(unit, node, self.c.steps.bound(node, t), 0))

    def kind_check(self, holds: Optional[str]) -> Optional[Callable]:
        """For a move the checker cannot type: a test that each card moved is of the kind the
        zone holds (a zone holds its kind only, which bounds every walk of it; see ``bound``)."""
        if holds is None:
            return None
        g = self.g
        return KindCheck([g.card_defs[d].kind for d in g.card_def_index], g.card_def_ids, holds)

    def s_Move(self, unit, s):
        kind, factor, where = self.cards_of(unit, s.what)
        dt = self.c.exprs.zone_expr(unit, s.to).type
        if kind and dt.kind != kind:
            raise self.c.err(unit, s.to.pos, f"zone holds {dt.kind} cards, not {kind} cards")
        self.c.note(ir.Move(self._cards_t, factor, where, None if kind else self.kind_check(dt.kind)))
        self.c.plain(unit, s.pos)

    def s_Draw(self, unit, s):
        self.c.exprs.number(unit, s.count)
        st_ = self.c.exprs.zone_expr(unit, s.source).type
        dt = self.c.exprs.zone_expr(unit, s.to).type
        if st_ != dt:
            raise self.c.err(unit, s.to.pos, f"cannot draw {st_.kind} cards into a zone of {dt.kind} cards")
        most = self.c.steps.bound(s.source, st_)
        if isinstance(s.count, A.Int) and most is not None:
            most = min(most, max(0, s.count.value))
        factor, where = self.c.steps.walk(unit, s, most, 0)       # a step a card drawn (``fold``)
        self.c.note(ir.Walk(factor, where))
        self.c.plain(unit, s.pos)

    def s_Shuffle(self, unit, s):
        zt = self.c.exprs.zone_expr(unit, s.zone).type
        factor, where = self.c.steps.walk(unit, s, self.c.steps.bound(s.zone, zt), 0)      # a step a card (``fold``)
        self.c.note(ir.Walk(factor, where))
        self.c.plain(unit, s.pos)

    def s_Swap(self, unit, s):
        ta = self.c.exprs.zone_expr(unit, s.a).type
        tb = self.c.exprs.zone_expr(unit, s.b).type
        if ta != tb:
            raise self.c.err(unit, s.pos, f"cannot swap {ta.describe()} with {tb.describe()}")
        both = self.c.steps.bound(s.a, ta)
        factor, where = self.c.steps.walk(unit, s, 2 * both if both is not None else None, 0)    # a step a card (``fold``)
        self.c.note(ir.Walk(factor, where))
        self.c.plain(unit, s.pos)

    def s_If(self, unit, s):
        jumps_to_end = []
        for cond_node, body in s.branches:
            cond = self.c.truth(unit, cond_node)
            test = self.c.placeholder(unit, cond_node.pos)
            self.c.block(unit, body)
            jumps_to_end.append(self.c.placeholder(unit, s.pos))
            self.c.patch(unit, test, self.c.branch(cond, test + 1, self.c.here(unit)))
        self.c.block(unit, s.orelse)
        end = self.c.here(unit)
        for j in jumps_to_end:
            self.c.patch(unit, j, _jump(end))

    def s_ForEach(self, unit, s):
        src = self.c.expr(unit, s.source)
        st_ = src.type
        if not st_.is_collection:
            raise self.c.err(unit, s.source.pos, f"'for each' needs a zone or list, found {st_.describe()}")
        et = st_.elem()
        items_slot, idx_slot = unit.new_slot(List(et)), unit.new_slot(INT)
        var_slot = unit.new_slot(et)
        inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
        inner.bind(inner.scope, s.var, var_slot, et)
        with self.c.steps.apart() as tested:
            cond = self.c.truth(inner, s.cond) if s.cond is not None else None
        order = None
        with self.c.steps.apart() as keyed:
            if s.order is not None:
                order = self.c.expr(inner, s.order)
        where = Where(unit.origin, s.pos)
        gen = self.c.writer()
        start = self.c.placeholder(unit, s.pos)
        if order is not None:
            unit.code.ordered_walks.append((items_slot, idx_slot, var_slot, order.fn))
        head = self.c.placeholder(unit, s.pos)
        unit_scope = unit.scope
        unit.scope = inner.scope
        with self.c.steps.apart() as body:
            self.c.block(unit, s.body)
        unit.scope = unit_scope
        self.c.emit(unit, s.pos, _jump(head))
        end = self.c.here(unit)
        bound = self.c.steps.bound(s.source, st_)
        # the factors its filter, its sort and its rounds charge each item by (``fold``), decided
        # once the body is checked
        plan = (self.c.steps.fold(bound, tested.steps) if cond is not None else 0,
                self.c.steps.fold(bound, keyed.steps) if order is not None else 0,
                self.c.steps.fold(bound, body.steps + self.c.steps.written(s.body)))
        self.c.note(ir.ForEach(items_slot, var_slot, idx_slot, isinstance(st_, Zone), plan, where))
        if gen is None:
            return
        made = gen.walk_init(src.fn, isinstance(st_, Zone), cond.fn if cond is not None else None,
                             order.fn if order is not None else None, var_slot, items_slot, idx_slot, plan, where)
        self.c.patch(unit, start, made(start + 1))
        self.c.patch(unit, head, gen.instructions.walk_step(items_slot, idx_slot, var_slot, head, end, gen.head(self.c, unit, s.pos)))

    def s_Repeat(self, unit, s):
        count = self.c.exprs.number(unit, s.count)
        slot = unit.new_slot(INT)
        where = Where(unit.origin, s.pos)
        start = self.c.placeholder(unit, s.pos)
        head = self.c.placeholder(unit, s.pos)
        with self.c.steps.apart() as body:
            self.c.block(unit, s.body)
        self.c.emit(unit, s.pos, _jump(head))
        end = self.c.here(unit)
        # the factor of its rounds (``fold``), decided once the body is checked
        factor = self.c.steps.fold(max(0, s.count.value) if isinstance(s.count, A.Int) else None, body.steps + self.c.steps.written(s.body))
        self.c.note(ir.Walk(factor, where))
        gen = self.c.writer()
        if gen is None:
            return
        comment = gen.head(self.c, unit, s.pos)
        self.c.patch(unit, start, gen.instructions.repeat_start(count.fn, slot, factor, where, start + 1, comment))
        self.c.patch(unit, head, gen.instructions.repeat_step(slot, head, end, comment))

    def s_While(self, unit, s):
        with self.c.steps.apart() as each:          # a test and a round, charged together at each test
            cond = self.c.truth(unit, s.cond)
            head = self.c.placeholder(unit, s.pos)
            self.c.block(unit, s.body)
        self.c.emit(unit, s.pos, _jump(head))
        where = Where(unit.origin, s.pos)
        steps = 1 + each.steps + self.c.steps.written(s.body)
        self.c.note(ir.While(steps, where))
        self.c.patch(unit, head, self.c.branch(cond, head + 1, self.c.here(unit), (steps, where)))

    def s_As(self, unit, s):
        who = self.c.exprs.player_expr(unit, s.player)
        saved = unit.new_slot(PLAYER)
        gen = self.c.writer()
        found = gen.src_of.get(who.fn) if gen is not None else None
        if found is not None:       # a body that pauses: entering and leaving are instructions, generated
            enter = gen.op([*found[0], f"L[{saved}] = fr.me", f"fr.me = {found[1]}"], gen.where_of.get(who.fn, ""))
            self.c.emit(unit, s.pos, enter(self.c.here(unit) + 1))
        else:
            self.c.plain(unit, s.pos)
        was = unit.me_bound
        unit.me_bound = True
        self.c.block(unit, s.body)
        unit.me_bound = was
        if found is not None:
            leave = gen.op([f"fr.me = L[{saved}]"], gen.where_of.get(who.fn, ""))
            self.c.emit(unit, s.pos, leave(self.c.here(unit) + 1))
        else:
            self.c.plain(unit, s.pos)

    def s_Log(self, unit, s):
        self.c.plain(unit, s.pos)

    def s_Require(self, unit, s):
        self.c.truth(unit, s.cond)
        self.c.result.uses_require = True
        self.c.plain(unit, s.pos)

    def s_Stop(self, unit, s):
        self.c.plain(unit, s.pos)
