"""One way down (docs/architecture.md): each room of the ``meeple`` package imports
only the rooms below it, only the command line uses click, the language imports
nothing of the engine, and no modules import each other in a circle.

The contracts are import-linter's, written in pyproject.toml. They run on a copy
of the package laid out as it is installed (engine/ as ``meeple``, dsl/ as
``meeple.dsl``), since the repository keeps the two folders side by side. Each
contract is shown able to fail: a module breaking it is added to the copy.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import importlinter  # noqa: F401  (a test dependency: the contracts are its)
import pytest

ROOT = Path(__file__).resolve().parent.parent
GUARD = 300      # seconds: only a hung process ever meets it


@pytest.fixture
def installed(tmp_path) -> Path:
    """A copy of the package as installed, with the contracts beside it."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "engine", tmp_path / "meeple", ignore=skip)
    shutil.copytree(ROOT / "dsl", tmp_path / "meeple" / "dsl", ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def _run(root: Path, code: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}      # the copy, ahead of the installed package
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=GUARD)


LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"

CYCLES = """
import grimp
graph = grimp.build_graph("meeple", exclude_type_checking_imports=True, cache_dir=None)
edges = {m: [d for d in graph.find_modules_directly_imported_by(m) if d.startswith("meeple")] for m in graph.modules}
index, low, stack, on, found = {}, {}, [], set(), []
def visit(v):                       # Tarjan's strongly connected components, iteratively
    work = [(v, iter(sorted(edges[v])))]
    index[v] = low[v] = len(index); stack.append(v); on.add(v)
    while work:
        node, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = len(index); stack.append(w); on.add(w)
                work.append((w, iter(sorted(edges[w])))); break
            if w in on:
                low[node] = min(low[node], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
for m in sorted(edges):
    if m not in index:
        visit(m)
print(len(edges), "modules")
for comp in found:
    print("cycle:", " ".join(comp))
"""


def test_the_rooms_keep_their_contracts(installed):
    result = _run(installed, LINT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Each room imports only the rooms below it KEPT" in result.stdout
    assert "Only the command line uses click KEPT" in result.stdout
    assert "Only meeple.rl uses the learning libraries (the optional extras rl and spiel) KEPT" in result.stdout
    assert "Only meeple.web uses Starlette and uvicorn KEPT" in result.stdout


BREAKS = [
    # (module added to the copy, its text, what import-linter must say)
    ("loading/probe.py", "from meeple.runtime import game\n",
     "meeple.loading is not allowed to import meeple.runtime"),
    ("runtime/probe.py", "def later():\n    from meeple.play.bots import evaluator\n",
     "meeple.runtime is not allowed to import meeple.play"),
    ("workbench/probe.py", "from meeple.authoring import diff\n",
     "meeple.workbench is not allowed to import meeple.authoring"),
    ("dsl/probe.py", "from meeple.core.errors import Problems\n",
     "meeple.dsl is not allowed to import meeple.core"),
    ("play/probe.py", "import click\n",
     "meeple.play is not allowed to import click"),
    ("play/probe_rl.py", "def later():\n    from meeple.rl import env\n",
     "meeple.play is not allowed to import meeple.rl"),
    ("rl/probe.py", "from meeple.workbench import simulate\n",
     "meeple.rl is not allowed to import meeple.workbench"),
    ("runtime/probe_np.py", "import numpy\n",
     "meeple.runtime is not allowed to import numpy"),
    ("cli/probe.py", "def later():\n    import starlette\n",
     "meeple.cli is not allowed to import starlette"),
    ("play/probe.py", "from meeple.web import timeline\n",
     "meeple.play is not allowed to import meeple.web"),
]


@pytest.mark.parametrize("where, text, said", BREAKS, ids=[b[0] for b in BREAKS])
def test_a_module_breaking_a_contract_is_named(installed, where, text, said):
    (installed / "meeple" / where).write_text(text, encoding="utf-8")
    result = _run(installed, LINT)
    assert result.returncode == 1, result.stdout + result.stderr
    assert said in result.stdout
    assert f"meeple.{where[:-3].replace('/', '.')}" in result.stdout


def test_no_modules_import_each_other_in_a_circle(installed):
    result = _run(installed, CYCLES)
    assert result.returncode == 0, result.stderr
    modules = int(result.stdout.split()[0])
    assert modules > 60, result.stdout          # the whole package was read
    assert "cycle:" not in result.stdout, result.stdout


def test_a_circle_is_found(installed):
    (installed / "meeple" / "runtime" / "probe_a.py").write_text("from meeple.runtime import probe_b\n", encoding="utf-8")
    (installed / "meeple" / "runtime" / "probe_b.py").write_text(
        "def later():\n    from meeple.runtime import probe_a\n", encoding="utf-8")
    result = _run(installed, CYCLES)
    assert "cycle: meeple.runtime.probe_a meeple.runtime.probe_b" in result.stdout, result.stdout + result.stderr


def _old_imports(path: Path, root: Path = ROOT) -> list[str]:
    """Imports of the top-level ``engine`` or ``dsl``: the folders, not the package."""
    import ast
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
        out += [f"{path.relative_to(root)}:{node.lineno}: {n}" for n in names if n.split(".")[0] in ("engine", "dsl")]
    return out


def test_tests_benchmarks_and_tools_import_the_package_not_the_folders():
    """`python -m pytest` puts the repository on sys.path, so `import dsl.parser` would load
    a second copy of the language beside meeple.dsl (two sets of classes, two caches)."""
    found = [hit for folder in ("tests", "benchmarks", "tools") for f in sorted((ROOT / folder).rglob("*.py"))
             for hit in _old_imports(f)]
    assert not found, "import meeple.*, not the folders:\n" + "\n".join(found)


def test_an_import_of_the_folders_is_found(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import meeple.dsl\n\ndef f():\n    from dsl.parser import parse\n    import engine.cli\n", encoding="utf-8")
    assert _old_imports(probe, tmp_path) == ["probe.py:4: dsl.parser", "probe.py:5: engine.cli"]
