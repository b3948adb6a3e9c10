"""Check DSL against a pack's vocabulary and compile it to Python closures.

Statements become a flat list of instructions (closures returning the next
program counter), so a running effect is just (code, pc, locals): plain data
that can suspend on a choice, be cloned and be saved. Expressions become
nested closures. Names are resolved here, once, to list indices; the hot
path never parses, walks a tree or looks a name up in a dictionary.

Types (for checks and for picking the right closure): 'int', 'bool', 'text',
'player', 'card:<kind>' or 'card', 'zone:<kind>', 'list:<type>', 'enum:<name>',
'none', 'any'. A trailing '?' is not tracked: any value may be none.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from engine.errors import DslCheckError, MeepleError, RuleError, Span, suggest
from engine.model import Source
from engine.state import NO_ANSWER, Decision, Frame

from . import ast as A
from .parser import parse, to_span
from .primitives import PRIMITIVES

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


class _Scope:
    def __init__(self, parent: Optional["_Scope"] = None):
        self.names: dict[str, tuple[int, str]] = {}
        self.parent = parent

    def lookup(self, name: str) -> Optional[tuple[int, str]]:
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


def elem_type(t: str) -> str:
    if t.startswith("list:"):
        return t[5:]
    if t.startswith("zone:"):
        return "card:" + t[5:]
    if t.startswith("enumset:"):
        return "enum:" + t[8:]
    return "any"


def is_collection(t: str) -> bool:
    return t.startswith(("list:", "zone:", "enumset:")) or t == "list" or t == "any"


class Unit:
    """Compilation state of one code unit (its code, locals, scope, origin).

    ``me_bound`` is true where a current player is certain (actions, and
    inside ``as`` blocks), so closures there read it without a check."""

    def __init__(self, code: Code, origin, scope: _Scope, me_bound: bool = False):
        self.code = code
        self.origin = origin
        self.scope = scope
        self.me_bound = me_bound

    def new_slot(self) -> int:
        self.code.nlocals += 1
        return self.code.nlocals - 1


class Compiler:
    """Compiles every DSL snippet of a game; collects every error it finds."""

    def __init__(self, game: Any, errors: list):
        self.g = game
        self.errors = errors
        self.codes: list[Code] = game.codes

    # ------------------------------------------------------------ entry points
    def unit(self, name: str, src: Source, params: tuple = (), me_bound: bool = False) -> int:
        """Compile statements; params are (name, type) bound to locals 0.."""
        code = Code(name)
        index = len(self.codes)
        self.codes.append(code)
        unit = Unit(code, src.origin, _Scope(), me_bound)
        for pname, ptype in params:
            unit.scope.names[pname] = (unit.new_slot(), ptype)
        try:
            body = parse(src.text, src.origin, "start")
        except MeepleError as err:
            self.errors.append(err)
            return index
        self.block(unit, body)
        return index

    def expression(self, name: str, src: Source, params: tuple = (), want: Optional[str] = None,
                   me_bound: bool = False) -> tuple[Optional[Fn], Code]:
        """Compile one expression; returns (closure, code holding its locals)."""
        code = Code(name)
        unit = Unit(code, src.origin, _Scope(), me_bound)
        for pname, ptype in params:
            unit.scope.names[pname] = (unit.new_slot(), ptype)
        try:
            tree = parse(src.text, src.origin, "expr_start")
            fn, t = self.expr(unit, tree)
            if want and not self.compatible(t, want):
                raise self.err(unit, tree.pos, f"expected {self.describe(want)} here, found {self.describe(t)}")
            return fn, code
        except MeepleError as err:
            self.errors.append(err)
            return None, code

    def binder(self, name: str, src: Source, params: tuple = ()) -> tuple[Optional[tuple], Code]:
        """Compile ``x in coll where cond`` (an action parameter)."""
        code = Code(name)
        unit = Unit(code, src.origin, _Scope(), True)
        for pname, ptype in params:
            unit.scope.names[pname] = (unit.new_slot(), ptype)
        try:
            comp = parse(src.text, src.origin, "binder_start")
            source, st = self.expr(unit, comp.source)
            if not is_collection(st):
                raise self.err(unit, comp.source.pos, f"'{comp.var}' must range over a zone or list, not {self.describe(st)}")
            et = elem_type(st)
            slot = unit.new_slot()
            unit.scope.names[comp.var] = (slot, et)
            cond = self.truth(unit, comp.cond) if comp.cond is not None else None
            return (comp.var, slot, et, self.as_list(source, st), cond), code
        except MeepleError as err:
            self.errors.append(err)
            return None, code

    # ------------------------------------------------------------ helpers
    def err(self, unit: Unit, pos: A.Pos, message: str, hint: Optional[str] = None) -> DslCheckError:
        return DslCheckError(message, to_span(unit.origin, pos.line, pos.col, pos.length), hint)

    def span(self, unit: Unit, pos: A.Pos) -> Span:
        return to_span(unit.origin, pos.line, pos.col, pos.length)

    def describe(self, t: str) -> str:
        if t.startswith("card:"):
            return f"a {t[5:]} card"
        if t.startswith("zone:"):
            return f"a zone of {t[5:]} cards"
        if t.startswith("list:"):
            return f"a list of {self.describe(t[5:])}"
        if t.startswith("enum:"):
            return f"a {t[5:]} value"
        if t.startswith("enumset:"):
            return f"the {t[8:]} values"
        return {"int": "a number", "bool": "true/false", "text": "a text", "player": "a player", "none": "none",
                "card": "a card", "any": "a value"}.get(t, t)

    def compatible(self, have: str, want: str) -> bool:
        if have in ("any", "none") or want == "any" or have == want:
            return True
        if want == "card" and have.startswith("card"):
            return True
        if have == "card" and want.startswith("card:"):
            return True
        if want == "bool":
            return False
        if want.startswith("list:") and is_collection(have):
            return self.compatible(elem_type(have), want[5:])
        if want == "collection" and is_collection(have):
            return True
        if want.startswith("enum:") and have == "text":
            return True
        return False

    def as_list(self, fn: Fn, t: str) -> Fn:
        """A closure giving a fresh list (zones are snapshotted)."""
        if t.startswith("zone:"):
            return lambda st, fr: st.zones[fn(st, fr)][:]
        return fn

    def read_list(self, fn: Fn, t: str) -> Fn:
        """A closure giving a list only to be read at once (zones are not copied)."""
        if t.startswith("zone:"):
            return lambda st, fr: st.zones[fn(st, fr)]
        return fn

    def truth(self, unit: Unit, node: A.Node) -> Fn:
        fn, t = self.expr(unit, node)
        if t not in ("bool", "any"):
            raise self.err(unit, node.pos, f"expected a condition (true/false), found {self.describe(t)}")
        return fn

    def number(self, unit: Unit, node: A.Node) -> Fn:
        fn, t = self.expr(unit, node)
        if t not in ("int", "any"):
            raise self.err(unit, node.pos, f"expected a number, found {self.describe(t)}")
        return fn

    def player_expr(self, unit: Unit, node: A.Node) -> Fn:
        fn, t = self.expr(unit, node)
        if t not in ("player", "any"):
            raise self.err(unit, node.pos, f"expected a player, found {self.describe(t)}")
        return fn

    def card_expr(self, unit: Unit, node: A.Node) -> tuple[Fn, str]:
        fn, t = self.expr(unit, node)
        if not (t.startswith("card") or t == "any"):
            raise self.err(unit, node.pos, f"expected a card, found {self.describe(t)}")
        return fn, t

    def zone_expr(self, unit: Unit, node: A.Node) -> tuple[Fn, str]:
        fn, t = self.expr(unit, node)
        if not t.startswith("zone:"):
            raise self.err(unit, node.pos, f"expected a zone, found {self.describe(t)}")
        return fn, t

    # ------------------------------------------------------------ expressions
    def expr(self, unit: Unit, n: A.Node) -> tuple[Fn, str]:
        method = getattr(self, "x_" + type(n).__name__)
        return method(unit, n)

    def x_Int(self, unit, n):
        v = n.value
        return (lambda st, fr: v), "int"

    def x_Str(self, unit, n):
        v = n.value
        return (lambda st, fr: v), "text"

    def x_Bool(self, unit, n):
        v = n.value
        return (lambda st, fr: v), "bool"

    def x_NoneLit(self, unit, n):
        return (lambda st, fr: None), "none"

    def x_Me(self, unit, n):
        return (_bound_me if unit.me_bound else _me), "player"

    def x_This(self, unit, n):
        return (lambda st, fr: fr.this), "card"

    def x_Name(self, unit, n):
        g = self.g
        name = n.name
        local = unit.scope.lookup(name)
        if local is not None:
            slot, t = local
            return (lambda st, fr: fr.locals[slot]), t
        if name in g.constants:
            table = g.constants[name]
            return (lambda st, fr: table[st.players]), "int"
        if name in g.gvar_index:
            i = g.gvar_index[name]
            return (lambda st, fr: st.gvars[i]), g.gvar_types[i]
        if name in g.pvar_index:
            i, nv = g.pvar_index[name], g.npvars
            if unit.me_bound:
                return (lambda st, fr: st.pvars[fr.me * nv + i]), g.pvar_types[i]
            return (lambda st, fr: st.pvars[_me(st, fr) * nv + i]), g.pvar_types[i]
        if name in g.res_index:
            r, nr = g.res_index[name], g.nres
            if unit.me_bound:
                return (lambda st, fr: st.res[fr.me * nr + r]), "int"
            return (lambda st, fr: st.res[_me(st, fr) * nr + r]), "int"
        if name in g.zone_index:
            z = g.zone_defs[g.zone_index[name]]
            base = g.zone_base[g.zone_index[name]]
            if z.per_player:
                return (lambda st, fr: base + _me(st, fr)), "zone:" + z.holds
            return (lambda st, fr: base), "zone:" + z.holds
        if name in g.enum_of_value:
            return (lambda st, fr: name), "enum:" + g.enum_of_value[name]
        if name in g.enums:
            values = list(g.enums[name])
            return (lambda st, fr: values), "enumset:" + name
        if name in g.kind_cards:
            ids = g.kind_cards[name]
            return (lambda st, fr: ids[:]), "list:card:" + name
        if name == "players":
            return (lambda st, fr: list(range(st.players))), "list:player"
        if name == "round":
            return (lambda st, fr: st.round), "int"
        if name == "player_count":
            return (lambda st, fr: st.players), "int"
        if name in g.card_index:
            raise self.err(unit, n.pos, f"'{name}' is a card id; compare with 'x is {name}'")
        known = unit.scope.all_names() + g.known_names()
        raise self.err(unit, n.pos, f"unknown name '{name}'", suggest(name, known))

    def x_Field(self, unit, n):
        g = self.g
        target, t = self.expr(unit, n.target)
        name = n.name
        if t == "player":
            raise self.err(unit, n.pos, f"write '{name} of ...' for a player's {name}")
        if not (t.startswith("card") or t == "any"):
            raise self.err(unit, n.target.pos, f"'.{name}' needs a card, found {self.describe(t)}")
        kind = t[5:] if t.startswith("card:") else None
        if name == "id":
            ids = g.card_def_ids
            return (lambda st, fr: ids[target(st, fr)]), "text"
        if name == "name":
            names = g.card_names
            return (lambda st, fr: names[target(st, fr)]), "text"
        fields = g.kind_fields.get(kind) if kind else g.all_fields
        cvars = g.kind_cvars.get(kind) if kind else g.all_cvars
        if name in fields:
            i = g.field_index[name]
            table = g.card_fields
            slot = self.local_slot(unit, n.target)
            if slot is not None:       # the common case, d.cost: one closure, not two
                return (lambda st, fr: table[fr.locals[slot]][i]), fields[name]
            return (lambda st, fr: table[target(st, fr)][i]), fields[name]
        if name in cvars:
            i, ncv = g.cvar_index[name], g.ncvars
            return (lambda st, fr: st.cvars[target(st, fr) * ncv + i]), cvars[name]
        known = list(fields) + list(cvars) + ["id", "name"]
        what = f"{kind} cards" if kind else "cards"
        raise self.err(unit, n.pos, f"{what} have no field '{name}'", suggest(name, known))

    def local_slot(self, unit: Unit, node: A.Node) -> Optional[int]:
        if isinstance(node, A.Name):
            found = unit.scope.lookup(node.name)
            if found is not None:
                return found[0]
        return None

    def x_Of(self, unit, n):
        g = self.g
        name = n.name
        if n.scope in ("all", "others"):
            if name not in g.zone_index or not g.zone_defs[g.zone_index[name]].per_player:
                raise self.err(unit, n.pos, f"'{name} of {n.scope}' needs a zone each player has")
            zi = g.zone_index[name]
            base = g.zone_base[zi]
            z = g.zone_defs[zi]
            if n.scope == "all":
                def fn(st, fr):
                    out = []
                    for p in range(st.players):
                        out += st.zones[base + p]
                    return out
            else:
                def fn(st, fr):
                    out = []
                    me = _me(st, fr)
                    for p in range(st.players):
                        if p != me:
                            out += st.zones[base + p]
                    return out
            return fn, "list:card:" + z.holds
        target = self.player_expr(unit, n.target)
        if name in g.res_index:
            r, nr = g.res_index[name], g.nres
            return (lambda st, fr: st.res[target(st, fr) * nr + r]), "int"
        if name in g.pvar_index:
            i, nv = g.pvar_index[name], g.npvars
            return (lambda st, fr: st.pvars[target(st, fr) * nv + i]), g.pvar_types[i]
        if name in g.zone_index:
            zi = g.zone_index[name]
            z = g.zone_defs[zi]
            if not z.per_player:
                raise self.err(unit, n.pos, f"'{name}' is a shared zone; write just '{name}'")
            base = g.zone_base[zi]
            return (lambda st, fr: base + target(st, fr)), "zone:" + z.holds
        known = list(g.res_index) + list(g.pvar_index) + [z.name for z in g.zone_defs if z.per_player]
        raise self.err(unit, n.pos, f"players have no '{name}'", suggest(name, known))

    def x_Comprehension(self, unit, n):
        raise self.err(unit, n.pos, "a 'x in ... where ...' form belongs inside count(), sum(), any(), every(), first(), those(), min() or max()")

    def comprehension(self, unit: Unit, n: A.Node) -> tuple[Fn, int, Optional[Fn], Optional[Fn], str, str]:
        """(source list fn, var slot, cond, value, element type, value type)."""
        if isinstance(n, A.Comprehension):
            if not n.var:
                raise self.err(unit, n.pos, "write 'x in collection where condition'")
            src, st_ = self.expr(unit, n.source)
            if not is_collection(st_):
                raise self.err(unit, n.source.pos, f"expected a zone or list, found {self.describe(st_)}")
            et = elem_type(st_)
            inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
            slot = inner.new_slot()
            inner.scope.names[n.var] = (slot, et)
            cond = self.truth(inner, n.cond) if n.cond is not None else None
            value, vt = self.expr(inner, n.value) if n.value is not None else (None, et)
            return self.read_list(src, st_), slot, cond, value, et, vt
        src, st_ = self.expr(unit, n)
        if not is_collection(st_):
            raise self.err(unit, n.pos, f"expected a zone or list, found {self.describe(st_)}")
        return self.read_list(src, st_), -1, None, None, elem_type(st_), elem_type(st_)

    def x_Call(self, unit, n):
        prim = PRIMITIVES.get(n.func)
        if prim is None:
            raise self.err(unit, n.pos, f"unknown function '{n.func}'", suggest(n.func, list(PRIMITIVES)))
        if prim.fn is None:
            return self.aggregate(unit, n)
        args, types = [], []
        variadic = prim.params and prim.params[-1].endswith("*")
        if not variadic and len(n.args) != len(prim.params):
            raise self.err(unit, n.pos, f"{n.func}() takes {len(prim.params)} argument(s), given {len(n.args)}")
        for i, a in enumerate(n.args):
            want = prim.params[min(i, len(prim.params) - 1)].rstrip("*")
            fn, t = self.expr(unit, a)
            if want == "zone" and not t.startswith("zone:"):
                raise self.err(unit, a.pos, f"{n.func}() needs a zone, found {self.describe(t)}")
            if want not in ("zone",) and not self.compatible(t, want):
                raise self.err(unit, a.pos, f"{n.func}() needs {self.describe(want)}, found {self.describe(t)}")
            args.append(fn)
            types.append(t)
        ret = prim.returns.rstrip("?")
        if ret == "elem":
            ret = elem_type(types[0])
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
        return (lambda st, fr: f(*[a(st, fr) for a in args])), ret

    def aggregate(self, unit: Unit, n: A.Call):
        if len(n.args) != 1:
            raise self.err(unit, n.pos, f"{n.func}() takes one collection, e.g. {n.func}(d in city where ...)")
        src, slot, cond, value, et, vt = self.comprehension(unit, n.args[0])
        kind = n.func
        if kind in ("sum", "min", "max") and value is None and et != "int":
            raise self.err(unit, n.args[0].pos, f"{kind}() needs numbers: write {kind}(x.field for x in ...)")
        if kind in ("sum", "min", "max") and value is not None and vt not in ("int", "any"):
            raise self.err(unit, n.args[0].pos, f"{kind}() needs numbers, found {self.describe(vt)}")

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
                return (lambda st, fr: len(src(st, fr))), "int"
            return (lambda st, fr: len(items(st, fr))), "int"
        if kind == "sum":
            return (lambda st, fr: sum(items(st, fr))), "int"
        if kind == "min":
            return (lambda st, fr: min(items(st, fr), default=None)), "int"
        if kind == "max":
            return (lambda st, fr: max(items(st, fr), default=None)), "int"
        if kind == "those":
            return items, "list:" + et

        def scan(st, fr, want_all: bool, want_first: bool):
            loc = fr.locals
            for x in src(st, fr):
                if slot >= 0:
                    loc[slot] = x
                ok = cond(st, fr) if cond is not None else bool(x)
                if want_first and ok:
                    return x
                if ok and not want_all:
                    return True
                if not ok and want_all:
                    return False
            return None if want_first else want_all

        if kind == "any":
            return (lambda st, fr: scan(st, fr, False, False)), "bool"
        if kind == "every":
            return (lambda st, fr: scan(st, fr, True, False)), "bool"
        if kind == "first":
            return (lambda st, fr: scan(st, fr, False, True)), et
        raise self.err(unit, n.pos, f"unknown aggregate {kind}")   # pragma: no cover

    def x_ListLit(self, unit, n):
        items = [self.expr(unit, i) for i in n.items]
        fns = [f for f, _ in items]
        et = items[0][1] if items else "any"
        return (lambda st, fr: [f(st, fr) for f in fns]), "list:" + et

    def x_Unary(self, unit, n):
        if n.op == "not":
            f = self.truth(unit, n.operand)
            return (lambda st, fr: not f(st, fr)), "bool"
        f = self.number(unit, n.operand)
        return (lambda st, fr: -f(st, fr)), "int"

    def x_Cond(self, unit, n):
        test = self.truth(unit, n.test)
        a, ta = self.expr(unit, n.then)
        b, tb = self.expr(unit, n.other)
        return (lambda st, fr: a(st, fr) if test(st, fr) else b(st, fr)), (ta if ta != "none" else tb)

    def x_Is(self, unit, n):
        target, t = self.expr(unit, n.target)
        if n.name is None:
            if n.negated:
                return (lambda st, fr: target(st, fr) is not None), "bool"
            return (lambda st, fr: target(st, fr) is None), "bool"
        if not (t.startswith("card") or t == "any"):
            raise self.err(unit, n.target.pos, f"'is {n.name}' needs a card, found {self.describe(t)}")
        if n.name not in self.g.card_index:
            raise self.err(unit, n.name_pos, f"unknown card id '{n.name}'", suggest(n.name, list(self.g.card_index)))
        d = self.g.card_index[n.name]
        defs = self.g.card_def_index
        if n.negated:
            def is_not(st, fr):
                c = target(st, fr)
                return c is None or defs[c] != d
            return is_not, "bool"

        def is_(st, fr):
            c = target(st, fr)
            return c is not None and defs[c] == d
        return is_, "bool"

    def x_Binary(self, unit, n):
        op = n.op
        if op == "and":
            a, b = self.truth(unit, n.left), self.truth(unit, n.right)
            return (lambda st, fr: a(st, fr) and b(st, fr)), "bool"
        if op == "or":
            a, b = self.truth(unit, n.left), self.truth(unit, n.right)
            return (lambda st, fr: a(st, fr) or b(st, fr)), "bool"
        if op in ("in", "notin"):
            return self.membership(unit, n)
        if op == "..":
            a, b = self.number(unit, n.left), self.number(unit, n.right)

            def rng(st, fr):
                lo, hi = a(st, fr), b(st, fr)
                if hi - lo > 10000:
                    raise RuleError(f"range {lo}..{hi} is too long (at most 10000 numbers)")
                return list(range(lo, hi + 1))
            return rng, "list:int"
        if op in ("+", "-", "*", "<", "<=", ">", ">=") and isinstance(n.right, A.Int):
            a, k = self.number(unit, n.left), n.right.value
            fast = {"+": lambda st, fr: a(st, fr) + k, "-": lambda st, fr: a(st, fr) - k,
                    "*": lambda st, fr: a(st, fr) * k, "<": lambda st, fr: a(st, fr) < k,
                    "<=": lambda st, fr: a(st, fr) <= k, ">": lambda st, fr: a(st, fr) > k,
                    ">=": lambda st, fr: a(st, fr) >= k}
            return fast[op], ("int" if op in "+-*" else "bool")
        if op in ("+", "-", "*", "/", "%", "<", "<=", ">", ">="):
            a, b = self.number(unit, n.left), self.number(unit, n.right)
            if op == "+":
                return (lambda st, fr: a(st, fr) + b(st, fr)), "int"
            if op == "-":
                return (lambda st, fr: a(st, fr) - b(st, fr)), "int"
            if op == "*":
                return (lambda st, fr: a(st, fr) * b(st, fr)), "int"
            if op == "/":
                def div(st, fr):
                    d = b(st, fr)
                    if d == 0:
                        raise RuleError("division by zero")
                    return a(st, fr) // d      # rounds down, as every rule here does
                return div, "int"
            if op == "%":
                def mod(st, fr):
                    d = b(st, fr)
                    if d == 0:
                        raise RuleError("division by zero")
                    return a(st, fr) % d
                return mod, "int"
            if op == "<":
                return (lambda st, fr: a(st, fr) < b(st, fr)), "bool"
            if op == "<=":
                return (lambda st, fr: a(st, fr) <= b(st, fr)), "bool"
            if op == ">":
                return (lambda st, fr: a(st, fr) > b(st, fr)), "bool"
            return (lambda st, fr: a(st, fr) >= b(st, fr)), "bool"
        a, ta = self.expr(unit, n.left)
        b, tb = self.expr(unit, n.right)
        if not (self.compatible(ta, tb) or self.compatible(tb, ta)):
            raise self.err(unit, n.pos, f"cannot compare {self.describe(ta)} with {self.describe(tb)}")
        if op == "==":
            return (lambda st, fr: a(st, fr) == b(st, fr)), "bool"
        return (lambda st, fr: a(st, fr) != b(st, fr)), "bool"

    def membership(self, unit: Unit, n: A.Binary):
        a, ta = self.expr(unit, n.left)
        neg = n.op == "notin"
        right = n.right
        g = self.g
        if isinstance(right, A.Of) and right.scope in ("all", "others") and right.name in g.zone_index:
            zi = g.zone_index[right.name]
            if not g.zone_defs[zi].per_player:
                raise self.err(unit, right.pos, f"'{right.name} of {right.scope}' needs a zone each player has")
            base, others = g.zone_base[zi], right.scope == "others"
            owner = g.slot_owner

            def inzones(st, fr):
                c = a(st, fr)
                if c is None:
                    return neg
                slot = st.loc[c]
                ok = base <= slot < base + st.players and (not others or owner[slot] != _me(st, fr))
                return ok != neg
            return inzones, "bool"
        b, tb = self.expr(unit, right)
        if tb.startswith("zone:"):
            if not (ta.startswith("card") or ta == "any"):
                raise self.err(unit, n.left.pos, f"only cards are in zones, found {self.describe(ta)}")
            return (lambda st, fr: (lambda c: (c is not None and st.loc[c] == b(st, fr)) != neg)(a(st, fr))), "bool"
        if not is_collection(tb):
            raise self.err(unit, right.pos, f"'in' needs a zone or list, found {self.describe(tb)}")
        return (lambda st, fr: (a(st, fr) in b(st, fr)) != neg), "bool"

    # ------------------------------------------------------------ statements
    def block(self, unit: Unit, stmts: tuple) -> None:
        for s in stmts:
            try:
                getattr(self, "s_" + type(s).__name__)(unit, s)
            except MeepleError as err:
                self.errors.append(err)

    def emit(self, unit: Unit, pos: A.Pos, make: Callable[[int], Callable]) -> int:
        """Append an instruction; ``make(next_pc)`` builds it. Returns its pc."""
        code = unit.code
        pc = len(code.instrs)
        code.instrs.append(None)
        code.spans.append(self.span(unit, pos))
        code.instrs[pc] = make(pc + 1)
        return pc

    def simple(self, unit: Unit, pos: A.Pos, action: Callable[[Any, Frame], None]) -> None:
        def make(nxt):
            def op(st, fr):
                action(st, fr)
                return nxt
            return op
        self.emit(unit, pos, make)

    def placeholder(self, unit: Unit, pos: A.Pos) -> int:
        code = unit.code
        code.instrs.append(None)
        code.spans.append(self.span(unit, pos))
        return len(code.instrs) - 1

    def patch(self, unit: Unit, pc: int, op: Callable) -> None:
        unit.code.instrs[pc] = op

    def here(self, unit: Unit) -> int:
        return len(unit.code.instrs)

    def s_Counter(self, unit, s):
        g = self.g
        if s.resource not in g.res_index:
            raise self.err(unit, s.resource_pos, f"unknown resource '{s.resource}'", suggest(s.resource, list(g.res_index)))
        r, nr = g.res_index[s.resource], g.nres
        lo, hi = g.res_min[r], g.res_max[r]
        name = s.resource
        other = self.player_expr(unit, s.other) if s.other is not None else None
        amount = self.number(unit, s.amount.expr) if s.amount.expr is not None else None
        verb = s.verb

        def clamp(v):
            if lo is not None and v < lo:
                v = lo
            if hi is not None and v > hi:
                v = hi
            return v

        if verb in ("gain", "lose", "give"):
            sign = -1 if verb == "lose" else 1

            def act(st, fr):
                p = other(st, fr) if verb == "give" else _me(st, fr)
                i = p * nr + r
                n = st.res[i] if amount is None else amount(st, fr)
                if n < 0:
                    raise RuleError(f"cannot {verb} a negative amount ({n} {name})")
                st.res[i] = clamp(st.res[i] + sign * n)
        elif verb in ("pay", "pay_to", "take"):
            def act(st, fr):
                me = _me(st, fr)
                if verb == "take":
                    src, dst = other(st, fr), me
                else:
                    src, dst = me, (other(st, fr) if verb == "pay_to" else None)
                si = src * nr + r
                have = st.res[si]
                n = have if amount is None else amount(st, fr)
                if n < 0:
                    raise RuleError(f"cannot {verb.replace('_to', '')} a negative amount ({n} {name})")
                if verb == "take":
                    n = min(n, have - (lo or 0)) if lo is not None else n
                elif lo is not None and have - n < lo:
                    raise RuleError(f"P{src + 1} cannot pay {n} {name} (has {have})")
                st.res[si] = have - n
                if dst is not None:
                    di = dst * nr + r
                    st.res[di] = clamp(st.res[di] + n)
        else:  # pragma: no cover
            raise self.err(unit, s.pos, f"unknown verb {verb}")
        self.simple(unit, s.pos, act)

    def assign_target(self, unit: Unit, target: A.Node, vt: str) -> Callable[[Any, Frame, Any], None]:
        g = self.g
        if isinstance(target, A.Name):
            name = target.name
            local = unit.scope.lookup(name)
            if local is not None:
                slot = local[0]

                def setl(st, fr, v):
                    fr.locals[slot] = v
                return setl
            if name in g.gvar_index:
                i = g.gvar_index[name]
                self.check_assign(unit, target, vt, g.gvar_types[i])

                def setg(st, fr, v):
                    st.gvars[i] = v
                return setg
            if name in g.pvar_index or name in g.res_index:
                return self.assign_target(unit, A.Of(name, A.Me(target.pos), "player", target.pos, target.pos), vt)
            raise self.err(unit, target.pos, f"cannot set '{name}': not a variable (declare it, or use 'let')",
                           suggest(name, list(g.gvar_index) + list(g.pvar_index) + list(g.res_index)))
        if isinstance(target, A.Of) and target.scope == "player":
            p = self.player_expr(unit, target.target)
            name = target.name
            if name in g.pvar_index:
                i, nv = g.pvar_index[name], g.npvars
                self.check_assign(unit, target, vt, g.pvar_types[i])

                def setp(st, fr, v):
                    st.pvars[p(st, fr) * nv + i] = v
                return setp
            if name in g.res_index:
                r, nr = g.res_index[name], g.nres
                lo, hi = g.res_min[r], g.res_max[r]

                def setr(st, fr, v):
                    if lo is not None and v < lo:
                        v = lo
                    if hi is not None and v > hi:
                        v = hi
                    st.res[p(st, fr) * nr + r] = v
                return setr
            raise self.err(unit, target.pos, f"players have no variable '{name}'", suggest(name, list(g.pvar_index) + list(g.res_index)))
        if isinstance(target, A.Field):
            c, t = self.card_expr(unit, target.target)
            kind = t[5:] if t.startswith("card:") else None
            cvars = g.kind_cvars.get(kind) if kind else g.all_cvars
            if target.name not in cvars:
                raise self.err(unit, target.pos, f"cannot set '{target.name}': not a card variable", suggest(target.name, list(cvars)))
            i, ncv = g.cvar_index[target.name], g.ncvars

            def setc(st, fr, v):
                st.cvars[c(st, fr) * ncv + i] = v
            return setc
        raise self.err(unit, target.pos, "cannot set this: set a variable, 'name of player' or 'card.variable'")

    def check_assign(self, unit, target, have: str, want: str) -> None:
        if not self.compatible(have, want):
            raise self.err(unit, target.pos, f"'{getattr(target, 'name', '?')}' holds {self.describe(want)}, not {self.describe(have)}")

    def s_Set(self, unit, s):
        value, vt = self.expr(unit, s.value)
        setter = self.assign_target(unit, s.target, vt)
        self.simple(unit, s.pos, lambda st, fr: setter(st, fr, value(st, fr)))

    def s_Let(self, unit, s):
        value, vt = self.expr(unit, s.value)
        existing = unit.scope.names.get(s.name)
        slot = existing[0] if existing else unit.new_slot()
        unit.scope.names[s.name] = (slot, vt)

        def act(st, fr):
            fr.locals[slot] = value(st, fr)
        self.simple(unit, s.pos, act)

    def cards_of(self, unit: Unit, node: A.Node) -> tuple[Fn, str]:
        """A closure giving the card ids a move acts on, and their kind."""
        fn, t = self.expr(unit, node)
        if t.startswith("zone:"):
            return (lambda st, fr: st.zones[fn(st, fr)][:]), t[5:]
        if t.startswith("list:card") or t == "list:any":
            return fn, t[10:] if t.startswith("list:card:") else ""
        if t.startswith("card") or t == "any":
            return (lambda st, fr: (lambda c: [] if c is None else [c])(fn(st, fr))), t[5:] if t.startswith("card:") else ""
        raise self.err(unit, node.pos, f"expected cards to move, found {self.describe(t)}")

    def s_Move(self, unit, s):
        what, kind = self.cards_of(unit, s.what)
        dest, dt = self.zone_expr(unit, s.to)
        if kind and dt[5:] != kind:
            raise self.err(unit, s.to.pos, f"zone holds {dt[5:]} cards, not {kind} cards")
        bottom = s.bottom

        def act(st, fr):
            cards = what(st, fr)
            z = dest(st, fr)
            for c in cards:
                _move(st, c, z, bottom)
        self.simple(unit, s.pos, act)

    def s_Draw(self, unit, s):
        count = self.number(unit, s.count)
        src, st_ = self.zone_expr(unit, s.source)
        dest, dt = self.zone_expr(unit, s.to)
        if st_ != dt:
            raise self.err(unit, s.to.pos, f"cannot draw {st_[5:]} cards into a zone of {dt[5:]} cards")
        bottom = s.bottom

        def act(st, fr):
            n = count(st, fr)
            z = st.zones[src(st, fr)]
            d = dest(st, fr)
            for _ in range(min(n, len(z))):
                _move(st, z[-1], d, bottom)
        self.simple(unit, s.pos, act)

    def s_Shuffle(self, unit, s):
        zone, _ = self.zone_expr(unit, s.zone)
        self.simple(unit, s.pos, lambda st, fr: st.shuffle(st.zones[zone(st, fr)]))

    def s_Swap(self, unit, s):
        a, ta = self.zone_expr(unit, s.a)
        b, tb = self.zone_expr(unit, s.b)
        if ta != tb:
            raise self.err(unit, s.pos, f"cannot swap {self.describe(ta)} with {self.describe(tb)}")

        def act(st, fr):
            za, zb = a(st, fr), b(st, fr)
            st.zones[za], st.zones[zb] = st.zones[zb], st.zones[za]
            for c in st.zones[za]:
                st.loc[c] = za
            for c in st.zones[zb]:
                st.loc[c] = zb
        self.simple(unit, s.pos, act)

    def chooser(self, unit: Unit, node: Optional[A.Node]) -> Fn:
        return self.player_expr(unit, node) if node is not None else _me

    def s_Choose(self, unit, s):
        src, st_ = self.expr(unit, s.source)
        if not is_collection(st_):
            raise self.err(unit, s.source.pos, f"choose from a zone or list, not {self.describe(st_)}")
        source = self.as_list(src, st_)
        et = elem_type(st_)
        who = self.chooser(unit, s.chooser)
        slot = unit.new_slot()
        cond = None
        if s.cond is not None:
            inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
            inner.scope.names[s.var] = (slot, et)
            cond = self.truth(inner, s.cond)
        up_to = self.number(unit, s.up_to) if s.up_to is not None else None
        unit.scope.names[s.var] = (slot, ("list:" + et) if up_to else et)
        label = self.g.labeller(et)
        prompt = s.prompt or (f"choose up to … {s.var}" if up_to else f"choose {s.var}")
        optional = s.optional
        acc = unit.new_slot() if up_to else -1

        def options(st, fr, exclude=()):
            out = []
            loc = fr.locals
            seen: dict[str, int] = {}
            for x in source(st, fr):
                if x in exclude:
                    continue
                if cond is not None:
                    loc[slot] = x
                    if not cond(st, fr):
                        continue
                key, text = label(st, x)
                k = seen.get(key, 0)
                seen[key] = k + 1
                out.append([key if k == 0 else f"{key}#{k + 1}", text, x])
            return out

        if up_to is None:
            def make(nxt):
                def op(st, fr):
                    ans = st.answer
                    if ans is not NO_ANSWER:
                        st.answer = NO_ANSWER
                        if ans is SKIP:
                            return STOP
                        fr.locals[slot] = ans
                        return nxt
                    opts = options(st, fr)
                    if not opts:
                        return STOP
                    if optional:
                        opts.append(["skip", "skip", SKIP])
                    st.pending = Decision(who(st, fr), prompt, opts, "choose")
                    return SUSPEND
                return op
        else:
            def make(nxt):
                def op(st, fr):
                    ans = st.answer
                    chosen = fr.locals[acc]
                    if ans is not NO_ANSWER:
                        st.answer = NO_ANSWER
                        if ans is SKIP:
                            fr.locals[slot] = chosen or []
                            fr.locals[acc] = None
                            return nxt
                        chosen = (chosen or []) + [ans]
                        fr.locals[acc] = chosen
                    chosen = chosen or []
                    limit = up_to(st, fr)
                    opts = options(st, fr, chosen) if len(chosen) < limit else []
                    if not opts:
                        fr.locals[slot] = chosen
                        fr.locals[acc] = None
                        return nxt
                    if chosen is not None and fr.locals[acc] is None:
                        fr.locals[acc] = chosen
                    opts.append(["done", "done", SKIP])
                    st.pending = Decision(who(st, fr), f"{prompt} ({len(chosen)} chosen)", opts, "choose_many")
                    return SUSPEND
                return op
        self.emit(unit, s.pos, make)

    def s_ChooseOne(self, unit, s):
        who = self.chooser(unit, s.chooser)
        conds = [self.truth(unit, o.cond) if o.cond is not None else None for o in s.options]
        head = self.placeholder(unit, s.pos)
        jumps = []
        starts = []
        for o in s.options:
            starts.append(self.here(unit))
            self.block(unit, o.body)
            jumps.append(self.placeholder(unit, o.pos))
        end = self.here(unit)
        for j in jumps:
            self.patch(unit, j, _jump(end))
        labels = [o.label for o in s.options]
        prompt = s.prompt or "choose one"
        optional = s.optional

        def op(st, fr):
            ans = st.answer
            if ans is not NO_ANSWER:
                st.answer = NO_ANSWER
                if ans is SKIP:
                    return STOP
                return starts[ans]
            opts = [[labels[i], labels[i], i] for i in range(len(labels)) if conds[i] is None or conds[i](st, fr)]
            if not opts:
                return end
            if optional:
                opts.append(["skip", "skip", SKIP])
            st.pending = Decision(who(st, fr), prompt, opts, "choose_one")
            return SUSPEND
        self.patch(unit, head, op)

    def s_If(self, unit, s):
        jumps_to_end = []
        for cond_node, body in s.branches:
            cond = self.truth(unit, cond_node)
            test = self.placeholder(unit, cond_node.pos)
            self.block(unit, body)
            jumps_to_end.append(self.placeholder(unit, s.pos))
            self.patch(unit, test, _branch(cond, test + 1, self.here(unit)))
        self.block(unit, s.orelse)
        end = self.here(unit)
        for j in jumps_to_end:
            self.patch(unit, j, _jump(end))

    def s_ForEach(self, unit, s):
        src, st_ = self.expr(unit, s.source)
        if not is_collection(st_):
            raise self.err(unit, s.source.pos, f"'for each' needs a zone or list, found {self.describe(st_)}")
        source = self.as_list(src, st_)
        et = elem_type(st_)
        items_slot, idx_slot = unit.new_slot(), unit.new_slot()
        var_slot = unit.new_slot()
        inner = Unit(unit.code, unit.origin, _Scope(unit.scope), unit.me_bound)
        inner.scope.names[s.var] = (var_slot, et)
        cond = self.truth(inner, s.cond) if s.cond is not None else None
        order = None
        if s.order is not None:
            order = self.expr(inner, s.order)[0]

        def init(st, fr):
            items = source(st, fr)
            loc = fr.locals
            if cond is not None:
                kept = []
                for x in items:
                    loc[var_slot] = x
                    if cond(st, fr):
                        kept.append(x)
                items = kept
            if order is not None:
                keyed = []
                for i, x in enumerate(items):
                    loc[var_slot] = x
                    keyed.append((order(st, fr), i, x))
                keyed.sort(key=lambda k: (k[0] is None, k[0] if k[0] is not None else 0, k[1]))
                items = [k[2] for k in keyed]
            loc[items_slot] = items
            loc[idx_slot] = 0
        self.simple(unit, s.pos, init)
        head = self.placeholder(unit, s.pos)
        unit_scope = unit.scope
        unit.scope = inner.scope
        self.block(unit, s.body)
        unit.scope = unit_scope
        self.emit(unit, s.pos, lambda nxt: _jump(head))
        end = self.here(unit)

        def loop(st, fr):
            loc = fr.locals
            i = loc[idx_slot]
            items = loc[items_slot]
            if i >= len(items):
                loc[items_slot] = None
                return end
            loc[var_slot] = items[i]
            loc[idx_slot] = i + 1
            return head + 1
        self.patch(unit, head, loop)

    def s_Repeat(self, unit, s):
        count = self.number(unit, s.count)
        slot = unit.new_slot()
        self.simple(unit, s.pos, lambda st, fr: fr.locals.__setitem__(slot, count(st, fr)))
        head = self.placeholder(unit, s.pos)
        self.block(unit, s.body)
        self.emit(unit, s.pos, lambda nxt: _jump(head))
        end = self.here(unit)

        def loop(st, fr):
            left = fr.locals[slot]
            if left <= 0:
                return end
            fr.locals[slot] = left - 1
            return head + 1
        self.patch(unit, head, loop)

    def s_While(self, unit, s):
        cond = self.truth(unit, s.cond)
        head = self.placeholder(unit, s.pos)
        self.block(unit, s.body)
        self.emit(unit, s.pos, lambda nxt: _jump(head))
        self.patch(unit, head, _branch(cond, head + 1, self.here(unit)))

    def s_As(self, unit, s):
        who = self.player_expr(unit, s.player)
        saved = unit.new_slot()

        def enter(st, fr):
            fr.locals[saved] = fr.me
            fr.me = who(st, fr)
        self.simple(unit, s.pos, enter)
        was = unit.me_bound
        unit.me_bound = True
        self.block(unit, s.body)
        unit.me_bound = was

        def leave(st, fr):
            fr.me = fr.locals[saved]
        self.simple(unit, s.pos, leave)

    def call_args(self, unit: Unit, pos: A.Pos, what: str, params: tuple, args: tuple) -> list[Fn]:
        if len(args) != len(params):
            raise self.err(unit, pos, f"{what} takes {len(params)} argument(s) ({', '.join(p.name for p in params)}), given {len(args)}")
        fns = []
        for p, a in zip(params, args):
            fn, t = self.expr(unit, a)
            want = self.g.type_of(p.type)
            if not self.compatible(t, want):
                raise self.err(unit, a.pos, f"{what}: '{p.name}' must be {self.describe(want)}, found {self.describe(t)}")
            fns.append(fn)
        return fns

    def s_CallProc(self, unit, s):
        g = self.g
        if s.name not in g.proc_defs:
            raise self.err(unit, s.pos, f"unknown procedure '{s.name}'", suggest(s.name, list(g.proc_defs)))
        pdef = g.proc_defs[s.name]
        args = self.call_args(unit, s.pos, f"procedure '{s.name}'", pdef.params, s.args)
        name = s.name

        def make(nxt):
            def op(st, fr):
                code_index = st.game.proc_code[name]
                code = st.game.codes[code_index]
                loc = [None] * code.nlocals
                for i, a in enumerate(args):
                    loc[i] = a(st, fr)
                fr.pc = nxt
                st.frames.append(Frame(code_index, 0, loc, fr.me, fr.this))
                return CALL
            return op
        self.emit(unit, s.pos, make)

    def s_DoHook(self, unit, s):
        g = self.g
        card, t = self.card_expr(unit, s.card)
        kind = t[5:] if t.startswith("card:") else None
        hooks = g.kind_hooks.get(kind, ()) if kind else g.all_hooks
        if s.hook not in hooks:
            raise self.err(unit, s.pos, f"'{s.hook}' is not a hook of {kind or 'any card kind'}", suggest(s.hook, list(hooks)))
        hook = s.hook

        def make(nxt):
            def op(st, fr):
                c = card(st, fr)
                code_index = st.game.hook_code.get((st.game.card_def_index[c], hook)) if c is not None else None
                if code_index is None:
                    return nxt
                fr.pc = nxt
                st.frames.append(Frame(code_index, 0, [None] * st.game.codes[code_index].nlocals, fr.me, c))
                return CALL
            return op
        self.emit(unit, s.pos, make)

    def s_Emit(self, unit, s):
        g = self.g
        if s.event not in g.event_defs:
            raise self.err(unit, s.pos, f"unknown event '{s.event}' (declare it under events:)", suggest(s.event, list(g.event_defs)))
        edef = g.event_defs[s.event]
        args = self.call_args(unit, s.pos, f"event '{s.event}'", edef.params, s.args)
        event = s.event

        def make(nxt):
            def op(st, fr):
                values = [a(st, fr) for a in args]
                frames = []
                game = st.game
                for slot in game.live_slots(st):
                    owner = game.slot_owner[slot]
                    for c in st.zones[slot]:
                        code_index = game.handler_code.get((game.card_def_index[c], event))
                        if code_index is not None:
                            loc = [None] * game.codes[code_index].nlocals
                            loc[:len(values)] = values
                            frames.append(Frame(code_index, 0, loc, owner if owner >= 0 else fr.me, c))
                fr.pc = nxt
                if not frames:
                    return nxt
                st.frames.extend(reversed(frames))
                return CALL
            return op
        self.emit(unit, s.pos, make)

    def s_PlayActions(self, unit, s):
        g = self.g
        if s.group not in g.action_groups:
            raise self.err(unit, s.pos, f"unknown action group '{s.group}'", suggest(s.group, list(g.action_groups)))
        until = self.truth(unit, s.until)
        usage = unit.new_slot()
        group = s.group
        init_pc = self.emit(unit, s.pos, lambda nxt: (lambda st, fr: (fr.locals.__setitem__(usage, {}), nxt)[1]))

        def make(nxt):
            def op(st, fr):
                ans = st.answer
                game = st.game
                if ans is not NO_ANSWER:
                    st.answer = NO_ANSWER
                    ai, card, param = ans
                    act = game.actions[ai]
                    key = f"{act.id}@{card}"
                    used = dict(fr.locals[usage])
                    used[key] = used.get(key, 0) + 1
                    fr.locals[usage] = used
                    code = game.codes[act.effect]
                    loc = [None] * code.nlocals
                    if act.param_slot >= 0:
                        loc[act.param_slot] = param
                    fr.pc = nxt - 1
                    st.frames.append(Frame(act.effect, 0, loc, fr.me, card if card is not None else fr.this))
                    return CALL
                if until(st, fr):
                    return nxt
                opts = game.action_options(st, fr, group, fr.locals[usage])
                if not opts:
                    return nxt
                st.pending = Decision(_me(st, fr), "choose an action", opts, "action")
                return SUSPEND
            return op
        self.emit(unit, s.pos, make)
        del init_pc

    def s_Log(self, unit, s):
        text = s.text
        self.simple(unit, s.pos, lambda st, fr: st.events.append(text))

    def s_Require(self, unit, s):
        cond = self.truth(unit, s.cond)
        message = s.message or "a requirement does not hold"

        def act(st, fr):
            if not cond(st, fr):
                raise RuleError(message)
        self.simple(unit, s.pos, act)

    def s_Stop(self, unit, s):
        self.emit(unit, s.pos, lambda nxt: (lambda st, fr: STOP))


class _Skip:
    __slots__ = ()

    def __repr__(self) -> str:
        return "SKIP"


SKIP = "\x00skip"    # a string so decisions stay JSON-serialisable


def _bound_me(st, fr) -> int:
    return fr.me


def _me(st, fr) -> int:
    me = fr.me
    if me is None or me < 0:
        raise RuleError("no current player here (use 'as PLAYER:' or 'of PLAYER')")
    return me


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
