"""Finding the parts of a comprehension's condition that do not depend on its item.

In ``a in activities where employs(a) and any(c in hand where ...)``, the
``any(...)`` gives the same answer for every ``a``: expressions have no side
effects, and nothing but the item changes while the items are walked. The
compiler evaluates such parts at most once per walk (lazily, so ``and``/``or``
still short-circuit) instead of once per item. This is what keeps action
menus that test every card against every die affordable.

Only parts holding a call are worth it (a name or a field costs less than the
cache), and only calls without side effects (``random`` draws from the game's
generator, so it is never cached).
"""
from __future__ import annotations

from typing import Callable, Iterator

from . import ast as A


def children(n: A.Node) -> Iterator[tuple[A.Node, frozenset]]:
    """Sub-expressions with the names each binds over it (a comprehension binds its item)."""
    none: frozenset = frozenset()
    if isinstance(n, (A.Field, A.Unary, A.Is)):
        yield (n.target if not isinstance(n, A.Unary) else n.operand), none
    elif isinstance(n, A.Of):
        if n.target is not None:
            yield n.target, none
    elif isinstance(n, A.Comprehension):
        yield n.source, none
        for part in (n.cond, n.value):
            if part is not None:
                yield part, frozenset((n.var,))
    elif isinstance(n, A.Call):
        for a in n.args:
            yield a, none
    elif isinstance(n, A.ListLit):
        for a in n.items:
            yield a, none
    elif isinstance(n, A.Binary):
        yield n.left, none
        yield n.right, none
    elif isinstance(n, A.Cond):
        yield n.test, none
        yield n.then, none
        yield n.other, none


def free_names(n: A.Node, bound: frozenset = frozenset()) -> set[str]:
    """Names the expression reads that it does not bind itself."""
    if isinstance(n, A.Name):
        return set() if n.name in bound else {n.name}
    out: set[str] = set()
    for child, binds in children(n):
        out |= free_names(child, bound | binds)
    return out


def has_call(n: A.Node, impure: Callable[[str], bool]) -> tuple[bool, bool]:
    """(holds a call, holds a call with side effects)."""
    found = isinstance(n, A.Call)
    bad = found and impure(n.func)
    for child, _ in children(n):
        f, b = has_call(child, impure)
        found, bad = found or f, bad or b
    return found, bad


def invariant_parts(roots: list, var: str, impure: Callable[[str], bool]) -> list[A.Node]:
    """The largest sub-expressions of ``roots`` that do not read ``var`` and hold a
    call without side effects. Parts of nested comprehensions' conditions are
    left to those comprehensions (they compile in their own scope)."""
    out: list[A.Node] = []

    def walk(n: A.Node) -> None:
        if var not in free_names(n):
            found, bad = has_call(n, impure)
            if found and not bad:
                out.append(n)
                return
            if not found:
                return
        for child, binds in children(n):
            if not binds:          # a nested comprehension's condition: its own business
                walk(child)

    for r in roots:
        if r is not None:
            walk(r)
    return out
