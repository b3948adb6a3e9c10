"""The quick check of a file against its schema, before jsonschema.

Most files are valid, and jsonschema (its import and its walk) costs more than reading
them. This check gives jsonschema's own verdict for the keywords our schemas use; on
anything else (another keyword, a remote $ref, a value that is no JSON value, an enum of
other than texts; a number as a key where jsonschema would search it with a pattern) it
gives up, and a file it does not find valid goes to jsonschema, whose errors are the
only ones ever reported. tests/test_schema_quick_check.py checks it against jsonschema
on every shipped file and on thousands of broken ones.
"""
from __future__ import annotations

import re
from typing import Any, Callable


class _Unsure(Exception):
    pass


_ANNOTATIONS = frozenset(("description", "title", "$schema", "$id", "$defs", "$comment", "default", "examples",
                          "markdownDescription", "deprecated", "readOnly", "writeOnly"))
_JSON_SCALARS = (str, int, float, bool, type(None))


def surely_valid(data: Any, root: dict) -> bool:
    """Whether ``data`` is valid against the schema ``root`` (and its $defs), as
    jsonschema would find it; False where this check cannot tell."""
    try:
        return _ok(data, root, root)
    except (_Unsure, RecursionError, re.error, TypeError):
        return False


def _is_type(inst: Any, t: str) -> bool:
    if t == "string":
        return isinstance(inst, str)
    if t == "object":
        return isinstance(inst, dict)
    if t == "array":
        return isinstance(inst, list)
    if t == "boolean":
        return isinstance(inst, bool)
    if t == "null":
        return inst is None
    if t == "integer":
        return not isinstance(inst, bool) and (isinstance(inst, int) or isinstance(inst, float) and inst.is_integer())
    if t == "number":
        return not isinstance(inst, bool) and isinstance(inst, (int, float))
    raise _Unsure(t)


def _ok(inst: Any, sch: Any, root: dict) -> bool:
    """Whether jsonschema finds ``inst`` valid against ``sch``; _Unsure where this cannot tell.

    Each keyword is checked by its entry in ``_KEYWORDS``; a keyword not there is one
    this check does not know, so it cannot tell."""
    if sch is True:
        return True
    if sch is False:
        return False
    if not isinstance(sch, dict):
        raise _Unsure(sch)
    if not isinstance(inst, (dict, list) + _JSON_SCALARS):
        raise _Unsure(inst)           # a date, say: jsonschema words it
    for key, value in sch.items():
        if key in _ANNOTATIONS:
            continue
        check = _KEYWORDS.get(key)
        if check is None:
            raise _Unsure(key)
        if not check(inst, value, sch, root):
            return False
    return True


# Each keyword's check: (the instance, the keyword's value, the whole schema, the root
# schema) -> whether the instance passes it. As in jsonschema, a keyword about one kind of
# value (a mapping's properties, a text's pattern) passes any other kind.
_Check = Callable[[Any, Any, dict, dict], bool]


def _type(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    if isinstance(value, str):
        return _is_type(inst, value)
    return any(_is_type(inst, t) for t in value)


def _properties(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    return not isinstance(inst, dict) or all(_ok(inst[name], sub, root) for name, sub in value.items() if name in inst)


def _pattern_properties(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    if not isinstance(inst, dict):
        return True
    for pattern, sub in value.items():
        for name, item in inst.items():
            if re.search(pattern, name) and not _ok(item, sub, root):   # as jsonschema: TypeError on a number
                return False
    return True


def _additional_properties(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    if not isinstance(inst, dict):
        return True
    known = sch.get("properties", {})
    patterns = "|".join(sch.get("patternProperties", {}))
    for name, item in inst.items():
        if name in known or patterns and re.search(patterns, name):
            continue
        if not _ok(item, value, root):
            return False
    return True


def _property_names(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    return not isinstance(inst, dict) or all(_ok(name, value, root) for name in inst)


def _required(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    return not isinstance(inst, dict) or all(name in inst for name in value)


def _items(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    if not isinstance(inst, list):
        return True
    if "prefixItems" in sch or not isinstance(value, (dict, bool)):
        raise _Unsure("items")
    return all(_ok(item, value, root) for item in inst)


def _one_of(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    return sum(1 for sub in value if _ok(inst, sub, root)) == 1


def _any_of(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    return any(_ok(inst, sub, root) for sub in value)


def _pattern(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    return not isinstance(inst, str) or bool(re.search(value, inst))


def _minimum(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    return not _is_type(inst, "number") or not inst < value


def _maximum(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    return not _is_type(inst, "number") or not inst > value


def _min_size(kind: type) -> _Check:
    """minLength, minItems, minProperties: a text's, a list's, a mapping's size."""
    def check(inst: Any, value: Any, sch: dict, root: dict) -> bool:
        return not isinstance(inst, kind) or len(inst) >= value
    return check


def _choices(inst: Any, choices: list) -> bool:
    """enum and const: this check knows them for texts only."""
    if not isinstance(inst, str) or not all(isinstance(c, str) for c in choices):
        raise _Unsure("enum")
    return inst in choices


def _unique_items(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    if not (value and isinstance(inst, list)):
        return True
    if not all(isinstance(x, str) for x in inst):
        raise _Unsure("uniqueItems")
    return len(set(inst)) == len(inst)


def _ref(inst: Any, value: Any, sch: dict, root: dict) -> bool:
    """A reference into the root's $defs; any other (remote, nested, escaped) is unsure."""
    if not isinstance(value, str) or not value.startswith("#/$defs/") or "/" in value[len("#/$defs/"):] \
            or "~" in value or "%" in value:
        raise _Unsure(value)
    target = root.get("$defs", {}).get(value[len("#/$defs/"):])
    if target is None:
        raise _Unsure(value)
    return _ok(inst, target, root)


_KEYWORDS: dict[str, _Check] = {
    "type": _type,
    "properties": _properties,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "propertyNames": _property_names,
    "required": _required,
    "items": _items,
    "oneOf": _one_of,
    "anyOf": _any_of,
    "pattern": _pattern,
    "minimum": _minimum,
    "maximum": _maximum,
    "minLength": _min_size(str),
    "minItems": _min_size(list),
    "minProperties": _min_size(dict),
    "enum": lambda inst, value, sch, root: _choices(inst, value),
    "const": lambda inst, value, sch, root: _choices(inst, [value]),
    "uniqueItems": _unique_items,
    "$ref": _ref,
}
