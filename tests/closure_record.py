"""What the closure back end gave, for the tests that once compared it with the generated code.

Until issue 22 the checker also built closures, and these tests played or evaluated each case
with both back ends and asserted the same outcome. The closures are retired (the generated code
is the one back end, docs/architecture.md); a case whose outcome is a whole game, a state or a
list of values too long to work out by hand is now compared with a record of that outcome.

The record (``data/closure_record.json``: a case's key -> the SHA-256 of its outcome as
canonical JSON) was written by these tests run against the engine of the last commit that
had the closures (ebb9b39), where each of these cases gave the same outcome with both back
ends (the tests before this one asserted it): it is what the closures gave. The generated
code that retired them gives it too, and a slip in it fails against it (the mutants of
tests/test_generated_statements.py).

Like the golden games, a record changes only on purpose: ``MEEPLE_RECORD_CLOSURES=1`` while
the cases run writes what they give now (``python -m pytest -p no:randomly tests/...``),
to be committed with the reason.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

RECORD = Path(__file__).parent / "data" / "closure_record.json"


def _digest(outcome: Any) -> str:
    return hashlib.sha256(json.dumps(outcome, sort_keys=True, default=repr).encode("utf-8")).hexdigest()


def _read() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}


def as_recorded(key: str, outcome: Any, record: bool = True) -> bool:
    """Whether ``outcome`` of the case ``key`` is what the closures gave (see the module's text).
    ``record=False``: an outcome that is never recorded (a mutant's)."""
    if record and os.environ.get("MEEPLE_RECORD_CLOSURES"):
        record = _read()
        record[key] = _digest(outcome)
        RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return True
    record = _read()
    assert key in record, f"no record of {key!r} (see tests/closure_record.py)"
    return record[key] == _digest(outcome)
