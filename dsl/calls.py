"""Checking calls: the primitives (``meeple.dsl.primitives``), the pack's
functions (expanded where they are used: their parameters become locals of the caller)
and the aggregates over a collection or a comprehension (count, sum, min, max, any,
every, first, those, values), each walk charged as the step planner decides.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from . import ast as A
from .errors import DslCheckError, MeepleError, suggest
from .limits import MAX_DEPTH, MAX_EXPANSION
from .primitives import PRIMITIVES
from .types import Unit, _Scope
from .typesys import ANY, BOOL, ELEM, INT, List, Type, Zone, compatible

if TYPE_CHECKING:
    from .compiler import Compiler


class _SelfUse(DslCheckError):
    """A function that uses itself: reported wherever it shows."""


class _TooMuch(DslCheckError):
    """Functions expanded beyond MAX_DEPTH levels or MAX_EXPANSION parts: reported wherever it shows."""


class CallChecker:
    """Checks calls (``x_Call``): a primitive, a pack's function expanded, an aggregate."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against
        self._inlining: tuple = ()    # the pack functions being expanded, outermost first

    def x_Call(self, unit, n):
        fdef = self.g.function_defs.get(n.func)
        if fdef is not None:
            self.c.exprs.resolve("function", n.func)
            return self.inline_function(unit, n, fdef)
        prim = PRIMITIVES.get(n.func)
        if prim is None:
            raise self.c.err(unit, n.pos, f"unknown function '{n.func}'", suggest(n.func, list(PRIMITIVES)))
        self.c.exprs.resolve("primitive", n.func)
        if prim.fn is None:
            return self.aggregate(unit, n)
        types = []
        if not prim.variadic and len(n.args) != len(prim.params):
            raise self.c.err(unit, n.pos, f"{n.func}() takes {len(prim.params)} argument(s), given {len(n.args)}")
        if prim.variadic and len(n.args) < len(prim.params):       # lesser() of nothing has no value
            raise self.c.err(unit, n.pos, f"{n.func}() takes at least {len(prim.params)} argument(s), given {len(n.args)}")
        for i, a in enumerate(n.args):
            want = prim.params[min(i, len(prim.params) - 1)]
            t = self.c.expr(unit, a).type
            if isinstance(want, Zone):
                if not isinstance(t, Zone):
                    raise self.c.err(unit, a.pos, f"{n.func}() needs a zone, found {t.describe()}")
            elif not compatible(t, want):
                raise self.c.err(unit, a.pos, f"{n.func}() needs {want.describe()}, found {t.describe()}")
            if isinstance(want, List):        # a list the primitive reads whole (top_sum, tier, ...)
                self.c.steps.by_length(unit, a, self.c.steps.bound(a, t))
            types.append(t)
        if n.func == "turn_order":
            self.c.steps.bounded(n, self.g.max_players)
        ret = prim.returns
        if ret == ELEM:
            ret = types[0].elem()
        return ret

    def inline_function(self, unit: Unit, n: A.Call, fdef: Any) -> Type:
        """A pack's function: its body is checked here, its parameters are new locals of
        the caller set from the arguments (the body sees nothing else)."""
        if fdef.name in getattr(self.g, "broken_functions", ()):
            return ANY      # its errors are reported at its definition
        inlining = self._inlining
        if fdef.name in inlining:
            err = self.c.err(unit, n.pos, f"function '{fdef.name}' uses itself (functions are expanded where used)")
            raise _SelfUse(err.message, err.span)
        levels = self.c.facts.expanded_levels(fdef.name)
        if levels > MAX_DEPTH:
            err = self.c.err(unit, n.pos, f"function '{fdef.name}' nests too deeply: with the functions it uses, expanded "
                           f"where used, it has {levels} levels of nesting, more than {MAX_DEPTH}",
                           "use fewer functions inside one another")
            raise _TooMuch(err.message, err.span, err.hint)
        if not inlining:        # the outermost use: its whole expansion counts, known before expanding anything
            self.c._expanded = self.c._expanded + self.c.facts.expanded_size(fdef.name)
        if not inlining and self.c._expanded > MAX_EXPANSION:
            err = self.c.err(unit, n.pos, f"functions expand to more than {MAX_EXPANSION:,} parts in this text "
                           f"(a function's body is copied wherever it is used, and '{fdef.name}' is used too often)",
                           "use fewer functions inside one another, or a 'let' for a value used many times")
            raise _TooMuch(err.message, err.span, err.hint)
        self.c.interaction.call_args(unit, n.pos, f"function '{fdef.name}'", fdef.params, n.args)
        inner = Unit(unit.code, fdef.body.origin, _Scope(), unit.me_bound)
        copied = False          # an argument copied into a parameter's slot of its own
        for p, node in zip(fdef.params, n.args):
            local = unit.scope.lookup(node.name) if isinstance(node, A.Name) else None
            if local is not None:
                # an argument that is already a local: the parameter reads its slot (no copy;
                # expressions never assign, so it cannot change while the body runs)
                inner.bind(inner.scope, p.name, local[0], self.g.type_of(p.type))
                continue
            slot = inner.new_slot(self.g.type_of(p.type))
            inner.bind(inner.scope, p.name, slot, self.g.type_of(p.type))
            copied = True
        self._inlining = inlining + (fdef.name,)
        try:
            tree = self.c.facts.function_tree(fdef)
            if tree is None:
                return ANY
            body = self.c.expr(inner, tree)
            self.c.steps.bounded(n, self.c.steps.bound(tree, body.type))
        except (_SelfUse, _TooMuch):
            raise
        except MeepleError:
            # the function's own text is checked, and its errors reported, once where it is defined
            return ANY
        finally:
            self._inlining = inlining
        if not copied:          # the call is its body: a list the body charges as it is made, the call does
            self.c.exprs.around.counts = body.counts
        return body.type

    def aggregate(self, unit: Unit, n: A.Call) -> Type:
        if len(n.args) != 1:
            raise self.c.err(unit, n.pos, f"{n.func}() takes one collection, e.g. {n.func}(c in hand where ...)")
        walked, et, vt, bound, inner, valued = self.comprehension(unit, n.args[0])
        kind = n.func
        if kind in ("sum", "min", "max") and not valued and et != INT:
            raise self.c.err(unit, n.args[0].pos, f"{kind}() needs numbers: write {kind}(x.field for x in ...)")
        if kind in ("sum", "min", "max") and valued and vt != INT and vt != ANY:
            raise self.c.err(unit, n.args[0].pos, f"{kind}() needs numbers, found {vt.describe()}")
        if kind in ("those", "values"):
            self.c.steps.bounded(n, bound)
        # a walk (and a plain list read whole: sum, max, any of true/false...) is folded, or
        # charged its items as it starts (``fold``); count, first, any of a list read no item
        truthy = et == BOOL
        walks = walked or kind in ("sum", "min", "max", "those", "values") or (truthy and kind in ("any", "every"))
        if walks:
            self.c.steps.walk(unit, n, bound, inner)
        if kind in ("count", "sum", "min", "max"):
            return INT
        if kind == "those":
            if valued:
                raise self.c.err(unit, n.args[0].pos, "those() keeps items: write those(x in ... where ...); values() maps them")
            return List(et)
        if kind == "values":
            if not valued:
                raise self.c.err(unit, n.args[0].pos, "values() needs a value per item: values(coins of p for p in players)")
            return List(vt)
        if kind in ("any", "every"):
            return BOOL
        if kind == "first":
            return et
        raise self.c.err(unit, n.pos, f"unknown aggregate {kind}")   # pragma: no cover

    def x_Comprehension(self, unit, n):
        raise self.c.err(unit, n.pos, "a 'x in ... where ...' form belongs inside count(), sum(), any(), every(), first(), those(), min() or max()")

    def comprehension(self, unit: Unit, n: A.Node) -> tuple[bool, Type, Type, Optional[int], int, bool]:
        """(whether it walks its items, naming each (``x in ...``), the element type, the value
        type, at most how many items the source holds (None: unknown), the steps folded into
        each item's test and value, whether it has a value per item)."""
        if isinstance(n, A.Comprehension):
            if not n.var:
                raise self.c.err(unit, n.pos, "write 'x in collection where condition'")
            st_ = self.c.expr(unit, n.source).type
            if not st_.is_collection:
                raise self.c.err(unit, n.source.pos, f"expected a zone or list, found {st_.describe()}")
            et = st_.elem()
            inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
            slot = inner.new_slot(et)
            inner.bind(inner.scope, n.var, slot, et)
            self.c.exprs.hoist_invariants(inner, n.var, [n.cond, n.value])
            with self.c.steps.apart() as each:
                if n.cond is not None:
                    self.c.truth(inner, n.cond)
                vt = self.c.expr(inner, n.value).type if n.value is not None else et
            return True, et, vt, self.c.steps.bound(n.source, st_), each.steps, n.value is not None
        st_ = self.c.expr(unit, n).type
        if not st_.is_collection:
            raise self.c.err(unit, n.pos, f"expected a zone or list, found {st_.describe()}")
        return False, st_.elem(), st_.elem(), self.c.steps.bound(n, st_), 0, False
