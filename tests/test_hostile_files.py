"""Hostile pack files: refused with little work, located, never a traceback (the loader's
part of the hostile-input issue). The work is counted in function calls (tests/work.py),
the same on any machine; how long it takes is for benchmarks/validate_bench.py.

- tests/content/hostile/<case>/: small static packs with the exact output of
  `meeple validate` in expected.txt, each refused within VALIDATE_CALLS calls;
- scalars PyYAML cannot build and numbers out of range, through both YAML paths
  (libyaml and pure Python);
- sizes (files, packs, aliases, nesting) refused before parsing, in few calls;
- links out of the pack folder are never read, excerpts come from pack files only;
- extends: names and chains; ids (a trailing newline, control characters, a
  shipped pack's id); --set values.
Big files and long chains are made in tmp_path by tests/hostile.py.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import hostile as H
from meeple.loading import yamlsrc
from meeple.cli import ExitCode, main
from meeple.core.errors import ContentError, MeepleError, Span, printable, render
from meeple.loading.limits import MAX_ALIAS_COPIES, MAX_FILE_BYTES, MAX_INT, MAX_PACK_FILES, MAX_PACKS
from meeple.loading.schemas import python_pattern
from work import counted
from meeple.loading.yamlsrc import load_yaml, load_yaml_text

REPO = H.REPO
# run_* folders are packs that validate and then run into a bound of running games
# (tests/test_runtime_bounds.py plays them)
CASES = sorted(p for p in H.HOSTILE.iterdir() if p.is_dir() and not p.name.startswith("run_"))
needs_links = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="symbolic links")


# What `meeple validate` of a small hostile pack may cost, in function calls: the most
# today is 379,544 (dsl_functions_expand); a quadratic pass over a file makes tens of millions.
VALIDATE_CALLS = 2_000_000
# What a pack refused before its files are parsed may cost: at most 9,552 today (a 10 MB
# file, a pack over 512 KB or of too many files, a name that names no pack); parsing the
# files refused unread would make millions.
UNREAD_CALLS = 100_000


def validate(*args: str, cwd: Path = REPO) -> tuple:
    """`meeple validate ARGS` run from ``cwd``: (result, the work it took: tests/work.py);
    a traceback fails the test."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        with counted() as work:
            result = CliRunner().invoke(main, ["validate", *args])
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result, work


def first_error(output: str) -> str:
    return next(line for line in output.splitlines() if ": error: " in line)


# ------------------------------------------------------------------ the static corpus
@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_hostile_pack_is_refused_with_little_work_and_every_error_located(folder):
    expected = (folder / "expected.txt").read_text(encoding="utf-8")
    result, work = validate(str(folder.relative_to(REPO)))
    assert result.exit_code == ExitCode.CONTENT_INVALID, result.output
    assert result.output == expected
    assert work.calls < VALIDATE_CALLS, work
    for line in result.output.splitlines():       # every character prints as itself
        assert line.isprintable(), line


def test_the_static_corpus_covers_the_cases():
    assert {p.name for p in CASES} >= {"yaml_alias_bomb", "yaml_deep_nesting", "yaml_unbuildable_scalars",
                                       "yaml_numbers_out_of_range", "extends_empty_name", "extends_long_name",
                                       "id_trailing_newline", "bidi_and_control_characters", "dsl_deep_nesting",
                                       "dsl_huge_number", "dsl_functions_expand"}


