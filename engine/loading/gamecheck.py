"""What the schema cannot say about a game file: types exist, defaults fit them, names
are unique, numbers are consistent. Each error points at the YAML that has to change.

The checks are named steps (``GAME_CHECKS``), run in order by ``Reader.check_game``,
which then sorts their errors by place. An error in what the rules are compiled against
(a type, a name, a zone's kind) goes through ``error_breaking``: compiling the rules
would only echo it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

from meeple.core.errors import Span, suggest
from meeple.loading.yamlsrc import Document

if TYPE_CHECKING:
    from meeple.loading.reader import Reader

BUILTIN_TYPES = ("int", "bool", "player", "text", "card")


def yaml_words(value: Any) -> str:
    """A value as YAML writes it (null, true), for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def player_count(key: Any) -> Optional[int]:
    """A player count written as a YAML key (2 or "2"), or None."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and key.isdigit():
        return int(key)
    return None


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _value_problem(value: Any, type_name: str, nullable: bool, enums: dict) -> Optional[str]:
    """Why a literal from YAML is not a value of the declared type, or None if it is."""
    if value is None:
        return None if nullable else f"is empty, but the type '{type_name}' is not optional (write '{type_name}?')"
    if type_name == "int":
        ok, want = isinstance(value, int) and not isinstance(value, bool), "a whole number"
    elif type_name == "bool":
        ok, want = isinstance(value, bool), "true or false"
    elif type_name == "text":
        ok, want = isinstance(value, str), "a text"
    elif type_name in enums:
        ok, want = isinstance(value, str) and value in enums[type_name], f"one of {', '.join(map(str, enums[type_name]))}"
    else:   # players and cards exist only in a running game
        ok, want = False, "none (a game starts without it)"
    return None if ok else f"must be {want}, not {value!r}"


def _value_hint(value: Any, type_name: str, enums: dict) -> Optional[str]:
    if type_name in enums:
        return suggest(str(value), [str(v) for v in enums[type_name]])
    return None


# ---------------------------------------------------------------- the steps
def _players(r: Reader, doc: Document) -> None:
    """players: min not above max."""
    lo, hi = doc.data["players"]["min"], doc.data["players"]["max"]
    if lo > hi:
        r.error(f"players: min ({lo}) is more than max ({hi})", doc.span(("players", "min")))


def _declared_types(r: Reader, doc: Document) -> None:
    """Every declared type (of a variable, a card field or variable, a parameter) exists,
    and its default fits it; a card field's name is not a card's own key, nor also a
    variable's, and its bounds are consistent."""
    d = doc.data
    kinds = d.get("card_kinds") or {}
    for section, what in (("variables", "variable"), ("player_variables", "player variable")):
        for k, v in (d.get(section) or {}).items():
            _typed(r, doc, (section, k), v, f"{what} '{k}'")
    for kname, kd in kinds.items():
        for fname, fv in (kd.get("fields") or {}).items():
            if fname in r.RESERVED_CARD_KEYS:
                r.error(f"card kind '{kname}': '{fname}' cannot be a field name; cards use it for their {fname}",
                        doc.key_span(("card_kinds", kname, "fields", fname)))
            _typed(r, doc, ("card_kinds", kname, "fields", fname), fv, f"field '{kname}.{fname}'")
            if isinstance(fv, dict):
                _bounds(r, doc, ("card_kinds", kname, "fields", fname), fv, f"field '{kname}.{fname}'")
        for vname, vv in (kd.get("variables") or {}).items():
            if vname in (kd.get("fields") or {}):
                r.error_breaking(f"card kind '{kname}': '{vname}' is both a field and a variable",
                                 doc.key_span(("card_kinds", kname, "variables", vname)))
            _typed(r, doc, ("card_kinds", kname, "variables", vname), vv, f"variable '{kname}.{vname}'")
    for section, what in (("events", "event"), ("procedures", "procedure"), ("functions", "function")):
        for name, body in (d.get(section) or {}).items():
            for pname, pt in ((body or {}).get("params") or {}).items():
                _typed(r, doc, (section, name, "params", pname), pt, f"{what} '{name}': parameter '{pname}'", defaults=False)


