"""The DSL parser's tables are kept in a private cache folder between runs; parsed texts are
shared within a process. Neither changes a tree, a position or an error."""
import functools
import os
import stat

import lark.lark
import pytest

from meeple.dsl import builder as B
from meeple.dsl import parser as P
from meeple.core.errors import DslSyntaxError
from meeple.loading.yamlsrc import TextOrigin

TEXT = "gain 2 gold\nif count(c in hand where c.cost > 3) >= 2:\n    lose 1 gold\nelse:\n    move this to discard\n"


@pytest.fixture
def fresh_parser(monkeypatch, tmp_path):
    """_parser() built anew with the cache folder of the test; the process's parser afterwards."""
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    P._parser.cache_clear()
    yield tmp_path / "cache"
    P._parser.cache_clear()


def _tree(parser):
    return parser.parse(TEXT, start="start")


def test_the_tables_are_written_once_and_loaded_after(fresh_parser, monkeypatch):
    built = P._parser()
    files = list(fresh_parser.iterdir())
    assert len(files) == 1 and files[0].name.startswith("dsl-grammar-")
    assert stat.S_IMODE(fresh_parser.stat().st_mode) & 0o077 == 0
    P._parser.cache_clear()

    def no_grammar(*args, **kwargs):
        raise AssertionError("the grammar was read again")
    monkeypatch.setattr(lark.lark, "load_grammar", no_grammar)
    loaded = P._parser()
    assert loaded is not built
    assert _tree(loaded) == _tree(built)
    assert P._literal_names.__wrapped__() == {t.name: repr(t.pattern.value) for t in built.terminals
                                              if type(t.pattern).__name__ == "PatternStr"}


def test_a_broken_cache_file_is_rebuilt(fresh_parser, monkeypatch):
    """A cache file that is not one: the tables are built again from the grammar, parse as
    the first ones did, and are written over it, so the next start loads them unbuilt."""
    built = P._parser()
    cache, = fresh_parser.iterdir()
    cache.write_bytes(b"not a cache\n")
    P._parser.cache_clear()
    reads = []
    real = lark.lark.load_grammar
    monkeypatch.setattr(lark.lark, "load_grammar", lambda *a, **k: reads.append(1) or real(*a, **k))
    rebuilt = P._parser()
    assert reads, "the grammar was not read again"
    assert _tree(rebuilt) == _tree(built)
    assert cache.read_bytes() != b"not a cache\n" and cache.stat().st_size > 10_000, "the file was not written again"
    P._parser.cache_clear()
    reads.clear()
    assert _tree(P._parser()) == _tree(built)
    assert reads == [], "the rewritten file was not used"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="files have no owners on this platform")
def test_a_cache_folder_others_may_write_is_not_used(fresh_parser):
    fresh_parser.mkdir(mode=0o700)
    os.chmod(fresh_parser, 0o777)
    assert P._cache_file() is None
    assert _tree(P._parser()) is not None and list(fresh_parser.iterdir()) == []


