"""Packs that extend packs: load order, rule and card changes, conflicts.

A pack whose pack.yaml lists ``extends:`` (pack ids, each optionally with a
version range) is loaded after what it extends: depth first, each pack once,
the base game (the one pack without ``extends``) first. Its changes are
written out, so a reader sees what changed:

- rules files (``kind: rules``) ``add:`` new names and ``override:`` existing
  ones (constants, procedures, actions by id, flow steps, ...);
- cards files list new cards under ``cards:``, whole replacements under
  ``replace:``, single keys under ``patch:`` and ids under ``remove:``.

An override may record a fingerprint of the base text it replaced, under the
rules file's ``base_sha:`` (``procedures.turn: 3f2a9c1e``; actions as
``actions.GROUP.ID``): a warning at the override says when the base has
changed since, or how to record a missing one (see ``fingerprint``).

Adding what exists, or changing what does not, is an error at its line. Two
packs that change the same card or rule differently, neither extending the
other, are a conflict naming both places: load order never decides in
silence. Changes merge YAML documents (every span keeps the file its value
came from); the merged game is then built and checked like any other.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

from meeple.loading import model as M
from meeple.core.errors import ContentError, Problem, Problems, Span, suggest
from meeple.loading.limits import MAX_PACK_NAME, MAX_PACKS
from meeple.loading.folders import Budget, Layer, is_pack, read_layer, references, shipped_pack, shipped_packs
from meeple.loading.reader import Reader
from meeple.loading.howto import read_howto
from meeple.loading.versions import satisfies
from meeple.loading.yamlsrc import Document
from meeple.loading.sets import SET_FILE


WHAT = {"constants": "constant", "resources": "resource", "variables": "variable", "player_variables": "player variable",
        "zones": "zone", "events": "event", "procedures": "procedure", "functions": "function", "options": "option",
        "provisional": "provisional note", "sources": "citation", "enums": "enum", "card_kinds": "card kind", "actions": "action",
        "flow": "flow step", "players": "player count", "score": "score setting", "view": "view line"}


MERGED_CARD_KEYS = ("hooks", "triggers")       # a patch changes these one name at a time


def _find(name: str, near: Path) -> Optional[Path]:
    """An extended pack: a path from this pack's folder ('../base'), or an id: a
    folder inside this one or beside it, or a shipped pack (never a folder of the
    current directory)."""
    candidates = [near / name] if "/" in name else [near / name, near.parent / name]
    for candidate in candidates:
        if is_pack(candidate):
            return candidate
    if "/" in name:
        return None
    return shipped_pack(name)


def _name_problem(name: str) -> Optional[str]:
    """Why a name in extends: cannot name a pack, or None."""
    if not name.strip():
        return "an empty name is not a pack name"
    if len(name) > MAX_PACK_NAME:
        return f"a name of {len(name)} chars is not a pack name (at most {MAX_PACK_NAME})"
    if any(not ch.isprintable() for ch in name):
        bad = next(ch for ch in name if not ch.isprintable())
        return f"{name!r} is not a pack name: it holds {bad!r}"
    return None


def _chain(ids: tuple[str, ...]) -> str:
    shown = ids if len(ids) <= 7 else ids[:3] + ("...",) + ids[-3:]
    return " -> ".join(shown)


def load_order(roots: list[Path], problems: Problems) -> list[Layer]:
    """Every pack to load, each after the packs it extends; [] when that fails.

    At most MAX_PACKS packs are read, so a chain of packs each extending the
    next stops with an error at the extends: entry past the limit."""
    out: list[Layer] = []
    by_id: dict[str, Layer] = {}
    cache: dict[Path, Optional[Layer]] = {}
    budget = Budget()
    broken = False

    def visit(root: Path, chain: tuple[str, ...], want: Optional[str], at: Optional[Span]) -> None:
        nonlocal broken
        key = root.resolve()
        if key not in cache:
            if len(cache) >= MAX_PACKS:
                problems.add(ContentError(f"more than {MAX_PACKS} packs to load: {_chain(chain)} -> ...",
                                          at or Span(str(root), 0, 0),
                                          f"a pack and the packs it extends (and those extend) are at most {MAX_PACKS} together"))
                broken = True
                return
            cache[key] = read_layer(root, problems, budget)
        layer = cache[key]
        if layer is None:
            broken = True
            return
        lid = layer.info.id
        where = at or layer.info.span
        if want:
            try:
                if not satisfies(layer.info.version, want):
                    problems.add(ContentError(f"needs {lid} {want}, but {lid} is version {layer.info.version}", where))
            except ValueError as err:
                problems.add(ContentError(f"extends: {err}", where))
        if lid in chain:
            if chain[-1] == lid and at is not None:
                problems.add(ContentError(f"this pack has the id '{lid}' of the pack it extends; a pack needs its own id",
                                          where, f"change the id in pack.yaml (say '{lid}-mine')"))
            else:
                problems.add(ContentError(f"packs extend each other in a circle: {_chain(chain + (lid,))}", where))
            broken = True
            return
        if lid in by_id:
            if Path(by_id[lid].root).resolve() != key:
                problems.add(ContentError(f"two different packs have the id '{lid}' ({by_id[lid].root} and {root})", where))
            return
        _shipped_id(layer, key, problems)
        for j, (name, rng) in enumerate(layer.info.extends):
            span = layer.manifest.span(("extends", j))
            why = _name_problem(name)
            if why:
                problems.add(ContentError(f"extends: {why}", span,
                                          "a shipped pack id, a pack folder beside this one, or a path from this folder"))
                broken = True
                continue
            found = _find(name, root)
            if found is None:
                problems.add(ContentError(f"extends unknown pack '{name}'", span,
                                          suggest(name, shipped_packs()) or "a shipped pack id, or a pack folder beside this one"))
                broken = True
                continue
            if found.resolve() == key:
                problems.add(ContentError(f"extends: '{name}' is this pack's own folder; a pack cannot extend itself", span))
                broken = True
                continue
            visit(found, chain + (lid,), rng, span)
            parent = cache.get(found.resolve())
            if parent is not None and parent.info.id not in layer.parents:
                layer.parents.append(parent.info.id)
        by_id[lid] = layer
        out.append(layer)

    for r in roots:
        visit(Path(r), (), None, None)
    bases = [layer for layer in out if not layer.info.extends]
    if len(bases) > 1:
        problems.add(ContentError(f"{' and '.join(b.info.id for b in bases)} are separate games; "
                                  "load one game with packs that extend it", bases[1].info.span))
        return []
    return [] if broken else out


def _shipped_id(layer: Layer, real_root: Path, problems: Problems) -> None:
    """A warning when a pack that is not shipped takes a shipped pack's id (a copy of
    a shipped pack, say): load orders, logs and diffs name packs by id, so they could
    not tell the two apart. (Extending that pack as well is an error, above.)"""
    shipped = shipped_pack(layer.info.id)
    if shipped is None or shipped.resolve() == real_root or any(name == layer.info.id for name, _ in layer.info.extends):
        return
    problems.warnings.append(Problem(
        f"this pack has the id '{layer.info.id}' of a shipped pack: load orders, logs and diffs will not tell them apart; "
        f"give it its own id (say '{layer.info.id}-mine')", layer.info.span))


def _copy(doc: Document) -> Document:
    return Document(doc.file, copy.deepcopy(doc.data), dict(doc.spans), dict(doc.key_spans), dict(doc.origins))


def _graft(dst: Document, dpath: tuple, src: Document, spath: tuple, clear: bool = True) -> None:
    """Positions of ``src`` under ``spath`` become those of ``dst`` under ``dpath``."""
    n, m = len(spath), len(dpath)
    for table in ("spans", "key_spans", "origins"):
        d, s = getattr(dst, table), getattr(src, table)
        if clear:
            for k in [k for k in d if k[:m] == dpath]:
                del d[k]
        for k, v in s.items():
            if k[:n] == spath:
                d[dpath + k[n:]] = v


def fingerprint(value: Any) -> str:
    """The first 8 hex digits of the sha256 of a base value (its YAML data as
    canonical JSON: comments outside an effect text and key order do not count)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _at(span: Span) -> str:
    return f"{span.file}:{span.line}"