# ------------------------------------------------------------------ scalars and numbers
# What reading one small hostile YAML text may cost, in function calls, with either YAML
# path: at most 5,603 today for a scalar, 33,874 for nesting refused (100,000 brackets,
# refused at the 65th), 372,229 for an alias bomb refused (its text holds 3,000 aliases);
# building the bomb would copy 10^9 values, walking the brackets make millions of calls.
SCALAR_CALLS = 50_000
NESTING_CALLS = 200_000
ALIAS_CALLS = 2_000_000
NUMBERS = f"pack files hold numbers from -{MAX_INT} to {MAX_INT}"
SCALARS = [
    # (text, line, col, message, hint)
    ("cost: 2024-02-30\n", 1, 7, "YAML reads '2024-02-30' as a date, but it is not one (day is out of range for month)",
     "put it in quotes to keep it as text"),
    ("cost: 2024-13-01\n", 1, 7, "YAML reads '2024-13-01' as a date, but it is not one (month must be in 1..12)",
     "put it in quotes to keep it as text"),
    ("cost: !!timestamp x\n", 1, 7, "YAML: 'x' is not a date, as its tag !!timestamp says",
     "remove the tag: pack files hold plain values only"),
    ("cost: !!float x\n", 1, 7, "YAML: 'x' is not a number, as its tag !!float says", "remove the tag: pack files hold plain values only"),
    ("cost: !!int x\n", 1, 7, "YAML: 'x' is not a whole number, as its tag !!int says", "remove the tag: pack files hold plain values only"),
    ("cost: !!int 0x\n", 1, 7, "YAML: '0x' is not a whole number, as its tag !!int says", "remove the tag: pack files hold plain values only"),
    ("cost: !!bool x\n", 1, 7, "YAML: 'x' is not true or false, as its tag !!bool says", "remove the tag: pack files hold plain values only"),
    ("a: 1\n!!float x: 2\n", 2, 1, "YAML: 'x' is not a number, as its tag !!float says", "remove the tag: pack files hold plain values only"),
    ("a: {!!set x: 1}\n", 1, 5, "YAML: the tag !!set does not go with a plain value such as 'x'",
     "remove the tag: pack files hold plain values only"),
    ("a: !!omap x\n", 1, 4, "YAML: the tag !!omap does not go with a plain value such as 'x'",
     "remove the tag: pack files hold plain values only"),
    ("cost: " + "9" * 4301 + "\n", 1, 7, f"the number '{'9' * 20}'... (4301 chars) is out of range: {NUMBERS}", None),
    ("cost: !!int " + "9" * 5000 + "\n", 1, 7, f"the number '{'9' * 20}'... (5000 chars) is out of range: {NUMBERS}", None),
    ("- " + str(MAX_INT + 1) + "\n", 1, 3, f"the number '{MAX_INT + 1}' is out of range: {NUMBERS}", None),
    ("- " + str(-MAX_INT - 1) + "\n", 1, 3, f"the number '{-MAX_INT - 1}' is out of range: {NUMBERS}", None),
    ("cost: 0b" + "1" * 60 + "\n", 1, 7, f"the number '0b{'1' * 18}'... (62 chars) is out of range: {NUMBERS}", None),
    ("cost: 1:0:0:0:0:0:0:0:0:0\n", 1, 7, f"the number '1:0:0:0:0:0:0:0:0:0' is out of range: {NUMBERS}", None),
    ("{" + str(10**20) + ": x}\n", 1, 2, f"the number '{10**20}' is out of range: {NUMBERS}", None),
    ("cost: 1.0e+16\n", 1, 7, f"the number '1.0e+16' is out of range: {NUMBERS}", None),
    ("cost: .inf\n", 1, 7, f"YAML reads '.inf' as a number that is not finite; {NUMBERS}", "put it in quotes to keep it as text"),
    ("cost: -.Inf\n", 1, 7, f"YAML reads '-.Inf' as a number that is not finite; {NUMBERS}", "put it in quotes to keep it as text"),
    ("cost: .nan\n", 1, 7, f"YAML reads '.nan' as a number that is not finite; {NUMBERS}", "put it in quotes to keep it as text"),
    ("cost: !!float 1e999\n", 1, 7, f"YAML reads '1e999' as a number that is not finite; {NUMBERS}", "put it in quotes to keep it as text"),
]


@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "pure"])
@pytest.mark.parametrize("text, line, col, message, hint", SCALARS, ids=[c[0][:24] for c in SCALARS])
def test_a_scalar_yaml_cannot_build_or_out_of_range_is_located(monkeypatch, libyaml, text, line, col, message, hint):
    if not libyaml:
        monkeypatch.setattr(yamlsrc, "_CSafeLoader", None)
    with counted() as work:
        with pytest.raises(ContentError) as info:
            load_yaml_text(text, "f.yaml")
    assert work.calls < SCALAR_CALLS, work
    err = info.value
    assert (err.message, err.hint) == (message, hint)
    assert (err.span.file, err.span.line, err.span.col) == ("f.yaml", line, col)


