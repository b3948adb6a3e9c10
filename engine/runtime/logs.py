"""Reading game logs safely: a log is checked for its shape before anything uses it.

A log is JSON written by ``meeple play --log`` (``session.make_log``) and read
by ``meeple replay``. Whatever the file holds (a list, NaN, 100,000 nested
brackets, a 5,000-digit number, a choice that is a text), reading it gives
either a dict of the shape ``schemas/log.schema.json`` describes or a
``LogInvalid`` carrying every problem found, each naming the field as a JSON
pointer (``/choices/3/1``) and what is wrong with it.

The schema is the one statement of the shape; jsonschema gives the verdict
and the words. It walks about 25,000 choices a second, so the choices, the
bulk of a log, first go through a quick check of the same bounds (read from
the schema), and only the ones it doubts are walked and handed to
jsonschema (tests/test_cli_faults.py checks the quick check against
jsonschema on every tampered log of its corpus).
"""
from __future__ import annotations

import hashlib
import json
import re
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from meeple.core.errors import ContentError, Span, suggest
from meeple.core.outputs import open_regular
from meeple.loading.schemas import schema

LOG_FORMAT = 1
MAX_LOG_BYTES = 16 * 1024 * 1024     # 16 MiB: some 350,000 choices; a long game is a few thousand
MAX_DEPTH = 8                        # a log is 3 deep ({"choices": [[...]]})
MAX_DIGITS = 20                      # a 64-bit number has at most 20 digits
MAX_REPORTED = 20                    # problems listed at most (then "and N more")


class LogInvalid(ContentError):
    """A game log that is not a well-formed meeple log; ``errors`` holds every problem."""

    def __init__(self, errors: list[ContentError]):
        super().__init__(errors[0].message if errors else "invalid log", errors[0].span if errors else None)
        self.errors = errors


class _Refused(ValueError):
    """Something the JSON reader refuses outright (NaN, a huge number, a duplicate key)."""