class _Assembly:
    def __init__(self, layers: list[Layer], problems: Problems):
        self.layers = layers
        self.problems = problems
        self.references = references(layers, problems)
        self.reader = Reader(problems, {r.id: r.span for r in self.references})
        self.changes: list[M.Change] = []
        self.by_key: dict[tuple[str, str], list[M.Change]] = {}
        self.ancestors: dict[str, set[str]] = {}
        for layer in layers:      # in load order, so what a pack extends is known before it
            mine: set[str] = set()
            for parent in layer.parents:
                mine |= {parent} | self.ancestors.get(parent, set())
            self.ancestors[layer.info.id] = mine

    def error(self, message: str, span: Span, hint: Optional[str] = None) -> None:
        self.problems.add(ContentError(message, span, hint))

    # ------------------------------------------------------------ changes and conflicts
    def record(self, layer: Layer, op: str, what: str, name: str, span: Span, keys: tuple = (), value: Any = None) -> None:
        ch = M.Change(layer.info.id, op, what, name, keys, span, value)
        for prior in self.by_key.get((what, name), ()):
            if prior.pack == ch.pack or prior.pack in self.ancestors.get(ch.pack, ()):
                continue             # a pack may change what it builds on
            if self.compatible(prior, ch):
                continue
            thing = "card" if what == "card" else WHAT.get(what, what)
            detail = ""
            if prior.op == ch.op == "patch":
                shared = [k for k in ch.keys if k in prior.keys and prior.value.get(k) != ch.value.get(k)]
                detail = "; " + ", ".join(f"{k}: {prior.value[k]!r} vs {ch.value[k]!r}" for k in shared)
            self.error(f"conflict: {prior.pack} ({prior.op} at {_at(prior.span)}) and {ch.pack} ({ch.op} here) both change "
                       f"{thing} '{name}'{detail}", span,
                       f"load only one of them, or make {ch.pack} extend {prior.pack} so that its change builds on the other")
        self.by_key.setdefault((what, name), []).append(ch)
        self.changes.append(ch)

    @staticmethod
    def compatible(a: M.Change, b: M.Change) -> bool:
        if a.op == b.op == "remove":
            return True
        if a.op == b.op == "patch":
            return all(a.value.get(k) == b.value.get(k) for k in set(a.keys) & set(b.keys))
        if a.op == b.op == "override":
            return a.value == b.value
        return False

    # ------------------------------------------------------------ override fingerprints
    def review(self, r: Document, key: str, thing: str, base: Any, span: Span, seen: set) -> None:
        """Warns when the base text an override replaced has changed since its
        base_sha was recorded, or when none is recorded (never an error)."""
        if r.file == SET_FILE:
            return
        seen.add(key)
        now = fingerprint(base)
        recorded = (r.data.get("base_sha") or {}).get(key)
        if recorded is None:
            self.problems.warnings.append(Problem(
                f"this override of {thing} records no fingerprint of the base it replaces; add '{key}: {now}' under "
                f"base_sha: and meeple validate will warn when the base changes", span))
        elif str(recorded).lower() != now:
            self.problems.warnings.append(Problem(
                f"the base {thing} changed since this override was written (base_sha {recorded}, now {now}); "
                f"review it, then update base_sha to '{key}: {now}'", span))

    def unreviewed(self, r: Document, seen: set) -> None:
        """A base_sha entry that names no override of its file (a typo, or an override since removed)."""
        for key in (r.data.get("base_sha") or {}):
            if key not in seen:
                hint = suggest(key, sorted(seen)) or "remove it, or write the override it records"
                self.problems.warnings.append(Problem(
                    f"base_sha: '{key}' names no override of this file ({hint})", r.key_span(("base_sha", key))))

    # ------------------------------------------------------------ rules
    def rules(self, g: Document, layer: Layer, r: Document) -> None:
        seen: set = set()
        self._rules(g, layer, r, seen)
        self.unreviewed(r, seen)

    def _rules(self, g: Document, layer: Layer, r: Document, seen: set) -> None:
        # an overridden constant is the rules file's own value: the citation of the value it replaces goes
        for name in ((r.data.get("override") or {}).get("constants") or {}):
            (g.data.get("sources") or {}).pop(name, None)
        for section, items in (r.data.get("add") or {}).items():
            if section == "actions":
                self.add_actions(g, layer, r, items)
            elif section == "enums":
                self.add_enums(g, layer, r, items)
            elif section == "card_kinds":
                self.add_kinds(g, layer, r, items)
            elif section == "view":
                self.add_view(g, layer, r, items)
            else:
                have = g.data.setdefault(section, {})
                for name, value in items.items():
                    path = ("add", section, name)
                    if name in have:
                        self.error(f"{WHAT[section]} '{name}' already exists ({_at(g.key_span((section, name)))}); "
                                   f"write it under override: to change it", r.key_span(path))
                        continue
                    have[name] = value
                    _graft(g, (section, name), r, path)
                    self.record(layer, "add", section, name, r.key_span(path), value=value)
        for section, items in (r.data.get("override") or {}).items():
            if section in ("players", "flow", "score"):
                for key, value in items.items():
                    self.review(r, f"{section}.{key}", f"{WHAT[section]} '{key}'", g.data[section].get(key),
                                r.key_span(("override", section, key)), seen)
                    g.data[section][key] = value
                    _graft(g, (section, key), r, ("override", section, key))
                    self.record(layer, "override", section, key, r.key_span(("override", section, key)), value=value)
            elif section == "actions":
                for group, lst in items.items():
                    have = (g.data.get("actions") or {}).get(group) or []
                    for k, item in enumerate(lst):
                        path = ("override", "actions", group, k)
                        idx = next((i for i, a in enumerate(have) if a.get("id") == item["id"]), None)
                        if idx is None:
                            self.error(f"no action '{item['id']}' in group '{group}' to override", r.span(path + ("id",)),
                                       suggest(item["id"], [a.get("id") for a in have]) or "to add one, write it under add:")
                            continue
                        self.review(r, f"actions.{group}.{item['id']}", f"action '{item['id']}' of group '{group}'",
                                    have[idx], r.span(path + ("id",)), seen)
                        have[idx] = item
                        _graft(g, ("actions", group, idx), r, path)
                        self.record(layer, "override", "actions", f"{group}.{item['id']}", r.span(path + ("id",)), value=item)
            else:
                have = g.data.get(section) or {}
                for name, value in items.items():
                    path = ("override", section, name)
                    if name not in have:
                        self.error(f"no {WHAT[section]} '{name}' to override", r.key_span(path),
                                   suggest(name, list(have)) or "to add one, write it under add:")
                        continue
                    self.review(r, f"{section}.{name}", f"{WHAT[section]} '{name}'", have[name], r.key_span(path), seen)
                    have[name] = value
                    _graft(g, (section, name), r, path)
                    self.record(layer, "override", section, name, r.key_span(path), value=value)

    def add_actions(self, g: Document, layer: Layer, r: Document, items: dict) -> None:
        groups = g.data.setdefault("actions", {})
        for group, lst in items.items():
            have = groups.setdefault(group, [])
            for k, item in enumerate(lst):
                path = ("add", "actions", group, k)
                clash = next((i for i, a in enumerate(have) if a.get("id") == item["id"]), None)
                if clash is not None:
                    self.error(f"action '{item['id']}' already exists in group '{group}' ({_at(g.span(('actions', group, clash, 'id')))}); "
                               "write it under override: to change it", r.span(path + ("id",)))
                    continue
                have.append(item)
                _graft(g, ("actions", group, len(have) - 1), r, path)
                self.record(layer, "add", "actions", f"{group}.{item['id']}", r.span(path + ("id",)), value=item)

    def add_view(self, g: Document, layer: Layer, r: Document, items: dict) -> None:
        """``add: view:``: lines after the base's (``board``, ``player``, ``count``), fields
        after a kind's ``facts``, new ``prompts`` and ``words``: what a pack's own rules add to the board."""
        if "view" not in g.data:
            g.key_spans[("view",)] = r.key_span(("add", "view"))
        view = g.data.setdefault("view", {})
        for key, value in items.items():
            if key in ("prompts", "words"):
                have = view.setdefault(key, {})
                for text, names in value.items():
                    path = ("add", "view", key, text)
                    if text in have:
                        self.error(f"view: {key}: '{text}' is already there; write it under override: to change it",
                                   r.key_span(path))
                        continue
                    have[text] = names
                    _graft(g, ("view", key, text), r, path)
                    self.record(layer, "add", "view", f"{key}.{text}", r.key_span(path), value=names)
                continue
            if key == "rounds":         # how many rounds: one expression, the base's or the expansion's
                if "rounds" in view:
                    self.error("view: rounds is already there; write it under override: to change it", r.span(("add", "view", "rounds")))
                    continue
                view["rounds"] = value
                _graft(g, ("view", "rounds"), r, ("add", "view", "rounds"))
                continue
            lists = [((key,), value)] if key != "facts" else [(("facts", kind), fs) for kind, fs in value.items()]
            for where, names in lists:
                if key == "facts" and where[1] not in view.get("facts", {}):
                    g.key_spans[("view", *where)] = r.key_span(("add", "view", *where))
                have = view.setdefault(where[0], {}).setdefault(where[1], []) if key == "facts" else view.setdefault(key, [])
                for k, name in enumerate(names):
                    path = ("add", "view", *where, k)
                    if name in have:
                        self.error(f"view: {'.'.join(where)}: '{name}' is already listed", r.span(path))
                        continue
                    g.spans[("view", *where, len(have))] = r.span(path)
                    have.append(name)
                    self.record(layer, "add", "view", f"{'.'.join(where)}.{name}", r.span(path), value=name)

    def add_enums(self, g: Document, layer: Layer, r: Document, items: dict) -> None:
        enums = g.data.setdefault("enums", {})
        for name, values in items.items():
            if name not in enums:
                enums[name] = list(values)
                _graft(g, ("enums", name), r, ("add", "enums", name))
                self.record(layer, "add", "enums", name, r.key_span(("add", "enums", name)), value=values)
                continue
            for k, v in enumerate(values):       # an existing enum gets new values
                path = ("add", "enums", name, k)
                if v in enums[name]:
                    self.error(f"'{v}' is already a value of enum '{name}'", r.span(path))
                    continue
                enums[name].append(v)
                _graft(g, ("enums", name, len(enums[name]) - 1), r, path)
                self.record(layer, "add", "enums", f"{name}.{v}", r.span(path), value=v)

    def add_kinds(self, g: Document, layer: Layer, r: Document, items: dict) -> None:
        kinds = g.data.setdefault("card_kinds", {})
        for name, kd in items.items():
            kpath = ("add", "card_kinds", name)
            if name not in kinds:
                if "starts_in" not in kd:
                    self.error(f"the new card kind '{name}' needs starts_in: (the zone its cards start in)", r.key_span(kpath))
                    continue
                kinds[name] = kd
                _graft(g, ("card_kinds", name), r, kpath)
                self.record(layer, "add", "card_kinds", name, r.key_span(kpath), value=kd)
                continue
            # an existing kind gets new fields, variables and hooks
            for other in kd:
                if other not in ("fields", "variables", "hooks"):
                    self.error(f"card kind '{name}' exists; a pack that extends it may add fields, variables and hooks, "
                               f"not change its {other}", r.key_span(kpath + (other,)))
            for sub in ("fields", "variables"):
                have = kinds[name].setdefault(sub, {}) or {}
                kinds[name][sub] = have
                for fname, fv in (kd.get(sub) or {}).items():
                    path = kpath + (sub, fname)
                    if fname in have:
                        self.error(f"{name} cards already have the {sub[:-1]} '{fname}' ({_at(g.key_span(('card_kinds', name, sub, fname)))})",
                                   r.key_span(path))
                        continue
                    have[fname] = fv
                    _graft(g, ("card_kinds", name, sub, fname), r, path)
                    self.record(layer, "add", "card_kinds", f"{name}.{fname}", r.key_span(path), value=fv)
            hooks = kinds[name].setdefault("hooks", []) or []
            kinds[name]["hooks"] = hooks
            for k, h in enumerate(kd.get("hooks") or ()):
                if h in hooks:
                    self.error(f"{name} cards already have the hook '{h}'", r.span(kpath + ("hooks", k)))
                    continue
                hooks.append(h)
                _graft(g, ("card_kinds", name, "hooks", len(hooks) - 1), r, kpath + ("hooks", k))
                self.record(layer, "add", "card_kinds", f"{name}.{h}", r.span(kpath + ("hooks", k)), value=h)

    # ------------------------------------------------------------ cards
    def patched(self, base: tuple[Document, str, int], pdoc: Document, j: int, entry: dict) -> Document:
        """A one-card document: the card as it stood, with the patch's keys over it."""
        bdoc, key, i = base
        merged = copy.deepcopy(bdoc.data[key][i])
        v = Document(bdoc.file, {"kind": "cards", "card_kind": bdoc.data["card_kind"], "cards": [merged]})
        _graft(v, ("cards", 0), bdoc, (key, i), clear=False)
        _graft(v, ("card_kind",), bdoc, ("card_kind",), clear=False)
        # the citations of the card's file become its own, so that a patch can drop one
        for f, cite in (bdoc.data.get("sources") or {}).items():
            if f not in (merged.get("sources") or {}) and f not in (merged.get("provisional") or {}):
                merged.setdefault("sources", {})[f] = cite
                _graft(v, ("cards", 0, "sources", f), bdoc, ("sources", f))
        for k, val in entry.items():
            if k in ("id", "provisional", "sources"):
                continue
            if k in MERGED_CARD_KEYS and isinstance(val, dict):
                merged[k] = {**(merged.get(k) or {}), **val}
                for h in val:
                    _graft(v, ("cards", 0, k, h), pdoc, ("patch", j, k, h))
                continue
            merged[k] = copy.deepcopy(val)
            _graft(v, ("cards", 0, k), pdoc, ("patch", j, k))
        # a value the patch sets is its own, no longer the guess the patched pack marked provisional
        notes = {f: why for f, why in (merged.get("provisional") or {}).items() if f.split(".")[0] not in entry}
        notes.update(entry.get("provisional") or {})
        merged.pop("provisional", None)
        if notes:
            merged["provisional"] = notes
            for f in entry.get("provisional") or {}:
                _graft(v, ("cards", 0, "provisional", f), pdoc, ("patch", j, "provisional", f))
        # ... nor confirmed by the source the patched pack cited for it
        cites = {f: c for f, c in (merged.get("sources") or {}).items() if f.split(".")[0] not in entry}
        cites.update(entry.get("sources") or {})
        merged.pop("sources", None)
        if cites:
            merged["sources"] = cites
            for f in entry.get("sources") or {}:
                _graft(v, ("cards", 0, "sources", f), pdoc, ("patch", j, "sources", f))
        return v

    def cards(self, game: M.GameDef) -> list[M.CardDef]:
        reader = self.reader
        cards: dict[str, M.CardDef] = {}
        where: dict[str, tuple[Document, str, int]] = {}
        for doc in self.layers[0].cards:
            for i, card in enumerate(reader.cards(doc, game)):
                if card.id in cards:
                    first = cards[card.id].span
                    self.error(f"duplicate card id '{card.id}' (first at {first.file}:{first.line})", card.span)
                    continue
                cards[card.id] = card
                where[card.id] = (doc, "cards", i)
        for layer in self.layers[1:]:
            for doc in layer.cards:
                kind = doc.data["card_kind"]
                for i, card in enumerate(reader.cards(doc, game)):
                    if card.id in cards:
                        self.error(f"card '{card.id}' already exists ({_at(cards[card.id].span)}); "
                                   "to change it, list it under replace: or patch:", card.span)
                        continue
                    cards[card.id] = card
                    where[card.id] = (doc, "cards", i)
                    self.record(layer, "add", "card", card.id, card.span, value=card)
                for i, card in enumerate(reader.cards(doc, game, "replace")):
                    if self.missing(cards, card.id, kind, card.span, "replace"):
                        continue
                    cards[card.id] = card
                    where[card.id] = (doc, "replace", i)
                    self.record(layer, "replace", "card", card.id, card.span, value=card)
                for j, entry in enumerate(doc.data.get("patch") or ()):
                    cid, span = entry["id"], doc.span(("patch", j, "id"))
                    if self.missing(cards, cid, kind, span, "patch"):
                        continue
                    vdoc = self.patched(where[cid], doc, j, entry)
                    made = reader.cards(vdoc, game)
                    if not made:
                        continue
                    cards[cid] = made[0]
                    where[cid] = (vdoc, "cards", 0)
                    keys = tuple(k for k in entry if k not in ("id", "provisional", "sources"))
                    self.record(layer, "patch", "card", cid, span, keys, {k: entry[k] for k in keys})
                for j, cid in enumerate(doc.data.get("remove") or ()):
                    span = doc.span(("remove", j))
                    if self.missing(cards, cid, kind, span, "remove"):
                        continue
                    del cards[cid]
                    del where[cid]
                    self.record(layer, "remove", "card", cid, span)
        return list(cards.values())

    def missing(self, cards: dict, cid: str, kind: str, span: Span, verb: str) -> bool:
        """Whether a replace / patch / remove names no card of its file's kind (then an error)."""
        if cid not in cards:
            gone = next((c for c in reversed(self.changes) if c.op == "remove" and c.name == cid), None)
            if gone is not None:
                self.error(f"conflict: {verb}: card '{cid}' was removed by {gone.pack} ({_at(gone.span)})", span,
                           "load only one of the two packs, or drop this change")
                return True
            extended = ", ".join(x.info.id for x in self.layers[:-1]) or "the extended packs"
            self.error(f"{verb}: there is no card '{cid}' to {verb} (in {extended})", span,
                       suggest(cid, list(cards)) or ("to add a card, list it under cards:" if verb != "remove" else None))
            return True
        if cards[cid].kind != kind:
            self.error(f"{verb}: '{cid}' is a {cards[cid].kind} card, and this file holds {kind} cards", span)
            return True
        return False

    # ------------------------------------------------------------ all of it
    def run(self) -> Optional[M.Pack]:
        base = self.layers[0]
        if base.game is None:
            return None
        g = _copy(base.game)
        for layer in self.layers[1:]:
            for r in layer.rules:
                self.rules(g, layer, r)
        game = self.reader.game(g)
        cards = self.cards(game)
        leaves = [x for x in self.layers if not any(x.info.id in self.ancestors[y.info.id] for y in self.layers)]
        top = self.layers[-1].info
        info = replace(top, id="+".join(x.info.id for x in leaves),
                       name=M.Names(tuple((loc, " + ".join(x.info.name.get(loc) for x in [base, *leaves] if x is not base or base not in leaves))
                                          for loc, _ in top.name.by_locale)))
        files = tuple(f for x in self.layers for f in x.files)
        order = tuple((x.info.id, x.info.version, os.path.normpath(str(x.root))) for x in self.layers)
        howto = tuple(h for x in self.layers if (h := read_howto(x.info, x.howto, self.problems)) is not None)
        return M.Pack(info, game, tuple(cards), files, order, tuple(self.changes), self.references, howto)


def assemble(layers: list[Layer], problems: Problems) -> Optional[M.Pack]:
    """The base game of ``layers`` with every later pack's changes applied, in order."""
    return _Assembly(layers, problems).run()