@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "pure"])
@pytest.mark.parametrize("text, value", [
    (f"- {MAX_INT}\n", MAX_INT), (f"- {-MAX_INT}\n", -MAX_INT), ("- 0x10\n", 16), ("- 1.5\n", 1.5), ("- 2024-02-29\n", None),
    ("- !!float 3\n", 3.0), ("- '2024-02-30'\n", "2024-02-30"), ("- '" + "9" * 5000 + "'\n", "9" * 5000),
])
def test_numbers_and_dates_within_bounds_still_load(monkeypatch, libyaml, text, value):
    if not libyaml:
        monkeypatch.setattr(yamlsrc, "_CSafeLoader", None)
    got = load_yaml_text(text, "f.yaml").data[0]
    if value is not None:
        assert got == value and type(got) is type(value)


def test_an_unbuildable_scalar_in_a_pack_is_reported_by_validate(tmp_path):
    root = H.write_pack(tmp_path / "p", H.with_value("cards.yaml", "cost", "2024-02-30"))
    result, work = validate(str(root), cwd=tmp_path)
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert result.output.splitlines()[:3] == [
        "p/cards.yaml:6:11: error: YAML reads '2024-02-30' as a date, but it is not one (day is out of range for month); "
        "put it in quotes to keep it as text",
        "        cost: 2024-02-30",
        "              ^^^^^^^^^^"]


# ------------------------------------------------------------------ sizes, aliases, nesting
def test_a_10_mb_file_is_refused_unread(tmp_path):
    root = H.write_pack(tmp_path / "p", {"big.yaml": H.big_cards_file(10_000_000)})
    result, work = validate(str(root), cwd=tmp_path)
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert first_error(result.output) == ("p/big.yaml: error: the file is larger than 256 KB, the limit for one pack file; "
                                          "it is not read; split it into several files")
    assert work.calls < UNREAD_CALLS, work


def test_a_file_of_the_limit_loads_and_one_byte_more_is_refused(tmp_path):
    line = "# " + "x" * 98 + "\n"
    head = "kind: cards\n"
    text = head + line * ((MAX_FILE_BYTES - len(head)) // len(line))
    text += "#" * (MAX_FILE_BYTES - len(text) - 1) + "\n"
    assert len(text.encode()) == MAX_FILE_BYTES
    (tmp_path / "ok.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "big.yaml").write_text(text + "\n", encoding="utf-8")
    assert load_yaml(tmp_path / "ok.yaml", "ok.yaml").data == {"kind": "cards"}
    with pytest.raises(ContentError) as info:
        load_yaml(tmp_path / "big.yaml", "big.yaml")
    assert info.value.span == Span("big.yaml", 0, 0)
    assert info.value.message == "the file is larger than 256 KB, the limit for one pack file; it is not read"


def test_a_pack_over_the_total_size_is_refused_before_parsing(tmp_path):
    files = {f"big{i}.yaml": H.big_cards_file(250_000).replace("id: c", f"id: f{i}c") for i in range(3)}
    root = H.write_pack(tmp_path / "p", files)
    result, work = validate(str(root), cwd=tmp_path)
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert first_error(result.output) == (
        "p/big2.yaml: error: the YAML files to load total more than 512 KB, past the limit at this file; no file of this pack "
        "is read; a pack and the packs it extends hold at most 512 KB of YAML together")
    assert work.calls < UNREAD_CALLS, work     # 1,727 today; reading three such files takes millions


def test_a_pack_of_too_many_files_is_refused(tmp_path):
    files = {f"more/c{i:03}.yaml": f"kind: cards\ncard_kind: coin\ncards:\n  - {{id: c{i}, name: C, cost: 1}}\n"
             for i in range(MAX_PACK_FILES)}
    root = H.write_pack(tmp_path / "p", files)
    result, work = validate(str(root), cwd=tmp_path)
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert first_error(result.output) == (
        f"p: error: more than {MAX_PACK_FILES} YAML files to load; the rest are not read; a pack and the packs it extends "
        f"hold at most {MAX_PACK_FILES} files together")
    assert work.calls < UNREAD_CALLS, work


@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "pure"])
@pytest.mark.parametrize("levels, width", [(9, 10), (30, 2), (3, 1000)])
def test_an_alias_bomb_is_refused_before_it_is_built(monkeypatch, libyaml, levels, width):
    if not libyaml:
        monkeypatch.setattr(yamlsrc, "_CSafeLoader", None)
    with counted() as work:
        with pytest.raises(ContentError) as info:
            load_yaml_text(H.alias_bomb(levels, width), "f.yaml")
    assert work.calls < ALIAS_CALLS, work
    assert info.value.message == f"aliases (*name) repeat more than {MAX_ALIAS_COPIES} values in this file"
    assert info.value.span.line > 3


