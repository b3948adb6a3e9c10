"""Checking and compiling the statements that change the state: counters, variables,
moves, draws, shuffles, swaps, and the control flow (if, for each, repeat, while, as).

Each ``s_<Node>`` method appends the statement's instructions to the unit's code
(``Compiler.emit``, ``simple``); with a generator attached and a run of statements being
checked for fusing, it also notes what the generator needs of it (``Compiler.note``: a
typed record of ``meeple.dsl.ir``, and the closure it runs as). Statements that involve players or other code are
``meeple.dsl.interaction``'s.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from . import ast as A
from . import ir
from .errors import UNMET, MeepleError, Refusal, RuleError, suggest
from .gen.runs import then
from .runtime import Frame
from .steps import Where, charge
from .types import MAX_NUMBER, STOP, Fn, KindCheck, Unit, _Scope, _jump, _me, _move, bounded, order_key, too_big, zone_to_write
from .typesys import ANY, INT, PLAYER, AnyT, Card, List, Type, Zone, card_kind, compatible

if TYPE_CHECKING:
    from .compiler import Compiler


class StatementChecker:
    """Checks and compiles the statements that change the state, and the control flow."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against
        self._target: tuple = ()      # what the last 'set' assigned, for the generator: (kind, index[, whose])
        self._cards_t: Type = ANY     # the type of what the last ``cards_of`` gives, for the generator

    def s_Counter(self, unit, s):
        g = self.g
        if s.resource not in g.res_index:
            raise self.c.err(unit, s.resource_pos, f"unknown resource '{s.resource}'", suggest(s.resource, list(g.res_index)))
        r, nr = g.res_index[s.resource], g.nres
        lo, hi = g.res_min[r], g.res_max[r]
        name = s.resource
        other = self.c.exprs.player_expr(unit, s.other) if s.other is not None else None
        amount = self.c.exprs.number(unit, s.amount.expr) if s.amount.expr is not None else None
        verb = s.verb

        def clamp(v):
            if lo is not None and v < lo:
                v = lo
            if hi is not None and v > hi:
                v = hi
            if not -MAX_NUMBER <= v <= MAX_NUMBER:
                raise too_big(v)
            return v

        if verb in ("gain", "lose", "give"):
            sign = -1 if verb == "lose" else 1

            def act(st, fr):
                p = other(st, fr) if verb == "give" else _me(st, fr)
                i = p * nr + r
                n = st.res[i] if amount is None else amount(st, fr)
                if n < 0:
                    raise RuleError(f"cannot {verb} a negative amount ({n} {name})")
                st.res[i] = clamp(st.res[i] + sign * n)
        elif verb in ("pay", "pay_to", "take"):
            def act(st, fr):
                me = _me(st, fr)
                if verb == "take":
                    src, dst = other(st, fr), me
                else:
                    src, dst = me, (other(st, fr) if verb == "pay_to" else None)
                si = src * nr + r
                have = st.res[si]
                n = have if amount is None else amount(st, fr)
                if n < 0:
                    raise RuleError(f"cannot {verb.replace('_to', '')} a negative amount ({n} {name})")
                if verb == "take":
                    n = min(n, have - (lo or 0)) if lo is not None else n
                elif lo is not None and have - n < lo:
                    raise RuleError(f"P{src + 1} cannot pay {n} {name} (has {have})")
                if have - n < -MAX_NUMBER:          # a resource without a minimum: MAX_NUMBER bounds it
                    raise too_big(have - n)
                st.res[si] = have - n
                if dst is not None:
                    di = dst * nr + r
                    st.res[di] = clamp(st.res[di] + n)
        else:  # pragma: no cover
            raise self.c.err(unit, s.pos, f"unknown verb {verb}")
        self.c.simple(unit, s.pos, act)

    def assign_target(self, unit: Unit, target: A.Node, vt: Type) -> Callable[[Any, Frame, Any], None]:
        g = self.g
        if isinstance(target, A.Name):
            name = target.name
            local = unit.scope.lookup(name)
            if local is not None:
                slot = local[0]
                self._target = ("local", slot)     # what was assigned, for pygen: (kind, index[, whose])

                def setl(st, fr, v):
                    fr.locals[slot] = v
                return setl
            if name in g.gvar_index:
                i = g.gvar_index[name]
                self.check_assign(unit, target, vt, g.gvar_types[i])
                self._target = ("gvar", i)

                def setg(st, fr, v):
                    st.gvars[i] = v
                return setg
            if name in g.pvar_index or name in g.res_index:
                return self.assign_target(unit, A.Of(name, A.Me(target.pos), "player", target.pos, target.pos), vt)
            raise self.c.err(unit, target.pos, f"cannot set '{name}': not a variable (declare it, or use 'let')",
                           suggest(name, list(g.gvar_index) + list(g.pvar_index) + list(g.res_index)))
        if isinstance(target, A.Of) and target.scope == "player":
            p = self.c.exprs.player_expr(unit, target.target)  # type: ignore[arg-type]  # a player's variable has a target
            name = target.name
            if name in g.pvar_index:
                i, nv = g.pvar_index[name], g.npvars
                self.check_assign(unit, target, vt, g.pvar_types[i])
                self._target = ("pvar", i, target.target)

                def setp(st, fr, v):
                    st.pvars[p(st, fr) * nv + i] = v
                return setp
            if name in g.res_index:
                self.check_assign(unit, target, vt, INT)
                r, nr = g.res_index[name], g.nres
                lo, hi = g.res_min[r], g.res_max[r]
                self._target = ("res", r, target.target)

                def setr(st, fr, v):
                    if lo is not None and v < lo:
                        v = lo
                    if hi is not None and v > hi:
                        v = hi
                    st.res[p(st, fr) * nr + r] = v
                return setr
            raise self.c.err(unit, target.pos, f"players have no variable '{name}'", suggest(name, list(g.pvar_index) + list(g.res_index)))
        if isinstance(target, A.Field):
            c, t = self.c.exprs.card_expr(unit, target.target)
            kind = card_kind(t)
            cvars = g.kind_cvars.get(kind) if kind else g.all_cvars
            if target.name not in cvars:
                raise self.c.err(unit, target.pos, f"cannot set '{target.name}': not a card variable", suggest(target.name, list(cvars)))
            i, ncv = g.cvar_index[target.name], g.ncvars
            self._target = ("cvar", i, target.target)

            def setc(st, fr, v):
                st.cvars[c(st, fr) * ncv + i] = v
            return setc
        raise self.c.err(unit, target.pos, "cannot set this: set a variable, 'name of player' or 'card.variable'")

    def check_assign(self, unit, target, have: Type, want: Type) -> None:
        if not compatible(have, want):
            raise self.c.err(unit, target.pos, f"'{getattr(target, 'name', '?')}' holds {want.describe()}, not {have.describe()}")

    def s_Set(self, unit, s):
        value, vt = self.c.expr(unit, s.value)
        setter = self.assign_target(unit, s.target, vt)
        self.c.note(ir.Set(self._target, vt))
        if vt == INT and self._target[0] != "local":     # a number kept in the game is bounded (MAX_NUMBER)
            self.c.simple(unit, s.pos, lambda st, fr: setter(st, fr, bounded(value(st, fr))))
            return
        self.c.simple(unit, s.pos, lambda st, fr: setter(st, fr, value(st, fr)))

    def s_Let(self, unit, s):
        try:
            value, vt = self.c.expr(unit, s.value)
        except MeepleError:
            # keep the name known, so one mistake is reported once, not at every use
            if s.name not in unit.scope.names:
                unit.bind(unit.scope, s.name, unit.new_slot(ANY), ANY)
            raise
        existing = unit.scope.names.get(s.name)
        slot = existing[0] if existing else unit.new_slot(vt)
        unit.bind(unit.scope, s.name, slot, vt)
        self.c.note(ir.Let(slot))

        def act(st, fr):
            fr.locals[slot] = value(st, fr)
        self.c.simple(unit, s.pos, act)

    def cards_of(self, unit: Unit, node: A.Node, verb: str = "move") -> tuple[Fn, str, int, Optional[Where]]:
        """A closure giving the card ids a move acts on, their kind ('' when unknown), and how
        the cards are charged to the step budget when they are many (a zone, a list): (factor,
        where) as ``walk`` decides, (0, None) for one card."""
        fn, t = self.c.expr(unit, node)
        self._cards_t = t
        if isinstance(t, (Card, AnyT)):
            return (lambda st, fr: (lambda c: [] if c is None else [c])(fn(st, fr))), card_kind(t) or "", 0, None
        if isinstance(t, Zone):
            fn, kind = (lambda f: lambda st, fr: st.zones[f(st, fr)][:])(fn), t.kind or ""
        elif isinstance(t, List) and isinstance(t.elem_t, (Card, AnyT)):
            kind = card_kind(t.elem_t) or ""
        else:
            raise self.c.err(unit, node.pos, f"expected cards to {verb}, found {t.describe()}")
        return (fn, kind, *self.c.steps.walk(unit, node, self.c.steps.bound(node, t), 0))

    def kind_check(self, holds: Optional[str]) -> Optional[Callable]:
        """For a move the checker cannot type: a test that each card moved is of the kind the
        zone holds (a zone holds its kind only, which bounds every walk of it; see ``bound``)."""
        if holds is None:
            return None
        g = self.g
        return KindCheck([g.card_defs[d].kind for d in g.card_def_index], g.card_def_ids, holds)

    def s_Move(self, unit, s):
        what, kind, factor, where = self.cards_of(unit, s.what)
        dest, dt = self.c.exprs.zone_expr(unit, s.to)
        if kind and dt.kind != kind:
            raise self.c.err(unit, s.to.pos, f"zone holds {dt.kind} cards, not {kind} cards")
        bottom = s.bottom
        check = None if kind else self.kind_check(dt.kind)
        self.c.note(ir.Move(self._cards_t, factor, where, check))

        def act(st, fr):
            cards = what(st, fr)
            if factor:                   # a step a card (``fold``)
                charge(st, len(cards) * factor, where)
            if check is not None:
                check(cards)
            z = dest(st, fr)
            for c in cards:
                _move(st, c, z, bottom)
        self.c.simple(unit, s.pos, act)

    def s_Draw(self, unit, s):
        count = self.c.exprs.number(unit, s.count)
        src, st_ = self.c.exprs.zone_expr(unit, s.source)
        dest, dt = self.c.exprs.zone_expr(unit, s.to)
        if st_ != dt:
            raise self.c.err(unit, s.to.pos, f"cannot draw {st_.kind} cards into a zone of {dt.kind} cards")
        bottom = s.bottom
        most = self.c.steps.bound(s.source, st_)
        if isinstance(s.count, A.Int) and most is not None:
            most = min(most, max(0, s.count.value))
        factor, where = self.c.steps.walk(unit, s, most, 0)       # a step a card drawn (``fold``)
        self.c.note(ir.Walk(factor, where))

        def act(st, fr):
            n = count(st, fr)
            z = zone_to_write(st, src(st, fr))      # owned before the moves: they then write this very list
            d = dest(st, fr)
            if factor:
                charge(st, max(0, min(n, len(z))) * factor, where)
            for _ in range(min(n, len(z))):
                _move(st, z[-1], d, bottom)
        self.c.simple(unit, s.pos, act)

    def s_Shuffle(self, unit, s):
        zone, zt = self.c.exprs.zone_expr(unit, s.zone)
        factor, where = self.c.steps.walk(unit, s, self.c.steps.bound(s.zone, zt), 0)      # a step a card (``fold``)
        self.c.note(ir.Walk(factor, where))

        def act(st, fr):
            z = zone_to_write(st, zone(st, fr))
            if factor:
                charge(st, len(z) * factor, where)
            st.shuffle(z)
        self.c.simple(unit, s.pos, act)

    def s_Swap(self, unit, s):
        a, ta = self.c.exprs.zone_expr(unit, s.a)
        b, tb = self.c.exprs.zone_expr(unit, s.b)
        if ta != tb:
            raise self.c.err(unit, s.pos, f"cannot swap {ta.describe()} with {tb.describe()}")
        both = self.c.steps.bound(s.a, ta)
        factor, where = self.c.steps.walk(unit, s, 2 * both if both is not None else None, 0)    # a step a card (``fold``)
        self.c.note(ir.Walk(factor, where))

        def act(st, fr):
            za, zb = a(st, fr), b(st, fr)
            if factor:
                charge(st, (len(st.zones[za]) + len(st.zones[zb])) * factor, where)
            st.zones[za], st.zones[zb] = st.zones[zb], st.zones[za]
            st.own[za], st.own[zb] = st.own[zb], st.own[za]     # each list keeps its owner
            for c in st.zones[za]:
                st.loc[c] = za
            for c in st.zones[zb]:
                st.loc[c] = zb
        self.c.simple(unit, s.pos, act)

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
        src, st_ = self.c.expr(unit, s.source)
        if not st_.is_collection:
            raise self.c.err(unit, s.source.pos, f"'for each' needs a zone or list, found {st_.describe()}")
        source = self.c.exprs.as_list(src, st_)
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
                order = self.c.expr(inner, s.order)[0]
        where = Where(unit.origin, s.pos)
        # the factors its filter, its sort and its rounds charge each item by (``fold``), decided
        # once the body is compiled: the start is patched in then
        plan = [0, 0, 0]

        init = _walk_start(source, cond, order, plan, where, var_slot, items_slot, idx_slot)
        gen = self.c.writer()
        start = self.c.placeholder(unit, s.pos)
        if order is not None:
            unit.code.ordered_walks.append((items_slot, idx_slot, var_slot, order))
        head = self.c.placeholder(unit, s.pos)
        unit_scope = unit.scope
        unit.scope = inner.scope
        with self.c.steps.apart() as body:
            self.c.block(unit, s.body)
        unit.scope = unit_scope
        self.c.emit(unit, s.pos, lambda nxt: _jump(head))
        end = self.c.here(unit)
        bound = self.c.steps.bound(s.source, st_)
        plan[:] = [self.c.steps.fold(bound, tested.steps) if cond is not None else 0,
                   self.c.steps.fold(bound, keyed.steps) if order is not None else 0,
                   self.c.steps.fold(bound, body.steps + self.c.steps.written(s.body))]
        self.c.note(ir.ForEach(items_slot, var_slot, idx_slot, isinstance(st_, Zone), (plan[0], plan[1], plan[2]), where))
        made = gen.walk_init(src, isinstance(st_, Zone), cond, order, var_slot, items_slot, idx_slot,
                             tuple(plan), where) if gen else None
        self.c.patch(unit, start, made(start + 1) if made is not None else then(init, start + 1))
        if gen is not None:
            step = gen.instructions.walk_step(items_slot, idx_slot, var_slot, head, end, gen.head(self.c, unit, s.pos))
        else:
            step = _walk_step(idx_slot, items_slot, var_slot, head, end)
        self.c.patch(unit, head, step)

    def s_Repeat(self, unit, s):
        count = self.c.exprs.number(unit, s.count)
        slot = unit.new_slot(INT)
        where = Where(unit.origin, s.pos)
        plan = [0]           # the factor of its rounds (``fold``), decided once the body is compiled

        def init(st, fr):
            n = count(st, fr)
            if n > 0 and plan[0]:            # every round charged as the loop starts
                charge(st, n * plan[0], where)
            fr.locals[slot] = n
        start = self.c.placeholder(unit, s.pos)
        head = self.c.placeholder(unit, s.pos)
        with self.c.steps.apart() as body:
            self.c.block(unit, s.body)
        self.c.emit(unit, s.pos, lambda nxt: _jump(head))
        end = self.c.here(unit)
        plan[0] = self.c.steps.fold(max(0, s.count.value) if isinstance(s.count, A.Int) else None, body.steps + self.c.steps.written(s.body))
        self.c.note(ir.Walk(plan[0], where))

        def loop(st, fr):
            left = fr.locals[slot]
            if left <= 0:
                return end
            fr.locals[slot] = left - 1
            return head + 1
        gen = self.c.writer()
        if gen is None:
            self.c.patch(unit, start, then(init, start + 1))
            self.c.patch(unit, head, loop)
            return
        comment = gen.head(self.c, unit, s.pos)
        self.c.patch(unit, start, gen.instructions.repeat_start(count, slot, plan[0], where, start + 1, comment))
        self.c.patch(unit, head, gen.instructions.repeat_step(slot, head, end, comment))

    def s_While(self, unit, s):
        with self.c.steps.apart() as each:          # a test and a round, charged together at each test
            cond = self.c.truth(unit, s.cond)
            head = self.c.placeholder(unit, s.pos)
            self.c.block(unit, s.body)
        self.c.emit(unit, s.pos, lambda nxt: _jump(head))
        where = Where(unit.origin, s.pos)
        steps = 1 + each.steps + self.c.steps.written(s.body)
        self.c.note(ir.While(steps, where))
        self.c.patch(unit, head, self.c.branch(cond, head + 1, self.c.here(unit), (steps, where)))

    def s_As(self, unit, s):
        who = self.c.exprs.player_expr(unit, s.player)
        saved = unit.new_slot(PLAYER)

        def enter(st, fr):
            fr.locals[saved] = fr.me
            fr.me = who(st, fr)

        def leave(st, fr):
            fr.me = fr.locals[saved]
        gen = self.c.writer()
        found = gen.src_of.get(who) if gen is not None else None
        if found is not None:       # a body that pauses: entering and leaving are instructions, generated
            self.c.emit(unit, s.pos, gen.op([*found[0], f"L[{saved}] = fr.me", f"fr.me = {found[1]}"], gen.where_of.get(who, "")))
        else:
            self.c.simple(unit, s.pos, enter)
        was = unit.me_bound
        unit.me_bound = True
        self.c.block(unit, s.body)
        unit.me_bound = was
        if found is not None:
            self.c.emit(unit, s.pos, gen.op([f"fr.me = L[{saved}]"], gen.where_of.get(who, "")))
        else:
            self.c.simple(unit, s.pos, leave)

    def s_Log(self, unit, s):
        text = s.text
        self.c.simple(unit, s.pos, lambda st, fr: st.events.append(text))

    def s_Require(self, unit, s):
        cond = self.c.truth(unit, s.cond)
        message = s.message or UNMET

        def act(st, fr):
            if not cond(st, fr):
                raise Refusal(message)
        self.c.result.uses_require = True
        self.c.simple(unit, s.pos, act)

    def s_Stop(self, unit, s):
        self.c.emit(unit, s.pos, lambda nxt: (lambda st, fr: STOP))


