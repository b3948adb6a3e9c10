"""Loading content packs: YAML → schema → model, for one pack folder or a game
with the packs that extend it; and what a loaded pack says of its own values
(provisional ones, where each came from).

Every problem is collected (``Problems``) rather than raised at the first, so
``meeple validate`` can print all of them. A pack is a folder with
``pack.yaml`` (``meeple.loading.folders``); each other ``*.yaml`` file says its
``kind`` (``meeple.loading.reader`` reads it). Cards are keyed by id, which is
what a later ``extends`` (add, replace, remove by id) builds on
(``meeple.loading.expansion``). The modules run one way: folders and reader
below, expansion above them, this module on top.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from meeple.loading import model as M
from meeple.core.errors import Problems, Span, printable
from meeple.loading.expansion import assemble, load_order
from meeple.loading.sets import set_layer
from meeple.loading.folders import build_pack


def read_pack(root: Path, problems: Problems) -> Optional[M.Pack]:
    """Load a pack folder into the model (with the packs it extends); problems are collected, never raised."""
    return read_packs([root], problems)


def read_packs(roots: list[Path], problems: Problems, sets: tuple = ()) -> Optional[M.Pack]:
    """Load packs together: a base game and packs that extend it, in load order;
    ``sets`` are one-off changes on top ('keep.cost=4', 'hand_size=8')."""
    layers = load_order(roots, problems)
    if not layers:
        return None
    if sets:
        plain = build_pack(layers[0], Problems()) if len(layers) == 1 else assemble(layers, Problems())
        if plain is None:
            return None
        extra = set_layer(plain, layers, sets, problems)
        if extra is None:
            return None
        layers = layers + [extra]
    if len(layers) == 1:
        return build_pack(layers[0], problems)
    return assemble(layers, problems)


def provisional_warnings(pack: M.Pack) -> list[tuple[str, str, str, Span]]:
    """(card id or 'game', field, reason, where) for every value marked provisional; the
    field and the reason (content text, printed as is) with control codes escaped."""
    out = [("game", printable(str(what)), printable(str(reason)), span) for what, reason, span in pack.game.provisional]
    for card in pack.cards:
        spans = dict(card.field_spans)
        for fld, reason in card.provisional:
            out.append((card.id, printable(str(fld)), printable(str(reason)), spans.get(fld, card.span)))
    return out


@dataclass(frozen=True)
class Provenance:
    """Where one value of a pack comes from: 'cited' (a source confirms it), 'provisional'
    (marked, with the reason), or 'unmarked' (a number neither cited nor marked)."""

    who: str            # card id, or 'game'
    kind: str           # card kind, or 'constant' / 'game'
    what: str           # field (copies, name.ja, ...) or constant name
    value: Any
    status: str
    detail: str         # the citation ("REF where") or the reason; '' when unmarked
    span: Span


def _covered(what: str, keys: dict) -> Optional[str]:
    """The key of ``keys`` that covers the value ``what``: the same, or its head ('cost' covers 'cost.x')."""
    if what in keys:
        return what
    head = what.split(".")[0]
    return head if head in keys else None


def provenance(pack: M.Pack) -> list[Provenance]:
    """Every number of the pack with its provenance, then every other value cited or marked
    provisional (a Japanese name, a text, a rules-level guess).

    The numbers are: each constant (a by_players table is one value), each whole-number
    field a card writes, and each card's count (copies, or per_player) when it is not 1.
    A number is confirmed by a citation naming it (the card's sources:, its file's, or
    the game's) or marked provisional: ``unmarked`` rows are what is neither."""
    def cited(cite: str) -> str:
        return printable(cite)

    out: list[Provenance] = []
    g = pack.game
    marked = {str(w): (r, s) for w, r, s in g.provisional}
    cites = {str(w): (c, s) for w, c, s in g.sources}
    done: set[str] = set()
    for c in g.constants:
        value = c.by_players[0][1] if len(c.by_players) == 1 and c.by_players[0][0] == 0 else dict(c.by_players)
        if c.name in cites:
            out.append(Provenance("game", "constant", c.name, value, "cited", cited(cites[c.name][0]), c.span))
        elif c.name in marked:
            out.append(Provenance("game", "constant", c.name, value, "provisional", printable(str(marked[c.name][0])), c.span))
        else:
            out.append(Provenance("game", "constant", c.name, value, "unmarked", "", c.span))
        done.add(c.name)
    for w, (r, s) in marked.items():
        if w not in done:
            out.append(Provenance("game", "game", printable(w), None, "provisional", printable(str(r)), s))
    for w, (cite, s) in cites.items():
        if w not in done:
            out.append(Provenance("game", "game", printable(w), None, "cited", cited(cite), s))
    for card in pack.cards:
        notes = {str(f): str(r) for f, r in card.provisional}
        srcs = {str(f): str(c) for f, c, _ in card.sources}
        spans = dict(card.field_spans)
        numbers: list[tuple[str, Any, Span]] = [
            (name, value, spans[name]) for name, value in card.fields
            if name in spans and isinstance(value, int) and not isinstance(value, bool)]
        if card.per_player:
            numbers.append(("per_player", card.per_player, card.span))
        elif card.copies != 1:
            numbers.append(("copies", card.copies, card.span))
        used: set[str] = set()
        for name, value, span in numbers:
            alias = ("copies", "per_player") if name in ("copies", "per_player") else (name,)
            key = next((k for a in alias if (k := _covered(a, srcs))), None)
            note = next((k for a in alias if (k := _covered(a, notes))), None)
            if key is not None:
                used.add(key)
                out.append(Provenance(card.id, card.kind, name, value, "cited", cited(srcs[key]), span))
            elif note is not None:
                used.add(note)
                out.append(Provenance(card.id, card.kind, name, value, "provisional", printable(notes[note]), span))
            else:
                out.append(Provenance(card.id, card.kind, name, value, "unmarked", "", span))
        for f, r in notes.items():
            if f not in used:
                out.append(Provenance(card.id, card.kind, printable(f), None, "provisional", printable(r), spans.get(f, card.span)))
        for f, c in srcs.items():     # a file's citation of a value this card does not write is not shown
            if f not in used and (f in spans or f.split(".")[0] in ("name", "text")):
                out.append(Provenance(card.id, card.kind, printable(f), None, "cited", cited(c), spans.get(f, card.span)))
    return out

