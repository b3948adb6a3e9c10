"""The meeple of a given checkout, imported in place of the installed one.

Benchmarks that set two checkouts side by side, and tools that must run this
checkout's code, load it through here. Installed, engine/ is the package
``meeple`` and dsl/ is ``meeple.dsl`` (pyproject.toml maps them); a checkout
is laid out so too, and ``use`` maps the names the same way. A checkout from
before the package had one name (top-level ``engine`` and ``dsl``) is put on
``sys.path`` as it was, and ``module`` finds each module under its old name.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


class _Checkout(importlib.abc.MetaPathFinder):
    """``meeple`` from ROOT/engine and ``meeple.dsl`` from ROOT/dsl; their rooms follow by path."""

    def __init__(self, root: Path):
        self.folders = {"meeple": root / "engine", "meeple.dsl": root / "dsl"}

    def find_spec(self, fullname, path=None, target=None):
        folder = self.folders.get(fullname)
        if folder is None:
            return None
        return importlib.util.spec_from_file_location(fullname, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])


def is_packaged(root: Path) -> bool:
    """Whether the checkout at ``root`` is laid out as the one package ``meeple``."""
    return (Path(root) / "engine" / "runtime").is_dir()


def use(root: str | Path) -> None:
    """Make ``import meeple`` (or, for an older checkout, ``import engine``) this checkout's."""
    root = Path(root).resolve()
    loaded = sys.modules.get("meeple") or sys.modules.get("engine")
    if loaded is not None:
        if Path(loaded.__file__).resolve().parent.parent == root:
            return              # this checkout's already (an editable install of it, say)
        raise RuntimeError(f"another meeple is imported already ({loaded.__file__}): call use() before any import of it")
    if is_packaged(root):
        sys.meta_path.insert(0, _Checkout(root))
    else:
        sys.path.insert(0, str(root))


def module(root: str | Path, name: str) -> ModuleType:
    """The module ``name`` (as this checkout names it, e.g. ``meeple.runtime.game``) of the
    checkout ``use`` was given: for an older checkout, ``engine.game`` or ``dsl.types``."""
    if not is_packaged(Path(root)):
        parts = name.split(".")
        name = f"dsl.{parts[-1]}" if parts[1] == "dsl" else f"engine.{parts[-1]}"
    return importlib.import_module(name)
