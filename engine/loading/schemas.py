"""The JSON Schemas (draft 2020-12) of every YAML kind, and validation with locations."""
from __future__ import annotations

import datetime as _dt
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional

from meeple.core.errors import ContentError, suggest
from meeple.loading.quickcheck import surely_valid
from meeple.loading.yamlsrc import Document

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError

KINDS = ("pack", "game", "rules", "cards", "scenario", "howto")


def schema_dir() -> Path:
    """Where the JSON Schemas are: an installation ships them inside the package
    (``meeple._schemas``); run from the repository, they are its top-level schemas/."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "_schemas"
    return installed if installed.is_dir() else package.parent / "schemas"


@lru_cache(maxsize=None)
def schema(kind: str) -> dict:
    """The schema file as written (what ``meeple schema`` prints): its patterns are
    JSON Schema's, the ECMA-262 dialect."""
    return json.loads((schema_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))


def python_pattern(pattern: str) -> str:
    """An ECMA-262 pattern as Python's ``re`` must read it to mean the same: JSON
    Schema's ``$`` is the end of the text, where Python's also matches before a
    final newline (so ``"keep\\n"`` would pass ``^[a-z_]+$``). ``$`` outside a
    [...] class becomes ``\\Z``."""
    out = []
    i, in_class = 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "$":
            ch = "\\Z"
        out.append(ch)
        i += 1
    return "".join(out)


