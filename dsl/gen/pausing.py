"""The instructions that pause or run other code, generated from their checked form.

A statement that asks a player ('choose', 'choose one', 'play actions') or runs another
unit ('call' of a procedure that may pause, 'do HOOK', 'emit') is an instruction of its
own: the checker hands its record (``meeple.dsl.ir.Choose``, ``ChooseOne``, ``PlayActions``,
``Call``, ``Hook``, ``Emit``) and the instruction numbers it resolved, and each is written
here as one function of (state, frame), its expressions written in. Each does, in a fixed order
(pinned by tests/closure_record.py), the same things every time: the same
locals written, the same steps charged, the same decision posed, the same frames pushed.

A question has the one shape of ``meeple.dsl.interaction.pausing``, written out: an answer,
if there is one, is taken (once) and says where to go (or, for one more pick of 'choose up
to' and the next action of a turn, that the question is asked again); else the options are
made and, if there are any, the decision is posed and the rules pause (``SUSPEND``).

"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from .. import ir
from ..interaction import ACTION_KIND, ACTION_PROMPT, CHOOSE_KIND
from ..types import CALL, SKIP, STOP, SUSPEND, Fn
from .module import Module

if TYPE_CHECKING:
    from ..pygen import PyGen

# the start of a generated question: an answer, if there is one, is taken (once)
_ANSWERED = ["ans = st.answer",
             "if ans is not _NO_ANSWER:",
             "    st.answer = _NO_ANSWER"]


def current_chooser(name: str) -> list[str]:
    """Lines putting the frame's player in ``name``, refused when there is
    no current player, or not one of this game's."""
    return [f"{name} = fr.me",
            f"if {name} is None or not 0 <= {name} < st.players:",
            "    raise _no_chooser(st, _me(st, fr))"]


def _charged(n: str, where: str) -> list[str]:
    """``meeple.dsl.steps.charge`` written out inline: the budget is
    written before the test (a rule stopped here leaves it below zero, as they do)."""
    return [f"st.budget = _b = st.budget - {n}",
            "if _b < 0:",
            f"    raise _spent({where})"]


