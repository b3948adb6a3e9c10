"""Type-check the language and the runtime with mypy, as the package is installed.

    python tools/typecheck.py                  # the packages [tool.mypy] names; exit 1 on an error
    python tools/typecheck.py --cache-dir DIR  # keep mypy's cache there (default: a fresh one)

Installed, engine/ is the package ``meeple`` and dsl/ is ``meeple.dsl``
(pyproject.toml maps them), and an editable install finds them through an
import hook, which mypy cannot follow (it reads folders, not hooks). So this
lays the package out as installed, in a temporary folder of links to this
checkout's engine/ and dsl/, points mypy at it, and names each file in mypy's
report by its path in the checkout (``dsl/runtime.py``, ``engine/runtime/game.py``).
What is checked, and how strictly, is [tool.mypy] in pyproject.toml.
tests/test_types.py runs this.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent


def lay_out(tree: Path, replaced: Optional[dict[str, str]] = None) -> Path:
    """``tree/meeple``: links to engine/'s modules and rooms, and ``dsl`` to dsl/ (the
    installed layout). ``replaced``: checkout paths (``engine/runtime/game.py``) whose
    text is this instead (how tests/test_types.py shows that a broken contract fails)."""
    replaced = {str(ROOT / path): text for path, text in (replaced or {}).items()}
    package = tree / "meeple"
    _mirror(package, [(entry.name, entry) for entry in sorted((ROOT / "engine").iterdir())] + [("dsl", ROOT / "dsl")], replaced)
    return package


def _mirror(folder: Path, entries: list[tuple[str, Path]], replaced: dict[str, str]) -> None:
    """``folder`` holding a link to each entry, or, for one holding a replaced file, a
    copy of its layout with that file written out."""
    folder.mkdir()
    for name, source in entries:
        if name == "__pycache__" or name.startswith("."):
            continue
        inside = [path for path in replaced if path == str(source) or path.startswith(str(source) + os.sep)]
        if not inside:
            (folder / name).symlink_to(source)
        elif source.is_dir():
            _mirror(folder / name, [(e.name, e) for e in sorted(source.iterdir())], replaced)
        else:
            (folder / name).write_text(replaced[str(source)], encoding="utf-8")


def in_checkout(line: str) -> str:
    """A line of mypy's report with the installed path of a file put back as its path in the checkout."""
    return re.sub(r"^meeple/(dsl/)?", lambda m: "dsl/" if m.group(1) else "engine/", line)


def check(cache_dir: Optional[str] = None, replaced: Optional[dict[str, str]] = None) -> tuple[int, str]:
    """Run mypy over the installed layout; its exit code and report (paths in the checkout)."""
    with tempfile.TemporaryDirectory(prefix="meeple-mypy-") as tmp:
        tree = Path(tmp)
        lay_out(tree, replaced)
        env = dict(os.environ, MYPYPATH=str(tree))
        cmd = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", cache_dir or str(tree / ".mypy_cache")]
        proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    report = "\n".join(in_checkout(line) for line in (proc.stdout + proc.stderr).splitlines())
    return proc.returncode, report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache-dir", default=None, help="mypy's cache (default: a fresh one, removed after)")
    args = ap.parse_args(argv)
    code, report = check(args.cache_dir)
    print(report)
    return code


if __name__ == "__main__":
    sys.exit(main())
