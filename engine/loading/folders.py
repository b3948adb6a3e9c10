"""Where packs are and what one pack folder holds: its YAML files (within the
load's budget), their documents checked against the schemas, and the pack's
``Layer``, which ``build_pack`` turns into the model on its own and
``meeple.loading.expansion`` joins with the layers of the packs it extends.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional


from meeple.loading import model as M
from meeple.core.errors import ContentError, Problems, Span, UsageError, suggest
from meeple.loading.limits import MAX_FILE_BYTES, MAX_PACK_BYTES, MAX_PACK_FILES
from meeple.loading.salvage import file_names, keep_valid_parts, unreadable_names
from meeple.core.outputs import not_regular
from meeple.loading.schemas import validate
from meeple.loading.yamlsrc import Document, load_yaml
from meeple.loading.reader import Reader
from meeple.loading.howto import read_howto


def content_root() -> Path:
    """Where the shipped packs are: an installation ships them inside the package
    (``meeple._content``); run from the repository, they are its top-level content/."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "_content"
    return installed if installed.is_dir() else package.parent / "content"


def shipped_packs() -> list[str]:
    root = content_root()
    return sorted(p.name for p in root.iterdir() if (p / "pack.yaml").is_file()) if root.is_dir() else []


def is_pack(folder: Path) -> bool:
    """Whether ``folder`` holds a pack.yaml; never raises (a name too long for the
    system, a NUL byte, a folder that cannot be read: not a pack)."""
    try:
        return (folder / "pack.yaml").is_file()
    except (OSError, ValueError):
        return False


def shipped_pack(pack_id: str) -> Optional[Path]:
    """The folder of the shipped pack with this id, if there is one."""
    if pack_id not in shipped_packs():
        return None
    return content_root() / pack_id


def resolve(game: str) -> Path:
    """A shipped pack's id or a path to a pack folder."""
    path = Path(game)
    if is_pack(path):
        return path
    shipped = shipped_pack(game)
    if shipped is not None:
        return shipped
    hint = suggest(game, shipped_packs())
    raise UsageError(f"no pack '{game}' (not a folder with pack.yaml, nor a shipped pack: {', '.join(shipped_packs())})", hint=hint)


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


@dataclass
class Budget:
    """What one load (a pack and the packs it extends) may still read: MAX_PACK_FILES
    YAML files of MAX_PACK_BYTES together."""

    files: int = MAX_PACK_FILES
    bytes: int = MAX_PACK_BYTES


def pack_files(root: Path, problems: Problems, budget: Optional[Budget] = None) -> list[Path]:
    """The YAML files of a pack folder, in order, within the budget.

    Folders inside with their own pack.yaml are other packs, not part of this
    one. Links to folders are not followed; a link to a file is read only if
    the file lies inside the pack folder, so no file outside it is ever read
    or shown (a link out, or to nothing, is an error naming the link). Past
    the budget, the files left are not read: an error says which limit."""
    budget = budget if budget is not None else Budget()
    try:
        inside = root.resolve()
    except (OSError, RuntimeError):
        inside = Path(os.path.abspath(root))
    found: list[Path] = []
    for folder, subfolders, names in os.walk(root):
        here = Path(folder)
        if here != root and "pack.yaml" in names:
            subfolders[:] = []
            continue
        for name in names:
            if not name.endswith(".yaml"):
                continue
            path = here / name
            if os.path.islink(path):
                try:
                    target = path.resolve(strict=True)
                except (OSError, RuntimeError):
                    problems.add(ContentError("this file is a link to nothing; it is not read", Span(_display(path), 0, 0)))
                    continue
                if not target.is_relative_to(inside):
                    problems.add(ContentError("this file is a link to a file outside the pack folder; it is not read",
                                              Span(_display(path), 0, 0), "copy the file into the pack"))
                    continue
            kind = not_regular(path)
            if kind is not None:        # a pipe would block the load, a device never end it
                problems.add(ContentError(f"this file is {kind}, not a regular file; it is not read", Span(_display(path), 0, 0)))
                continue
            found.append(path)
            if len(found) > budget.files:
                problems.add(ContentError(f"more than {MAX_PACK_FILES} YAML files to load; the rest are not read",
                                          Span(_display(root), 0, 0), "a pack and the packs it extends hold at most "
                                          f"{MAX_PACK_FILES} files together"))
                return []
    files = sorted(found)
    budget.files -= len(files)
    sizes = []
    for path in files:
        try:
            sizes.append(min(path.stat().st_size, MAX_FILE_BYTES))   # a bigger file is refused when read
        except OSError:
            sizes.append(0)                                          # reading it reports the problem
    if sum(sizes) > budget.bytes:
        at = next(i for i in range(len(files)) if sum(sizes[:i + 1]) > budget.bytes)
        problems.add(ContentError(f"the YAML files to load total more than {MAX_PACK_BYTES // 1024} KB, past the limit "
                                  "at this file; no file of this pack is read", Span(_display(files[at]), 0, 0),
                                  f"a pack and the packs it extends hold at most {MAX_PACK_BYTES // 1024} KB of YAML together"))
        budget.bytes = 0
        return []
    budget.bytes -= sum(sizes)
    return files