class PauseWriter:
    """Writes the instructions that pause or run other code (through ``PyGen``), each kind of
    statement by its ``i_KIND`` method (an instruction of its own, where ``w_KIND`` of
    ``meeple.dsl.gen.statements.RunWriter`` writes a statement into a run)."""

    def __init__(self, shared: "PyGen", module: Module, menu_names: dict[str, str]):
        self.module = module
        self.source_of = shared.source_of     # generated function -> (setup lines, expression), to inline it
        self.inlined = shared.inlined         # generated functions written into another
        self.menu_names = menu_names          # action group -> the made name its menu is called by
        self.const, self.fresh = module.const, module.fresh
        self.ncvars: int = shared.g.ncvars    # card variables per card: where a card's are in ``st.cvars``
        self.g = shared.g                     # the vocabulary: its compiled units (``result``) and card tables

    def src(self, lines: list[str], e: ir.Expr, pad: str = "") -> str:
        """An expression written into the instruction (its setup lines appended to ``lines``,
        indented by ``pad``): its own generated function is left out of the module."""
        found = self.source_of(e.fn)
        self.inlined.add(e.fn)
        lines += [pad + line for line in found[0]]
        return found[1]

    def chooser(self, lines: list[str], who: Optional[ir.Expr], name: str) -> None:
        """Lines putting the chooser in ``name``: the given player, refused as ``pausing``
        refuses one who is not a player of this game, or the frame's player."""
        if who is None:
            lines += current_chooser(name)
            return
        value = self.src(lines, who)
        lines += [f"{name} = {value}",
                  f"if {name}.__class__ is not int or not 0 <= {name} < st.players:",
                  f"    raise _no_chooser(st, {name})"]

    # ------------------------------------------------------------ choose
    def i_Choose(self, c: ir.Choose, nxt: int, head: str) -> Fn:
        """'choose' (``InteractionChecker.s_Choose``): one pick, or several ('up to')."""
        lines = list(_ANSWERED)
        skip = self.const(SKIP)
        if c.up_to is None:
            lines += [f"    if ans == {skip}:",            # 'may choose' declined: the effect ends
                      f"        return {STOP}",
                      f"    L[{c.slot}] = ans",
                      f"    return {nxt}"]
            self.options(lines, c, "")
            lines.append("if not opts:")        # nothing to choose: 'may' ends the effect, a plain choose goes on with none
            lines += [f"    return {STOP}"] if c.optional else [f"    L[{c.slot}] = None", f"    return {nxt}"]
            if c.optional:
                lines.append(f"opts.append({skip})")
            prompt, kind = self.const(c.prompt), self.const(CHOOSE_KIND)
        else:
            lines += [f"    chosen = L[{c.acc}] or []",
                      f"    if ans == {skip}:",            # 'done'
                      f"        L[{c.slot}], L[{c.acc}] = chosen, None",
                      f"        return {nxt}",
                      f"    L[{c.acc}] = chosen + [ans]",      # one more may be chosen: offered again
                      f"chosen = L[{c.acc}] = L[{c.acc}] or []"]
            most = self.src(lines, c.up_to)
            lines.append(f"if len(chosen) < {most}:")
            inner: list[str] = []
            self.options(inner, c, "chosen")
            lines += ["    " + line for line in inner]
            lines += ["else:",
                      "    opts = []",
                      "if not opts:",                        # full, or nothing more qualifies
                      f"    L[{c.slot}], L[{c.acc}] = chosen, None",
                      f"    return {nxt}"]
            if c.at_least is None:
                lines.append(f"opts.append({skip})")
            else:
                least = self.src(lines, c.at_least)
                lines += [f"if len(chosen) >= {least}:", f"    opts.append({skip})"]
            prompt, kind = f"_picks_prompt({self.const(c.prompt)}, len(chosen))", self.const("choose_many")
        self.chooser(lines, c.chooser, "who")
        texts = self.texts(lines, c.shown)
        lines.append(f"st.pending = _Decision(who, {prompt}, None, {kind}, None, opts, {self.const(c.describer)}, {texts})")
        return self.module.instruction("q", lines, f"return {SUSPEND}", head)

    def options(self, lines: list[str], c: ir.Choose, exclude: str) -> None:
        """Lines putting in ``opts`` what a 'choose' offers (``meeple.dsl.interaction._options``):
        its source's items kept by its where-clause, less those in ``exclude`` (the picks so
        far, a made name; '' for none), the walk charged as the checker planned it."""
        for slot in c.fresh:            # the where-clause's cached parts: emptied before each walk
            lines.append(f"L[{slot}] = _U")
        src = self.src(lines, c.source)
        charge = self.module.charged("len(items)", c.factor, self.const(c.where)) if c.factor else []
        if c.cond is None and not exclude:
            lines.append(f"opts = st.zones[{src}][:]" if c.zone else f"opts = list({src})")
            return
        lines.append(f"items = st.zones[{src}][:]" if c.zone else f"items = {src}")
        if c.cond is None:              # the picks so far left out (charged only when there are some)
            lines += [f"if {exclude}:", *["    " + line for line in charge],
                      f"    opts = [x for x in items if x not in {exclude}]",
                      "else:",
                      "    opts = list(items)"]
            return
        lines += charge
        lines += ["opts = []", "for x in items:"]
        if exclude:
            lines += [f"    if x in {exclude}:", "        continue"]
        lines.append(f"    L[{c.slot}] = x")
        test = self.src(lines, c.cond, "    ")
        lines += [f"    if {test}:", "        opts.append(x)"]

    def texts(self, lines: list[str], shown: tuple[int, ...]) -> str:
        """The labels' snapshot of the state (``meeple.dsl.interaction._decider``): per option,
        the card variables its label reads, now (None for 'skip'); 'None' when they read none."""
        if not shown:
            return "None"
        ncv = self.ncvars
        parts = ", ".join(f"cv[v * {ncv} + {i}]" for i in shown)
        lines += ["cv = st.cvars",
                  f"texts = [None if v == {self.const(SKIP)} else ({parts},) for v in opts]"]
        return "texts"

    # ------------------------------------------------------------ choose one
    def i_ChooseOne(self, c: ir.ChooseOne, head: str) -> Fn:
        """'choose one' (``InteractionChecker.s_ChooseOne``): an answer goes to its option's
        body; the options offered are those whose condition holds, in order."""
        skip = self.const(SKIP)
        starts = "(" + ", ".join(str(s) for s in c.starts) + ",)"
        lines = [*_ANSWERED,
                 f"    if ans == {skip}:",
                 f"        return {STOP}",
                 f"    return {starts}[ans]",
                 "opts = []"]
        for i, cond in enumerate(c.conds):
            if cond is None:
                lines.append(f"opts.append({i})")
            else:
                test = self.src(lines, cond)
                lines += [f"if {test}:", f"    opts.append({i})"]
        lines += ["if not opts:", f"    return {c.end}"]
        if c.optional:
            lines.append(f"opts.append({skip})")
        self.chooser(lines, c.chooser, "who")
        lines.append(f"st.pending = _Decision(who, {self.const(c.prompt)}, None, {self.const('choose_one')}, None, opts, "
                     f"{self.const(c.describer)})")
        return self.module.instruction("q", lines, f"return {SUSPEND}", head)

    # ------------------------------------------------------------ other code
    def enter(self, lines: list[str], frame: str, nxt: int, head: str) -> Fn:
        """The instruction of ``lines`` then running the unit ``code`` (numbered ``ci``) in the
        new frame ``frame`` (source): in place when it never pauses (``call_direct``), else
        pushed, this one going on at ``nxt``."""
        lines += ["if code.direct is not None:",
                  f"    _call_direct(st, code, {frame})",
                  f"    return {nxt}",
                  f"fr.pc = {nxt}",
                  f"st.frames.append({frame})"]
        return self.module.instruction("c", lines, f"return {CALL}", head)

    def i_CallProc(self, c: ir.Call, nxt: int, head: str) -> Fn:
        """'call NAME(ARGS)' of a procedure that may pause (``InteractionChecker.s_CallProc``)."""
        result, name = self.g.result, c.name        # the callee's unit, bound when the module is linked
        lines = [f"ci = {self.module.linked('u', lambda: result.proc_code[name])}",
                 f"code = {self.module.linked('u', lambda: result.codes[result.proc_code[name]])}",
                 "if code.steps:",          # a run: 1 step and its folded ones (``Code.steps``)
                 *["    " + line for line in _charged("code.steps", self.const(c.where))],
                 "loc = [None] * code.nlocals"]
        for i, a in enumerate(c.args):
            value = self.src(lines, a)
            lines.append(f"loc[{i}] = {value}")
        return self.enter(lines, "_Frame(ci, 0, loc, fr.me, fr.this)", nxt, head)

    def i_DoHook(self, c: ir.Hook, nxt: int, head: str) -> Fn:
        """'do HOOK of CARD' (``InteractionChecker.s_DoHook``): nothing when the card is none or
        its definition has no such hook."""
        lines: list[str] = []
        card = self.src(lines, c.card)
        lines += [f"c = {card}",
                  "if c is None:",
                  f"    return {nxt}",
                  f"ci = {self.by_card(c.hook, 'hook_code')}[{self.const(self.g.card_def_index)}[c]]",
                  "if ci is None:",
                  f"    return {nxt}",
                  f"code = {self.const(self.g.result.codes)}[ci]",
                  *_charged("code.steps", self.const(c.where))]
        return self.enter(lines, "_Frame(ci, 0, [None] * code.nlocals, fr.me, c)", nxt, head)

    def by_card(self, name: str, kind: str) -> str:
        """A made name for the units of hook or handler ``name`` by card definition (None for
        a definition without one), bound when the module is linked: looked up by index, not
        by the game's table of (definition, name) at each run."""
        result, ndefs = self.g.result, len(self.g.card_defs)
        return self.module.linked("u", lambda: [getattr(result, kind).get((d, name)) for d in range(ndefs)])

    def i_Emit(self, c: ir.Emit, nxt: int, head: str) -> Fn:
        """'emit EVENT(ARGS)' (``InteractionChecker.s_Emit``): a frame for each live card's
        handler, in the order of the live zones and their cards, run first to last; a step
        for each card looked at and each handler's run."""
        lines: list[str] = []
        values = [self.src(lines, a) for a in c.args]
        lines += [f"values = [{', '.join(values)}]",
                  "frames = []",
                  "game = st.game",
                  "steps = 0",
                  "for z in game.live_slots(st):",
                  "    owner = game.slot_owner[z]",
                  "    steps += len(st.zones[z])",
                  "    for c in st.zones[z]:",
                  f"        ci = {self.by_card(c.event, 'handler_code')}[{self.const(self.g.card_def_index)}[c]]",
                  "        if ci is not None:",
                  f"            code = {self.const(self.g.result.codes)}[ci]",
                  "            steps += code.steps",
                  "            loc = [None] * code.nlocals",
                  "            loc[:len(values)] = values",
                  "            frames.append(_Frame(ci, 0, loc, owner if owner >= 0 else fr.me, c))",
                  *_charged("steps", self.const(c.where)),
                  f"fr.pc = {nxt}",
                  "if not frames:",
                  f"    return {nxt}",
                  "frames.reverse()",
                  "st.frames.extend(frames)"]
        return self.module.instruction("v", lines, f"return {CALL}", head)

    # ------------------------------------------------------------ play actions
    def play_start(self, c: ir.PlayActions, nxt: int, head: str) -> Fn:
        """The start of 'play actions': the first menu's folded walks charged (the group's
        ``menu_steps``, once a turn) and the turn's uses emptied."""
        lines = [*_charged(f"st.game.menu_steps[{self.const(c.group)}]", self.const(c.where)),
                 f"L[{c.usage}] = []"]
        return self.module.instruction("pa", lines, f"return {nxt}", head)

    def i_PlayActions(self, c: ir.PlayActions, nxt: int, head: str) -> Fn:
        """'play actions GROUP until COND' (``InteractionChecker.s_PlayActions``): the action
        chosen is run (pushed when it may pause; else in place, in its reused frame, and the
        next menu follows at once), then the end test, the group's generated menu called by
        name and the decision posed, in one function."""
        menu = self.menu_names.get(c.group)
        if menu is None:
            menu = self.menu_names[c.group] = self.fresh("k")     # bound to the group's menu by ``MenuWriter.menu``
        lines = [*_ANSWERED,
                 "    game = st.game",
                 "    ai, card, param = ans",
                 "    act = game.actions[ai]",
                 "    code = game.codes[act.effect]",
                 "    if act.steps:",       # an effect that does much even once (``meeple.dsl.steps.ONCE_FREE``)
                 "        _charge(st, act.steps, code.spans[0] if code.spans else None)",
                 f"    L[{c.usage}] = _used_once_more(L[{c.usage}], ai * (game.ncards + 1) + (0 if card is None else card + 1))",
                 "    loc = [None] * code.nlocals",
                 "    if act.param_slot >= 0:",
                 "        loc[act.param_slot] = param",
                 "    if code.direct is None:",
                 f"        fr.pc = {nxt - 1}",
                 "        st.frames.append(_Frame(act.effect, 0, loc, fr.me, card if card is not None else fr.this))",
                 f"        return {CALL}",
                 "    run = act.scratch",       # run here, in its own reused frame (``call_direct``, written out)
                 "    run.code, run.locals, run.me, run.this = act.effect, loc, fr.me, card if card is not None else fr.this",
                 "    try:",
                 "        code.direct(st, run)",
                 "    except _ME as err:",
                 "        raise _named(game, err, code, code.spans[0] if code.spans else err.span, st, run)",
                 "    except _RF as exc:",
                 "        raise _named(game, exc, code, code.spans[0] if code.spans else None, st, run) from None"]
        done = self.src(lines, c.until)
        lines += [f"if {done}:",
                  f"    return {nxt}",
                  f"used = L[{c.usage}]",
                  f"opts, texts = {menu}(st, fr, used)",
                  "if not opts:",
                  f"    return {nxt}",
                  *current_chooser("me"),
                  f"st.pending = _Decision(me, {self.const(ACTION_PROMPT)}, None, {self.const(ACTION_KIND)}, used, opts, "
                  "st.game.action_describer, texts)"]
        return self.module.instruction("pa", lines, f"return {SUSPEND}", head)
