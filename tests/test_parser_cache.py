"""The DSL parser's tables are kept in a private cache folder between runs; parsed texts are
shared within a process. Neither changes a tree, a position or an error."""
import os
import stat

import lark.lark
import pytest

from dsl import parser as P
from engine.errors import DslSyntaxError
from engine.yamlsrc import TextOrigin

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


def test_a_broken_cache_file_is_rebuilt(fresh_parser):
    P._parser()
    cache, = fresh_parser.iterdir()
    cache.write_bytes(b"not a cache\n")
    P._parser.cache_clear()
    assert _tree(P._parser()) is not None


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


def test_the_trees_are_those_of_larks_transformer():
    """dsl.parser builds nodes without Lark's Transformer: the same nodes, positions included,
    for every text of every shipped pack."""
    from engine.errors import Problems
    from engine.game import Game
    from engine.pack import read_packs, resolve_all
    for pack in ("citadels", "citadels-2016", "citadels-dark-city", "signorie", "troyes"):
        problems = Problems()
        Game(read_packs(resolve_all(pack), problems)).compile(problems)
        assert not problems.errors
    assert len(P._TREES) > 250
    for (text, start), tree in list(P._TREES.items()):
        src = text if text.endswith("\n") else text + "\n"
        assert P._BUILDER.transform(P._parser().parse(src, start=start)) == tree


def _reference():
    """Lark as it comes, without the shortcut of dsl.parser._pass_single_children."""
    from lark import Lark
    return Lark.open_from_package("dsl", "grammar.lark", ("",), postlex=P._DslIndenter(), **P._LARK_OPTIONS)


def test_the_shortcut_parser_gives_larks_own_trees():
    test_the_trees_are_those_of_larks_transformer()          # fills P._TREES with every shipped text
    ref = _reference()
    texts = list(P._TREES) + [(TEXT, "start"), ("a + b * -c of p > 2 and not x in y", "expr_start"),
                              ("if (a):\n    gain 1 gold\n", "start"), ("c in hand where c.cost > 1", "binder_start")]
    assert sum(cb is P._first for cb in P._parser()._callbacks.values()) > 5
    for text, start in texts:
        src = text if text.endswith("\n") else text + "\n"
        want = ref.parse(src, start=start)
        got = P._parser().parse(src, start=start)
        assert got == want and P._build(got) == P._BUILDER.transform(want)


@pytest.mark.parametrize("text", ["gain 2 gold\n  lose 1 gold\n", "gain (2 gold\n", "if x:\ngain 1 gold\n", "gain 1 gold to\n",
                                  "set x = \n", "gain 1 gold\n    lose\n  x\n", 'log "abc\n', "choose c in hand\n"])
def test_the_shortcut_parser_fails_as_lark_does(text):
    from lark.exceptions import UnexpectedInput
    ref = _reference()
    outcomes = []
    for parser in (ref, P._parser()):
        try:
            outcomes.append(("ok", P._build(parser.parse(text, start="start"))))
        except UnexpectedInput as exc:
            outcomes.append(("error", type(exc).__name__, exc.line, exc.column, getattr(exc, "expected", None)))
        except Exception as exc:       # noqa: BLE001 - the indenter's own
            outcomes.append(("other", type(exc).__name__))
    assert outcomes[0] == outcomes[1]