def load_documents(root: Path, problems: Problems, budget: Optional[Budget] = None) -> dict[str, list[Document]]:
    """Every YAML file of a pack, by kind, schema-checked. Problems collected; a file
    with schema errors keeps the parts they do not touch (engine/loading/salvage.py)."""
    by_kind: dict[str, list[Document]] = {"pack": [], "game": [], "rules": [], "cards": [], "scenario": [], "howto": []}
    files = pack_files(root, problems, budget)
    for path in files:
        try:
            doc = load_yaml(path, _display(path))
        except ContentError as err:
            problems.add(err)
            problems.left_out |= unreadable_names(path)
            continue
        data = doc.data
        if not isinstance(data, dict) or "kind" not in data:
            what = "this file is empty; a pack file is" if data is None else "a pack file must be"
            problems.add(ContentError(f"{what} a mapping with a 'kind' (pack, game, rules, cards, scenario, howto)", Span(doc.file, 1, 1)))
            problems.left_out |= file_names("cards", data) | file_names("rules", data)
            continue
        kind = data["kind"]
        if not isinstance(kind, str) or kind not in by_kind:
            problems.add(ContentError(f"unknown kind {kind!r}" if isinstance(kind, str) else "'kind' must be a name",
                                      doc.span(("kind",)), (suggest(kind, list(by_kind)) if isinstance(kind, str) else None)
                                      or f"kinds: {', '.join(by_kind)}"))
            problems.left_out |= file_names("cards", data) | file_names("rules", data)
            continue
        is_manifest = path == root / "pack.yaml"
        if is_manifest != (kind == "pack"):
            problems.add(ContentError("pack.yaml is the pack manifest: its kind must be 'pack'" if is_manifest else
                                      "only the pack's own pack.yaml has kind 'pack'", doc.span(("kind",))))
            continue
        errors = list(validate(doc, kind))
        problems.errors.extend(errors)     # as they are: a schema error is never a consequence of another
        if errors:
            doc, names = keep_valid_parts(doc, kind)     # what the errors do not touch is still checked
            problems.left_out |= names
        if doc is not None:
            by_kind[kind].append(doc)
    return by_kind


@dataclass
class Layer:
    """One pack folder, read and schema-checked but not yet built: a base game,
    or a pack that extends others (see meeple.loading.expansion)."""

    root: Path
    info: M.PackInfo
    manifest: Document
    game: Optional[Document]
    rules: list[Document]
    cards: list[Document]
    parents: list[str] = field(default_factory=list)     # ids of the packs it extends, once found
    howto: list[Document] = field(default_factory=list)  # its how-to-play (one file), see meeple.loading.howto

    @property
    def files(self) -> tuple[str, ...]:
        return tuple(d.file for d in [self.manifest, *([self.game] if self.game else []), *self.rules, *self.cards, *self.howto])


