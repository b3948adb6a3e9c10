"""What the compiler knows about a pack: a typed vocabulary of names.

The engine builds one ``Vocabulary`` per pack (``meeple.runtime.build`` does, in
small steps), keeps it as ``game.vocab`` and hands it to ``meeple.dsl.compiler.Compiler`` and ``meeple.dsl.pygen.PyGen``.
The compiler resolves every name in the rules against it, once, to list
indices; it never reads the engine's ``Game`` (docs/architecture.md, "One way
down": the language never imports the engine).

The attribute and method names are the ones the compiler has always used
(``self.g.res_index``, ``self.g.type_of(...)``, ...), so compiler code reads
``self.g.<name>`` whether ``self.g`` is this object or anything else that
offers the same names.

What the compiler *produces* while it checks and compiles (the code units,
which units run procedures, hooks and handlers, whether any rule can refuse
with ``require``, which functions failed to compile) goes to
``Vocabulary.result``, a ``CompileResult``; the engine reads it from there.

Pack definitions (zones, cards, events, procedures, functions) are shared
with the pack model, typed here by the few facts the compiler reads of them
(the ``...Facts`` protocols below), so this module needs nothing of the engine.
"""
from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, Callable, Optional, Protocol, Sequence

from .source import Source
from .types import Code
from .typesys import PLAYER, Card, Type, declared

__all__ = ["CardFacts", "CompileResult", "EventFacts", "ParamFacts", "RoutineFacts", "TypeName", "Vocabulary",
           "ZoneFacts"]


# ---------------------------------------------------------------- what the compiler reads of pack definitions
class TypeName(Protocol):
    """A declared type as written in the pack: ``int``, ``bool``, ``player``,
    ``text``, ``card``, an enum's name or a card kind's name."""

    @property
    def name(self) -> str: ...


class ParamFacts(Protocol):
    """A parameter of an event, procedure or function."""

    @property
    def name(self) -> str: ...

    @property
    def type(self) -> TypeName: ...


class EventFacts(Protocol):
    """A declared event: handlers receive its parameters, ``emit`` passes them."""

    @property
    def name(self) -> str: ...

    @property
    def params(self) -> Sequence[ParamFacts]: ...


class RoutineFacts(EventFacts, Protocol):
    """A procedure (statements) or function (an expression, inlined where used)."""

    @property
    def body(self) -> Source: ...


class ZoneFacts(Protocol):
    """What the compiler reads of a zone: its name, the card kind it holds,
    whether each player has one, and (a zone of each card) the host kind."""

    @property
    def name(self) -> str: ...

    @property
    def holds(self) -> str: ...

    @property
    def per_player(self) -> bool: ...

    @property
    def of_card(self) -> Optional[str]: ...


class CardFacts(Protocol):
    """What the compiler reads of a card definition: its kind, and whether it is
    a piece with copies per seat (then 'kind of player' means that seat's pieces)."""

    @property
    def kind(self) -> str: ...

    @property
    def per_player(self) -> int: ...


# ---------------------------------------------------------------- what the compiler produces
@dataclass
class CompileResult:
    """Written by the compiler (and by the engine as it drives it); read by the
    engine, and at run time by the compiled rules through ``st.game``."""

    codes: list[Code] = field(default_factory=list)
    """Every compiled code unit; a frame's ``code`` is an index into it."""
    proc_code: dict[str, int] = field(default_factory=dict)
    """Procedure name -> its code unit."""
    hook_code: dict[tuple[int, str], int] = field(default_factory=dict)
    """(card definition, hook) -> its code unit."""
    handler_code: dict[tuple[int, str], int] = field(default_factory=dict)
    """(card definition, event) -> its handler's code unit."""
    uses_require: bool = False
    """Some rule can refuse mid-effect (``require``): the engine then keeps a
    copy of the state to restore on a refusal."""
    broken_functions: set[str] = field(default_factory=set)
    """Pack functions whose body did not compile (reported once, at the
    definition); their uses compile to nothing instead of repeating the error."""
    rolled: set[str] = field(default_factory=set)
    """Card kinds some ``roll`` rolls ('' when a roll's kind is not known): the
    engine checks their ``faces`` once all rules are compiled."""
    texts: dict[Any, Any] = field(default_factory=dict)
    """Each rule text checked without errors (its ``Source``) -> what the checker made of it
    (``meeple.dsl.ir.Text``), in a game checked only (``Compiler.keep``): read by the
    rules-text renderer (dsl/phrases.py), never in play."""


