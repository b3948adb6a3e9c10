"""The pack's functions as the checker sees them: each body parsed once, and the facts
of it that decide how it may be used (whether it may change anything, how deep and
how big it is once the functions it uses are copied in, as they are wherever used).

A function is expanded where it is used (``meeple.dsl.calls``), so these facts bound
what an expansion costs before anything is expanded (``MAX_DEPTH``, ``MAX_EXPANSION``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from . import ast as A
from .errors import MeepleError
from .limits import MAX_EXPANSION
from .parser import parse
from .primitives import PRIMITIVES

if TYPE_CHECKING:
    from .compiler import Compiler


class FunctionFacts:
    """What the checker knows of the pack's functions, found once each per compile."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against

    def function_tree(self, fdef: Any) -> Optional[A.Node]:
        """A pack function's parsed body, parsed once per compile."""
        trees = self.__dict__.setdefault("_function_trees", {})
        if fdef.name not in trees:
            try:
                trees[fdef.name] = parse(fdef.body.text, fdef.body.origin, "expr_start")
            except MeepleError:
                trees[fdef.name] = None
        return trees[fdef.name]

    # ------------------------------------------------------------ what a use of a function may do and cost
    def impure(self, func: str) -> bool:
        """Whether a call may have side effects (then it is never evaluated once for many items)."""
        prim = PRIMITIVES.get(func)
        if prim is not None:
            return not prim.pure
        if func not in self.g.function_defs:
            return True
        # a function using itself is an error anyway (and counts as impure)
        return self.over_functions(func, "_impure_functions", lambda f, inner: self.function_facts(f)[3] or any(inner), True)

    def function_facts(self, name: str) -> tuple[int, int, tuple, bool]:
        """Of a pack function's body, once: (levels of nesting, nodes, the pack functions it
        calls (once per call), whether it calls anything impure but those)."""
        facts = self.__dict__.setdefault("_function_facts", {})
        if name not in facts:
            fdef = self.g.function_defs.get(name)
            tree = self.function_tree(fdef) if fdef is not None else None
            if tree is None:
                facts[name] = (0, 0, (), True)
                return facts[name]
            size, calls, own = 0, [], False
            stack = [tree]
            while stack:
                node = stack.pop()
                size += 1
                if isinstance(node, A.Call):
                    if node.func in self.g.function_defs:
                        calls.append(node.func)
                    else:
                        prim = PRIMITIVES.get(node.func)
                        own = own or prim is None or not prim.pure
                stack.extend(A.child_nodes(node))
            facts[name] = (A.depth(tree), size, tuple(calls), own)
        return facts[name]

    def over_functions(self, name: str, key: str, combine: Any, in_cycle: Any) -> Any:
        """A fact of a function made from its own and those of the functions it calls
        (``combine(name, [their facts])``), found once each, with a stack: a chain of
        functions calling each other may be as long as the pack. A function met again
        while it is being worked out (it uses itself) gives ``in_cycle``."""
        memo = self.__dict__.setdefault(key, {})
        if name in memo:
            return memo[name]
        active: set[str] = set()
        stack = [name]
        while stack:
            f = stack[-1]
            if f in memo:
                stack.pop()
                continue
            calls = self.function_facts(f)[2]
            if f not in active:
                active.add(f)
                stack.extend(g for g in calls if g not in memo and g not in active)
                continue
            memo[f] = combine(f, [memo.get(g, in_cycle) for g in calls])
            active.discard(f)
            stack.pop()
        return memo[name]

    def expanded_size(self, name: str) -> int:
        """Nodes of a function's body with the bodies of the functions it uses copied in at
        every call (up to just over MAX_EXPANSION: it is only compared with that)."""
        return self.over_functions(name, "_expanded_sizes",
                                   lambda f, inner: min(MAX_EXPANSION + 1, self.function_facts(f)[1] + sum(inner)), 0)

    def expanded_levels(self, name: str) -> int:
        """Levels of nesting of a function's body with the bodies of the functions it uses
        (counted whole, one inside the other)."""
        return self.over_functions(name, "_expanded_levels", lambda f, inner: self.function_facts(f)[0] + max(inner, default=0), 0)
