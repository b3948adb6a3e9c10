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
    """Names the expression reads that it does not bind itself (walked with a stack:
    a chain of operators is as long as its text)."""
    out: set[str] = set()
    stack = [(n, bound)]
    while stack:
        node, names = stack.pop()
        if isinstance(node, A.Name):
            if node.name not in names:
                out.add(node.name)
            continue
        for child, binds in children(node):
            stack.append((child, names | binds if binds else names))
    return out


def invariant_parts(roots: list, var: str, impure: Callable[[str], bool]) -> list[A.Node]:
    """The largest sub-expressions of ``roots`` that do not read ``var`` and hold a
    call without side effects. Parts of nested comprehensions' conditions are
    left to those comprehensions (they compile in their own scope).

    Linear in the size of the roots: what each node reads and holds is found once,
    from the leaves up, then the parts are picked from the top down (in the order of
    the text: a part's place decides its cache's frame slot)."""
    out: list[A.Node] = []
    for r in roots:
        if r is None:
            continue
        # every node numbered, each after the node it is inside (so the nodes inside come first
        # when the numbers are walked down), with the numbers of its children and what they bind
        nodes: list[A.Node] = [r]
        inside: list[list[tuple[int, frozenset]]] = []
        for node in nodes:               # grows as it is walked
            kids = []
            for child, binds in children(node):
                kids.append((len(nodes), binds))
                nodes.append(child)
            inside.append(kids)
        info: list[tuple[bool, bool, bool]] = [(False, False, False)] * len(nodes)   # (reads var, holds a call, holds an impure call)
        for i in range(len(nodes) - 1, -1, -1):
            node = nodes[i]
            if isinstance(node, A.Name):
                info[i] = (node.name == var, False, False)
                continue
            reads = found = bad = False
            if isinstance(node, A.Call):
                found = True
                bad = impure(node.func)
            for k, binds in inside[i]:
                r_, f_, b_ = info[k]
                reads = reads or (r_ and var not in binds)
                found = found or f_
                bad = bad or b_
            info[i] = (reads, found, bad)
        stack = [0]
        while stack:
            i = stack.pop()
            reads, found, bad = info[i]
            if not reads:
                if found and not bad:
                    out.append(nodes[i])
                    continue
                if not found:
                    continue
            stack.extend(reversed([k for k, binds in inside[i] if not binds]))    # a nested comprehension's condition: its own business
    return out
