"""Shared pieces of the compiler: code units, scopes, run-time signals.

The types the checker gives expressions are in ``dsl.typesys``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .errors import MeepleError, RuleError
from .runtime import Frame
from .typesys import Type

STEP_BUDGET = 200_000     # instructions between two decisions (and loop rounds in one generated run)
SUSPEND = -1
CALL = -2
STOP = -3

Fn = Callable[[Any, Frame], Any]


@dataclass
class Code:
    """A compiled unit: instructions, the span of each, and the locals it needs."""

    name: str
    instrs: list = field(default_factory=list)
    spans: list = field(default_factory=list)
    nlocals: int = 0
    # generated units that never pause: the whole unit as one function, which callers
    # run in place (no frame pushed, no trip through the run loop)
    direct: Optional[Callable] = None


class _Scope:
    def __init__(self, parent: Optional["_Scope"] = None):
        self.names: dict[str, tuple[int, Type]] = {}     # name -> (local slot, its type)
        self.parent = parent

    def lookup(self, name: str) -> Optional[tuple[int, Type]]:
        s: Optional[_Scope] = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> list[str]:
        out = []
        s: Optional[_Scope] = self
        while s is not None:
            out += list(s.names)
            s = s.parent
        return out


class Unit:
    """Compilation state of one code unit (its code, locals, scope, origin).

    ``me_bound`` is true where a current player is certain (actions, and
    inside ``as`` blocks), so closures there read it without a check."""

    def __init__(self, code: Code, origin, scope: _Scope, me_bound: bool = False):
        self.code = code
        self.origin = origin
        self.scope = scope
        self.me_bound = me_bound
        # sub-expressions evaluated once per walk of a comprehension: id(node) -> cache slot
        self.hoist: Optional[dict[int, int]] = None

    def new_slot(self) -> int:
        self.code.nlocals += 1
        return self.code.nlocals - 1



Scope = _Scope

# A cache slot not yet filled in this walk (see dsl/hoist.py). Built at run time so no
# other string is ever the same object; compared with 'is'.
UNSET = "".join(("\x00", "unset"))
SKIP = "\x00skip"    # a string so decisions stay JSON-serialisable


def _bound_me(st, fr) -> int:
    return fr.me


def _me(st, fr) -> int:
    me = fr.me
    if me is None or me < 0:
        raise RuleError("no current player here (use 'as PLAYER:' or 'of PLAYER')")
    return me


def call_direct(st, code: Code, frame) -> None:
    """Run a unit that never pauses, in place. Errors name the unit and the rule's
    line as the run loop would (``named`` tells the loop not to name them again)."""
    try:
        code.direct(st, frame)
    except MeepleError as err:
        if not err.named:
            if not err.span.line:
                err.span = _where(st, err, code.spans[0] if code.spans else err.span)
            err.message = f"{err.message} (in {code.name})"
            err.named = True
        raise
    except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError) as exc:
        err = RuleError(f"{type(exc).__name__}: {exc} (in {code.name})", _where(st, exc, code.spans[0] if code.spans else None))
        err.named = True
        raise err from None


def _where(st, exc: BaseException, span):
    gen = getattr(st.game, "pygen", None)
    found = gen.locate(exc.__traceback__) if gen is not None else None
    return found or span


def _jump(target: int) -> Callable:
    return lambda st, fr: target


def _branch(cond: Fn, yes: int, no: int) -> Callable:
    return lambda st, fr: yes if cond(st, fr) else no


def _move(st, card: int, zone: int, bottom: bool) -> None:
    old = st.loc[card]
    if old == zone and not bottom:
        st.zones[old].remove(card)
        st.zones[zone].append(card)
        return
    st.zones[old].remove(card)
    if bottom:
        st.zones[zone].insert(0, card)
    else:
        st.zones[zone].append(card)
    st.loc[card] = zone
    if st.track is not None:
        st.track.add((zone, card))


def uses(used: list, key: int) -> int:
    """Times an action was used this turn: ``used`` is a flat list [key, count, key, count, ...]
    of small integers (plain data: it is saved and cloned with the frame's locals)."""
    for i in range(0, len(used), 2):
        if used[i] == key:
            return used[i + 1]
    return 0


def used_once_more(used: list, key: int) -> list:
    """A new list with one more use of ``key`` (the old one may be shared with a clone)."""
    out = list(used)
    for i in range(0, len(out), 2):
        if out[i] == key:
            out[i + 1] += 1
            return out
    out += (key, 1)
    return out
