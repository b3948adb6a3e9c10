"""`meeple compile GAME [-o FILE]`: the Python a pack's rules run as, for reading."""
import ast

from click.testing import CliRunner

from meeple.cli import ExitCode, main
from meeple.runtime.game import load_game


def test_compile_prints_the_module_a_game_runs():
    r = CliRunner().invoke(main, ["compile", "troyes"])
    assert r.exit_code == ExitCode.OK, r.output
    assert r.output == load_game("troyes").pygen.source
    tree = ast.parse(r.output)          # Python as written, each function after its comment
    assert len([n for n in tree.body if isinstance(n, ast.FunctionDef)]) == r.output.count("\n# ") + 1 > 100


def test_compile_writes_the_module_to_a_file(tmp_path):
    out = tmp_path / "citadels_rules.py"
    r = CliRunner().invoke(main, ["compile", "citadels", "-o", str(out)])
    assert r.exit_code == ExitCode.OK, r.output
    source = out.read_text(encoding="utf-8")
    assert source == load_game("citadels").pygen.source
    assert r.output == f"wrote {out}: {source.count(chr(10))} lines, {source.count(chr(10) + 'def ')} functions\n"


def test_compile_refuses_a_pack_that_is_not_there_and_a_file_it_cannot_write(tmp_path):
    r = CliRunner().invoke(main, ["compile", "no_such_pack"])
    assert r.exit_code == ExitCode.USAGE and "no pack 'no_such_pack'" in r.output
    r = CliRunner().invoke(main, ["compile", "citadels", "-o", str(tmp_path / "missing" / "x.py")])
    assert r.exit_code == ExitCode.USAGE and "does not exist" in r.output