@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "pure"])
def test_aliases_up_to_the_limit_are_fine(monkeypatch, libyaml):
    if not libyaml:
        monkeypatch.setattr(yamlsrc, "_CSafeLoader", None)
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * MAX_ALIAS_COPIES) + "]\n"
    assert len(load_yaml_text(text, "f.yaml").data["b"]) == MAX_ALIAS_COPIES
    with pytest.raises(ContentError):
        load_yaml_text(text.replace("]", ", *a]"), "f.yaml")


DEEP = [  # (builder, the most levels it may write, where one level more is refused, where far more is)
    (H.deep_flow, 63, (3, 67), (3, 68)),           # x: [[...]]: the top mapping, then 63 lists; far more: the 65th '['
    (H.deep_block, 62, (66, 64), (66, 64)),        # x: {b: {b: ... null}}: 62 mappings and the null inside them
    (H.deep_dashes, 62, (4, 127), (4, 127)),       # x: - - ... 1: 62 lists and the 1 inside them
]


@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "pure"])
@pytest.mark.parametrize("build, ok, first, far", DEEP, ids=[d[0].__name__ for d in DEEP])
def test_deep_nesting_is_refused_where_it_is_too_deep(monkeypatch, libyaml, build, ok, first, far):
    """The first value deeper than 64 levels is refused; in deep brackets, the scanner stops
    first, at the 65th open bracket (a value deeper still)."""
    if not libyaml:
        monkeypatch.setattr(yamlsrc, "_CSafeLoader", None)
    load_yaml_text(build(ok), "f.yaml")
    for depth, where in ((ok + 1, first), (100_000 if build is not H.deep_block else 2000, far)):
        with counted() as work:
            with pytest.raises(ContentError) as info:
                load_yaml_text(build(depth), "f.yaml")
        assert work.calls < NESTING_CALLS, work
        assert info.value.message == "YAML nesting is deeper than 64 levels"
        assert (info.value.span.line, info.value.span.col) == where


def test_aliases_cannot_nest_deeper_than_the_limit():
    text = "a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n"
    with pytest.raises(ContentError) as info:
        load_yaml_text(text, "f.yaml")
    assert info.value.message == "YAML nesting is deeper than 64 levels"


# ------------------------------------------------------------------ links and excerpts
@needs_links
def test_a_link_out_of_the_pack_is_never_read(tmp_path):
    secret = tmp_path / "outside" / "secret.yaml"
    secret.parent.mkdir()
    secret.write_text("kind: cards\ncard_kind: coin\ncards:\n  - id: x\n    name: SECRET-LINE\n    cost: oops\n", encoding="utf-8")
    root = H.write_pack(tmp_path / "p")
    H.link(root / "evil.yaml", secret)
    H.link(root / "passwd.yaml", Path("/etc/passwd"))
    H.link(root / "folder", secret.parent)        # links to folders are not followed
    result, _ = validate("p", cwd=tmp_path)
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert result.output.splitlines() == [
        "p/evil.yaml: error: this file is a link to a file outside the pack folder; it is not read; copy the file into the pack",
        "p/passwd.yaml: error: this file is a link to a file outside the pack folder; it is not read; copy the file into the pack",
        "p: 2 error(s), 0 provisional value(s)"]
    assert "SECRET" not in result.output and "root:" not in result.output


@needs_links
def test_links_inside_the_pack_are_read_and_links_to_nothing_are_errors(tmp_path):
    root = H.write_pack(tmp_path / "p", {"cards.yaml": None, "data/coins.txt": H.minimal_files()["cards.yaml"]})
    H.link(root / "cards.yaml", Path("data") / "coins.txt")
    result, _ = validate(str(root), cwd=tmp_path)
    assert result.exit_code == ExitCode.OK, result.output
    H.link(root / "gone.yaml", root / "nothing.yaml")
    result, _ = validate(str(root), cwd=tmp_path)
    assert first_error(result.output) == "p/gone.yaml: error: this file is a link to nothing; it is not read"


