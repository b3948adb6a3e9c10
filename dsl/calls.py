"""Checking and compiling calls: the primitives (``meeple.dsl.primitives``), the pack's
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
from .steps import charge
from .types import Fn, Unit, _Scope
from .typesys import ANY, BOOL, ELEM, INT, List, Type, Zone, compatible

if TYPE_CHECKING:
    from .compiler import Compiler


class _SelfUse(DslCheckError):
    """A function that uses itself: reported wherever it shows."""


class _TooMuch(DslCheckError):
    """Functions expanded beyond MAX_DEPTH levels or MAX_EXPANSION parts: reported wherever it shows."""


class CallChecker:
    """Checks and compiles calls (``x_Call``): a primitive, a pack's function expanded, an aggregate."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against
        self._inlining: tuple = ()    # the pack functions being expanded, outermost first

    def x_Call(self, unit, n):
        fdef = self.g.function_defs.get(n.func)
        if fdef is not None:
            return self.inline_function(unit, n, fdef)
        prim = PRIMITIVES.get(n.func)
        if prim is None:
            raise self.c.err(unit, n.pos, f"unknown function '{n.func}'", suggest(n.func, list(PRIMITIVES)))
        if prim.fn is None:
            return self.aggregate(unit, n)
        args, types = [], []
        if not prim.variadic and len(n.args) != len(prim.params):
            raise self.c.err(unit, n.pos, f"{n.func}() takes {len(prim.params)} argument(s), given {len(n.args)}")
        if prim.variadic and len(n.args) < len(prim.params):       # lesser() of nothing has no value
            raise self.c.err(unit, n.pos, f"{n.func}() takes at least {len(prim.params)} argument(s), given {len(n.args)}")
        for i, a in enumerate(n.args):
            want = prim.params[min(i, len(prim.params) - 1)]
            fn, t = self.c.expr(unit, a)
            if isinstance(want, Zone):
                if not isinstance(t, Zone):
                    raise self.c.err(unit, a.pos, f"{n.func}() needs a zone, found {t.describe()}")
            elif not compatible(t, want):
                raise self.c.err(unit, a.pos, f"{n.func}() needs {want.describe()}, found {t.describe()}")
            if isinstance(want, List):        # a list the primitive reads whole (top_sum, tier, ...)
                fn = self.c.steps.by_length(unit, a, fn, self.c.steps.bound(a, t))
            args.append(fn)
            types.append(t)
        if n.func == "turn_order":
            self.c.steps.bounded(n, self.g.max_players)
        ret = prim.returns
        if ret == ELEM:
            ret = types[0].elem()
        f = prim.fn
        if prim.needs_state:
            if len(args) == 1:
                a0 = args[0]
                return (lambda st, fr: f(st, a0(st, fr))), ret
            if len(args) == 2:
                a0, a1 = args
                return (lambda st, fr: f(st, a0(st, fr), a1(st, fr))), ret
            return (lambda st, fr: f(st, *[a(st, fr) for a in args])), ret
        if len(args) == 1:
            a0 = args[0]
            return (lambda st, fr: f(a0(st, fr))), ret
        if len(args) == 2:
            a0, a1 = args
            return (lambda st, fr: f(a0(st, fr), a1(st, fr))), ret
        return (lambda st, fr: f(*[a(st, fr) for a in args])), ret

    def inline_function(self, unit: Unit, n: A.Call, fdef: Any):
        """A pack's function: its body is compiled here, its parameters are new
        locals of the caller set from the arguments (the body sees nothing else)."""
        if fdef.name in getattr(self.g, "broken_functions", ()):
            return (lambda st, fr: None), ANY      # its errors are reported at its definition
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
        args = [e.fn for e in self.c.interaction.call_args(unit, n.pos, f"function '{fdef.name}'", fdef.params, n.args)]
        inner = Unit(unit.code, fdef.body.origin, _Scope(), unit.me_bound)
        pairs_list = []
        for p, node, arg in zip(fdef.params, n.args, args):
            local = unit.scope.lookup(node.name) if isinstance(node, A.Name) else None
            if local is not None:
                # an argument that is already a local: the parameter reads its slot (no copy;
                # expressions never assign, so it cannot change while the body runs)
                inner.bind(inner.scope, p.name, local[0], self.g.type_of(p.type))
                continue
            slot = inner.new_slot(self.g.type_of(p.type))
            inner.bind(inner.scope, p.name, slot, self.g.type_of(p.type))
            pairs_list.append((slot, arg))
        self._inlining = inlining + (fdef.name,)
        try:
            tree = self.c.facts.function_tree(fdef)
            if tree is None:
                return (lambda st, fr: None), ANY
            body, t = self.c.expr(inner, tree)
            self.c.steps.bounded(n, self.c.steps.bound(tree, t))
        except (_SelfUse, _TooMuch):
            raise
        except MeepleError:
            # the function's own text is checked, and its errors reported, once where it is defined
            return (lambda st, fr: None), ANY
        finally:
            self._inlining = inlining
        pairs = tuple(pairs_list)
        if not pairs:
            return body, t
        if len(pairs) == 1:
            (s0, a0), = pairs

            def call1(st, fr):
                fr.locals[s0] = a0(st, fr)
                return body(st, fr)
            return call1, t

        def call(st, fr):
            loc = fr.locals
            for slot, arg in pairs:
                loc[slot] = arg(st, fr)
            return body(st, fr)
        return call, t

    def aggregate(self, unit: Unit, n: A.Call):
        if len(n.args) != 1:
            raise self.c.err(unit, n.pos, f"{n.func}() takes one collection, e.g. {n.func}(c in hand where ...)")
        src, slot, cond, value, et, vt, bound, inner = self.comprehension(unit, n.args[0])
        kind = n.func
        if kind in ("sum", "min", "max") and value is None and et != INT:
            raise self.c.err(unit, n.args[0].pos, f"{kind}() needs numbers: write {kind}(x.field for x in ...)")
        if kind in ("sum", "min", "max") and value is not None and vt != INT and vt != ANY:
            raise self.c.err(unit, n.args[0].pos, f"{kind}() needs numbers, found {vt.describe()}")
        if kind in ("those", "values"):
            self.c.steps.bounded(n, bound)
        # a walk (and a plain list read whole: sum, max, any of true/false...) is folded, or
        # charged its items as it starts (``fold``); count, first, any of a list read no item
        truthy = et == BOOL
        walks = slot >= 0 or kind in ("sum", "min", "max", "those", "values") or (truthy and kind in ("any", "every"))
        factor, where = self.c.steps.walk(unit, n, bound, inner) if walks else (0, None)
        if factor:
            src = _charged(src, factor, where)
        if kind in ("count", "sum", "min", "max", "those", "values"):
            return self.gathered(unit, n, kind, src, slot, cond, value, et, vt)
        return self.searched(unit, n, kind, src, slot, cond, et)

    def gathered(self, unit: Unit, n: A.Call, kind: str, src: Fn, slot: int, cond: Optional[Fn], value: Optional[Fn],
                 et: Type, vt: Type) -> tuple[Fn, Type]:
        """An aggregate over every item kept (count, sum, min, max, those, values): the items
        kept by the condition (each as its value, if any) as a list, then the aggregate of it."""
        def items(st, fr):
            seq = src(st, fr)
            if slot < 0:
                return list(seq)
            loc = fr.locals
            out = []
            for x in seq:
                loc[slot] = x
                if cond is None or cond(st, fr):
                    out.append(value(st, fr) if value is not None else x)
            return out

        if kind == "count":
            if cond is None:
                return (lambda st, fr: len(src(st, fr))), INT
            return (lambda st, fr: len(items(st, fr))), INT
        if kind == "sum":
            return (lambda st, fr: sum(items(st, fr))), INT
        if kind == "min":
            return (lambda st, fr: min(items(st, fr), default=None)), INT
        if kind == "max":
            return (lambda st, fr: max(items(st, fr), default=None)), INT
        if kind == "those":
            if value is not None:
                raise self.c.err(unit, n.args[0].pos, "those() keeps items: write those(x in ... where ...); values() maps them")
            return items, List(et)
        if value is None:
            raise self.c.err(unit, n.args[0].pos, "values() needs a value per item: values(coins of p for p in players)")
        return items, List(vt)

    def searched(self, unit: Unit, n: A.Call, kind: str, src: Fn, slot: int, cond: Optional[Fn], et: Type) -> tuple[Fn, Type]:
        """An aggregate that stops at the first item deciding it (any, every, first)."""
        truthy = et == BOOL
        # Without a condition, any/every/first read true/false items as conditions
        # and any other item as present (player 0 and card 0 are items, not false).
        if cond is None:
            test = (lambda st, fr: bool(fr.locals[slot])) if truthy and kind != "first" else (lambda st, fr: True)
        else:
            test = cond
        if slot < 0:                     # a plain collection: any(xs), every(xs), first(xs)
            if kind == "any":
                return ((lambda st, fr: any(src(st, fr))) if truthy else (lambda st, fr: len(src(st, fr)) > 0)), BOOL
            if kind == "every":
                return ((lambda st, fr: all(src(st, fr))) if truthy else (lambda st, fr: True)), BOOL
            return (lambda st, fr: next(iter(src(st, fr)), None)), et

        if kind == "any":
            def any_(st, fr):
                loc = fr.locals
                for x in src(st, fr):
                    loc[slot] = x
                    if test(st, fr):
                        return True
                return False
            return any_, BOOL
        if kind == "every":
            def every_(st, fr):
                loc = fr.locals
                for x in src(st, fr):
                    loc[slot] = x
                    if not test(st, fr):
                        return False
                return True
            return every_, BOOL
        if kind == "first":
            def first_(st, fr):
                loc = fr.locals
                for x in src(st, fr):
                    loc[slot] = x
                    if test(st, fr):
                        return x
                return None
            return first_, et
        raise self.c.err(unit, n.pos, f"unknown aggregate {kind}")   # pragma: no cover

    def x_Comprehension(self, unit, n):
        raise self.c.err(unit, n.pos, "a 'x in ... where ...' form belongs inside count(), sum(), any(), every(), first(), those(), min() or max()")

    def comprehension(self, unit: Unit, n: A.Node) -> tuple[Fn, int, Optional[Fn], Optional[Fn], Type, Type, Optional[int], int]:
        """(source list fn, var slot, cond, value, element type, value type, at most how many
        items the source holds (None: unknown), the steps folded into each item's test and value)."""
        if isinstance(n, A.Comprehension):
            if not n.var:
                raise self.c.err(unit, n.pos, "write 'x in collection where condition'")
            src, st_ = self.c.expr(unit, n.source)
            if not st_.is_collection:
                raise self.c.err(unit, n.source.pos, f"expected a zone or list, found {st_.describe()}")
            et = st_.elem()
            inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
            slot = inner.new_slot(et)
            inner.bind(inner.scope, n.var, slot, et)
            source = self.c.exprs.hoist_invariants(inner, n.var, [n.cond, n.value], self.c.exprs.read_list(src, st_))
            with self.c.steps.apart() as each:
                cond = self.c.truth(inner, n.cond) if n.cond is not None else None
                value, vt = self.c.expr(inner, n.value) if n.value is not None else (None, et)
            return source, slot, cond, value, et, vt, self.c.steps.bound(n.source, st_), each.steps
        src, st_ = self.c.expr(unit, n)
        if not st_.is_collection:
            raise self.c.err(unit, n.pos, f"expected a zone or list, found {st_.describe()}")
        return self.c.exprs.read_list(src, st_), -1, None, None, st_.elem(), st_.elem(), self.c.steps.bound(n, st_), 0


def _charged(plain: Fn, factor: int, where: Any) -> Fn:
    """A walk's items, charged ``factor`` steps each as the walk starts."""
    def src(st, fr):
        seq = plain(st, fr)
        charge(st, len(seq) * factor, where)
        return seq
    return src
