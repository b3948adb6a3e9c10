"""A pack of ``--set`` changes, written out (``meeple tune --write-patch DIR``): the
chosen values as an extension pack that ``extends`` the pack tuned, so a designer
loads them as ``PACK+DIR`` (or DIR alone), reads them with ``meeple diff``, and
keeps them.

The files are those a modder would write (docs/modding.md): ``pack.yaml`` naming the
packs extended (a shipped pack by its id, any other by its path from DIR, as
``meeple new-pack`` writes them), ``rules.yaml`` overriding the constants, and one
cards file per card kind patching the fields. The folder is written whole or not at
all, then loaded to check that it gives the pack with those values.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from meeple.authoring.scaffold import _extends_ref
from meeple.core.errors import UsageError
from meeple.runtime.game import Game, load_game


def _changes(game: Game, sets: tuple) -> tuple[dict, dict]:
    """The constants and, per card kind, the card patches of ``--set`` texts."""
    constants: dict[str, Any] = {}
    cards: dict[str, list[dict]] = {}
    kinds = {c.id: c.kind for c in game.pack.cards}
    for text in sets:
        left, _, raw = text.partition("=")
        value = yaml.safe_load(raw)
        target = left.split("/")[-1]
        if "." in target:
            cid, _, fld = target.partition(".")
            patches = cards.setdefault(kinds[cid], [])
            entry = next((e for e in patches if e["id"] == cid), None)
            if entry is None:
                entry = {"id": cid}
                patches.append(entry)
            entry[fld] = value
        else:
            constants[target] = value
    return constants, cards


def write_patch(pack: str, game: Game, sets: tuple, target: Path, note: str) -> list[Path]:
    """Write the extension pack ``target`` of ``pack`` (loaded as ``game``) with the
    changes ``sets``; the files written. ``note``: a line for its description (where
    the values came from). UsageError when ``target`` exists."""
    from meeple.core.outputs import new_folder
    from meeple.loading.folders import resolve_all
    target = Path(target)
    if target.exists():
        raise UsageError(f"{target} already exists; choose another folder for the patch")
    constants, cards = _changes(game, sets)
    info = game.pack.info
    refs = [_extends_ref(game, root, target) for root in resolve_all(pack)]
    name = target.name if target.name else "tuned"
    files: dict[str, dict] = {"pack.yaml": {
        "kind": "pack", "id": f"{info.id}-tuned", "name": {"en": f"{name} (tuned values for {info.id})"},
        "version": "0.1.0", "extends": refs,
        "description": f"Values chosen by meeple tune: {', '.join(sets)}. {note}"}}
    if constants:
        files["rules.yaml"] = {"kind": "rules", "override": {"constants": constants}}
    for kind, patches in cards.items():
        files[f"{kind}.yaml"] = {"kind": "cards", "card_kind": kind, "patch": patches}
    written = []
    with new_folder(target) as building:
        for rel, data in files.items():
            (building / rel).write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
            written.append(target / rel)
    load_game(str(target), generate=False)      # it loads (PackInvalid if not)
    return written
