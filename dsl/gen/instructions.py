"""The instructions of control flow around statements that pause, generated.

A loop or an 'if' whose body pauses (or runs other code) cannot be one Python function: it
is laid out as instructions with jumps (instruction numbers), which a saved frame resumes at,
and each of its instructions is generated here: a branch with its test written in
(``branch``), the start of a 'for each' (``walk_init``) and its next item (``walk_step``),
the start of a 'repeat' and its next round (``repeat_start``, ``repeat_step``), and an
instruction of generated lines (``op``: entering and leaving 'as'). (The statements that
pause are ``meeple.dsl.gen.pausing``'s.)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from ..steps import Where
from ..types import Fn, order_key
from .module import Module, charge_lines

if TYPE_CHECKING:
    from ..pygen import PyGen


class InstructionWriter:
    """Writes the generated instructions the compiler asks for (through ``PyGen``)."""

    def __init__(self, shared: "PyGen", module: Module):
        self.module = module
        self.source_of = shared.source_of     # generated function -> (setup lines, expression), to inline it
        self.where_of = shared.where_of       # generated function -> its comment
        self.inlined = shared.inlined         # generated functions written into another
        self.const, self.fresh, self.instruction = module.const, module.fresh, module.instruction

    def branch(self, cond: Fn, yes: int, no: int, counted: Optional[tuple] = None) -> Fn:
        """A branch instruction (see ``Compiler.branch``) with the generated condition's
        source written in it. ``counted``: the head of a loop, which charges (steps, where)
        each test."""
        found = self.source_of(cond)
        self.inlined.add(cond)        # written into this instruction: its own function is left out
        head = self.where_of.get(cond, "")
        if counted is None:
            return self.instruction("b", list(found[0]), f"return {yes} if ({found[1]}) else {no}", head)
        return self.instruction("b", charge_lines(str(counted[0]), self.const(counted[1])) + list(found[0]),
                                f"return {yes} if ({found[1]}) else {no}", head)

    def op(self, body: list, head: str = "") -> Callable[[int], Fn]:
        """``make(next)`` for ``Compiler.emit``: an instruction running the generated
        lines ``body`` (with ``L``, the frame's locals) then going to the next one;
        ``head``: its comment."""
        return lambda nxt: self.instruction("s", body, f"return {nxt}", head)

    def walk_init(self, source: Fn, zone: bool, cond: Optional[Fn], order: Optional[Fn], var: int, items: int,
                  idx: int, plan: tuple, where: Where) -> Callable[[int], Fn]:
        """The first instruction of a 'for each' whose body pauses (so it walks by
        instructions), generated: its items, kept by its condition and sorted by its
        order (a stable sort, none last), into the frame's locals, with the source, condition and order written in it (no call per
        item), each walk charged as the checker planned (``plan``: the factors of
        the filter, the sort and the rounds; 0 for one folded). Returns ``make(next)``
        for ``Compiler.emit``."""
        found = self.source_of(source)
        test = self.source_of(cond) if cond is not None else None
        key = self.source_of(order) if order is not None else None
        # the source and the test are written in (the order is kept on its own: it also re-sorts
        # the walk's items when hidden cards are dealt again, ``Code.ordered_walks``)
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
                if test is not None:          # every test, then every key (each charged first)
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
            return self.instruction("w", lines, f"return {nxt}", self.where_of.get(source, ""))
        return make

    def walk_step(self, items: int, idx: int, var: int, head: int, end: int, comment: str) -> Fn:
        """The head of a 'for each' walked by instructions (``meeple.dsl.statements._walk_step``):
        the next item into its variable and on into the body, or, past the last, the items
        let go and on to ``end``."""
        lines = [f"i = L[{idx}]",
                 f"items = L[{items}]",
                 "if i >= len(items):",
                 f"    L[{items}] = None",
                 f"    return {end}",
                 f"L[{var}] = items[i]",
                 f"L[{idx}] = i + 1"]
        return self.instruction("w", lines, f"return {head + 1}", comment)

    def repeat_start(self, count: Fn, slot: int, factor: int, where: Where, nxt: int, comment: str) -> Fn:
        """The start of a 'repeat' whose body pauses: its rounds counted into ``slot``, every
        round charged as the loop starts (``factor`` a round; 0: folded)."""
        lines: list[str] = []
        found = self.source_of(count)
        self.inlined.add(count)         # written into this instruction: its own function is left out
        lines += found[0]
        n = found[1]
        lines.append(f"n = {n}")
        if factor:
            lines += ["if n > 0:", *["    " + line for line in charge_lines("n" if factor == 1 else f"n * {factor}", self.const(where))]]
        lines.append(f"L[{slot}] = n")
        return self.instruction("r", lines, f"return {nxt}", comment)

    def repeat_step(self, slot: int, head: int, end: int, comment: str) -> Fn:
        """The head of a 'repeat' whose body pauses: one round fewer, on into the body, or,
        with none left, on to ``end``."""
        lines = [f"left = L[{slot}]",
                 "if left <= 0:",
                 f"    return {end}",
                 f"L[{slot}] = left - 1"]
        return self.instruction("r", lines, f"return {head + 1}", comment)
