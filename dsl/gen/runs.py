"""Which statements run as one piece of generated Python, and which procedures run in place.

A run of statements that never pauses (``fusable``) is written as one function with
native if/for/while (``meeple.dsl.gen.statements``); a procedure that never pauses, even
through what it calls, and is in no cycle of calls (``inline_procedures``) is a plain
Python call inside its caller's run; one whose code is more than one instruction is
run by ``interpret``.
"""
from __future__ import annotations

from typing import Any

from .. import ast as A
from ..types import Fn

# statements that may pause (ask a player) or run other code (a new frame): they end a run
_PAUSING = (A.Choose, A.ChooseOne, A.CallProc, A.DoHook, A.Emit, A.PlayActions)

def fusable(s: A.Node, inline: Any = ()) -> bool:
    """Whether a statement runs to its end without pausing, so that it can be
    written as plain Python together with its neighbours. ``inline``: the
    procedures a call may run in place (``inline_procedures``)."""
    if isinstance(s, _PAUSING):
        return isinstance(s, A.CallProc) and s.name in inline
    if isinstance(s, A.If):
        return all(fusable(b, inline) for _, body in s.branches for b in body) and all(fusable(b, inline) for b in s.orelse)
    if isinstance(s, (A.ForEach, A.Repeat, A.While, A.As)):
        return all(fusable(b, inline) for b in s.body)
    return True


# A procedure is run in place only when the calls below it are at most this deep:
# generated calls are Python calls, and a deep chain must not reach Python's own limit.
INLINE_DEPTH = 16


def inline_procedures(bodies: dict) -> dict:
    """The procedures that never pause, even through the procedures they call, and
    are in no cycle of calls: a call to one is written as a plain Python call
    inside its caller's generated run (no instruction of its own, no trip through
    the run loop). ``bodies``: name -> parsed statements (None if it did not
    parse). Returns name -> True when its body does nothing at all (a call to it
    is dropped, its arguments still evaluated), else False."""
    calls: dict = {}
    for name, body in bodies.items():
        if body is None:
            continue
        names = set()
        for s in A.statements_in(body):
            if isinstance(s, A.CallProc):
                names.add(s.name)
            elif isinstance(s, _PAUSING):
                break
        else:
            calls[name] = names
    height: dict = {}
    changed = True
    while changed:                      # from the leaves up: every callee settled first
        changed = False
        for name, callees in calls.items():
            if name in height or not all(c in height for c in callees):
                continue
            h = 1 + max((height[c] for c in callees), default=0)
            if h <= INLINE_DEPTH:
                height[name] = h
                changed = True
    return {name: all(isinstance(s, A.Stop) for s in bodies[name]) for name in height}


def interpret(instrs: list, nxt: int) -> Fn:
    """A unit's instructions ``instrs`` run in turn from the first, as one function (a
    procedure run in place whose code is more than one instruction): on to ``nxt`` past
    the last, or the stop an instruction returns."""
    n = len(instrs)

    def run(st, fr):
        pc = 0                  # the loops among them charge the step budget themselves
        while pc < n:
            pc = instrs[pc](st, fr)
            if pc < 0:
                return pc
        return nxt
    return run
