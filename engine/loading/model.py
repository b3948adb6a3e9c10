"""Loaded pack data as frozen dataclasses: what a pack declares, before compiling.

Every item keeps the span it came from, so later checks (references, DSL)
can point at the YAML that declared it. DSL sources are kept as ``Source``
(text plus where that text starts in the file).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from meeple.dsl.source import Source, TextOrigin  # noqa: F401  (re-exports: the language defines them)

from meeple.core.errors import Span

# choices in one game (those a refusal undid included) before it is stopped as a loop that
# never ends; a pack whose games are longer sets ``flow: max_decisions`` (docs/limits.md, "Running games")
MAX_DECISIONS = 10_000
# faces of a die a rule rolls: 1 to this many
MAX_FACES = 1_000_000


@dataclass(frozen=True, slots=True)
class Names:
    """A display name per locale (``en`` always present)."""

    by_locale: tuple[tuple[str, str], ...]

    def get(self, locale: str = "en") -> str:
        for loc, text in self.by_locale:
            if loc == locale:
                return text
        return self.by_locale[0][1] if self.by_locale else ""


@dataclass(frozen=True, slots=True)
class TypeRef:
    """A declared type: int, bool, player, text, an enum, a card kind, a list."""

    name: str           # 'int' | 'bool' | 'player' | 'text' | enum name | card kind | 'card'
    nullable: bool
    span: Span


@dataclass(frozen=True, slots=True)
class VarDef:
    name: str
    type: TypeRef
    default: Any
    span: Span
    visibility: str = "public"     # or "nobody": kept out of players' views
    names: Optional[Names] = None    # what generated rules text calls it (``name: {en, ja}``), if declared


@dataclass(frozen=True, slots=True)
class ResourceDef:
    name: str
    names: Names
    minimum: Optional[int]
    maximum: Optional[int]
    start: int
    span: Span


@dataclass(frozen=True, slots=True)
class ZoneDef:
    name: str
    per_player: bool
    visibility: str      # public | owner | nobody
    holds: str           # card kind
    in_play: bool        # its cards' event handlers and actions are live
    ordered: bool        # hidden order (a deck): views show only the count
    span: Span
    of_card: Optional[str] = None   # per: card — one zone for each card of this kind
    board: bool = True              # listed in the terminal board summary
    names: Optional[Names] = None   # what generated rules text and meeple play call it (``name: {en, ja}``), if declared
    show_values: bool = True        # a die lying here is shown with its value (false: a stock, where its last face means nothing)


@dataclass(frozen=True, slots=True)
class FieldDef:
    name: str
    type: TypeRef
    default: Any          # a literal, or "=other" to copy another field
    span: Span
    minimum: Optional[int] = None   # an int field's bounds (``min:``, ``max:``), checked on every card
    maximum: Optional[int] = None


@dataclass(frozen=True, slots=True)
class CardKindDef:
    name: str
    fields: tuple[FieldDef, ...]
    variables: tuple[VarDef, ...]
    hooks: tuple[str, ...]
    starts_in: str
    span: Span
    names: Optional[Names] = None   # what generated rules text calls one of its cards, if declared


@dataclass(frozen=True, slots=True)
class ActionDef:
    id: str
    group: str
    names: Names
    when: Optional[Source]
    with_: Optional[Source]
    effect: Source
    per_turn: Optional[int]
    refusal: Optional[str]
    span: Span
    card: Optional[str] = None      # id of the card that grants it
    price: tuple[tuple[str, Source, Span], ...] = ()   # (resource, amount, where): shown with its options
    # what the choices the action goes on to ask cost at least (``then_at_least:``), shown too
    then_at_least: tuple[tuple[str, Source, Span], ...] = ()
    about: Optional[Source] = None  # the card it is about, named beside it (``about:``; display only)
    text: Names = Names(())         # what it does, per locale (``text:``): shown by '? N' (display only)


@dataclass(frozen=True, slots=True)
class CardDef:
    id: str
    kind: str
    names: Names
    copies: int
    fields: tuple[tuple[str, Any], ...]
    text: Names
    hooks: tuple[tuple[str, Source], ...]
    handlers: tuple[tuple[str, Source], ...]
    actions: tuple[ActionDef, ...]
    provisional: tuple[tuple[str, str], ...]
    span: Span
    field_spans: tuple[tuple[str, Span], ...] = ()
    per_player: int = 0     # pieces: this many copies for every seat, each with its 'owner'
    starts_in: Optional[str] = None   # overrides the kind's starting zone
    # (field, citation, where): the value's source, "REF-ID locator" (a reference the pack declares),
    # from the card's own sources: or its file's (see meeple.loading.pack.provenance)
    sources: tuple[tuple[str, str, Span], ...] = ()
    # (locale, text as a Source): where each locale's ``text:`` scalar is, so a check of the
    # text (a number the rules do not have) points at the place in the file
    text_sources: tuple[tuple[str, Source], ...] = ()

    def field(self, name: str) -> Any:
        for key, value in self.fields:
            if key == name:
                return value
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class ParamDef:
    name: str
    type: TypeRef


@dataclass(frozen=True, slots=True)
class ProcedureDef:
    name: str
    params: tuple[ParamDef, ...]
    body: Source
    span: Span
    names: Optional[Names] = None   # what meeple play calls it when it tells what it did (``name:``), if declared


@dataclass(frozen=True, slots=True)
class ScoringPart:
    """One part of the final scoring (``flow.scoring``), run in order; what it adds to each
    player's score is one line of the final breakdown. A scoring written as one text is
    one part, named ``scoring`` with no name of its own."""
    id: str
    names: Optional["Names"]
    body: Source


@dataclass(frozen=True, slots=True)
class FunctionDef:
    """A named expression with parameters, inlined where it is used."""

    name: str
    params: tuple[ParamDef, ...]
    body: Source
    span: Span
    text: Optional[Names] = None    # its phrase in generated rules text, parameters in braces: '{d}'


@dataclass(frozen=True, slots=True)
class EventDef:
    name: str
    params: tuple[ParamDef, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class ConstantDef:
    name: str
    by_players: tuple[tuple[int, int], ...]    # empty count key 0 = for every count
    span: Span

    def value(self, players: int) -> Optional[int]:
        table = dict(self.by_players)
        return table.get(players, table.get(0))


@dataclass(frozen=True, slots=True)
class OptionDef:
    """A rules variant chosen when a game starts (``--option name=value``)."""

    name: str
    default: Any           # bool or int
    description: str
    span: Span


@dataclass(frozen=True, slots=True)
class ViewDef:
    """How ``meeple play`` shows a game to a person (``view:``): each name with
    where it is written, so that a wrong one is reported there. Display only:
    nothing here changes a game."""

    facts: tuple[tuple[str, Span, tuple[tuple[str, Span], ...]], ...] = ()   # (card kind, where, fields)
    board: tuple[tuple[str, Span], ...] = ()     # shared lines: game variables and zones
    player: tuple[tuple[str, Span], ...] = ()    # per-player lines: resources, player variables, zones
    count: tuple[tuple[str, Span], ...] = ()     # zones shown as their number of cards
    reveal: tuple[tuple[str, Span], ...] = ()    # per-player zones every player sees on the final board
    working: tuple[tuple[str, Span], ...] = ()   # variables shown only while set: their return to 0 / none is not told
    totals: tuple[tuple[str, str, Span], ...] = ()    # (zone, a number variable of its cards, where): their total shown
    # (zone, at most what the total may reach, what for, where): the bound shown beside the total
    limits: tuple[tuple[str, Source, Optional[Names], Span], ...] = ()
    span: Optional[Span] = None                  # the section, or None when the pack has none
    prompts: tuple[tuple[str, Names, Span], ...] = ()    # a prompt the rules write -> it per locale
    words: tuple[tuple[str, Names, Span], ...] = ()      # the pack's other words (view: words) -> each per locale
    rounds: Optional[Source] = None            # how many rounds the game lasts: 'round 2 of 4'


@dataclass(frozen=True, slots=True)
class GameDef:
    min_players: int
    max_players: int
    constants: tuple[ConstantDef, ...]
    enums: tuple[tuple[str, tuple[str, ...]], ...]
    resources: tuple[ResourceDef, ...]
    variables: tuple[VarDef, ...]
    player_variables: tuple[VarDef, ...]
    card_kinds: tuple[CardKindDef, ...]
    zones: tuple[ZoneDef, ...]
    events: tuple[EventDef, ...]
    procedures: tuple[ProcedureDef, ...]
    actions: tuple[ActionDef, ...]
    setup: Source
    round: Source
    end_when: Source
    max_rounds: int
    scoring: tuple[ScoringPart, ...]
    score: str
    tiebreak: tuple[Source, ...]
    evaluation: Optional[Source]
    span: Span
    options: tuple[OptionDef, ...] = ()
    provisional: tuple[tuple[str, str, Span], ...] = ()   # (what, reason, where) for rules-level guesses
    sources: tuple[tuple[str, str, Span], ...] = ()       # (what, citation, where) for rules-level values confirmed
    functions: tuple[FunctionDef, ...] = ()
    max_decisions: int = MAX_DECISIONS
    live: Optional[Source] = None      # score: live, a running score for display
    view: ViewDef = ViewDef()


@dataclass(frozen=True, slots=True)
class Reference:
    """A public document a pack's citations name (pack.yaml ``references:``): enough for
    a reader to find it (title, publisher, language, web address) and what the pack takes
    from it. An older pack's one-line reference is its ``title`` alone."""

    id: str
    title: str
    span: Span
    publisher: str = ""
    language: str = ""
    url: str = ""
    note: str = ""

    def describe(self) -> str:
        """One line: 'publisher, "title" (language), url; note', the parts it has."""
        head = ", ".join(p for p in (self.publisher, f'"{self.title}"' if self.publisher else self.title) if p)
        if self.language:
            head += f" ({self.language})"
        if self.url:
            head += f", {self.url}"
        return head + (f"; {self.note}" if self.note else "")

    def same_document(self, other: "Reference") -> bool:
        """Whether two declarations of one id say the same (where they are written does not count)."""
        return (self.title, self.publisher, self.language, self.url, self.note) == \
            (other.title, other.publisher, other.language, other.url, other.note)


