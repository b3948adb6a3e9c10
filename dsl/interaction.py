"""Statements that involve players or other code: choices, procedure calls,
card hooks, events and the action loop. Each suspends or pushes a frame,
so the running effect stays plain data (see ``meeple.dsl.runtime.Frame``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from .errors import MeepleError, RuleError, RuleFault, suggest
from .runtime import NO_ANSWER, ChoiceDescriber, Decision, Frame, OneOfDescriber

from . import ast as A
from . import ir
from .steps import Where, charge, out_of_steps
from .types import CALL, RULE_FAULTS, SKIP, STOP, SUSPEND, Fn, Unit, _Scope, _jump, _me, call_direct, named_error, used_once_more
from .typesys import BOOL, INT, PLAYER, List, Type, Zone, card_kind, compatible

if TYPE_CHECKING:
    from .compiler import Compiler


def pausing(resume, offer) -> Fn:
    """The one shape of every statement that asks a player something.

    Run afresh, ``offer(state, frame)`` either gives where the rules go on (an
    instruction number: nothing to ask) or a Decision, which is posed while
    the rules pause. Run again with the player's answer, ``resume(state, frame,
    answer)`` takes it (once) and gives where to go, or None to offer again
    (one more pick of 'choose up to', the next action of a turn)."""
    def op(st, fr):
        ans = st.answer
        if ans is not NO_ANSWER:
            st.answer = NO_ANSWER
            nxt = resume(st, fr, ans)
            if nxt is not None:
                return nxt
        asked = offer(st, fr)
        if asked.__class__ is int:
            return asked
        who = asked.player
        if who.__class__ is not int or not 0 <= who < st.players:
            raise no_such_chooser(st, who)
        st.pending = asked
        return SUSPEND
    return op


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
    """Checks and compiles choose, choose one, roll, call, do, emit and play actions."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against

    def chooser(self, unit: Unit, node: Optional[A.Node]) -> Fn:
        return self.c.exprs.player_expr(unit, node) if node is not None else _me

    @staticmethod
    def checked(node: Optional[A.Node], t: Type, fn: Optional[Fn]) -> Optional[ir.Expr]:
        """An expression of a statement as checked, for the generator (None when absent)."""
        return ir.Expr(node, t, fn) if node is not None else None

    def s_Choose(self, unit, s):
        src, st_ = self.c.expr(unit, s.source)
        if not st_.is_collection:
            raise self.c.err(unit, s.source.pos, f"choose from a zone or list, not {st_.describe()}")
        source = self.c.exprs.as_list(src, st_)
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
            source = self.c.exprs.hoist_invariants(inner, s.var, [s.cond], source)
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
        ncv = self.g.ncvars
        described = ChoiceDescriber(keyer, text, SKIP, "done" if up_to is not None else "skip", self.g.detail(et))
        if s.price:
            described.priced = (slot, self.prices(unit, s.price))
        prompt = s.prompt or (f"choose {s.var}")
        optional = s.optional
        gen = self.c.writer()

        options = _options(source, cond, factor, where, slot)
        decision = _decider(shown, ncv, described)
        checked = self.checked
        asked = ir.Choose(ir.Expr(s.source, st_, src), isinstance(st_, Zone), checked(s.cond, BOOL, cond), fresh, factor,
                          where, checked(s.chooser, PLAYER, who), slot, acc, checked(s.up_to, INT, up_to),
                          checked(s.at_least, INT, at_least), optional, prompt, described, tuple(shown or ()))
        head = gen.head(self.c, unit, s.pos) if gen is not None else ""

        if up_to is None:
            def make(nxt):
                def resume(st, fr, ans):
                    if ans == SKIP:
                        return STOP              # 'may choose' declined: the effect ends
                    fr.locals[slot] = ans
                    return nxt

                def offer(st, fr):
                    opts = options(st, fr)
                    if not opts:                 # nothing to choose: 'may' ends the effect as a skip would;
                        if optional:             # a plain choose goes on with the name none
                            return STOP
                        fr.locals[slot] = None
                        return nxt
                    if optional:
                        opts.append(SKIP)
                    return decision(st, who(st, fr), prompt, opts, CHOOSE_KIND)
                asking = pausing(resume, offer)
                return gen.pausing.i_Choose(asked, nxt, head) if gen is not None else asking
        else:
            many = _many_picks(slot, acc, options, decision, who, prompt, up_to, at_least)

            def make(nxt):
                asking = many(nxt)
                return gen.pausing.i_Choose(asked, nxt, head) if gen is not None else asking
        self.c.emit(unit, s.pos, make)

    def prices(self, unit: Unit, price: tuple) -> tuple:
        """A choose's ``price AMOUNT RESOURCE, ...``, checked in its scope (the item's name
        bound): ((resource, amount), ...). Display only: worked out for each option while
        the choice waits, never run by the rules, so its steps are charged to nothing."""
        out = []
        for amount, res, pos in price:
            if res not in self.g.res_index:
                raise self.c.err(unit, pos, f"price: unknown resource '{res}'", suggest(res, list(self.g.res_index)))
            with self.c.steps.apart():
                out.append((res, self.c.exprs.number(unit, amount)))
        return tuple(out)

    def about(self, unit: Unit, node: A.Node) -> Fn:
        """An option's ``about EXPR``, checked in its scope: a card (or none). Display only,
        as a price is: read while the choice waits, never run by the rules."""
        with self.c.steps.apart():
            fn, _ = self.c.exprs.card_expr(unit, node)
        return fn

    def s_Roll(self, unit, s):
        g = self.g
        dice, kind, factor, where = self.c.statements.cards_of(unit, s.dice, "roll")
        fields = g.kind_fields.get(kind, g.all_fields) if kind else g.all_fields
        cvars = g.kind_cvars.get(kind, g.all_cvars) if kind else g.all_cvars
        if fields.get("faces") != INT or cvars.get("value") != INT:
            raise self.c.err(unit, s.dice.pos, f"only dice roll: {kind or 'these'} cards need an int field 'faces' "
                                             "and an int variable 'value'")
        fi, vi, ncv, table = g.field_index["faces"], g.cvar_index["value"], g.ncvars, g.card_fields
        self.c.result.rolled.add(kind or "")      # their faces are checked once all is compiled (1 or more)
        self.c.note(ir.Roll(self.c.statements._cards_t, factor, where, table, fi, vi))

        def act(st, fr):
            rolled = dice(st, fr)
            if factor:                   # a step a die (``fold``)
                charge(st, len(rolled) * factor, where)
            for c in rolled:
                st.cvars[c * ncv + vi] = 1 + st.rand_below(table[c][fi])
        self.c.simple(unit, s.pos, act)

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
        labels = [o.label for o in s.options]
        described = OneOfDescriber(labels, SKIP)
        if any(o.price for o in s.options):
            described.priced = tuple(self.prices(unit, o.price) if o.price else None for o in s.options)
        if any(o.about is not None for o in s.options):
            described.about = tuple(self.about(unit, o.about) if o.about is not None else None for o in s.options)
        prompt = s.prompt or "choose one"
        optional = s.optional

        def resume(st, fr, ans):
            return STOP if ans == SKIP else starts[ans]

        def offer(st, fr):
            opts = [i for i in range(len(labels)) if conds[i] is None or conds[i](st, fr)]
            if not opts:
                return end
            if optional:
                opts.append(SKIP)
            return Decision(who(st, fr), prompt, None, "choose_one", None, opts, described)
        asking = pausing(resume, offer)
        if gen is not None:
            asked = ir.ChooseOne(self.checked(s.chooser, PLAYER, who), tuple(self.checked(o.cond, BOOL, f) for o, f in zip(s.options, conds)),
                                 tuple(starts), end, optional, prompt, described)
            asking = gen.pausing.i_ChooseOne(asked, gen.head(self.c, unit, s.pos))
        self.c.patch(unit, head, asking)

    def call_args(self, unit: Unit, pos: A.Pos, what: str, params: tuple, args: tuple) -> tuple[ir.Expr, ...]:
        """The arguments of a call, each checked against its parameter's type."""
        if len(args) != len(params):
            takes = f"takes {len(params)} argument(s) ({', '.join(p.name for p in params)})" if params else "takes no arguments"
            raise self.c.err(unit, pos, f"{what} {takes}, given {len(args)}")
        fns = []
        for p, a in zip(params, args):
            fn, t = self.c.expr(unit, a)
            want = self.g.type_of(p.type)
            if not compatible(t, want):
                raise self.c.err(unit, a.pos, f"{what}: '{p.name}' must be {want.describe()}, found {t.describe()}")
            fns.append(ir.Expr(a, t, fn))
        return tuple(fns)

    def s_CallProc(self, unit, s):
        g = self.g
        if s.name not in g.proc_defs:
            raise self.c.err(unit, s.pos, f"unknown procedure '{s.name}'", suggest(s.name, list(g.proc_defs)))
        pdef = g.proc_defs[s.name]
        checked = self.call_args(unit, s.pos, f"procedure '{s.name}'", pdef.params, s.args)
        args = [e.fn for e in checked]
        name = s.name

        where = Where(unit.origin, s.pos)
        gen = self.c.writer()
        call = ir.Call(name, checked, where)

        def make(nxt):
            def op(st, fr):
                code_index = st.game.proc_code[name]
                code = st.game.codes[code_index]
                if code.steps:              # a run: 1 step and its folded ones (``Code.steps``; charge, written out)
                    left = st.budget - code.steps
                    st.budget = left
                    if left < 0:
                        raise out_of_steps(where)
                loc = [None] * code.nlocals
                for i, a in enumerate(args):
                    loc[i] = a(st, fr)
                if code.direct is not None:
                    call_direct(st, code, Frame(code_index, 0, loc, fr.me, fr.this))
                    return nxt
                fr.pc = nxt
                st.frames.append(Frame(code_index, 0, loc, fr.me, fr.this))
                return CALL
            return gen.pausing.i_CallProc(call, nxt, gen.head(self.c, unit, s.pos)) if gen is not None else op
        self.c.emit(unit, s.pos, make)

    def s_DoHook(self, unit, s):
        g = self.g
        card, t = self.c.exprs.card_expr(unit, s.card)
        kind = card_kind(t)
        hooks = g.kind_hooks.get(kind, ()) if kind else g.all_hooks
        if s.hook not in hooks:
            raise self.c.err(unit, s.pos, f"'{s.hook}' is not a hook of {kind or 'any card kind'}", suggest(s.hook, list(hooks)))
        hook = s.hook

        where = Where(unit.origin, s.pos)
        gen = self.c.writer()
        done = ir.Hook(ir.Expr(s.card, t, card), hook, where)

        def make(nxt):
            def op(st, fr):
                c = card(st, fr)
                code_index = st.game.hook_code.get((st.game.card_def_index[c], hook)) if c is not None else None
                if code_index is None:
                    return nxt
                code = st.game.codes[code_index]
                left = st.budget - code.steps       # a run: 1 step and its folded ones (charge, written out)
                st.budget = left
                if left < 0:
                    raise out_of_steps(where)
                if code.direct is not None:
                    call_direct(st, code, Frame(code_index, 0, [None] * code.nlocals, fr.me, c))
                    return nxt
                fr.pc = nxt
                st.frames.append(Frame(code_index, 0, [None] * code.nlocals, fr.me, c))
                return CALL
            return gen.pausing.i_DoHook(done, nxt, gen.head(self.c, unit, s.pos)) if gen is not None else op
        self.c.emit(unit, s.pos, make)

    def s_Emit(self, unit, s):
        g = self.g
        if s.event not in g.event_defs:
            raise self.c.err(unit, s.pos, f"unknown event '{s.event}' (declare it under events:)", suggest(s.event, list(g.event_defs)))
        edef = g.event_defs[s.event]
        checked = self.call_args(unit, s.pos, f"event '{s.event}'", edef.params, s.args)
        args = [e.fn for e in checked]
        event = s.event
        where = Where(unit.origin, s.pos)
        gen = self.c.writer()
        emitted = ir.Emit(event, checked, where)

        def make(nxt):
            def op(st, fr):
                values = [a(st, fr) for a in args]
                frames = []
                game = st.game
                steps = 0           # a step for each card looked at, and each handler's run (``Code.steps``)
                for slot in game.live_slots(st):
                    owner = game.slot_owner[slot]
                    steps += len(st.zones[slot])
                    for c in st.zones[slot]:
                        code_index = game.handler_code.get((game.card_def_index[c], event))
                        if code_index is not None:
                            code = game.codes[code_index]
                            steps += code.steps
                            loc = [None] * code.nlocals
                            loc[:len(values)] = values
                            frames.append(Frame(code_index, 0, loc, owner if owner >= 0 else fr.me, c))
                charge(st, steps, where)
                fr.pc = nxt
                if not frames:
                    return nxt
                st.frames.extend(reversed(frames))
                return CALL
            return gen.pausing.i_Emit(emitted, nxt, gen.head(self.c, unit, s.pos)) if gen is not None else op
        self.c.emit(unit, s.pos, make)

    def s_PlayActions(self, unit, s):
        g = self.g
        if s.group not in g.action_groups:
            raise self.c.err(unit, s.pos, f"unknown action group '{s.group}'", suggest(s.group, list(g.action_groups)))
        until = self.c.truth(unit, s.until)
        usage = unit.new_slot(List(INT))
        group = s.group
        gen = self.c.writer()
        where = Where(unit.origin, s.pos)
        played = ir.PlayActions(group, ir.Expr(s.until, BOOL, until), usage, where)
        head = gen.head(self.c, unit, s.pos) if gen is not None else ""

        def start(nxt):
            def op(st, fr):
                # the first menu, which no choice precedes: its walks folded (the group's
                # ``menu_steps``, as the game reckons them) are charged here, once a turn
                left = st.budget - st.game.menu_steps[group]
                st.budget = left
                if left < 0:
                    raise out_of_steps(where)
                fr.locals[usage] = []
                return nxt
            return gen.pausing.play_start(played, nxt, head) if gen is not None else op
        self.c.emit(unit, s.pos, start)

        def make(nxt):
            def resume(st, fr, ans):
                game = st.game
                ai, card, param = ans
                act = game.actions[ai]
                if act.steps:               # an effect that does much even once (``meeple.dsl.steps.ONCE_FREE``)
                    spans = game.codes[act.effect].spans
                    charge(st, act.steps, spans[0] if spans else None)
                fr.locals[usage] = used_once_more(fr.locals[usage], ai * (game.ncards + 1) + (0 if card is None else card + 1))
                code = game.codes[act.effect]
                loc = [None] * code.nlocals
                if act.param_slot >= 0:
                    loc[act.param_slot] = param
                if code.direct is None:
                    fr.pc = nxt - 1
                    st.frames.append(Frame(act.effect, 0, loc, fr.me, card if card is not None else fr.this))
                    return CALL
                # an effect that never pauses runs here, in its own reused frame, and the
                # next menu follows at once
                run = act.scratch
                run.code, run.locals, run.me, run.this = act.effect, loc, fr.me, card if card is not None else fr.this
                try:                        # call_direct, written out: this runs at every action chosen
                    code.direct(st, run)
                except MeepleError as err:
                    raise named_error(game, err, code, code.spans[0] if code.spans else err.span, st, run)
                except RULE_FAULTS as exc:
                    raise named_error(game, exc, code, code.spans[0] if code.spans else None, st, run) from None
                return None

            def offer(st, fr):
                if until(st, fr):
                    return nxt
                game = st.game
                menu = game.menus.get(group)
                if menu is not None:
                    opts, texts = menu(st, fr, fr.locals[usage])
                else:
                    opts, texts = game.action_options(st, fr, group, fr.locals[usage])
                if not opts:
                    return nxt
                return Decision(_me(st, fr), ACTION_PROMPT, None, ACTION_KIND, fr.locals[usage],
                                opts, game.action_describer, texts)
            asking = pausing(resume, offer)
            return gen.pausing.i_PlayActions(played, nxt, head) if gen is not None else asking
        self.c.emit(unit, s.pos, make)