def _walk_start(source: Fn, cond: Optional[Fn], order: Optional[Fn], plan: list, where: Where,
                var_slot: int, items_slot: int, idx_slot: int) -> Fn:
    """The start of a 'for each' walked by instructions: its items, kept by its condition and
    sorted by its order (a stable sort, none last), into the frame's locals. ``plan``: the
    factors of the filter, the sort and the rounds, filled in once the body is compiled."""
    def init(st, fr):
        # charged as it starts: the filter's items, the sort's, then the rounds
        items = source(st, fr)
        loc = fr.locals
        if cond is not None:
            if plan[0]:
                charge(st, len(items) * plan[0], where)
            kept = []
            for x in items:
                loc[var_slot] = x
                if cond(st, fr):
                    kept.append(x)
            items = kept
        if order is not None:
            if plan[1]:
                charge(st, len(items) * plan[1], where)
            keyed = []
            for i, x in enumerate(items):
                loc[var_slot] = x
                keyed.append((order(st, fr), i, x))
            keyed.sort(key=order_key)
            items = [k[2] for k in keyed]
        if plan[2]:
            charge(st, len(items) * plan[2], where)
        loc[items_slot] = items
        loc[idx_slot] = 0
    return init


def _walk_step(idx_slot: int, items_slot: int, var_slot: int, head: int, end: int) -> Fn:
    """The head of a 'for each' walked by instructions: the next item into the variable and
    on into the body, or, past the last, the items let go and on to ``end``."""
    def loop(st, fr):
        loc = fr.locals
        i = loc[idx_slot]
        items = loc[items_slot]
        if i >= len(items):
            loc[items_slot] = None
            return end
        loc[var_slot] = items[i]
        loc[idx_slot] = i + 1
        return head + 1
    return loop
