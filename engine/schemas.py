"""The JSON Schemas (draft 2020-12) of every YAML kind, and validation with locations."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from jsonschema import Draft202012Validator

from .errors import ContentError, suggest
from .yamlsrc import Document

KINDS = ("pack", "game", "cards", "scenario")


def schema_dir() -> Path:
    here = Path(__file__).resolve().parent
    src = here.parent / "schemas"
    return src if src.is_dir() else here / "_schemas"


@lru_cache(maxsize=None)
def schema(kind: str) -> dict:
    return json.loads((schema_dir() / f"{kind}.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(schema(kind))


def validate(doc: Document, kind: str) -> Iterator[ContentError]:
    """Yield one located error per schema violation (all of them, not the first)."""
    for err in sorted(_validator(kind).iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path))):
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = set(err.schema.get("properties", {}))
            for key in err.instance:
                if key not in allowed:
                    yield ContentError(f"unknown key '{key}'", doc.key_span(path + (key,)), suggest(str(key), allowed))
            continue
        if err.validator == "oneOf" and err.context:
            # Report the branch that got furthest: the most specific complaint.
            best = max(err.context, key=lambda e: len(e.absolute_path))
            if len(best.absolute_path) > 0:
                err = best
                path = tuple(err.absolute_path)
        where = "/".join(map(str, path)) or "top level"
        yield ContentError(f"{where}: {err.message}", doc.span(path))
