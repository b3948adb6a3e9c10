"""The layers run one way (DESIGN.md, "Layout"): the CLI uses the engine, the
engine uses the language, and the language never imports the engine.

Every module is parsed with ``ast``, so imports inside functions count too.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI_MODULES = frozenset({"engine/cli.py", "engine/__main__.py"})


def _module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, root: Path) -> list[tuple[int, str, str]]:
    """(line, absolute module imported, the import as written) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _module_name(path, root)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((node.lineno, alias.name, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            names = ", ".join(a.name for a in node.names)
            written = f"from {'.' * node.level}{node.module or ''} import {names}"
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module, written))
            # ``from engine import cli`` / ``from . import cli`` import a submodule by name
            for alias in node.names:
                found.append((node.lineno, f"{module}.{alias.name}", written))
    return found




def _is(module: str, target: str) -> bool:
    return module == target or module.startswith(target + ".")


def _violations(package: str, target: str, allowed: frozenset[str] = frozenset(), root: Path = ROOT) -> list[str]:
    """``file:line: import`` for every import of ``target`` (or a submodule) in ``package``."""
    out = []
    for path in sorted((root / package).rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in allowed:
            continue
        seen = set()
        for line, module, written in _imports(path, root):
            if _is(module, target) and (line, written) not in seen:
                seen.add((line, written))
                out.append(f"{rel}:{line}: {written}")
    return out


def test_the_language_never_imports_the_engine():
    bad = _violations("dsl", "engine")
    assert not bad, "dsl/ must not import engine/ (move what both need into dsl/):\n" + "\n".join(bad)


def test_only_the_cli_imports_the_cli():
    bad = _violations("engine", "engine.cli", CLI_MODULES)
    assert not bad, "only engine/cli.py may import engine.cli:\n" + "\n".join(bad)


def test_the_checker_sees_lazy_and_relative_imports(tmp_path):
    """The checks above would catch imports inside functions, relative ones, and submodules by name."""
    (tmp_path / "dsl").mkdir()
    (tmp_path / "dsl" / "probe.py").write_text(
        "def f():\n    from ..engine import state\n    import engine.cli\n", encoding="utf-8")
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "tool.py").write_text(
        "from . import cli\n\ndef g():\n    from .cli import main\n", encoding="utf-8")
    (tmp_path / "engine" / "cli.py").write_text("from .tool import g\n", encoding="utf-8")
    assert _violations("dsl", "engine", root=tmp_path) == [
        "dsl/probe.py:2: from ..engine import state", "dsl/probe.py:3: import engine.cli"]
    assert _violations("engine", "engine.cli", CLI_MODULES, root=tmp_path) == [
        "engine/tool.py:1: from . import cli", "engine/tool.py:4: from .cli import main"]
