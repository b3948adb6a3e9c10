"""The shape of the code: modules, functions and classes too big to hold in one's head.

Prints every module of engine/ and dsl/ over ``--lines`` lines, every function over
``--function`` lines and every class with more than ``--methods`` methods (its own and
those of the classes of the project it inherits from: a mixin splits a class's text,
not what a reader must hold). Exit 1 if any is found: tests/test_shape.py runs it.

    python tools/shape.py [--lines 600] [--function 80] [--methods 30]
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "dsl")

# Classes whose size is a table, not logic, each with why: what a reader holds of them is one rule.
ALLOWED = {
    "Builder": "a Lark Transformer: one method per grammar rule, each a line or two building its node",
}


def modules() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def measure(lines: int, function: int, methods: int) -> list[str]:
    """What is over a bound, one line each, as 'path:line: what'."""
    found: list[str] = []
    classes: dict[str, tuple[str, ast.ClassDef]] = {}
    for path in modules():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        n = text.count("\n")
        if n > lines:
            found.append(f"{rel}:1: module of {n} lines (bound {lines})")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > function:
                    found.append(f"{rel}:{node.lineno}: function {node.name} of {size} lines (bound {function})")
            elif isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, (rel, node))

    def own(cls: ast.ClassDef) -> set[str]:
        return {b.name for b in cls.body if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def all_methods(name: str, seen: frozenset = frozenset()) -> set[str]:
        if name not in classes or name in seen:
            return set()
        rel, cls = classes[name]
        names = own(cls)
        for base in cls.bases:
            if isinstance(base, ast.Name):
                names |= all_methods(base.id, seen | {name})
        return names

    for name, (rel, cls) in sorted(classes.items()):
        count = len(all_methods(name))
        if count > methods and name not in ALLOWED:
            found.append(f"{rel}:{cls.lineno}: class {name} with {count} methods (bound {methods})")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=600)
    ap.add_argument("--function", type=int, default=80)
    ap.add_argument("--methods", type=int, default=30)
    a = ap.parse_args()
    found = measure(a.lines, a.function, a.methods)
    print("\n".join(found) if found else "no module, function or class over its bound")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