def _typed(r: Reader, doc: Document, path: tuple, value: Any, what: str, defaults: bool = True) -> None:
    """Check a declared type (``int``, ``colour?`` or ``{type: ..., default: ...}``) and its default."""
    enums = doc.data.get("enums") or {}
    kinds = doc.data.get("card_kinds") or {}
    known_types = [*BUILTIN_TYPES, *enums, *kinds]
    tpath = path + ("type",) if isinstance(value, dict) else path
    text = str(value.get("type") if isinstance(value, dict) else value)
    name, nullable = text.rstrip("?"), text.endswith("?")
    if name not in known_types:
        r.error_breaking(f"{what}: unknown type '{name}'", doc.span(tpath),
                         suggest(name, known_types) or f"types are {', '.join(known_types)}")
        return
    if not (defaults and isinstance(value, dict) and "default" in value):
        return
    default = value["default"]
    dspan = doc.span(path + ("default",))
    if isinstance(default, str) and default.startswith("=") and path[0] == "card_kinds":
        other = default[1:]
        fields = kinds[path[1]].get("fields") or {}
        if other not in fields or other == path[-1]:
            r.error(f"{what}: default '{default}' copies a field, but {path[1]} has no other field '{other}'", dspan,
                    suggest(other, [f for f in fields if f != path[-1]]))
        return
    problem = _value_problem(default, name, nullable, enums)
    if problem:
        r.error(f"{what}: the default {problem}", dspan, _value_hint(default, name, enums))


def _bounds(r: Reader, doc: Document, path: tuple, fv: dict, what: str) -> None:
    """A field's ``min:`` and ``max:``: on an int field only, min not above max, the default between them."""
    lo, hi = fv.get("min"), fv.get("max")
    if lo is None and hi is None:
        return
    if str(fv.get("type", "")).rstrip("?") != "int":
        key = "min" if lo is not None else "max"
        r.error_breaking(f"{what}: min and max bound int fields only, not {fv.get('type')!r}", doc.key_span(path + (key,)))
        return
    if lo is not None and hi is not None and lo > hi:
        r.error_breaking(f"{what}: min ({lo}) is more than max ({hi})", doc.span(path + ("min",)))
        return
    default = fv.get("default")
    if isinstance(default, int) and not isinstance(default, bool):
        if lo is not None and default < lo:
            r.error_breaking(f"{what}: the default must be at least {lo}, not {default}", doc.span(path + ("default",)))
        elif hi is not None and default > hi:
            r.error_breaking(f"{what}: the default must be at most {hi}, not {default}", doc.span(path + ("default",)))


def _resources(r: Reader, doc: Document) -> None:
    """A resource's start lies between its min and max; the score is a resource."""
    resources = doc.data.get("resources") or {}
    for name, rd in resources.items():
        rmin, rmax, start = rd.get("min"), rd.get("max"), rd.get("start", 0)
        at = doc.span(("resources", name, "start" if "start" in rd else "min"))
        if rmin is not None and rmax is not None and rmin > rmax:
            r.error(f"resource '{name}': min ({rmin}) is more than max ({rmax})", doc.span(("resources", name, "min")))
        elif rmin is not None and start < rmin:
            r.error(f"resource '{name}': start ({start}) is below min ({rmin})", at)
        elif rmax is not None and start > rmax:
            r.error(f"resource '{name}': start ({start}) is above max ({rmax})", at)
    score = doc.data["score"]["resource"]
    if score not in resources:
        r.error(f"score: unknown resource '{score}'", doc.span(("score", "resource")),
                suggest(score, list(resources)) or (f"resources: {', '.join(resources)}" if resources else "declare it under resources:"))


def _constants(r: Reader, doc: Document) -> None:
    """A constant by player count is keyed by player counts, and (when the game's counts
    are consistent) has a value for each of them."""
    constants = doc.data.get("constants") or {}
    lo, hi = doc.data["players"]["min"], doc.data["players"]["max"]
    for cname, value in constants.items():
        if isinstance(value, dict):
            for k in value["by_players"]:
                if player_count(k) is None:
                    r.error(f"constant '{cname}': {yaml_words(k)} is not a player count",
                            doc.key_span(("constants", cname, "by_players", k)), "write whole numbers, like 2: or 3:")
    if lo <= hi:
        for cname, value in constants.items():
            if isinstance(value, dict):
                table = {player_count(k) for k in value["by_players"]}
                missing = [n for n in range(lo, hi + 1) if n not in table]
                if missing:
                    r.error(f"constant '{cname}' has no value for {', '.join(map(str, missing))} player(s)",
                            doc.key_span(("constants", cname, "by_players")), f"the game is for {lo} to {hi} players")


