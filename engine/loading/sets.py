"""One-off changes from the command line (``--set CARD.FIELD=VALUE``, ``--set NAME=VALUE``):
a pack layer of their own on top of the packs loaded, read with the checks a pack
file gets (its limits, its JSON Schema, the field types and bounds), every problem
located at ``SET_FILE``, line N for the N-th change.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from meeple.loading import model as M
from meeple.core.errors import ContentError, Problems, Span, printable, suggest
from meeple.loading.folders import Layer
from meeple.loading.yamlsrc import Document, load_value


SET_FILE = "<--set>"     # the file named by the spans of --set changes; line N is the N-th change


def set_layer(pack: M.Pack, layers: list[Layer], sets: tuple, problems: Problems) -> Optional[Layer]:
    """A pack of one-off changes from the command line, extending the packs
    loaded: 'CARD.FIELD=VALUE' patches a card ('PACK/FILE/' before it is
    allowed, as in GAME/FILE/keep.cost=4), 'NAME=VALUE' overrides a
    constant. Values are read as YAML (4, true, red), with the checks of a
    pack file: its limits, then its JSON Schema (``copies`` at most 1000),
    then, with the pack, the card kind's field types and bounds. Every
    problem is located at ``SET_FILE``, line N for the N-th change (see
    ``name_set_changes``)."""
    from meeple.loading.schemas import validate
    here = Span(SET_FILE, 1, 1)
    by_kind: dict[str, list[tuple[dict, Span, Span]]] = {}
    constants: dict[str, tuple[Any, Span]] = {}
    cards = {c.id: c for c in pack.cards}
    known_constants = {c.name for c in pack.game.constants}
    for n, text in enumerate(sets, 1):
        text = str(text)
        left, eq, raw = text.partition("=")
        at = Span(SET_FILE, n, 1, max(1, len(text)))
        value_span = Span(SET_FILE, n, len(left) + 2, max(1, len(raw))) if eq else at
        parts = left.strip().split("/")
        target = parts[-1]
        loaded = [x.info.id for x in layers]
        if len(parts) > 1 and parts[0] not in loaded:
            problems.add(ContentError(f"--set {text!r}: '{parts[0]}' is not a pack loaded here ({', '.join(loaded)})", at,
                                      suggest(parts[0], loaded)))
            continue
        if not eq or not target:
            problems.add(ContentError(f"--set {text!r}: write CARD.FIELD=VALUE or CONSTANT=VALUE", at))
            continue
        try:
            value = load_value(raw, SET_FILE)
        except ContentError as err:
            shown = text if len(text) <= 60 else text[:57] + "..."
            problems.add(ContentError(f"--set {shown!r}: {err.message}", value_span, err.hint))
            continue
        if "." in target:
            cid, _, fld = target.partition(".")
            if cid not in cards:
                problems.add(ContentError(f"--set {text!r}: no card '{cid}'", at, suggest(cid, list(cards))))
                continue
            if fld == "id":
                problems.add(ContentError(f"--set {text!r}: a card's id names it; it cannot be set", at))
                continue
            by_kind.setdefault(cards[cid].kind, []).append(({"id": cid, fld: value}, at, value_span))
        elif target in known_constants:
            constants[target] = (value, value_span)
        else:
            problems.add(ContentError(f"--set {text!r}: '{target}' is neither CARD.FIELD nor a constant", at,
                                      suggest(target, sorted(known_constants))))
    if problems.errors:
        return None
    rules = [set_document({"kind": "rules", "override": {"constants": {k: v for k, (v, _) in constants.items()}}},
                           {("override", "constants", k): span for k, (_, span) in constants.items()})] if constants else []
    card_docs = [set_document({"kind": "cards", "card_kind": kind, "patch": [e for e, _, _ in entries]},
                               {path: span for j, (e, at, value_span) in enumerate(entries) for path, span in
                                ((("patch", j), at), (("patch", j, "id"), at), *((("patch", j, k), value_span) for k in e if k != "id"))})
                 for kind, entries in by_kind.items()]
    for doc in rules + card_docs:           # as a pack file's: a value its schema refuses is refused here
        problems.errors.extend(validate(doc, doc.data["kind"]))
    if problems.errors:
        return None
    info = M.PackInfo("set", M.Names((("en", "--set"),)), "0", "", tuple((x.info.id, None) for x in layers[-1:]),
                      ("en",), "one-off changes from the command line", SET_FILE, here)
    layer = Layer(Path(SET_FILE), info, set_document({"kind": "pack"}, {}), None, rules, card_docs)
    layer.parents = [layers[-1].info.id]
    return layer


def set_document(data: dict, spans: dict) -> Document:
    """A document of --set changes: each value at the place of the change that set it."""
    return Document(SET_FILE, data, {(): Span(SET_FILE, 1, 1), **spans}, dict(spans), {})


def name_set_changes(errors: list, sets: tuple) -> None:
    """Every error located in ``SET_FILE`` names the change it is about, as the option
    was written ('--set 'temple.copies=1000000': ...'), unless it does already."""
    for err in errors:
        span = getattr(err, "span", None)
        if span is None or span.file != SET_FILE or not 1 <= span.line <= len(sets) or err.message.startswith("--set "):
            continue
        text = str(sets[span.line - 1])
        shown = text if len(text) <= 60 else text[:57] + "..."
        err.message = printable(f"--set {shown!r}: {err.message}")
        err.args = (err.message,)