def state_sha256(st: Any) -> str:
    """sha256 of a state's canonical JSON (sorted keys, no spaces): the whole end of a game."""
    text = json.dumps(st.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- reading
def read_log(path: str | Path) -> dict:
    """The log in ``path``, checked; LogInvalid (every problem, located) if it is not one.

    OSError (a missing or unreadable file) is left to the caller: it is not the log's fault.
    """
    file = str(path)
    with open_regular(path) as f:          # a pipe or a device is refused (NotRegular), not waited on
        data = f.read(MAX_LOG_BYTES + 1)
    if len(data) > MAX_LOG_BYTES:
        raise LogInvalid([ContentError(f"invalid log: the file is larger than the limit of {_bytes(MAX_LOG_BYTES)} for a log",
                                       Span(file, 0, 0))])
    return parse_log(data, file)


def _bytes(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n} bytes"


def parse_log(data: bytes | str, file: str = "<log>") -> dict:
    """A log from its bytes or text, checked (see ``read_log``)."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise LogInvalid([ContentError(f"invalid log: not UTF-8 text (byte {err.start} is {data[err.start]:#04x})",
                                           Span(file, 0, 0))]) from None
    else:
        text = data
    try:
        log = json.loads(text, parse_constant=_constant, parse_int=_integer, parse_float=Decimal,
                         object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as err:
        raise LogInvalid([ContentError(f"invalid log: not JSON: {err.msg}", Span(file, err.lineno, err.colno))]) from None
    except _Refused as err:
        raise LogInvalid([ContentError(f"invalid log: {err}", _find(text, file, err))]) from None
    except RecursionError:
        raise LogInvalid([ContentError("invalid log: brackets nested too deeply (a log is 3 deep)", Span(file, 0, 0))]) from None
    check_log(log, file)
    return log


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number a log may hold (no NaN or Infinity)")


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number of {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(digits)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"the key {_short(key)} appears twice in one object")
        out[key] = value
    return out


def _find(text: str, file: str, err: _Refused) -> Span:
    """Where in the text a refused value stands, found again by its spelling (best effort)."""
    msg = str(err)
    if msg.startswith("a number of"):
        m = re.search(r"-?\d{%d,}" % (MAX_DIGITS + 1), text)
    elif "NaN" in msg or "Infinity" in msg:
        m = re.search(r"(?<![\w\"])-?(?:NaN|Infinity)(?![\w\"])", text)
    else:
        m = None
    if m is None:
        return Span(file, 0, 0)
    line = text.count("\n", 0, m.start()) + 1
    col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    return Span(file, line, col, m.end() - m.start())


# ---------------------------------------------------------------- the shape
def check_log(log: Any, file: str = "<log>") -> None:
    """Raise LogInvalid with every way ``log`` departs from the log schema."""
    # The choices the quick check passes are lists of three numbers and a text: nothing to
    # walk there. The rest (the top level, the doubtful choices) is looked at in full.
    seen, numbers = log, None
    if isinstance(log, dict) and isinstance(log.get("choices"), list):
        numbers = doubtful_choices(log["choices"])
        seen = dict(log, choices=[log["choices"][i] for i in numbers])
    errors = _too_deep(seen, file, numbers) or _schema_errors(seen, file, numbers)
    if errors:
        if len(errors) > MAX_REPORTED:
            errors = errors[:MAX_REPORTED] + [ContentError(f"invalid log: and more problems ({MAX_REPORTED} shown)", Span(file, 0, 0))]
        raise LogInvalid(errors)


def _renumbered(path: list, numbers: Optional[list[int]]) -> list:
    """A path into the reduced log as a path into the log itself."""
    if numbers is not None and len(path) >= 2 and path[0] == "choices" and isinstance(path[1], int):
        return [path[0], numbers[path[1]]] + path[2:]
    return path


def _too_deep(log: Any, file: str, numbers: Optional[list[int]]) -> list[ContentError]:
    """A walk without recursion: a value nested deeper than any log goes, by its pointer."""
    stack: list[tuple[Any, int, tuple]] = [(log, 0, ())] if isinstance(log, (dict, list)) else []
    while stack:
        value, depth, path = stack.pop()
        if depth >= MAX_DEPTH:
            keys = []
            while path:
                path, key = path
                keys.append(key)
            where = "".join(f"/{_escape(k)}" for k in _renumbered(keys[::-1], numbers))
            return [ContentError(f"invalid log: {_label(where)}: nested more than {MAX_DEPTH} deep "
                                 "(a log is 3 deep)", Span(file, 0, 0))]
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            if isinstance(item, (dict, list)):
                stack.append((item, depth + 1, (path, key)))
    return []


@lru_cache(maxsize=None)
def _validator():
    from jsonschema import Draft202012Validator
    return Draft202012Validator(schema("log"))


@lru_cache(maxsize=None)
def _choice_bounds() -> tuple:
    """(min, max) of the player and the index, and the key's longest length, from the schema."""
    player, index, key = schema("log")["properties"]["choices"]["items"]["prefixItems"]
    return player["minimum"], player["maximum"], index["minimum"], index["maximum"], key["maxLength"]


def doubtful_choices(choices: list) -> list[int]:
    """Indices of the choices the quick check cannot pass (jsonschema then decides)."""
    pmin, pmax, imin, imax, klen = _choice_bounds()
    bad = []
    for n, c in enumerate(choices):
        if (type(c) is not list or len(c) != 3 or type(c[0]) is not int or not pmin <= c[0] <= pmax
                or type(c[1]) is not int or not imin <= c[1] <= imax or type(c[2]) is not str or len(c[2]) > klen):
            bad.append(n)
            if len(bad) > MAX_REPORTED:
                break
    return bad


def _schema_errors(log: Any, file: str, numbers: Optional[list[int]]) -> list[ContentError]:
    found: list[tuple[list, str]] = []      # (the path in the log, the message)
    for err in _validator().iter_errors(log):
        path = _renumbered(list(err.absolute_path), numbers)
        found.extend((path, msg) for msg in _explain(err, path))
    found.sort(key=lambda pe: [str(p).zfill(12) if isinstance(p, int) else str(p) for p in pe[0]])
    return [ContentError(f"invalid log: {msg}", Span(file, 0, 0)) for _, msg in found]


# ---------------------------------------------------------------- messages
_WORDS = {"integer": "a whole number", "string": "a text", "object": "an object ({...})", "array": "a list ([...])",
          "boolean": "true or false", "number": "a number", "null": "null"}
_FIELDS = ("meeple_log", "pack", "pack_id", "pack_version", "players", "seed", "options", "choices", "rounds", "scores",
           "ranking", "state_sha256")


def _explain(err: Any, path: list) -> list[str]:
    """The problem in words, after its pointer: one line per unexpected key, else one."""
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = err.schema.get("properties", {})
        out = []
        for key in (k for k in err.instance if k not in known):
            where = _label("".join(f"/{_escape(p)}" for p in path + [key]))
            hint = suggest(key, _FIELDS) if not path else None
            out.append(f"{where}: not a field of a log" + (f"; {hint}" if hint else f" (fields: {', '.join(_FIELDS)})")
                       if not path else f"{where}: unexpected")
        return out
    return [_one(err, path)]


def _one(err: Any, path: list) -> str:
    where = _label("".join(f"/{_escape(p)}" for p in path))
    v, value, inst = err.validator, err.validator_value, err.instance
    if v == "type":
        types = [value] if isinstance(value, str) else list(value)
        return f"{where}: expected {' or '.join(_WORDS.get(t, t) for t in types)}, found {_describe(inst)}"
    if v == "required":
        missing = next((p for p in value if isinstance(inst, dict) and p not in inst), "?")
        return f"{_label(''.join(f'/{_escape(p)}' for p in path) + '/' + _escape(missing))}: missing"
    if v == "const":
        return f"{where}: must be {json.dumps(value)} (this meeple reads log format {LOG_FORMAT}), found {_describe(inst)}"
    if v in ("minItems", "maxItems") and len(path) == 2 and path[0] == "choices":
        return f"{where}: a choice is [player, option index, option key], found a list of {len(inst)}"
    if v == "minItems":
        return f"{where}: needs at least {value} item(s), found {len(inst)}"
    if v == "maxItems":
        return f"{where}: at most {value} item(s), found {len(inst)}"
    if v == "minimum":
        return f"{where}: must be at least {value}, found {inst}"
    if v == "maximum":
        return f"{where}: must be at most {value}, found {inst}"
    if v == "minLength":
        return f"{where}: must not be empty"
    if v == "maxLength":
        return f"{where}: longer than {value} letters ({len(inst)})"
    if v == "pattern":
        return f"{where}: must be 64 lower-case hexadecimal digits, found {_describe(inst)}"
    return f"{where}: {_short(err.message, 120)}"


def _label(pointer: str) -> str:
    return pointer if pointer else "the top level"


def _escape(part: Any) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, Decimal):
        return f"the number {value}" + (" (a fraction)" if value != value.to_integral_value() else " (written as a fraction)")
    if isinstance(value, str):
        return f"the text {_short(value)}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return f"a {type(value).__name__}"


def _short(text: str, n: int = 40) -> str:
    text = text if len(text) <= n else text[:n - 3] + "..."
    return repr(text)

