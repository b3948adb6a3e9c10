"""The instructions that ask a player, branch or start a walk, generated.

Each is one function doing what the compiler's instruction (a closure calling closures)
does: a branch with its test written in (``branch``), 'play actions' with its end test,
the group's menu and the decision in one (``play_actions``), a one-pick 'choose' with its
options, chooser and decision (``choose``), the start of a 'for each' whose body pauses
(``walk_init``). Each returns None when a part it needs was not generated, and the
compiler keeps its own instruction; the compiler's instruction also stands in for the
generated one if the module cannot be compiled.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from ..interaction import ACTION_KIND, ACTION_PROMPT, CHOOSE_KIND
from ..steps import Where, counted_branch
from ..types import SKIP, STOP, SUSPEND, Fn, _branch, order_key
from .module import Module, charge_lines
from .runs import then

if TYPE_CHECKING:
    from ..pygen import PyGen

# the start of a generated question: an answer, if there is one, is taken (once)
_ANSWERED = ["ans = st.answer",
             "if ans is not _NO_ANSWER:",
             "    st.answer = _NO_ANSWER"]


def _current_chooser(name: str) -> list[str]:
    """Lines putting the frame's player in ``name``, refused as the closures refuse it
    (no current player, or not one of this game's)."""
    return [f"{name} = fr.me",
            f"if {name} is None or not 0 <= {name} < st.players:",
            "    raise _no_chooser(st, _me(st, fr))"]


class InstructionWriter:
    """Writes the generated instructions the compiler asks for (through ``PyGen``)."""

    def __init__(self, shared: "PyGen", module: Module, menu_names: dict[str, str]):
        self.module = module
        self.src_of = shared.src_of           # generated function -> (setup lines, expression), to inline it
        self.where_of = shared.where_of       # generated function -> its comment
        self.inlined = shared.inlined         # generated functions written into another
        self.menu_names = menu_names          # action group -> the made name its menu is called by
        self.const, self.fresh, self.instruction = module.const, module.fresh, module.instruction

    def branch(self, cond: Fn, yes: int, no: int, counted: Optional[tuple] = None) -> Optional[Fn]:
        """A branch instruction (see ``Compiler.branch``) with a generated condition's
        source written in it, or None when the condition is not generated. ``counted``:
        the head of a loop, which charges (steps, where) each test."""
        found = self.src_of.get(cond)
        if found is None:
            return None
        self.inlined.add(cond)        # only the closure standing in for this instruction holds it
        head = self.where_of.get(cond, "")
        if counted is None:
            return self.instruction("b", list(found[0]), f"return {yes} if ({found[1]}) else {no}", _branch(cond, yes, no), head)
        return self.instruction("b", charge_lines(str(counted[0]), self.const(counted[1])) + list(found[0]),
                                f"return {yes} if ({found[1]}) else {no}", counted_branch(cond, yes, no, counted), head)

    def op(self, body: list, action: Fn, head: str = "") -> Callable[[int], Fn]:
        """``make(next)`` for ``Compiler.emit``: an instruction running the generated
        lines ``body`` (with ``L``, the frame's locals) then going to the next one;
        ``action(st, fr)`` is what runs instead if the module cannot be compiled;
        ``head``: its comment."""
        return lambda nxt: self.instruction("s", body, f"return {nxt}", then(action, nxt), head)

    def play_actions(self, until: Fn, usage: int, group: str, resume: Callable, nxt: int,
                     asking: Fn) -> Optional[Fn]:
        """The instruction of 'play actions GROUP until COND', generated: the answer
        taken by the compiler's ``resume``, then the end test written in, the group's
        generated menu called by name and the decision posed, in one function
        (``pausing``'s op, its offer, the test's and the chooser's calls, as one).
        None when the end test is not generated. ``asking`` (the compiler's
        instruction) runs instead if the module cannot be compiled."""
        found = self.src_of.get(until)
        if found is None:
            return None
        self.inlined.add(until)       # only the closure standing in for this instruction holds it
        menu = self.menu_names.get(group)
        if menu is None:
            menu = self.menu_names[group] = self.fresh("k")     # bound to the group's menu by ``menu``
        lines = [*_ANSWERED,
                 f"    to = {self.const(resume)}(st, fr, ans)",
                 "    if to is not None:",
                 "        return to",
                 *found[0],
                 f"if {found[1]}:",
                 f"    return {nxt}",
                 f"used = L[{usage}]",
                 f"opts, texts = {menu}(st, fr, used)",
                 "if not opts:",
                 f"    return {nxt}",
                 *_current_chooser("me"),
                 f"st.pending = _Decision(me, {self.const(ACTION_PROMPT)}, None, {self.const(ACTION_KIND)}, used, opts, "
                 "st.game.action_describer, texts)"]
        return self.instruction("pa", lines, f"return {SUSPEND}", asking, self.where_of.get(until, ""))

    def choose(self, source: Fn, zone: bool, who: Optional[Fn], slot: int, optional: bool, decision: Optional[Callable],
               describer: Any, prompt: str, nxt: int, asking: Fn) -> Optional[Fn]:
        """The instruction of 'choose X from SOURCE [by PLAYER]' (one pick, no where-clause),
        generated: the answer taken, else the options (a zone or list copied once), the
        chooser and the decision written in one function. ``decision(st, who, prompt,
        values, kind)`` makes the decision when its labels read the state (else it is
        made in place); ``who`` is None for the current player. None when the source or
        the chooser is not generated; ``asking`` runs instead if the module cannot be compiled."""
        found = self.src_of.get(source)
        chooser = self.src_of.get(who) if who is not None else None
        if found is None or (who is not None and chooser is None):
            return None
        self.inlined.update((source, who) if who is not None else (source,))     # held by ``asking`` only
        skip = self.const(SKIP)
        lines = [*_ANSWERED,
                 f"    if ans == {skip}:",            # 'may choose' declined: the effect ends
                 f"        return {STOP}",
                 f"    L[{slot}] = ans",
                 f"    return {nxt}",
                 *found[0],
                 f"opts = st.zones[{found[1]}][:]" if zone else f"opts = list({found[1]})",
                 "if not opts:"]           # nothing to choose: 'may' ends the effect, a plain choose goes on with none
        lines += [f"    return {STOP}"] if optional else [f"    L[{slot}] = None", f"    return {nxt}"]
        if optional:
            lines.append(f"opts.append({skip})")
        if chooser is not None:
            lines += [*chooser[0], f"who = {chooser[1]}",
                      "if who.__class__ is not int or not 0 <= who < st.players:",
                      "    raise _no_chooser(st, who)"]
        else:
            lines += _current_chooser("who")
        kind = self.const(CHOOSE_KIND)
        if decision is not None:
            lines.append(f"st.pending = {self.const(decision)}(st, who, {self.const(prompt)}, opts, {kind})")
        else:
            lines.append(f"st.pending = _Decision(who, {self.const(prompt)}, None, {kind}, None, opts, "
                         f"{self.const(describer)}, None)")
        return self.instruction("q", lines, f"return {SUSPEND}", asking, self.where_of.get(source, ""))

    def walk_init(self, source: Fn, zone: bool, cond: Optional[Fn], order: Optional[Fn], var: int, items: int,
                  idx: int, closure: Fn, plan: tuple, where: Where) -> Optional[Callable[[int], Fn]]:
        """The first instruction of a 'for each' whose body pauses (so it walks by
        instructions), generated: its items, kept by its condition and sorted by its
        order (a stable sort, none last), into the frame's locals as the closure
        puts them, with the source, condition and order written in it (no call per
        item), each walk charged as the closure charges it (``plan``: the factors of
        the filter, the sort and the rounds; 0 for one folded). Returns ``make(next)``
        for ``Compiler.emit``, or None when a part is not generated. ``closure(st, fr)``
        is the compiler's start, which runs instead if the module cannot be compiled."""
        found = self.src_of.get(source)
        test = self.src_of.get(cond) if cond is not None else None
        key = self.src_of.get(order) if order is not None else None
        if found is None or (cond is not None and test is None) or (order is not None and key is None):
            return None
        # the source and the test are held by ``closure`` only (the order also re-sorts the walk's
        # items when hidden cards are dealt again: ``Code.ordered_walks``)
        self.inlined.update((source, cond) if cond is not None else (source,))

        at = self.const(where)

        def make(nxt: int) -> Fn:
            lines = list(found[0])
            if test is None and key is None:   # a zone is copied (the walk outlives changes to it); a list is kept as given
                lines.append(f"L[{items}] = st.zones[{found[1]}][:]" if zone else f"L[{items}] = {found[1]}")
            else:                 # only read while the kept ones are picked: no copy
                seq = f"st.zones[{found[1]}]" if zone else found[1]
                v, kept, walked = self.fresh("v"), self.fresh("x"), self.fresh("x")
                lines.append(f"{walked} = {seq}")
                if test is not None:          # as the closure does: every test, then every key (each charged first)
                    lines += self.module.charged(f"len({walked})", plan[0], at)
                    lines += [f"{kept} = []", f"for {v} in {walked}:", f"    L[{var}] = {v}"]
                    lines += ["    " + line for line in test[0]]
                    lines += [f"    if {test[1]}:", f"        {kept}.append({v})"]
                    walked = kept
                if key is not None:
                    keyed, t = self.fresh("x"), self.fresh("t")
                    lines += self.module.charged(f"len({walked})", plan[1], at)
                    lines += [f"{keyed} = []", f"for {v} in {walked}:", f"    L[{var}] = {v}"]
                    lines += ["    " + line for line in key[0]]
                    lines += [f"    {keyed}.append(({key[1]}, len({keyed}), {v}))",
                              f"{keyed}.sort(key={self.const(order_key)})"]
                    walked = f"[{t}[2] for {t} in {keyed}]"
                lines.append(f"L[{items}] = {walked}")
            lines += self.module.charged(f"len(L[{items}])", plan[2], at)      # and the rounds
            lines.append(f"L[{idx}] = 0")
            return self.instruction("w", lines, f"return {nxt}", then(closure, nxt), self.where_of.get(source, ""))
        return make
