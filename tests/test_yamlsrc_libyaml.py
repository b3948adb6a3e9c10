"""The libyaml (C) path of meeple.loading.yamlsrc reads every file exactly as the pure-Python path.

Same data (types included), same span of every value and key, same text origins; and
wherever the two could disagree (a problem in the file, text libyaml reads differently,
deep nesting) the pure path decides, so every message and location is unchanged.
"""
import os
import random
from pathlib import Path

import pytest
import yaml

from meeple.loading import yamlsrc
from meeple.core.errors import ContentError, render
from meeple.loading.yamlsrc import _fast_ok, _load_fast, _load_pure, load_yaml_text

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for d in (ROOT / "content", ROOT / "tests") for p in d.rglob("*.yaml"))

needs_libyaml = pytest.mark.skipif(yamlsrc._CSafeLoader is None, reason="PyYAML is built without libyaml")


def _text(path: Path):
    try:
        return path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _same(a, b):
    assert repr(a.data) == repr(b.data)
    assert a.spans == b.spans
    assert a.key_spans == b.key_spans
    assert a.origins == b.origins
    assert list(a.spans) == list(b.spans) and list(a.key_spans) == list(b.key_spans)


def _outcome(load, text):
    try:
        doc = load(text, "f.yaml")
    except ContentError as err:
        return ("error", render(err))
    except Exception as exc:        # noqa: BLE001 - a crash must be the same crash
        return ("crash", type(exc).__name__, str(exc))
    return ("ok", repr(doc.data), doc.spans, doc.key_spans, doc.origins)


def test_there_are_files_with_non_ascii_text():
    assert len(FILES) > 100
    assert any(any(ord(c) > 0x3000 for c in (_text(p) or "")) for p in FILES)     # Japanese names


@needs_libyaml
@pytest.mark.parametrize("path", [p for p in FILES if _text(p) is not None], ids=lambda p: str(p.relative_to(ROOT)))
def test_both_loaders_give_the_same_document(path):
    """(A file that is not UTF-8 never reaches either loader: tests/content/invalid pins its error.)"""
    text = _text(path)
    try:
        pure = _load_pure(text, str(path))
    except ContentError as err:
        # a broken file: the C path gives way, and load_yaml_text reports the pure path's error
        assert _load_fast(text, str(path)) is None
        with pytest.raises(ContentError) as info:
            load_yaml_text(text, str(path))
        assert render(info.value) == render(err)
        return
    if (ROOT / "content") in path.parents:
        assert _fast_ok(text), "a shipped file takes the slow path"
    if _fast_ok(text):
        fast = _load_fast(text, str(path))
        assert fast is not None
        _same(fast, pure)
    _same(load_yaml_text(text, str(path)), pure)


_PIECES = ["\n", " ", "  ", ":", ": ", "- ", "-", "[", "]", "{", "}", ",", "'", '"', "#", "&a ", "*a", "!!str ", "? ",
           "|\n", ">\n", "日本", "é", "\\", "%", "@", "`", "...", "---", "\n  ", "a: b\n", "\n- x\n", "\t", "\r\n", "\ufeff"]


@needs_libyaml
@pytest.mark.parametrize("runs", [pytest.param(int(os.environ.get("MEEPLE_YAML_FUZZ", "60")), id="brief"),
                                  pytest.param(5000, id="soak", marks=pytest.mark.slow)])
def test_broken_files_give_the_same_message_and_location(runs):
    """Mutations of shipped files (syntax errors, duplicate keys, odd indentation, aliases,
    tabs...): load_yaml_text gives exactly what the pure path gives, error or document.
    60 in the brief run (MEEPLE_YAML_FUZZ=N: N), 5,000 in the soak run (``slow``,
    MEEPLE_SLOW=1), the brief run's first."""
    rng = random.Random(20240601)
    sources = [t for t in (_text(p) for p in FILES if (ROOT / "content") in p.parents) if t]
    fast_taken = 0
    for _ in range(runs):
        text = rng.choice(sources)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            kind = rng.random()
            if kind < 0.4:
                text = text[:at] + rng.choice(_PIECES) + text[at:]
            elif kind < 0.7:
                text = text[:at] + text[at + rng.randint(1, 4):]
            else:                                     # duplicate a line elsewhere
                lines = text.split("\n")
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines.insert(j, lines[i])
                text = "\n".join(lines)
        want = _outcome(_load_pure, text)
        assert _outcome(load_yaml_text, text) == want, text
        fast_taken += _fast_ok(text) and _load_fast(text, "f.yaml") is not None
    assert fast_taken > runs // 15


@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n", "a: [1, 2\n", "a: !!python/object:os.system x\n", "a: &x [*x]\n", "<<: {a: 1}\n", "[a]: 1\n",
    "a:\tb\n", "{a: 1,\tb: 2}\n", "[a:[b]]\n", "a: [?]\n", "\ufeffa: 1\n", "a: 1\r\nb: 2\r\n", "a: |\n  x\u2028y\n",
    "a: b\n  c: d\n", "- a\n-\tb\n", "a: &x 1\nb: &x 2\n", "a: *y\n", "", "# only\n", "a: 'x\n", "a:\n  - b\n - c\n",
    "k: \"\\x41\\u00e9\"\n", "d: 2001-12-14\nf: 1.5e3\nn: ~\nb: yes\n", "a: >\n  one\n  two\n\n  three\n",
])
def test_edge_cases_are_the_pure_paths(text):
    assert _outcome(load_yaml_text, text) == _outcome(_load_pure, text)


@pytest.mark.parametrize("depth", [10, 63, 64, 65, 200, 400, 1000, 5000, 300_000])
def test_deep_nesting_is_the_pure_paths_and_never_crashes(depth):
    texts = ["[" * depth + "]" * depth, "x: " + "- " * depth + "1\n", "[a: " * depth + "]" * depth + "\n"]
    if depth <= 1000:
        texts.append("a:\n" + "".join(" " * i + "b:\n" for i in range(1, depth + 1)))
    for text in texts:
        assert _outcome(load_yaml_text, text) == _outcome(_load_pure, text)


def test_without_libyaml_the_pure_path_loads(monkeypatch):
    monkeypatch.setattr(yamlsrc, "_CSafeLoader", None)
    doc = load_yaml_text("a: 1\nb:\n  - x\n", "f.yaml")
    assert doc.data == {"a": 1, "b": ["x"]} and doc.spans[("b", 0)].line == 3


def test_libyaml_is_used_here_if_built():
    assert (yamlsrc._CSafeLoader is not None) == bool(getattr(yaml, "__with_libyaml__", False))