def test_an_excerpt_is_only_ever_read_from_a_pack_file(tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text("SECRET-LINE\n", encoding="utf-8")
    assert render(ContentError("bad", Span(str(other), 1, 1))) == f"{other}:1:1: error: bad"
    assert render(ContentError("bad", Span("/etc/passwd", 1, 1))) == "/etc/passwd:1:1: error: bad"
    load_yaml(other, str(other))          # a file the loader read: its lines are shown
    assert render(ContentError("bad", Span(str(other), 1, 1))).endswith("\n    SECRET-LINE\n    ^")


def test_a_long_line_is_cut_around_the_caret():
    err = ContentError("bad", Span("f.yaml", 1, 5001, 3))
    yamlsrc.remember_source("f.yaml", "x" * 5000 + "BAD" + "y" * 5000 + "\n")
    head, line, caret = render(err).split("\n")
    assert len(line) < 200 and "BAD" in line and line.strip().startswith("...") and line.endswith("...")
    assert line.index("BAD") == caret.index("^^^")


# ------------------------------------------------------------------ extends
def test_a_chain_of_1200_packs_stops_at_the_limit(tmp_path):
    last = H.extends_chain(tmp_path, 1200)
    result, work = validate(str(last.relative_to(tmp_path)), cwd=tmp_path)
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert first_error(result.output) == (
        f"p1169/pack.yaml:6:5: error: more than {MAX_PACKS} packs to load: p1200 -> p1199 -> p1198 -> ... -> p1171 -> p1170 "
        f"-> p1169 -> ...; a pack and the packs it extends (and those extend) are at most {MAX_PACKS} together")
    assert work.calls < 200_000, work      # 43,378 today: the 32 packs up to the limit are read, not the 1,200


def test_a_chain_within_the_limit_loads(tmp_path):
    last = H.extends_chain(tmp_path, MAX_PACKS - 1)
    result, _ = validate(str(last), cwd=tmp_path)
    assert result.exit_code == ExitCode.OK, result.output


@pytest.mark.parametrize("name, message", [
    ('"é"', "extends unknown pack 'é'; a shipped pack id, or a pack folder beside this one"),
    ('"' + "é" * 200 + '"', "extends unknown pack '" + "é" * 200 + "'; a shipped pack id, or a pack folder beside this one"),
    ('"./"', "extends: './' is this pack's own folder; a pack cannot extend itself"),
    ('"../child"', "extends: '../child' is this pack's own folder; a pack cannot extend itself"),
    ('"   "', "extends: an empty name is not a pack name; a shipped pack id, a pack folder beside this one, or a path from this folder"),
    ('"a\\tb"', "extends: 'a\\tb' is not a pack name: it holds '\\t'; a shipped pack id, a pack folder beside this "
                "one, or a path from this folder"),
    ("elsewhere", "extends unknown pack 'elsewhere'; a shipped pack id, or a pack folder beside this one"),
])
def test_an_extends_name_that_names_no_pack_is_located(tmp_path, name, message):
    (tmp_path / "cwd" / "elsewhere").mkdir(parents=True)
    H.write_pack(tmp_path / "cwd" / "elsewhere")        # a pack in the current folder is not a pack beside this one
    H.extending_pack(tmp_path / "packs" / "child", [name])
    result, work = validate(str(tmp_path / "packs" / "child"), cwd=tmp_path / "cwd")
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert first_error(result.output).endswith(f"child/pack.yaml:6:5: error: {message}")
    assert work.calls < UNREAD_CALLS, work


def test_a_pack_name_too_long_for_the_system_is_a_usage_error():
    result = CliRunner().invoke(main, ["validate", "x" * 300])
    assert result.exit_code == ExitCode.USAGE and result.output.startswith("error: no pack 'xxx")


# ------------------------------------------------------------------ ids and what messages show
@pytest.mark.parametrize("pattern, python, good, bad", [
    ("^[a-z_][a-z0-9_]*$", "^[a-z_][a-z0-9_]*\\Z", "keep", "keep\n"),
    ("^[a-z_][a-z0-9_]*\\??$", "^[a-z_][a-z0-9_]*\\??\\Z", "colour?", "colour?\n"),
    ("^[0-9]+\\.[0-9]+(\\.[0-9]+)?$", "^[0-9]+\\.[0-9]+(\\.[0-9]+)?\\Z", "1.0", "1.0\n"),
    ("^a[$]b\\$$", "^a[$]b\\$\\Z", "a$b$", "a$b$\n"),
])
def test_schema_patterns_mean_in_python_what_they_mean_in_json_schema(pattern, python, good, bad):
    import re
    assert python_pattern(pattern) == python
    assert re.search(python, good) and not re.search(python, bad)


NEWLINE_IDS = [  # (file, key, value, the first error)
    ("cards.yaml", "id", '"copper\\n"',
     "p/cards.yaml:4:9: error: card 'copper\\n': id: 'copper\\n' is not a valid name: use lower-case letters, digits and '_', "
     "starting with a letter or '_'"),
    ("pack.yaml", "id", '"minimal\\n"',
     "p/pack.yaml:2:5: error: id: 'minimal\\n' is not a valid pack id: use lower-case letters, digits and '-', starting with a letter"),
    ("pack.yaml", "version", '"0.1\\n"',
     "p/pack.yaml:4:10: error: version: '0.1\\n' is not a version: write it like \"1.0\" or \"1.0.2\" (quoted)"),
    ("game.yaml", "gold", '{name: Gold, min: 0}\n  "gold\\n": {name: G}',
     "p/game.yaml:6:3: error: resources: 'gold\\n' is not a valid name: use lower-case letters, digits and '_', starting "
     "with a letter or '_'"),
]


@pytest.mark.parametrize("file, key, value, error", NEWLINE_IDS, ids=[c[0] + ":" + c[1] for c in NEWLINE_IDS])
def test_a_name_with_a_trailing_newline_is_not_a_name(tmp_path, file, key, value, error):
    root = H.write_pack(tmp_path / "p", H.with_value(file, key, value))
    result, _ = validate(str(root), cwd=tmp_path)
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert first_error(result.output) == error


@pytest.mark.parametrize("text, shown", [
    ("plain text", "plain text"), ("日本語 é", "日本語 é"), ("a\u3000b", "a\u3000b"),
    ("\x1b[2J", "\\x1b[2J"), ("a\u202eb", "a\\u202eb"), ("x\u2066y\u2069", "x\\u2066y\\u2069"), ("a\nb\tc", "a\\nb\\tc"),
    ("zero\u200bwidth", "zero\\u200bwidth"), ("\ud800", "\\ud800"), ("line\u2028sep", "line\\u2028sep"), ("\x7f\x85", "\\x7f\\x85"),
])
def test_messages_show_control_and_bidi_characters_escaped(text, shown):
    assert printable(text) == shown
    err = MeepleError(f"unknown thing '{text}'", Span(f"dir/{text}.yaml", 1, 2), f"did you mean '{text}'?")
    assert err.message == f"unknown thing '{shown}'" and err.hint == f"did you mean '{shown}'?"
    assert render(err).startswith(f"dir/{shown}.yaml:1:2: error: unknown thing '{shown}'")


def test_an_excerpt_shows_control_characters_escaped_with_the_caret_under_them():
    yamlsrc.remember_source("e.yaml", "name: a\u202eb\x1b[2J\n")
    assert render(ContentError("bad", Span("e.yaml", 1, 7, 3))).split("\n")[1:] == [
        "    name: a\\u202eb\\x1b[2J", "          ^^^^^^^^"]


def test_a_copy_of_a_shipped_pack_keeping_its_id_gets_a_warning(tmp_path):
    root = H.write_pack(tmp_path / "p", H.with_value("pack.yaml", "id", "citadels"))
    result, _ = validate(str(root), cwd=tmp_path)
    assert result.exit_code == ExitCode.OK
    assert result.output.splitlines()[0] == (
        "p/pack.yaml:2:5: warning: this pack has the id 'citadels' of a shipped pack: load orders, logs and diffs will not "
        "tell them apart; give it its own id (say 'citadels-mine')")
    result, _ = validate(str(root), "--format", "json", cwd=tmp_path)
    warning = json.loads(result.output)["warnings"][0]
    assert (warning["file"], warning["line"], warning["severity"]) == ("p/pack.yaml", 2, "warning")
    result, _ = validate("citadels")
    assert "warning: this pack has the id" not in result.output


def test_new_pack_refuses_a_shipped_pack_id(tmp_path):
    result = CliRunner().invoke(main, ["new-pack", "citadels", "--extends", "citadels", "--dir", str(tmp_path)])
    assert result.exit_code == ExitCode.USAGE
    assert "'citadels' is the id of a shipped pack; give the new pack its own id (say 'citadels-mine')" in result.output
    assert not (tmp_path / "citadels").exists()


# ------------------------------------------------------------------ --set values
@pytest.mark.parametrize("value, message", [
    ("2024-02-30", "--set 'copper.cost=2024-02-30': YAML reads '2024-02-30' as a date, but it is not one (day is out of range "
                   "for month); put it in quotes to keep it as text"),
    ("9" * 5000, f"--set 'copper.cost={'9' * 45}...': the number '{'9' * 20}'... (5000 chars) is out of range: {NUMBERS}"),
    (".nan", f"--set 'copper.cost=.nan': YAML reads '.nan' as a number that is not finite; {NUMBERS}; put it in quotes to keep "
             "it as text"),
    ("!!int x", "--set 'copper.cost=!!int x': YAML: 'x' is not a whole number, as its tag !!int says; remove the tag: pack files "
                "hold plain values only"),
], ids=["date", "digits", "nan", "tag"])
def test_a_set_value_the_loader_refuses_is_an_error(value, message):
    pack = str(H.MINIMAL.relative_to(REPO))
    old = Path.cwd()
    os.chdir(REPO)
    try:
        result = CliRunner().invoke(main, ["compare", pack, "-n", "2", "-p", "2", "--workers", "1", "--set", f"copper.cost={value}"])
    finally:
        os.chdir(old)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.output.splitlines()[0] == f"error: {message}"


@needs_links
def test_meeple_test_reads_only_the_head_of_the_files_of_a_folder(tmp_path):
    """Scenario files are found by their first 2,000 bytes; a device or a pipe named *.yaml
    is no file to read (reading /dev/zero, or a pipe, would never end)."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    H.link(folder / "zero.yaml", Path("/dev/zero"))
    os.mkfifo(folder / "pipe.yaml")
    (folder / "big.yaml").write_text("# not a scenario\n" + "x" * 3_000_000 + "\n", encoding="utf-8")
    with counted() as work:
        result = CliRunner().invoke(main, ["test", str(folder)])
    assert work.calls < 20_000, work          # 1,117 today: nothing is read past the heads
    assert result.exit_code == ExitCode.CONTENT_INVALID and "no scenario files found" in result.output


def test_a_provisional_note_is_printed_escaped(tmp_path):
    changes = H.with_value("cards.yaml", "cost", '1\n    provisional: {cost: "a guess\\x1b[2J\\u202e"}')
    root = H.write_pack(tmp_path / "p", changes)
    result, _ = validate("p", cwd=tmp_path)
    assert result.exit_code == ExitCode.OK, result.output
    assert "p/cards.yaml:6:11: warning: provisional value copper.cost: a guess\\x1b[2J\\u202e" in result.output.splitlines()


@pytest.mark.parametrize("setting, message", [
    ("temple.copies=1000000", "card 'temple': copies: must be at most 1000, found 1000000"),
    ("temple.copies=abc", "card 'temple': copies: expected a whole number, found the text 'abc'"),
    ("temple.name=[1, 2]", "card 'temple': name: expected a text or a mapping (key: value), found a list"),
    ("temple.cost=-5", "card 'temple': cost must be at least 0, not -5"),
    ("city_size=abc", "constant 'city_size': expected a whole number or a mapping (key: value), found the text 'abc'"),
    ("temple.id=church", "a card's id names it; it cannot be set"),
], ids=["copies past the schema's bound", "copies not a number", "a name of the wrong shape", "below the field's min",
        "a constant not a number", "an id"])
def test_a_set_value_gets_the_checks_of_the_same_value_in_a_pack_file(monkeypatch, setting, message):
    """`--set` passes through the pack file's schema and the card kind's bounds: what a
    pack file could not hold is a usage error naming the option, before any game."""
    import meeple.workbench.compare
    monkeypatch.setattr(meeple.workbench.compare, "compare", lambda *a, **k: pytest.fail("the games were played"))
    result = CliRunner().invoke(main, ["compare", "citadels", "-n", "2", "-p", "4", "--workers", "1", "--set", setting])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.output == f"error: --set {setting!r}: {message}\n"
