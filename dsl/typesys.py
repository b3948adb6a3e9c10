"""The checker's types: small immutable values, compared and hashed cheaply.

The checker gives every expression a type, to report mistakes in a rule before it
runs and to pick the generated Python that fits the value: a zone is
a slot number to look up, a list is the items themselves. A type used to be a
string ('card:coin', 'list:int'); as objects, a typo in a type is an error where it
is written, a card's kind is ``t.kind`` instead of ``t[5:]``, and the rules about
types (element type, compatibility, the wording of an error) live here, in one place.

The types of values: ``INT``, ``BOOL``, ``TEXT``, ``PLAYER``, ``Card(kind)`` (``CARD``
when the kind is unknown), ``Zone(kind)`` (a zone holding cards of a kind),
``List(elem)``, ``Enum(name)`` (one value of an enum), ``EnumSet(name)`` (all its
values), ``NONE`` (the literal none) and ``ANY`` (unknown: accepted everywhere).
Any value may be none: a trailing '?' in a declaration is not tracked.

Signatures of primitives use three more: ``COLLECTION`` (a zone or list), ``ELEM``
(the element type of the first argument, as a result) and ``COMPREHENSION`` (the
``x in coll where cond`` an aggregate takes). ``ZONE`` is a zone of any kind.

``str(t)`` is the old spelling ('card:coin'), for debugging and for ``parse``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Container, Optional


class Type:
    """A type of the effect language. Subclasses are frozen dataclasses: equal
    when of the same class with the same fields, so they serve as dict keys and values."""

    __slots__ = ()
    is_collection: bool = False    # a zone, list or enum's value set (and ANY): 'for each', 'in', count() take it
    # a type without fields says these two class attributes; the others compute them
    wording: str = ""              # how an error message names a value of it
    spelling: str = ""             # its old string spelling

    def elem(self) -> "Type":
        """The type of one item, for a collection; ANY for anything else."""
        return ANY

    def describe(self) -> str:
        """How an error message names a value of this type ('a number', 'a zone of coin cards')."""
        return self.wording

    def __str__(self) -> str:
        return self.spelling

    def __repr__(self) -> str:
        return f"<type {self}>"


@dataclass(frozen=True, slots=True, repr=False)
class Int(Type):
    wording = "a number"
    spelling = "int"


@dataclass(frozen=True, slots=True, repr=False)
class Bool(Type):
    wording = "true/false"
    spelling = "bool"


@dataclass(frozen=True, slots=True, repr=False)
class Text(Type):
    wording = "a text"
    spelling = "text"


@dataclass(frozen=True, slots=True, repr=False)
class Player(Type):
    wording = "a player"
    spelling = "player"


@dataclass(frozen=True, slots=True, repr=False)
class NoneT(Type):
    """The literal ``none``: its own type, compatible with everything."""

    wording = "none"
    spelling = "none"


@dataclass(frozen=True, slots=True, repr=False)
class AnyT(Type):
    """Unknown (a value the checker cannot type, or a mistake already reported):
    accepted everywhere, so one mistake is reported once."""

    is_collection = True

    wording = "a value"
    spelling = "any"


@dataclass(frozen=True, slots=True, repr=False)
class Card(Type):
    """A card; ``kind`` is None when it may be of any kind (``this``, a 'card' parameter)."""

    kind: Optional[str] = None

    def describe(self) -> str:
        return f"a {self.kind} card" if self.kind is not None else "a card"

    def __str__(self) -> str:
        return f"card:{self.kind}" if self.kind is not None else "card"


@dataclass(frozen=True, slots=True, repr=False)
class Zone(Type):
    """A zone holding cards of ``kind`` (its value is a slot number, not a list).
    ``kind`` is None only in a primitive's signature (``ZONE``: a zone of any kind)."""

    kind: Optional[str] = None
    is_collection = True

    def elem(self) -> Type:
        return Card(self.kind)

    def describe(self) -> str:
        return f"a zone of {self.kind} cards" if self.kind is not None else "zone"

    def __str__(self) -> str:
        return f"zone:{self.kind}" if self.kind is not None else "zone"


@dataclass(frozen=True, slots=True, repr=False)
class Enum(Type):
    """One value of the enum ``name`` (at run time, the value's text)."""

    name: str

    def describe(self) -> str:
        return f"a {self.name} value"

    def __str__(self) -> str:
        return f"enum:{self.name}"


