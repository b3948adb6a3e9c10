"""Version numbers and ranges, as packs write them ('1.0.0'; '>=1.0,<2').

A range is comparisons joined by commas, all of which must hold; a missing
part of a version counts as 0 (1.0 == 1.0.0).
"""
from __future__ import annotations

import re

# the engine's own version (``meeple.__version__``), which a pack's ``engine:`` range is checked against
ENGINE_VERSION = "0.1.0"

_OPS = {
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    "<": lambda a, b: a < b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}
_PART = re.compile(r"^\s*(>=|<=|==|!=|>|<)?\s*([0-9]+(?:\.[0-9]+)*)\s*$")


def parse_version(text: str) -> tuple[int, ...]:
    parts = tuple(int(p) for p in str(text).strip().split("."))
    return parts + (0,) * (3 - len(parts))


def parse_range(text: str) -> list[tuple[str, tuple[int, ...]]]:
    """'>=1.0,<2' -> [('>=', (1, 0, 0)), ('<', (2, 0, 0))]; ValueError says what is wrong."""
    out = []
    for part in str(text).split(","):
        m = _PART.match(part)
        if not m:
            raise ValueError(f"'{part.strip()}' is not a comparison like '>=1.0' (ranges join them with commas: '>=1.0,<2')")
        out.append((m.group(1) or "==", parse_version(m.group(2))))
    return out


def satisfies(version: str, range_text: str) -> bool:
    v = parse_version(version)
    return all(_OPS[op](v, bound) for op, bound in parse_range(range_text))