def read_layer(root: Path, problems: Problems, budget: Optional[Budget] = None) -> Optional[Layer]:
    """Read one pack folder's files; problems are collected, never raised."""
    if not is_pack(root):
        problems.add(ContentError("not a pack: no pack.yaml here", Span(_display(root), 0, 0)))
        return None
    docs = load_documents(root, problems, budget)
    pdoc = next(iter(docs["pack"]), None)
    if pdoc is None:
        return None     # pack.yaml had errors, reported already
    p = pdoc.data
    extends = tuple((e, None) if isinstance(e, str) else (e["pack"], e.get("version")) for e in p.get("extends") or ())
    info = M.PackInfo(p["id"], Reader(problems).names(p["name"]), p["version"], p.get("engine", ""), extends,
                      tuple(p.get("locales") or ("en",)), p.get("description", ""), str(root), pdoc.span(("id",)),
                      tuple(_reference(str(r), entry, pdoc.key_span(("references", r))) for r, entry in (p.get("references") or {}).items()))
    if info.engine:
        from meeple.loading.versions import ENGINE_VERSION, satisfies
        try:
            if not satisfies(ENGINE_VERSION, info.engine):
                problems.add(ContentError(f"this pack needs engine {info.engine}; this is meeple {ENGINE_VERSION}", pdoc.span(("engine",))))
        except ValueError as err:
            problems.add(ContentError(f"engine: {err}", pdoc.span(("engine",))))
    games = docs["game"]
    for extra in games[1:]:
        problems.add(ContentError(f"a second game file (the first is {games[0].file}); a pack has one", extra.span(("kind",))))
    if extends:
        for g in games:
            problems.add(ContentError("a pack that extends another changes its rules in a rules file (kind: rules), "
                                      "not a game file", g.span(("kind",)), "write 'kind: rules' with add: and override: sections"))
    else:
        for r in docs["rules"]:
            problems.add(ContentError("only a pack that extends another has a rules file; this one has no 'extends' in pack.yaml",
                                      r.span(("kind",))))
        for doc in docs["cards"]:
            for key in ("replace", "patch", "remove"):
                if key in doc.data:
                    problems.add(ContentError(f"'{key}:' changes cards of a pack this one extends, but it extends none",
                                              doc.key_span((key,)), "add 'extends: [GAME]' to pack.yaml, or list the cards under cards:"))
        if not games and not problems.errors:
            problems.add(ContentError("a pack needs a game file (a file with kind: game)", Span(_display(root / "pack.yaml"), 1, 1)))
    return Layer(root, info, pdoc, games[0] if games and not extends else None, docs["rules"], docs["cards"], howto=docs["howto"])


def _reference(ref: str, entry: object, span: Span) -> M.Reference:
    """One entry of pack.yaml ``references:`` (schema-checked): a public document's fields,
    or an older pack's one line, which becomes its title."""
    if isinstance(entry, dict):
        return M.Reference(ref, str(entry["title"]), span, str(entry.get("publisher", "")), str(entry.get("language", "")),
                           str(entry.get("url", "")), str(entry.get("note", "")))
    return M.Reference(ref, str(entry), span)


def references(layers: list[Layer], problems: Problems) -> tuple[M.Reference, ...]:
    """The references of the packs loaded, base first: a pack inherits those of the packs it
    extends; an id declared twice as two different documents is an error (the same document
    declared again, as two expansions of one game may, is not)."""
    out: dict[str, M.Reference] = {}
    for layer in layers:
        for ref in layer.info.references:
            first = out.get(ref.id)
            if first is not None and not first.same_document(ref):
                problems.add(ContentError(f"reference '{ref.id}' is already declared ({first.span.file}:{first.span.line}) "
                                          "as another document", ref.span, "give this source its own id"))
                continue
            out.setdefault(ref.id, ref)
    return tuple(out.values())


def build_pack(layer: Layer, problems: Problems) -> Optional[M.Pack]:
    """A base game (no extends) into the model."""
    if layer.game is None:
        return None
    refs = references([layer], problems)
    reader = Reader(problems, {r.id: r.span for r in refs})
    game = reader.game(layer.game)
    cards: list[M.CardDef] = []
    seen: dict[str, M.CardDef] = {}
    for doc in layer.cards:
        for card in reader.cards(doc, game):
            if card.id in seen:
                first = seen[card.id].span
                problems.add(ContentError(f"duplicate card id '{card.id}' (first at {first.file}:{first.line})", card.span))
                continue
            seen[card.id] = card
            cards.append(card)
    howto = read_howto(layer.info, layer.howto, problems)
    return M.Pack(layer.info, game, tuple(cards), layer.files, ((layer.info.id, layer.info.version, os.path.normpath(str(layer.root))),),
                  references=refs, howto=(howto,) if howto else ())


def resolve_all(spec: str) -> list[Path]:
    """'GAME+EXPANSION+...' (or one id or folder) -> pack folders, in the order given."""
    return [resolve(part) for part in spec.split("+") if part]