# ---------------------------------------------------------------- the vocabulary
@dataclass(eq=False)
class Vocabulary:
    """Everything the compiler and the code generator need to know about a pack."""

    # -- player counts
    """Constants are tabled per player count; per-seat tables are sized for the largest game."""
    min_players: int = 1
    max_players: int = 1

    # -- resources
    """Counters every player has: a rule names one (``gain 2 coins``), the compiler
    turns it into the index of a column of ``st.res`` and clamps to its bounds."""
    res_names: list[str] = field(default_factory=list)
    res_index: dict[str, int] = field(default_factory=dict)
    nres: int = 0
    res_min: list[Optional[int]] = field(default_factory=list)
    res_max: list[Optional[int]] = field(default_factory=list)
    res_start: list[int] = field(default_factory=list)
    # the resource that is the score (None: none is): each rule's change of it is noted
    # (``State.scored``) so the final score can say what made it
    score_res: Optional[int] = None

    # -- options, constants, enums
    """Names a rule may read but never set: a table option (its default's type is
    the option's type), a constant by player count, an enum value or an enum's
    value set."""
    option_index: dict[str, int] = field(default_factory=dict)
    option_defaults: list[Any] = field(default_factory=list)
    constants: dict[str, dict[int, Optional[int]]] = field(default_factory=dict)
    enums: dict[str, Sequence[str]] = field(default_factory=dict)
    enum_of_value: dict[str, str] = field(default_factory=dict)

    # -- game and player variables
    """Declared variables: the index of their column in ``st.gvars`` / ``st.pvars``,
    their types (to check assignments and pick what is generated) and their starting values."""
    gvar_index: dict[str, int] = field(default_factory=dict)
    gvar_types: list[Type] = field(default_factory=list)
    gvar_defaults: list[Any] = field(default_factory=list)
    pvar_index: dict[str, int] = field(default_factory=dict)
    pvar_types: list[Type] = field(default_factory=list)
    pvar_defaults: list[Any] = field(default_factory=list)
    npvars: int = 0

    # -- card kinds: fields, card variables, hooks
    """What ``card.name`` may mean for a card of a kind (a fixed field or a variable
    in ``st.cvars``) and which hooks a kind's cards may have (``trigger``)."""
    kind_fields: dict[str, dict[str, Type]] = field(default_factory=dict)
    all_fields: dict[str, Type] = field(default_factory=dict)
    field_index: dict[str, int] = field(default_factory=dict)
    kind_cvars: dict[str, dict[str, Type]] = field(default_factory=dict)
    all_cvars: dict[str, Type] = field(default_factory=dict)
    cvar_index: dict[str, int] = field(default_factory=dict)
    ncvars: int = 0
    cvar_default_row: list[Any] = field(default_factory=list)
    kind_hooks: dict[str, Sequence[str]] = field(default_factory=dict)
    all_hooks: tuple[str, ...] = ()

    # -- card tables
    """Cards are numbered instances (a definition with copies gives several); these
    tables turn a card id in a rule into a definition, and an instance into its
    definition, id, name, field values, kind position and seat."""
    card_defs: Sequence[CardFacts] = field(default_factory=list)
    card_index: dict[str, int] = field(default_factory=dict)       # card id -> definition
    card_def_index: list[int] = field(default_factory=list)        # instance -> definition
    card_def_ids: list[str] = field(default_factory=list)          # instance -> card id
    card_names: list[str] = field(default_factory=list)            # instance -> display name
    card_fields: list[tuple] = field(default_factory=list)         # instance -> field values (by field_index)
    kind_cards: dict[str, list[int]] = field(default_factory=dict)  # kind -> its instances
    kind_pos: list[int] = field(default_factory=list)              # instance -> index among its kind's
    card_seat: list[int] = field(default_factory=list)             # pieces: their seat; other cards -1
    ncards: int = 0

    # -- zones
    """Zones compile to slot numbers: a shared zone is one slot, a per-player zone one
    slot per seat of the largest game, a zone of each card one slot per host card."""
    zone_defs: Sequence[ZoneFacts] = field(default_factory=list)
    zone_index: dict[str, int] = field(default_factory=dict)
    zone_base: list[int] = field(default_factory=list)     # zone -> its first slot
    slot_owner: list[int] = field(default_factory=list)    # slot -> seat, or -1
    slot_card: list[int] = field(default_factory=list)     # slot -> host card, or -1

    # -- events, procedures, functions, action groups
    """Named definitions a rule may use: ``emit`` an event, call a procedure, call a
    function (inlined), ``play actions`` of a group."""
    event_defs: dict[str, EventFacts] = field(default_factory=dict)
    proc_defs: dict[str, RoutineFacts] = field(default_factory=dict)
    function_defs: dict[str, RoutineFacts] = field(default_factory=dict)
    action_groups: list[str] = field(default_factory=list)

    # -- compile outputs
    """Written while compiling (see ``CompileResult``), never read to resolve a name."""
    result: CompileResult = field(default_factory=CompileResult)

    # ------------------------------------------------------------ read-only once sealed
    _sealed = False      # not a field: ``seal`` sets it

    def seal(self) -> None:
        """No table is replaced from now on (the engine seals a game's vocabulary once its
        rules are compiled, and shares it): a later write raises ``FrozenInstanceError``, as
        a frozen dataclass's would. Reads are plain attribute reads, sealed or not."""
        object.__setattr__(self, "_sealed", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if self._sealed:
            raise FrozenInstanceError(f"cannot assign to {name!r}: the vocabulary of a compiled game is read-only")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self._sealed:
            raise FrozenInstanceError(f"cannot delete {name!r}: the vocabulary of a compiled game is read-only")
        object.__delattr__(self, name)

    # ------------------------------------------------------------ compile outputs, read by name
    @property
    def codes(self) -> list[Code]:
        return self.result.codes

    @property
    def uses_require(self) -> bool:
        return self.result.uses_require

    @property
    def broken_functions(self) -> set[str]:
        return self.result.broken_functions

    # ------------------------------------------------------------ questions the compiler asks
    def type_of(self, t: TypeName) -> Type:
        """The compiler's type for a declared type: ``INT``, ``Enum(name)``, ``Card(kind)``, ..."""
        return declared(t.name, self.enums)

    def known_names(self) -> list[str]:
        """Every name a rule may read (for 'did you mean' hints)."""
        return (list(self.option_index) + list(self.constants) + list(self.gvar_index) + list(self.pvar_index) + list(self.res_index)
                + list(self.zone_index) + list(self.enum_of_value) + list(self.enums) + list(self.kind_cards)
                + ["players", "round", "player_count"])

    def seat_cards(self, kind: str) -> list[list[int]]:
        """The pieces of a kind that belong to each seat."""
        out: list[list[int]] = [[] for _ in range(self.max_players)]
        for c in self.kind_cards.get(kind, ()):
            if self.card_seat[c] >= 0:
                out[self.card_seat[c]].append(c)
        return out

    def describe(self, t: Type) -> tuple[Callable, Callable, tuple]:
        """How options of type ``t`` are shown: (key of an item, label of an item,
        the card variable slots its label reads). Keys never depend on the state;
        a label that does (a die's value, a piece's owner) is given the values of
        those variables as they were when the decision was made, a tuple kept
        with the decision, so no text is written unless someone reads it."""
        if isinstance(t, Card):
            ids, names = self.card_def_ids, self.card_names
            kind = t.kind
            cvars = self.kind_cvars.get(kind, {}) if kind else {}
            shown = [(self.cvar_index[v], v) for v in ("value", "owner") if v in cvars]
            if shown:
                def text(c, snap):
                    parts = [str(x) if v == "value" else ("neutral" if x is None else f"P{x + 1}")
                             for (_, v), x in zip(shown, snap)]
                    return f"{names[c]} ({', '.join(parts)})"
                return ids.__getitem__, text, tuple(i for i, _ in shown)
            return ids.__getitem__, (lambda c, snap: names[c]), ()
        if t == PLAYER:
            return (lambda p: f"p{p + 1}"), (lambda p, snap: f"P{p + 1}"), ()
        return str, (lambda v, snap: str(v)), ()

    def detail(self, t: Type) -> Optional[Callable[[int, Optional[tuple]], str]]:
        """What tells identical cards apart in an option key, for options of type
        ``t`` (None if they are not cards): '@P2' for the owner and '=4' for the
        value, read from the snapshot ``describe`` keeps with the decision. The
        owner is the card's ``owner`` variable when its kind declares one and it
        is set, else the seat of a per-player piece; a card without either has
        no '@'. Kinds without a ``value`` variable have no '='."""
        if not isinstance(t, Card):
            return None
        cvars = self.kind_cvars.get(t.kind, {}) if t.kind else {}
        vi = 0 if "value" in cvars else None
        oi = (0 if vi is None else 1) if "owner" in cvars else None
        seats = self.card_seat

        def detail(c: int, snap: Optional[tuple]) -> str:
            owner = snap[oi] if oi is not None and snap is not None else None
            if owner is None and seats[c] >= 0:
                owner = seats[c]
            out = "" if owner is None else f"@P{owner + 1}"
            if vi is not None and snap is not None:
                out += f"={snap[vi]}"
            return out
        return detail