def _one_namespace(r: Reader, doc: Document) -> None:
    """One namespace for the names rules read: the first declaration wins, the next is an error."""
    d = doc.data
    enums = d.get("enums") or {}
    seen: dict[str, tuple[str, Span]] = {n: ("built-in name", Span("", 0, 0)) for n in ("players", "round", "player_count")}
    owner: dict[str, str] = {}
    for enum, values in enums.items():
        for i, v in enumerate(values):
            if v in owner and owner[v] != enum:
                r.error_breaking(f"'{v}' is a value of both enums '{owner[v]}' and '{enum}'", doc.span(("enums", enum, i)))
            owner.setdefault(v, enum)
    groups = [("option", [(k, doc.key_span(("options", k))) for k in d.get("options") or {}]),
              ("constant", [(k, doc.key_span(("constants", k))) for k in d.get("constants") or {}]),
              ("variable", [(k, doc.key_span(("variables", k))) for k in d.get("variables") or {}]),
              ("player variable", [(k, doc.key_span(("player_variables", k))) for k in d.get("player_variables") or {}]),
              ("resource", [(k, doc.key_span(("resources", k))) for k in d.get("resources") or {}]),
              ("zone", [(k, doc.key_span(("zones", k))) for k in d.get("zones") or {}]),
              ("enum value", [(v, doc.span(("enums", e, i))) for e, vs in enums.items() for i, v in enumerate(vs) if owner.get(v) == e]),
              ("enum", [(k, doc.key_span(("enums", k))) for k in enums]),
              ("card kind", [(k, doc.key_span(("card_kinds", k))) for k in d.get("card_kinds") or {}])]
    for what, names in groups:
        for name, span in names:
            if name in seen:
                first_what, first = seen[name]
                at = f" (line {first.line})" if first.line and first.file == span.file else ""
                r.error_breaking(f"'{name}' is both {_a(first_what)}{at} and {_a(what)}; names must be unique", span)
                continue
            seen[name] = (what, span)


def _type_names(r: Reader, doc: Document) -> None:
    """An enum or a card kind is not named as a built-in type."""
    for section, what in (("enums", "an enum"), ("card_kinds", "a card kind")):
        for name in doc.data.get(section) or {}:
            if name in BUILTIN_TYPES:
                r.error_breaking(f"'{name}' is a built-in type, so it cannot name {what}", doc.key_span((section, name)))


def _zones(r: Reader, doc: Document) -> None:
    """A zone holds (or belongs to) a declared card kind; a card kind starts in a declared zone."""
    kinds = doc.data.get("card_kinds") or {}
    zones = doc.data.get("zones") or {}
    for z, zd in zones.items():
        for key, what in (("holds", "holds"), ("of", "belongs to")):
            if key in zd and zd[key] not in kinds:
                r.error_breaking(f"zone '{z}' {what} unknown card kind '{zd[key]}'", doc.span(("zones", z, key)),
                                 suggest(zd[key], list(kinds)) or f"card kinds: {', '.join(kinds)}")
    for kname, kd in kinds.items():
        if kd["starts_in"] not in zones:
            r.error_breaking(f"card kind '{kname}' starts in unknown zone '{kd['starts_in']}'", doc.span(("card_kinds", kname, "starts_in")),
                             suggest(kd["starts_in"], list(zones)) or f"zones: {', '.join(zones)}")


def _actions(r: Reader, doc: Document) -> None:
    """An action's id appears once in its group."""
    for group, items in (doc.data.get("actions") or {}).items():
        ids: dict[str, int] = {}
        for i, a in enumerate(items):
            if a["id"] in ids:
                r.error(f"action '{a['id']}' appears twice in group '{group}' (first at line "
                        f"{doc.span(('actions', group, ids[a['id']], 'id')).line})", doc.span(("actions", group, i, "id")))
            ids.setdefault(a["id"], i)


GAME_CHECKS: tuple[Callable[[Reader, Document], None], ...] = (
    _players, _declared_types, _resources, _constants, _one_namespace, _type_names, _zones, _actions,
)
