"""Checking expressions of the effect language.

Each ``x_<Node>`` method checks one kind of expression node against the pack's
vocabulary and returns its type; every node is checked, through ``expr``, into its
``meeple.dsl.ir.Expr`` record (its type, its step plans, its parts), which the generator
writes Python from. Names are resolved here, once, to list indices. This checker has the
names, fields, zones, literals and conditionals, and dispatches every node (``expr``); the
operators (``meeple.dsl.operators``) and the calls (``meeple.dsl.calls``) are checkers of
their own. No checker makes a function of what it checks: the generated Python is the one
back end (docs/architecture.md, "The effect language's pipeline").
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import ast as A
from . import ir
from .errors import suggest
from .hoist import invariant_parts
from .types import Unit
from .typesys import ANY, BOOL, CARD, INT, NONE, PLAYER, TEXT, AnyT, Card, Enum, EnumSet, List, Type, Zone, card_kind

if TYPE_CHECKING:
    from .compiler import Compiler


class ExpressionChecker:
    """Checks expressions: every node through ``expr``, which finds the checker of its kind."""

    def __init__(self, c: "Compiler"):
        self.c = c              # the compiler: the tables and the instructions every checker shares
        self.g: Any = c.g       # the vocabulary names are resolved against
        self.building: list[ir.ExprBuilder] = []      # the expressions being checked, innermost last
        self.begin()

    def expect(self, unit: Unit, node: A.Node, fits: Callable[[Type], bool], what: str) -> ir.Expr:
        """``node`` checked, refused unless its type ``fits``: 'expected WHAT, found ...'."""
        e = self.c.expr(unit, node)
        if not fits(e.type):
            raise self.c.err(unit, node.pos, f"expected {what}, found {e.type.describe()}")
        return e

    def truth(self, unit: Unit, node: A.Node) -> ir.Expr:
        return self.expect(unit, node, lambda t: t == BOOL or t == ANY, "a condition (true/false)")

    def number(self, unit: Unit, node: A.Node) -> ir.Expr:
        return self.expect(unit, node, lambda t: t == INT or t == ANY, "a number")

    def numeric(self, unit: Unit, node: A.Node, t: Type) -> None:
        if t != INT and t != ANY:
            raise self.c.err(unit, node.pos, f"expected a number, found {t.describe()}")

    def player_expr(self, unit: Unit, node: A.Node) -> ir.Expr:
        return self.expect(unit, node, lambda t: t == PLAYER or t == ANY, "a player")

    def card_expr(self, unit: Unit, node: A.Node) -> ir.Expr:
        return self.expect(unit, node, lambda t: isinstance(t, (Card, AnyT)), "a card")

    def zone_expr(self, unit: Unit, node: A.Node) -> ir.Expr:
        if isinstance(node, A.Name) and unit.scope.lookup(node.name) is None and node.name not in self.g.known_names():
            raise self.c.err(unit, node.pos, f"unknown zone '{node.name}'", suggest(node.name, list(self.g.zone_index)))
        return self.expect(unit, node, lambda t: isinstance(t, Zone), "a zone")

    # ------------------------------------------------------------ expressions
    def begin(self) -> None:
        """A new text: its outermost expressions are gathered afresh (``ir.ExprBuilder``)."""
        self.building = [ir.ExprBuilder(None)]

    @property
    def around(self) -> ir.ExprBuilder:
        """The expression being checked (or the text's gathering): what the step planner
        decides of a node is noted here, and a part's record found."""
        return self.building[-1]

    def expr(self, unit: Unit, n: A.Node) -> ir.Expr:
        """``n`` checked by the checker of its kind (``Compiler.x_kinds``) into its ``ir.Expr``
        record (a part of the expression around it); when generating, the outermost
        expression written as Python (``PyGen.top``), its function in the record."""
        method = self.c.x_kinds[type(n).__name__]
        gen = self.c.gen
        building = ir.ExprBuilder(n)
        self.building.append(building)
        if gen is not None:
            gen.depth += 1
        try:
            t = method(unit, n)
        finally:
            self.building.pop()
            if gen is not None:
                gen.depth -= 1
        record = building.done(t)
        if gen is not None and gen.depth == 0:
            record = ir.Expr(n, t, gen.top(self.c, unit, record), record.plans, record.parts, ref=record.ref)
            if self.c.checking:         # an expression of a statement: kept with it
                self.c.checking[-1].exprs.append(record)
        elif gen is None and len(self.building) == 1 and self.c.checking:
            self.c.checking[-1].exprs.append(record)        # checking only: kept with its statement all the same
        self.building[-1].parts.append(record)
        return record

    def hoist_invariants(self, unit: Unit, var: str, roots: list) -> None:
        """Mark the parts of ``roots`` that do not read ``var`` for caching in ``unit``
        (see dsl/hoist.py): each gets a frame slot, emptied before each walk (``unit.hoist``)."""
        parts = invariant_parts(roots, var, self.c.facts.impure)
        if not parts:
            return
        caches = unit.hoist or ir.Caches()
        for node in parts:
            slot = unit.new_slot(known=True)      # a cache, emptied before each walk: dead across decisions
            caches = caches.plus(node, slot)
        unit.hoist = caches

    def x_Int(self, unit, n):
        return INT

    def x_Str(self, unit, n):
        return TEXT

    def x_Bool(self, unit, n):
        return BOOL

    def x_NoneLit(self, unit, n):
        return NONE

    def x_Me(self, unit, n):
        return PLAYER

    def x_This(self, unit, n):
        return CARD

    def resolve(self, what: str, index: Any = None) -> None:
        """Note on the record of the name being checked what it resolved to (``ir.Ref``)."""
        self.around.ref = ir.Ref(what, index)

    def x_Name(self, unit, n):
        g = self.g
        name = n.name
        local = unit.scope.lookup(name)
        if local is not None:
            self.resolve("local", local[0])
            return local[1]
        if name in g.option_index:
            self.resolve("option", g.option_index[name])
            return BOOL if isinstance(g.option_defaults[g.option_index[name]], bool) else INT
        if name in g.constants:
            self.resolve("constant", name)
            return INT
        if name in g.gvar_index:
            self.resolve("gvar", g.gvar_index[name])
            return g.gvar_types[g.gvar_index[name]]
        if name in g.pvar_index:
            self.resolve("pvar", g.pvar_index[name])
            return g.pvar_types[g.pvar_index[name]]
        if name in g.res_index:
            self.resolve("res", g.res_index[name])
            return INT
        if name in g.zone_index:
            self.resolve("zone", g.zone_index[name])
            return Zone(g.zone_defs[g.zone_index[name]].holds)
        if name in g.enum_of_value:
            self.resolve("enum_value", g.enum_of_value[name])
            return Enum(g.enum_of_value[name])
        if name in g.enums:
            self.resolve("enum", name)
            self.c.steps.bounded(n, len(g.enums[name]))
            return EnumSet(name)
        if name in g.kind_cards:
            self.resolve("kind", name)
            held = len(g.kind_cards[name])
            self.c.steps.bounded(n, held)
            self.c.steps.by_length(unit, n, held)
            return List(Card(name))
        if name == "players":
            self.resolve("builtin", name)
            self.c.steps.bounded(n, g.max_players)
            self.c.steps.by_length(unit, n, g.max_players)
            return List(PLAYER)
        if name in ("round", "player_count"):
            self.resolve("builtin", name)
            return INT
        if name in g.card_index:
            raise self.c.err(unit, n.pos, f"'{name}' is a card id; compare with 'x is {name}'")
        known = unit.scope.all_names() + g.known_names()
        raise self.c.err(unit, n.pos, f"unknown name '{name}'", suggest(name, known))

    def x_Field(self, unit, n):
        g = self.g
        t = self.c.expr(unit, n.target).type
        name = n.name
        if t == PLAYER:
            raise self.c.err(unit, n.pos, f"write '{name} of ...' for a player's {name}")
        if not isinstance(t, (Card, AnyT)):
            raise self.c.err(unit, n.target.pos, f"'.{name}' needs a card, found {t.describe()}")
        kind = card_kind(t)
        if name in ("id", "name"):
            self.resolve("card_text", name)
            return TEXT
        fields = g.kind_fields.get(kind, {}) if kind else g.all_fields
        cvars = g.kind_cvars.get(kind, {}) if kind else g.all_cvars
        if name in fields:
            self.resolve("field", g.field_index[name])
            return fields[name]
        if name in cvars:
            self.resolve("cvar", g.cvar_index[name])
            return cvars[name]
        known = list(fields) + list(cvars) + ["id", "name"]
        what = f"{kind} cards" if kind else "cards"
        raise self.c.err(unit, n.pos, f"{what} have no field '{name}'", suggest(name, known))

    def x_Of(self, unit, n):
        g = self.g
        name = n.name
        if n.scope in ("all", "others"):
            zi = g.zone_index.get(name)
            z = g.zone_defs[zi] if zi is not None else None
            if z is not None and z.of_card is not None and n.scope == "all":
                self.resolve("card_zone_of_all", zi)
                return self.every_one(unit, n, z.holds)
            if z is None or not z.per_player:
                raise self.c.err(unit, n.pos, f"'{name} of {n.scope}' needs a zone each player has")
            self.resolve("zone_of_" + n.scope, zi)
            return self.every_one(unit, n, z.holds)
        zi = g.zone_index.get(name)
        if zi is not None and g.zone_defs[zi].of_card is not None:
            z = g.zone_defs[zi]
            ct = self.card_expr(unit, n.target).type
            if card_kind(ct) is not None and card_kind(ct) != z.of_card:
                raise self.c.err(unit, n.target.pos, f"'{name}' belongs to {z.of_card} cards, not to {card_kind(ct)} cards")
            self.resolve("card_zone", zi)
            return Zone(z.holds)
        if name in g.kind_cards and any(g.card_defs[d].per_player for d in {g.card_def_index[c] for c in g.kind_cards[name]}):
            # 'pawn of p': that player's own pieces of the kind, wherever they are
            self.player_expr(unit, n.target)
            self.resolve("pieces", name)
            return self.every_one(unit, n, name)
        self.player_expr(unit, n.target)
        if name in g.res_index:
            self.resolve("res", g.res_index[name])
            return INT
        if name in g.pvar_index:
            self.resolve("pvar", g.pvar_index[name])
            return g.pvar_types[g.pvar_index[name]]
        if name in g.zone_index:
            z = g.zone_defs[g.zone_index[name]]
            if not z.per_player:
                raise self.c.err(unit, n.pos, f"'{name}' is a shared zone; write just '{name}'")
            self.resolve("zone", g.zone_index[name])
            return Zone(z.holds)
        known = list(g.res_index) + list(g.pvar_index) + [z.name for z in g.zone_defs if z.per_player]
        raise self.c.err(unit, n.pos, f"players have no '{name}'", suggest(name, known))

    def every_one(self, unit: Unit, n: A.Of, kind: str) -> Type:
        """'ZONE of all', 'ZONE of others', 'pawn of p': a list made of cards of ``kind``,
        at most as many as there are, charged by its length as it is made."""
        held = len(self.g.kind_cards.get(kind, ()))
        self.c.steps.bounded(n, held)
        self.c.steps.by_length(unit, n, held)
        return List(Card(kind))

    def x_ListLit(self, unit, n):
        types = [self.c.expr(unit, i).type for i in n.items]
        self.c.steps.bounded(n, len(types))
        return List(types[0] if types else ANY)

    def x_Unary(self, unit, n):
        if n.op == "not":
            self.truth(unit, n.operand)
            return BOOL
        self.number(unit, n.operand)
        return INT

    def x_Cond(self, unit, n):
        self.truth(unit, n.test)
        ta = self.c.expr(unit, n.then).type
        tb = self.c.expr(unit, n.other).type
        ba, bb = self.c.steps.bound(n.then, ta), self.c.steps.bound(n.other, tb)
        if ba is not None and bb is not None:
            self.c.steps.bounded(n, max(ba, bb))
        return ta if ta != NONE else tb
