"""The documents a user follows stay true and whole.

README.md is short (at most 300 lines: what meeple is, set-up, a tour, where to
read next); every relative link of README.md and docs/*.md leads to a file that
exists (and to a heading that exists, when it names one); docs/cli.md is what
tools/make_cli_docs.py makes of the click commands today; the commands the
documents show print what the documents say (the lines shown, in order, timings
aside); and the product never points at the team's private workspace.
"""
from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import doctext
from meeple.cli import main

ROOT = doctext.ROOT
DOCS = ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))


def test_the_readme_is_at_most_300_lines():
    lines = doctext.text("README.md").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; move detail into docs/"


def test_there_are_documents_to_check():
    assert {"docs/index.md", "docs/cli.md", "docs/language.md", "docs/packs.md", "docs/modding.md",
            "docs/workbench.md", "docs/scenarios.md", "docs/provenance.md", "docs/limits.md",
            "docs/architecture.md", "docs/performance.md"} <= set(DOCS)


@pytest.mark.parametrize("doc", DOCS)
def test_every_relative_link_resolves(doc):
    broken = []
    for target in doctext.links(doc):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):          # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (ROOT / doc).parent / path if path else ROOT / doc
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in doctext.anchors(str(dest.relative_to(ROOT))):
            broken.append(f"{target}: no heading with the anchor #{anchor}")
    assert not broken, f"{doc}: " + "; ".join(broken)


def test_a_broken_link_is_found(tmp_path, monkeypatch):
    """The link check can fail: a link to a missing file and one to a missing heading."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n\n## Some heading\n\n[x](b.md) [y](a.md#no-such) [z](#some-heading)\n")
    monkeypatch.setattr(doctext, "ROOT", tmp_path)
    assert doctext.links("docs/a.md") == ["b.md", "a.md#no-such", "#some-heading"]
    assert doctext.anchors("docs/a.md") == {"a", "some-heading"}


# ---------------------------------------------------------------- the generated command reference
def _generator():
    spec = importlib.util.spec_from_file_location("make_cli_docs", ROOT / "tools" / "make_cli_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_command_reference_is_up_to_date():
    made = _generator().render()
    assert doctext.text("docs/cli.md") == made, "docs/cli.md is out of date: run python tools/make_cli_docs.py"


def _commands(group, ctx) -> list:
    """(path, command) of every command under ``group``, a group's own commands after it (meeple rl)."""
    import click
    out = []
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        sub = click.Context(cmd, info_name=name, parent=ctx)
        out.append((sub.command_path, cmd))
        if isinstance(cmd, click.Group):
            out += _commands(cmd, sub)
    return out


def test_the_command_reference_names_every_command_and_option():
    import click
    text = doctext.text("docs/cli.md")
    commands = _commands(main, click.Context(main, info_name="meeple"))
    assert "meeple rl catalogue" in dict(commands)       # a group's commands are reached
    for path, cmd in commands:
        section = doctext.section("docs/cli.md", path)
        for param in cmd.params:
            if isinstance(param, click.Option):
                for opt in param.opts:
                    assert re.search(rf"`[^`]*{re.escape(opt)}\b", section), f"{path}: {opt} is not listed"
        assert section.count("```") >= 2, path
    assert len(re.findall(r"^## meeple\b", text, re.M)) == len(commands) + 1   # the group, each command


# ---------------------------------------------------------------- what the documents show meeple print
TIMES = [(re.compile(r"in \d+\.\d+ s\b"), "in T s"),                         # validate
         (re.compile(r": \d+\.\d+ s, \d+\.\d+ games/s"), ": T s, R games/s"),    # simulate
         (re.compile(r"\b\d+ worker\(s\)"), "K worker(s)"),                       # --workers auto: one per core
         (re.compile(r"\), \d+\.\d+ s$"), "), T s")]                               # compare


def _normal(line: str) -> str:
    for pattern, fixed in TIMES:
        line = pattern.sub(fixed, line)
    return line.rstrip()


def _shown_in_order(shown: str, output: str, where: str) -> None:
    """Every line the document shows (but '...') is a line of the output, in order."""
    lines = [_normal(line) for line in output.splitlines()]
    at = 0
    for line in shown.splitlines():
        if line.strip() == "...":
            continue
        want = _normal(line)
        try:
            at = lines.index(want, at) + 1
        except ValueError:
            raise AssertionError(f"{where}: meeple does not print, at this point, the line\n{line}\n"
                                 f"it prints:\n{output}") from None