def _translated(node: Any) -> Any:
    if isinstance(node, list):
        return [_translated(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "pattern" and isinstance(value, str):
            out[key] = python_pattern(value)
        elif key == "patternProperties" and isinstance(value, dict):
            out[key] = {python_pattern(p): _translated(v) for p, v in value.items()}
        else:
            out[key] = _translated(value)
    return out


@lru_cache(maxsize=None)
def _checked(kind: str) -> dict:
    """The schema that validation uses: the file's, with every pattern in Python's words."""
    return _translated(schema(kind))


@lru_cache(maxsize=None)
def _validator(kind: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator
    return Draft202012Validator(_checked(kind))


def validate(doc: Document, kind: str) -> Iterator[ContentError]:
    """Yield one located error per schema violation (all of them, not the first), in file order."""
    if _surely_valid(doc.data, kind):
        return
    out: list[ContentError] = []
    for err in _validator(kind).iter_errors(doc.data):
        out.extend(_explain(doc, err))
    seen: set[tuple] = set()
    for e in sorted(out, key=lambda e: (e.span.line, e.span.col)):
        key = (e.span.line, e.span.col, e.message)
        if key not in seen:
            seen.add(key)
            yield e


def failing_paths(doc: Document, kind: str) -> list[tuple]:
    """Where in ``doc`` the schema is violated: the path of every value (or unknown key)
    that ``validate`` reports, so a loader can leave out just those parts."""
    if _surely_valid(doc.data, kind):
        return []
    out: list[tuple] = []
    for err in _validator(kind).iter_errors(doc.data):
        for e in _branches(err):
            path = tuple(e.absolute_path)
            if "propertyNames" in e.absolute_schema_path:
                out.append(path + (e.instance,))
            elif e.validator == "additionalProperties" and isinstance(e.instance, dict):
                allowed = set(e.schema.get("properties", {}))
                out.extend(path + (key,) for key in e.instance if key not in allowed and
                           not any(re.search(p, str(key)) for p in e.schema.get("patternProperties", {})))
            else:
                out.append(path)
    return out


def _surely_valid(data: Any, kind: str) -> bool:
    """The quick check (meeple.loading.quickcheck) against this kind's schema."""
    return surely_valid(data, _checked(kind))


# ---------------------------------------------------------------- messages
_TYPES = {"integer": "a whole number", "number": "a number", "string": "a text", "boolean": "true/false",
          "object": "a mapping (key: value)", "array": "a list", "null": "nothing"}
_NAME = "^[a-z_][a-z0-9_]*$"
_TYPE_NAME = "^[a-z_][a-z0-9_]*\\??$"
_PATTERNS = {python_pattern(pattern): words for pattern, words in {
    _NAME: "is not a valid name: use lower-case letters, digits and '_', starting with a letter or '_'",
    _TYPE_NAME: "is not a type: write int, bool, player, text, card, an enum or a card kind, with '?' to allow none",
    "^[a-z][a-z0-9-]*$": "is not a valid pack id: use lower-case letters, digits and '-', starting with a letter",
    "^[0-9]+\\.[0-9]+(\\.[0-9]+)?$": "is not a version: write it like \"1.0\" or \"1.0.2\" (quoted)",
    "^[0-9]+$": "is not a player count",
}.items()}


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {_short(value)}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return f"the date {value}"
    return f"a {type(value).__name__} value"


def _short(text: str) -> str:
    text = text.strip().splitlines()[0] if text.strip() else text
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _exact(text: str) -> str:
    """A name as written, every code point shown (a trailing newline too), cut short when long."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _want(types: Any) -> str:
    names = [types] if isinstance(types, str) else list(types)
    words = [_TYPES.get(t, t) for t in names]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _where(doc: Document, path: tuple) -> str:
    """A path as people read it: ``card 'manor': cost``, ``flow.setup``, ``players.min``."""
    data = doc.data
    head = ""
    rest = list(path)
    constant = 1 if path[:1] == ("constants",) else 2 if path[:2] in (("add", "constants"), ("override", "constants")) else 0
    if len(path) >= 2 and path[0] in ("cards", "replace", "patch", "scenarios") and isinstance(path[1], int):
        item = value_at(data, path[:2])
        label = item.get("id", item.get("name")) if isinstance(item, dict) else None
        head = f"{'scenario' if path[0] == 'scenarios' else 'card'} {label!r}" if isinstance(label, str) else ""
        if head:
            rest = rest[2:]
    elif constant and len(path) > constant and isinstance(path[constant], str):
        head, rest = f"constant {path[constant]!r}", rest[constant + 1:]
    elif len(path) >= 3 and path[0] == "actions" and isinstance(path[2], int):
        item = value_at(data, path[:3])
        label = item.get("id") if isinstance(item, dict) else None
        if isinstance(label, str):
            head, rest = f"action {label!r}", rest[3:]
    text = ""
    for part in rest:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    if head and text:
        return f"{head}: {text}"
    return head or text or "top level"


def value_at(data: Any, path: tuple) -> Any:
    """The value at ``path`` in loaded YAML data, or None where the path leads nowhere."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _branches(err: ValidationError) -> list[ValidationError]:
    """Of a failed oneOf/anyOf, the errors of the branch that explains most.

    A branch whose only complaint is the value's type at this very place did
    not fit at all; of the others, the one reaching deepest into the value.
    When no branch fits, the error itself (which shapes are allowed) is best.
    """
    if err.validator not in ("oneOf", "anyOf") or not err.context:
        return [err]
    by_branch: dict[Any, list[ValidationError]] = {}
    for e in err.context:
        by_branch.setdefault(e.relative_schema_path[0] if e.relative_schema_path else None, []).append(e)
    fitting = [errs for errs in by_branch.values()
               if not any(e.validator == "type" and e.absolute_path == err.absolute_path for e in errs)]
    if not fitting:
        return [err]
    best = max(fitting, key=lambda errs: max(len(e.absolute_path) for e in errs))
    return [x for e in best for x in _branches(e)]


def _type_hint(inst: Any, types: list) -> Optional[str]:
    if isinstance(inst, bool) and "string" in types:
        return "YAML reads yes/no/on/off/true/false as true or false: put the text in quotes"
    if isinstance(inst, (_dt.date, _dt.datetime)):
        return "YAML reads this as a date: put it in quotes"
    if isinstance(inst, float) and "integer" in types:
        return "whole numbers only"
    if isinstance(inst, (int, float)) and not isinstance(inst, bool) and types == ["string"]:
        return "put it in quotes"
    return None


def _explain(doc: Document, err: ValidationError) -> list[ContentError]:
    best = _branches(err)
    if best != [err]:
        return [x for e in best for x in _explain(doc, e)]
    path = tuple(err.absolute_path)
    where = _where(doc, path)
    span = doc.span(path)
    v, value, inst = err.validator, err.validator_value, err.instance
    if "propertyNames" in err.absolute_schema_path:
        # The instance is a key of the mapping at ``path``: point at that key.
        span = doc.key_span(path + (inst,))
        if v == "pattern":
            return [ContentError(f"{where}: {_exact(str(inst))} {_PATTERNS.get(value, f'does not match {value}')}", span)]
        return [ContentError(f"{where}: keys must be names (text), found {_describe(inst)}", span)]
    if v == "additionalProperties" and isinstance(inst, dict):
        allowed = set(err.schema.get("properties", {}))
        out = []
        for key in inst:
            if key not in allowed and not any(re.search(p, str(key)) for p in err.schema.get("patternProperties", {})):
                hint = suggest(str(key), allowed) or (f"allowed here: {', '.join(sorted(allowed))}" if allowed else None)
                out.append(ContentError(f"unknown key '{key}'" + (f" in {where}" if path else ""), doc.key_span(path + (key,)), hint))
        return out
    if v in ("oneOf", "anyOf"):
        types = [s.get("type") for s in value if isinstance(s, dict) and "type" in s]
        flat = [t for ts in types for t in ([ts] if isinstance(ts, str) else ts)]
        if flat:
            return [ContentError(f"{where}: expected {_want(flat)}, found {_describe(inst)}", span, _type_hint(inst, flat))]
        return [ContentError(f"{where}: {_describe(inst)} does not fit any allowed form", span)]
    if v == "type":
        types = [value] if isinstance(value, str) else list(value)
        return [ContentError(f"{where}: expected {_want(types)}, found {_describe(inst)}", span, _type_hint(inst, types))]
    if v == "required":
        missing = [p for p in value if isinstance(inst, dict) and p not in inst]
        name = next((p for p in missing if err.message.startswith(repr(p))), missing[0] if missing else "?")
        at = doc.key_span(path) if path else span
        return [ContentError(f"{where}: missing required key '{name}'", at)]
    if v == "enum":
        choices = [str(c) for c in value]
        return [ContentError(f"{where}: {_describe(inst)} is not one of: {', '.join(choices)}", span,
                             suggest(str(inst), choices))]
    if v == "const":
        return [ContentError(f"{where}: must be {value!r}, found {_describe(inst)}", span)]
    if v == "pattern":
        return [ContentError(f"{where}: {_exact(str(inst))} {_PATTERNS.get(value, f'does not match {value}')}", span)]
    if v in ("minimum", "exclusiveMinimum"):
        return [ContentError(f"{where}: must be at least {value + (v == 'exclusiveMinimum')}, found {inst}", span)]
    if v in ("maximum", "exclusiveMaximum"):
        return [ContentError(f"{where}: must be at most {value - (v == 'exclusiveMaximum')}, found {inst}", span)]
    if v == "minItems":
        return [ContentError(f"{where}: " + ("must not be empty" if value == 1 else f"needs at least {value} items"), span)]
    if v == "uniqueItems":
        seen: list = []
        dup = next((x for x in inst if x in seen or seen.append(x)), None)
        return [ContentError(f"{where}: {_describe(dup)} is listed twice", span)]
    if v == "minLength":
        return [ContentError(f"{where}: must be at least {value} chars long", span)]
    return [ContentError(f"{where}: {err.message}", span)]


# ---------------------------------------------------------------- a pack's own schemas
# ``meeple schema --pack GAME cards``: the generic schema of a kind, narrowed by what one
# pack declares, for an editor to autocomplete and underline a designer's files. Cards: per
# card kind (``card_kind:`` picks it with if/then), the kind's fields with their types, enum
# values, bounds and defaults, its hooks; rules: the names an ``override:`` may replace;
# scenarios: the player counts and options. Validation never uses these (``meeple validate``
# checks the same and more, with its own messages); tests/test_pack_schema.py checks that
# every shipped file fits its pack's schema and that both refuse the same broken cards.

PACK_KINDS = ("cards", "rules", "scenario")      # the kinds a pack's declarations narrow


def _field_words(f: Any, enums: dict) -> str:
    t = f.type.name
    if t == "int":
        if f.minimum is not None and f.maximum is not None:
            words = f"a whole number from {f.minimum} to {f.maximum}"
        elif f.minimum is not None:
            words = f"a whole number, at least {f.minimum}"
        elif f.maximum is not None:
            words = f"a whole number, at most {f.maximum}"
        else:
            words = "a whole number"
    elif t == "bool":
        words = "true or false"
    elif t == "text":
        words = "a text"
    elif t in enums:
        words = f"{t}: one of {', '.join(map(str, enums[t]))}"
    elif t == "player":
        words = "none (a game starts without it)"
    else:
        words = f"the id of a {t}"
    if f.type.nullable and t != "player":
        words += ", or none"
    if isinstance(f.default, str) and f.default.startswith("="):
        return f"{words}; optional, as its {f.default[1:]} when left out"
    if f.default is not None:
        return f"{words}; optional, {json.dumps(f.default)} when left out"
    return words + ("; optional, none when left out" if f.type.nullable else "; required")


def _field_schema(f: Any, enums: dict) -> dict:
    """A declared card field as JSON Schema: the values ``meeple validate`` accepts for it."""
    t, nullable = f.type.name, f.type.nullable
    if t == "int":
        out: dict = {"type": ["integer", "null"] if nullable else "integer"}
        if f.minimum is not None:
            out["minimum"] = f.minimum
        if f.maximum is not None:
            out["maximum"] = f.maximum
    elif t == "bool":
        out = {"type": ["boolean", "null"] if nullable else "boolean"}
    elif t == "text":
        out = {"type": ["string", "null"] if nullable else "string"}
    elif t in enums:
        out = {"enum": list(enums[t]) + ([None] if nullable else [])}
    elif t == "player":
        out = {"type": "null"}
    else:       # a card kind or 'card': any card id (a pack extending this one adds its own)
        out = {"type": ["string", "null"] if nullable else "string", "pattern": _NAME}
    out["description"] = _field_words(f, enums)
    if f.default is not None and not (isinstance(f.default, str) and f.default.startswith("=")):
        out["default"] = f.default
    return out


def _card_item(generic: dict, kind: Any, enums: dict, patch: bool) -> dict:
    item = json.loads(json.dumps(generic))
    props = item["properties"]
    props["hooks"] = dict(props["hooks"], propertyNames={"enum": list(kind.hooks)},
                          description=f"effects for the hooks of a {kind.name}: {', '.join(kind.hooks) or 'none'}")
    for f in kind.fields:
        props[f.name] = _field_schema(f, enums)
    item["additionalProperties"] = False
    if patch:
        item["required"] = ["id"]
    else:
        item["required"] = ["id", "name"] + [f.name for f in kind.fields if f.default is None and not f.type.nullable]
    item["description"] = (f"a change to a {kind.name}: its id and the keys that change" if patch
                           else f"a {kind.name} card")
    return item


def _pack_cards(pack: Any) -> dict:
    enums = dict(pack.game.enums)
    out = json.loads(json.dumps(schema("cards")))
    props = out["properties"]
    card_item, patch_item = props["cards"]["items"], props["patch"]["items"]
    kinds = pack.game.card_kinds
    props["card_kind"] = {"enum": [k.name for k in kinds], "description": "the card kind every card of this file is"}
    for key in ("cards", "replace", "patch"):
        props[key] = {k: v for k, v in props[key].items() if k != "items"}
        props[key].setdefault("description", "the cards of this file")
    out["$defs"] = {}
    rules = []
    for k in kinds:
        out["$defs"][k.name] = _card_item(card_item, k, enums, patch=False)
        out["$defs"][f"{k.name}.patch"] = _card_item(patch_item, k, enums, patch=True)
        ref, pref = {"$ref": f"#/$defs/{k.name}"}, {"$ref": f"#/$defs/{k.name}.patch"}
        rules.append({"if": {"properties": {"card_kind": {"const": k.name}}, "required": ["card_kind"]},
                      "then": {"properties": {"cards": {"items": ref}, "replace": {"items": ref}, "patch": {"items": pref}}}})
    out["allOf"] = rules
    return out


def _names_of(pack: Any, section: str) -> list[str]:
    g = pack.game
    if section == "constants":
        return [c.name for c in g.constants]
    if section == "provisional":
        return [what for what, _, _ in g.provisional]
    return [x.name for x in getattr(g, section)]


def _pack_rules(pack: Any) -> dict:
    out = json.loads(json.dumps(schema("rules")))
    over = out["properties"]["override"]["properties"]
    for section in ("constants", "resources", "variables", "player_variables", "zones", "procedures", "functions",
                    "options", "provisional"):
        if section in over:
            over[section]["propertyNames"] = {"enum": _names_of(pack, section),
                                              "description": f"the {section.replace('_', ' ')} of {pack.info.id} this file replaces"}
    return out


def _pack_scenario(pack: Any) -> dict:
    out = json.loads(json.dumps(schema("scenario")))
    props = out["properties"]
    g = pack.game
    props["players"] = dict(props["players"], minimum=g.min_players, maximum=g.max_players)
    opts = {}
    for o in g.options:
        kind = "boolean" if isinstance(o.default, bool) else "integer"
        opts[o.name] = {"type": kind, "default": o.default, "description": o.description}
    props["options"] = dict(props["options"], properties=opts, additionalProperties=False)
    return out


def pack_schema(pack: Any, kind: str) -> dict:
    """The schema of ``kind`` for files of this pack (a ``model.Pack``, its extended packs
    included): narrowed by its declarations for PACK_KINDS, else the generic one."""
    make = {"cards": _pack_cards, "rules": _pack_rules, "scenario": _pack_scenario}.get(kind)
    if make is None:
        return schema(kind)
    out = make(pack)
    out["$id"] = f"https://meeple.dev/schemas/packs/{pack.info.id}/{kind}.schema.json"
    out["title"] = f"{schema(kind).get('title', kind)} of {pack.info.id} {pack.info.version} (generated from its declarations)"
    return out