@dataclass(frozen=True, slots=True)
class PackInfo:
    id: str
    name: Names
    version: str
    engine: str
    extends: tuple[tuple[str, Optional[str]], ...]    # (pack, version range or None)
    locales: tuple[str, ...]
    description: str
    root: str
    span: Span
    references: tuple[Reference, ...] = ()   # from pack.yaml, in the order written


@dataclass(frozen=True, slots=True)
class Change:
    """What a pack that extends another did to one card or rule (for diffs and conflicts)."""

    pack: str
    op: str             # add | replace | patch | remove | override
    what: str           # card | a rules section (procedures, constants, actions, flow, ...)
    name: str           # card id or rule name
    keys: tuple[str, ...]    # patched fields (patch) or ()
    span: Span
    value: Any = None   # the new value(s), to tell compatible changes from conflicting ones


@dataclass(frozen=True, slots=True)
class HowToSection:
    """One titled part of a pack's rules summary: a text and points, per language."""

    title: Names
    text: Names
    points: tuple[Names, ...]


@dataclass(frozen=True, slots=True)
class ChoiceHelp:
    """What '? N' says at one choice the rules ask (its prompt as written): the whole
    choice's text, and one option's by its label or value."""

    prompt: str
    text: Names
    options: tuple[tuple[str, Names], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class HowTo:
    """One pack's how-to-play (its howto file): shown by ``meeple rules``, base first."""

    pack: str             # the pack that wrote it
    name: Names           # that pack's name
    overview: Names
    sections: tuple[HowToSection, ...]
    choices: tuple[ChoiceHelp, ...]
    span: Span
    glossary: tuple[tuple[str, Names], ...] = ()   # a rules name (field, procedure, enum value) -> its words


@dataclass(frozen=True, slots=True)
class Pack:
    info: PackInfo
    game: GameDef
    cards: tuple[CardDef, ...]
    files: tuple[str, ...] = field(default=())
    load_order: tuple[tuple[str, str, str], ...] = ()     # (id, version, folder) of every pack loaded, base first
    changes: tuple[Change, ...] = ()
    references: tuple[Reference, ...] = ()   # every loaded pack's, base first
    howto: tuple[HowTo, ...] = ()            # every loaded pack's how-to-play, base first