# (document, the command as shown after '$ meeple ', where it runs: the repository or a fresh folder)
SHOWN = [
    ("README.md", "validate citadels", "repo"),
    ("README.md", "cards citadels", "repo"),
    ("README.md", "cards citadels warlord", "repo"),
    ("README.md", "test tests/scenarios/citadels/thief.yaml", "repo"),
    ("README.md", "simulate citadels -n 500 -p 4 --seed 1", "repo"),
    ("README.md", "compare citadels -n 400 -p 4 --set palace.points=8", "repo"),
    ("docs/packs.md", "validate citadels", "repo"),
    ("docs/packs.md", "validate tests/content/invalid/schema_and_dsl_errors", "repo"),
    ("docs/packs.md", "validate tests/content/hostile/run_field_of_none", "repo"),
    ("docs/packs.md", "cards citadels", "repo"),
    ("docs/packs.md", "cards citadels warlord", "repo"),
    ("docs/packs.md", "cards citadels warlord --generated --lang ja", "repo"),
    ("docs/packs.md", "schema --pack troyes cards", "repo"),
    ("docs/provenance.md", "cards citadels --provenance", "repo"),
    ("docs/modding.md", "diff tests/content/valid/minimal tests/content/valid/expansion", "repo"),
    ("docs/scenarios.md", "test tests/scenarios/citadels/thief.yaml", "repo"),
    ("docs/scenarios.md", "test tests/scenarios/citadels/merchant.yaml --pack tests/content/valid/rich-merchant", "repo"),
    ("docs/scenarios.md", "test tests/scenarios/engine/flags.yaml --trace", "repo"),
]


@functools.lru_cache(maxsize=None)
def _prints(command: str) -> str:
    """What ``meeple COMMAND`` prints in the repository, run once a session for all the
    documents that show it."""
    return CliRunner().invoke(main, command.split()).output


@pytest.mark.parametrize("doc, command, where", SHOWN, ids=[f"{d}: {c}" for d, c, _ in SHOWN])
def test_a_document_shows_what_the_command_prints(doc, command, where, monkeypatch):
    monkeypatch.chdir(ROOT)
    shown = doctext.output_of(doc, f"meeple {command}")
    _shown_in_order(shown, _prints(command), f"{doc}, meeple {command}")


# (document, commands run one after another in a fresh folder, each shown after '$ meeple ')
MADE = [
    ("README.md", ["new-pack mymod --extends citadels", "test mymod/tests"]),
    ("docs/modding.md", ["new-pack mymod --extends citadels", "validate mymod --only-mine"]),
    ("docs/packs.md", ["new-game mygame", "validate mygame", "test mygame/scenarios"]),
]


@pytest.mark.parametrize("doc, commands", MADE, ids=[f"{d}: {c[0]}" for d, c in MADE])
def test_a_document_shows_what_a_new_pack_gives(doc, commands, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in commands:
        shown = doctext.output_of(doc, f"meeple {command}")
        result = CliRunner().invoke(main, command.split())
        assert result.exit_code == 0, result.output
        _shown_in_order(shown, result.output, f"{doc}, meeple {command}")


def test_a_line_meeple_does_not_print_is_found():
    with pytest.raises(AssertionError, match="does not print"):
        _shown_in_order("a\n...\nc\nb\n", "a\nb\nc\n", "here")
    _shown_in_order("a\n...\nc\n", "a\nb\nc\n", "here")
    _shown_in_order("x: valid in 0.29 s\n", "x: valid in 1.50 s\n", "here")
    _shown_in_order("seed 1, 2 worker(s): 5.80 s, 86.13 games/s\n", "seed 1, 4 worker(s): 2.10 s, 238.1 games/s\n", "here")
    with pytest.raises(AssertionError):
        _shown_in_order("seed 1, 2 worker(s): 5.80 s\n", "seed 2, 2 worker(s): 5.80 s\n", "here")


# ---------------------------------------------------------------- examples that are files of the repository
def test_the_first_scenario_example_is_the_kept_file():
    shown = doctext.blocks("docs/scenarios.md", "yaml")[0]
    kept = (ROOT / "tests" / "scenarios" / "readme" / "example.yaml").read_text(encoding="utf-8")
    assert kept.split("\n", 2)[2] == shown          # the file, but its two comment lines


def test_every_primitive_is_in_the_language_table():
    from meeple.dsl.primitives import PRIMITIVES
    table = doctext.section("docs/language.md", "Primitives")
    missing = [name for name in PRIMITIVES if not re.search(rf"`{name}\(", table)]
    assert not missing, f"docs/language.md lists no {missing}"


# ---------------------------------------------------------------- the product names no private workspace
PRIVATE = ["DESIGN" + ".md", "CONVENTIONS" + ".md", "/work/" + "shared"]
SCANNED = ["README.md", "docs", "engine", "dsl", "schemas", "tests", "tools", "benchmarks", "pyproject.toml"]


def test_the_product_never_points_at_the_team_workspace():
    found = []
    for top in SCANNED:
        root = ROOT / top
        for path in ([root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())):
            if path.suffix not in {".py", ".md", ".yaml", ".toml", ".json", ".txt", ".lark", ".sh"}:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{path.relative_to(ROOT)}: {word}" for word in PRIVATE if word in text]
    assert not found, found


def test_the_public_api_example_runs(capsys):
    """docs/architecture.md's example of the public API plays a whole game."""
    code = doctext.blocks("docs/architecture.md", "python")[0]
    assert 'meeple.load("PACK")' in code
    exec(compile(code.replace('"PACK"', '"citadels"'), "docs/architecture.md", "exec"), {})
    scores, ranking, winners = capsys.readouterr().out.strip().split("] [")
    assert scores.startswith("[") and winners.endswith("]")