def test_no_cache_when_asked(fresh_parser, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE_DIR", "")
    assert P._cache_file() is None
    assert _tree(P._parser()) is not None


def test_another_grammar_has_another_file(fresh_parser, monkeypatch):
    first = P._cache_file()
    real = P.pkgutil.get_data
    monkeypatch.setattr(P.pkgutil, "get_data", lambda pkg, name: real(pkg, name) + b"\n// changed\n")
    assert P._cache_file() != first


def test_a_text_is_parsed_once_and_its_errors_are_located_every_time():
    a = TextOrigin("a.yaml", 3, 5, True)
    b = TextOrigin("b.yaml", 10, 9, True)
    text = "gain 2 gold\nlose 1 gold\n"
    assert P.parse(text, a) is P.parse(text, b)
    bad = "gain 2 gold\nlose ) gold\n"
    spans = []
    for origin in (a, b, a):
        with pytest.raises(DslSyntaxError) as info:
            P.parse(bad, origin)
        spans.append((info.value.span.file, info.value.span.line, info.value.span.col, info.value.message))
    assert spans[0] == spans[2] and spans[0][:3] == ("a.yaml", 4, 10) and spans[1][:3] == ("b.yaml", 11, 14)
    assert P.parse("x + 1", a, "expr_start") is P.parse("x + 1", b, "expr_start")


@functools.lru_cache(maxsize=None)
def _shipped_trees() -> dict:
    """(text, start rule) -> tree of every rule text of the shipped packs, and of theirs only:
    the process's kept trees (P._TREES, which by now hold every text the suite has parsed)
    are set aside while the packs load, and put back after."""
    from meeple.core.errors import Problems
    from meeple.runtime.game import Game
    from meeple.loading.folders import resolve_all, shipped_packs
    from meeple.loading.pack import read_packs
    kept = dict(P._TREES)
    P._TREES.clear()
    try:
        for pack in shipped_packs():
            problems = Problems()
            Game(read_packs(resolve_all(pack), problems), problems)
            assert not problems.errors
        return dict(P._TREES)
    finally:
        P._TREES.update(kept)


def test_the_trees_are_those_of_larks_transformer():
    """meeple.dsl.parser builds nodes without Lark's Transformer: the same nodes, positions included,
    for every text of every shipped pack."""
    trees = _shipped_trees()
    assert len(trees) > 250
    for (text, start), tree in trees.items():
        src = text if text.endswith("\n") else text + "\n"
        assert B._BUILDER.transform(P._parser().parse(src, start=start)) == tree


def _reference():
    """Lark as it comes, without the shortcut of meeple.dsl.parser._pass_single_children."""
    from lark import Lark
    return Lark.open_from_package("meeple.dsl", "grammar.lark", ("",), postlex=P._DslIndenter(), **P._LARK_OPTIONS)


def test_the_shortcut_parser_gives_larks_own_trees():
    ref = _reference()
    texts = list(_shipped_trees()) + [(TEXT, "start"), ("a + b * -c of p > 2 and not x in y", "expr_start"),
                              ("if (a):\n    gain 1 gold\n", "start"), ("c in hand where c.cost > 1", "binder_start")]
    assert sum(cb is P._first for cb in P._parser()._callbacks.values()) > 5
    for text, start in texts:
        src = text if text.endswith("\n") else text + "\n"
        want = ref.parse(src, start=start)
        got = P._parser().parse(src, start=start)
        assert got == want and B.build(got) == B._BUILDER.transform(want)


@pytest.mark.parametrize("text", ["gain 2 gold\n  lose 1 gold\n", "gain (2 gold\n", "if x:\ngain 1 gold\n", "gain 1 gold to\n",
                                  "set x = \n", "gain 1 gold\n    lose\n  x\n", 'log "abc\n', "choose c in hand\n"])
def test_the_shortcut_parser_fails_as_lark_does(text):
    from lark.exceptions import UnexpectedInput
    ref = _reference()
    outcomes = []
    for parser in (ref, P._parser()):
        try:
            outcomes.append(("ok", B.build(parser.parse(text, start="start"))))
        except UnexpectedInput as exc:
            outcomes.append(("error", type(exc).__name__, exc.line, exc.column, getattr(exc, "expected", None)))
        except Exception as exc:       # noqa: BLE001 - the indenter's own
            outcomes.append(("other", type(exc).__name__))
    assert outcomes[0] == outcomes[1]


# ---------------------------------------------------------------- trees kept between runs
def _shipped_texts():
    """(text, start rule) of every rule text of the shipped packs."""
    return list(_shipped_trees())


def test_every_shipped_tree_is_kept_and_read_back_as_it_was():
    """A tree written as JSON and read back is the very tree the parser built (nodes,
    positions, tuples), for every rule text of every shipped pack."""
    from meeple.dsl.treecache import decode, encode
    import json
    texts = _shipped_texts()
    assert len(texts) > 300
    for text, start in texts:
        tree = P._parse(text, TextOrigin("t.yaml", 1, 1, True), start)
        assert decode(json.loads(json.dumps(encode(tree)))) == tree


def test_a_process_reads_the_trees_the_last_one_kept(tmp_path, monkeypatch):
    """The second process parses nothing: its trees come from the file the first wrote at
    its end, and they are the parser's trees."""
    import subprocess
    import sys
    env = dict(os.environ, MEEPLE_CACHE_DIR=str(tmp_path / "cache"))
    script = ("import sys; from meeple.dsl import parser as P; calls = []; real = P._parse\n"
              "P._parse = lambda *a: calls.append(1) or real(*a)\n"
              "from meeple.runtime.game import load_game; load_game('citadels', generate=False)\n"
              "print(len(calls))")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    first = subprocess.run([sys.executable, "-c", script], env=env, cwd=root, capture_output=True, text=True, check=True)
    second = subprocess.run([sys.executable, "-c", script], env=env, cwd=root, capture_output=True, text=True, check=True)
    assert int(first.stdout) > 30 and int(second.stdout) == 0
    trees, = [f for f in (tmp_path / "cache").iterdir() if f.name.startswith("dsl-trees-")]
    assert stat.S_IMODE(trees.stat().st_mode) & 0o077 == 0


@pytest.mark.parametrize("content", [
    b"not json",
    b'{"k": 1}',
    b"[1, 2]",
    # entries that name a class outside the tree, the wrong number of fields, or data that is no tree
    None,
])
def test_a_broken_or_tampered_tree_file_is_read_as_a_miss(tmp_path, content):
    """Whatever the file holds, a text is parsed afresh unless its entry is a tree of
    meeple.dsl.ast's own classes with their fields: nothing else is built, nothing runs."""
    from meeple.dsl.treecache import TreeCache
    path = tmp_path / "trees.json"
    key = TreeCache.key(TEXT, "start")
    if content is None:
        import json
        content = json.dumps({key: ["Popen", "x"], TreeCache.key("gain 1 gold\n", "start"): ["Int", 1],
                              TreeCache.key("x\n", "expr_start"): {"a": 1}}).encode()
    path.write_bytes(content)
    kept = TreeCache(path)
    assert kept.get(TEXT, "start") is None
    assert kept.get("gain 1 gold\n", "start") is None and kept.get("x\n", "expr_start") is None


def test_the_tree_file_keeps_at_most_its_bound(tmp_path, monkeypatch):
    from meeple.dsl import treecache
    monkeypatch.setattr(treecache, "MAX_ENTRIES", 8)
    kept = treecache.TreeCache(tmp_path / "trees.json")
    for i in range(20):
        kept.put(f"gain {i} gold\n", "start", P._parse(f"gain {i} gold\n", TextOrigin("t.yaml", 1, 1, True), "start"))
    assert len(kept.entries) <= 8
    assert kept.get("gain 19 gold\n", "start") == P._parse("gain 19 gold\n", TextOrigin("t.yaml", 1, 1, True), "start")
    kept.write()
    again = treecache.TreeCache(tmp_path / "trees.json")
    assert again.get("gain 19 gold\n", "start") is not None and again.get("gain 0 gold\n", "start") is None