@dataclass(frozen=True, slots=True, repr=False)
class EnumSet(Type):
    """All the values of the enum ``name``, as a list (the enum's name used as a value)."""

    name: str
    is_collection = True

    def elem(self) -> Type:
        return Enum(self.name)

    def describe(self) -> str:
        return f"the {self.name} values"

    def __str__(self) -> str:
        return f"enumset:{self.name}"


# how a list of these is named in a message: 'a list of numbers', not 'a list of a number'
_PLURAL: dict[Type, str] = {}


@dataclass(frozen=True, slots=True, repr=False)
class List(Type):
    """A list of values of ``elem`` (a fresh Python list at run time)."""

    elem_t: Type
    is_collection = True

    def elem(self) -> Type:
        return self.elem_t

    def describe(self) -> str:
        inner = self.elem_t
        plural = _PLURAL.get(inner)
        if plural is not None:
            return f"a list of {plural}"
        if isinstance(inner, Card):      # a kind: CARD is in _PLURAL
            return f"a list of {inner.kind} cards"
        return f"a list of {inner.describe()}"

    def __str__(self) -> str:
        return f"list:{self.elem_t}"


@dataclass(frozen=True, slots=True, repr=False)
class Collection(Type):
    """Signatures only: a zone or a list (size(), random())."""

    is_collection = True

    wording = "a zone or list"
    spelling = "collection"


@dataclass(frozen=True, slots=True, repr=False)
class Elem(Type):
    """Signatures only, as a result: the element type of the first argument (top(), first())."""

    wording = "elem"
    spelling = "elem"


@dataclass(frozen=True, slots=True, repr=False)
class Comprehension(Type):
    """Signatures only: the ``x in coll where cond`` an aggregate takes (compiled specially)."""

    wording = "comprehension"
    spelling = "comprehension"


INT = Int()
BOOL = Bool()
TEXT = Text()
PLAYER = Player()
NONE = NoneT()
ANY = AnyT()
CARD = Card()
ZONE = Zone()
COLLECTION = Collection()
ELEM = Elem()
COMPREHENSION = Comprehension()

_PLURAL.update({INT: "numbers", BOOL: "true/false values", TEXT: "texts", PLAYER: "players", CARD: "cards",
                ANY: "values"})


def compatible(have: Type, want: Type) -> bool:
    """Whether a value of type ``have`` may stand where ``want`` is expected: ANY and
    none go anywhere, a card of unknown kind goes for a card of a kind and back, a
    collection whose items fit goes for a list, a text for an enum value."""
    if isinstance(have, (AnyT, NoneT)) or isinstance(want, AnyT) or have == want:
        return True
    if isinstance(want, Card) and isinstance(have, Card):
        return want.kind is None or have.kind is None
    if isinstance(want, Bool):
        return False
    if isinstance(want, List) and have.is_collection:
        return compatible(have.elem(), want.elem_t)
    if isinstance(want, Collection) and have.is_collection:
        return True
    if isinstance(want, Enum) and isinstance(have, Text):
        return True
    return False


def card_kind(t: Type) -> Optional[str]:
    """The kind of a card type, or None (a card of any kind, or not a card)."""
    return t.kind if isinstance(t, Card) else None


def is_card(t: Type) -> bool:
    """A card, of a kind or not (ANY is not: callers that accept it say so)."""
    return isinstance(t, Card)


def declared(name: str, enums: Container[str]) -> Type:
    """The type of a name declared in a pack ('int', 'card', an enum's name, a card
    kind's name), the pack's ``enums`` telling an enum from a card kind. The pack
    loader has already checked the name is one of these."""
    simple = _SIMPLE.get(name)
    if simple is not None:
        return simple
    if name in enums:
        return Enum(name)
    return Card(name)


_SIMPLE: dict[str, Type] = {"int": INT, "bool": BOOL, "player": PLAYER, "text": TEXT, "card": CARD}

_NAMED: dict[str, Type] = {str(t): t for t in (INT, BOOL, TEXT, PLAYER, NONE, ANY, CARD, ZONE, COLLECTION, ELEM,
                                               COMPREHENSION)}
_PARAMETRISED = {"card": Card, "zone": Zone, "enum": Enum, "enumset": EnumSet}


def parse(spelling: str) -> Type:
    """The type an old spelling names ('list:card:coin' is ``List(Card('coin'))``):
    the inverse of ``str``, for tests and for reading a type written as text."""
    named = _NAMED.get(spelling)
    if named is not None:
        return named
    head, sep, rest = spelling.partition(":")
    if sep and head == "list":
        return List(parse(rest))
    if sep and head in _PARAMETRISED and rest:
        return _PARAMETRISED[head](rest)
    raise ValueError(f"not a type: {spelling!r}")