def _options(source: Fn, cond: Optional[Fn], factor: int, where: Any, slot: int) -> Callable:
    """What a 'choose' offers: its source's items kept by its where-clause (each tested in
    ``slot``), less those excluded (the picks so far); the walk charged as ``fold`` planned."""
    def options(st, fr, exclude=()):
        """The values offered (keys and labels are made only if someone reads them)."""
        if cond is None:
            items = source(st, fr)
            if exclude:
                if factor:
                    charge(st, len(items) * factor, where)
                return [x for x in items if x not in exclude]
            return list(items)
        out = []
        loc = fr.locals
        items = source(st, fr)
        if factor:
            charge(st, len(items) * factor, where)
        for x in items:
            if x in exclude:
                continue
            if cond is not None:
                loc[slot] = x
                if not cond(st, fr):
                    continue
            out.append(x)
        return out
    return options


def _decider(shown: Any, ncv: int, described: Any) -> Callable:
    """How a 'choose' makes its decision: the values offered, with what their labels read of
    the state kept now (``shown``: card variables), described by ``described``."""
    def decision(st, player, text_, values, kind):
        texts = None
        if shown:      # what the labels read of the state is kept now (a die's value)
            cv = st.cvars
            if len(shown) == 2:
                i0, i1 = shown
                texts = [None if v == SKIP else (cv[v * ncv + i0], cv[v * ncv + i1]) for v in values]
            else:
                texts = [None if v == SKIP else tuple(cv[v * ncv + i] for i in shown) for v in values]
        return Decision(player, text_, None, kind, None, values, described, texts)
    return decision


def _many_picks(slot: int, acc: int, options: Callable, decision: Callable, who: Fn, prompt: str, up_to: Fn,
                at_least: Optional[Fn]) -> Callable:
    """``make(next)`` of 'choose up to N': offered again after each pick (the picks so far in
    ``acc``, left out of the options) until 'done', full, or nothing more qualifies."""
    def make(nxt):
        def resume(st, fr, ans):
            loc = fr.locals
            chosen = loc[acc] or []
            if ans == SKIP:              # 'done'
                loc[slot], loc[acc] = chosen, None
                return nxt
            loc[acc] = chosen + [ans]
            return None                  # one more may be chosen: offer again

        def offer(st, fr):
            loc = fr.locals
            chosen = loc[acc] = loc[acc] or []
            opts = options(st, fr, chosen) if len(chosen) < up_to(st, fr) else []
            if not opts:                 # full, or nothing more qualifies
                loc[slot], loc[acc] = chosen, None
                return nxt
            if at_least is None or len(chosen) >= at_least(st, fr):
                opts.append(SKIP)
            return decision(st, who(st, fr), picks_prompt(prompt, len(chosen)), opts, "choose_many")
        return pausing(resume, offer)
    return make
