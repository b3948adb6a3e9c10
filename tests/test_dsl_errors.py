"""Effect-language errors: the exact message and where it points.

Syntax errors come from ``meeple.dsl.parser.parse`` with a TextOrigin (the place in
a YAML file where the text starts); check errors from compiling a snippet as a
procedure of the minimal test pack. Positions are given inside the snippet
(line 1, column 1 = its first character) and mapped to the file here, so each
row reads like the text it tests.
"""
import shutil
from pathlib import Path

import pytest

from meeple.dsl.parser import parse
from meeple.core.errors import DslCheckError, DslSyntaxError, Problems, RuleError
from meeple.runtime.game import STEP_BUDGET, Game
from meeple.loading.pack import read_pack
from meeple.loading.yamlsrc import TextOrigin

MINIMAL = Path(__file__).parent / "content" / "valid" / "minimal"

# ---------------------------------------------------------------- syntax
# (id, start rule, text, message (with hint), (line, col) inside the text)
SYNTAX = [
    ("if-without-colon", "start", "gain 2 gold\nif x\n    stop", "line ends too early; expected ':'", (2, 5)),
    ("if-without-colon-before-comment", "start", "if x  # note\n    stop", "line ends too early; expected ':'", (1, 5)),
    ("gain-without-resource", "start", "gain 2", "line ends too early; expected a name", (1, 7)),
    ("move-without-to", "start", "move c", "line ends too early; expected 'to'", (1, 7)),
    ("for-each-without-colon", "start", "for each c in hand\n    stop", "line ends too early; expected ':', 'by' or 'where'", (1, 19)),
    ("may-alone", "start", "may", "line ends too early; expected 'choose'", (1, 4)),
    ("unclosed-list", "start", "let x = [1, 2", "text ends too early; expected ',' or ']'", (1, 14)),
    ("stray-paren", "start", "gain 2 gold)", "unexpected ')'; expected end of line", (1, 12)),
    ("let-without-name", "start", "let = 3", "unexpected '='; expected a name or end of line", (1, 5)),
    ("log-without-quotes", "start", "log hello", "unexpected 'hello'; expected a quoted text or end of line", (1, 5)),
    ("unclosed-quotes", "start", 'log "hello', 'this quoted text does not end on its line; close it with "', (1, 5)),
    ("bad-character", "start", "gain 2 gold!", "unexpected symbol '!'", (1, 12)),
    ("not-a-statement", "start", "foo bar",
     "unexpected 'foo'; expected a statement (gain, set, move, if, for each, ...) or end of line", (1, 1)),
    ("trailing-comma", "start", "call f(1,)",
     "unexpected ')'; expected a value (a number, a name, a quoted text, ...) or end of line", (1, 10)),
    ("block-not-indented", "start", "if x:\nstop", "expected an indented block: indent the lines after ':'", (2, 1)),
    ("unexpected-indent", "start", "gain 2 gold\n    gain 1 gold",
     "unexpected indentation: only the lines after a ':' are indented", (2, 5)),
    ("dedent-to-nowhere", "start", "if x:\n    stop\n  stop",
     "this line is indented by 2, which matches no enclosing block (indented by 0 or 4)", (3, 3)),
    ("expression-ends-early", "expr_start", "x +", "line ends too early; expected a value (a number, a name, a quoted text, ...)", (1, 4)),
    ("empty-expression", "expr_start", "", "text ends too early; expected a value (a number, a name, a quoted text, ...)", (1, 1)),
    ("two-values", "expr_start", "a b", "unexpected 'b'; expected end of line or end of text", (1, 3)),
    ("expression-on-two-lines", "expr_start", "size(deck) == 0\nand true",
     "unexpected 'and' at the start of a line; an expression ends with its line; to go on, put it in ( )", (2, 1)),
    ("if-then-without-else", "expr_start", "if x then 1", "line ends too early; expected 'else'", (1, 12)),
    ("field-without-name", "expr_start", "x.", "line ends too early; expected a name", (1, 3)),
    ("binder-without-source", "binder_start", "c in", "line ends too early; expected a value (a number, a name, a quoted text, ...)", (1, 5)),
]


@pytest.mark.parametrize("start, text, message, where", [c[1:] for c in SYNTAX], ids=[c[0] for c in SYNTAX])
def test_syntax_error(start, text, message, where):
    # A block scalar whose text starts at line 10, column 7 of f.yaml.
    with pytest.raises(DslSyntaxError) as info:
        parse(text, TextOrigin("f.yaml", 10, 7, True), start)
    err = info.value
    assert err.message + (f"; {err.hint}" if err.hint else "") == message
    assert (err.span.file, err.span.line - 9, err.span.col - 6) == ("f.yaml", *where)


def test_syntax_error_in_a_one_line_value_maps_to_its_column():
    # `end_when: "size(deck) =="`: the text starts after the quote, at column 12.
    with pytest.raises(DslSyntaxError) as info:
        parse("size(deck) ==", TextOrigin("g.yaml", 4, 12, False), "expr_start")
    assert (info.value.span.line, info.value.span.col) == (4, 25)


# ---------------------------------------------------------------- checks
# (id, snippet, message (with hint), (line, col) inside the snippet).
# The snippet is the effect of a procedure with params c: coin, p: player, n: int.
CHECKS = [
    ("unknown-resource", "gain 2 glod", "unknown resource 'glod'; did you mean 'gold'?", (1, 8)),
    ("unknown-resource-nested", "gain 1 gold\nif n > 0:\n    gain n glod", "unknown resource 'glod'; did you mean 'gold'?", (3, 12)),
    ("gain-a-bool", "gain true gold", "expected a number, found true/false", (1, 6)),
    ("unknown-zone", "move c to hnad", "unknown zone 'hnad'; did you mean 'hand'?", (1, 11)),
    ("unknown-name", "let y = x", "unknown name 'x'", (1, 9)),
    ("unknown-field", "let x = c.cots", "coin cards have no field 'cots'; did you mean 'cost'?", (1, 9)),
    ("unknown-field-in-comprehension", "let x = first(d in hand where d.cots > 1)",
     "coin cards have no field 'cots'; did you mean 'cost'?", (1, 31)),
    ("unknown-card-id", "if c is crwon:\n    stop", "unknown card id 'crwon'; did you mean 'crown'?", (1, 9)),
    ("card-id-as-value", "let x = crown", "'crown' is a card id; compare with 'x is crown'", (1, 9)),
    ("unknown-procedure", "call trun()", "unknown procedure 'trun'; did you mean 'turn'?", (1, 1)),
    ("unknown-event", "emit takn(c)", "unknown event 'takn' (declare it under events:); did you mean 'taken'?", (1, 1)),
    ("event-argument-type", "emit taken(p)", "event 'taken': 'card' must be a coin card, found a player", (1, 12)),
    ("unknown-hook", "do bnous of c", "'bnous' is not a hook of coin; did you mean 'bonus'?", (1, 1)),
    ("unknown-action-group", "play actions trun until passed", "unknown action group 'trun'; did you mean 'turn'?", (1, 1)),
    ("unknown-function", "let x = foo(1)", "unknown function 'foo'", (1, 9)),
    ("set-wrong-type", "set passed = 3", "'passed' holds true/false, not a number", (1, 5)),
    ("set-undeclared", "set nothing = 1", "cannot set 'nothing': not a variable (declare it, or use 'let')", (1, 5)),
    ("set-card-field", "set c.cost = 1", "cannot set 'cost': not a card variable", (1, 5)),
    ("for-each-over-number", "for each x in 3:\n    stop", "'for each' needs a zone or list, found a number", (1, 15)),
    ("while-number", "while 1:\n    stop", "expected a condition (true/false), found a number", (1, 7)),
    ("repeat-bool", "repeat true times:\n    stop", "expected a number, found true/false", (1, 8)),
    ("require-number", 'require 1 "no"', "expected a condition (true/false), found a number", (1, 9)),
    ("move-a-player", "move p to hand", "expected cards to move, found a player", (1, 6)),
    ("shuffle-a-player", "shuffle p", "expected a zone, found a player", (1, 9)),
    ("draw-into-a-player", "draw 1 from hand to p", "expected a zone, found a player", (1, 21)),
    ("give-to-a-card", "give 1 gold to c", "expected a player, found a coin card", (1, 16)),
    ("as-a-card", "as c:\n    stop", "expected a player, found a coin card", (1, 4)),
    ("choose-from-number", "choose x from 3", "choose from a zone or list, not a number", (1, 15)),
    ("field-of-player", "let x = p.cost", "write 'cost of ...' for a player's cost", (1, 9)),
    ("resource-of-card", "let x = gold of c", "expected a player, found a coin card", (1, 17)),
    ("shared-zone-of-player", "let x = deck of p", "'deck' is a shared zone; write just 'deck'", (1, 9)),
    ("shared-zone-of-all", "let x = deck of all", "'deck of all' needs a zone each player has", (1, 9)),
    ("compare-card-player", "let x = c == p", "cannot compare a coin card with a player", (1, 9)),
    ("add-bool", "let x = 1 + true", "expected a number, found true/false", (1, 13)),
    ("add-bool-after-aggregate", "let x = max(d.cost for d in hand) + true", "expected a number, found true/false", (1, 37)),
    ("not-number", "let x = not 3", "expected a condition (true/false), found a number", (1, 13)),
    ("negate-bool", "let x = -true", "expected a number, found true/false", (1, 10)),
    ("if-number", "let x = if 1 then 2 else 3", "expected a condition (true/false), found a number", (1, 12)),
    ("in-number", "let x = 3 in 4", "'in' needs a zone or list, found a number", (1, 14)),
    ("player-in-zone", "let x = p in hand", "only cards are in zones, found a player", (1, 9)),
    ("sum-of-cards", "let x = sum(c in hand)", "sum() needs numbers: write sum(x.field for x in ...)", (1, 13)),
]


@pytest.fixture(scope="module")
def probe_pack(tmp_path_factory):
    root = tmp_path_factory.mktemp("probe") / "minimal"
    shutil.copytree(MINIMAL, root)
    game_text = (MINIMAL / "game.yaml").read_text(encoding="utf-8")

    def compile_snippet(snippet: str):
        body = "".join(f"      {line}\n" for line in snippet.splitlines())
        text = game_text.replace("procedures:\n", "procedures:\n  probe:\n    params: {c: coin, p: player, n: int}\n"
                                 "    effect: |\n" + body, 1)
        (root / "game.yaml").write_text(text, encoding="utf-8")
        first_line = text.splitlines().index("  probe:") + 4
        problems = Problems()
        pack = read_pack(root, problems)
        assert pack is not None and not problems.errors, problems.errors
        Game(pack, problems)
        return problems.errors, first_line
    return compile_snippet


@pytest.mark.parametrize("snippet, message, where", [c[1:] for c in CHECKS], ids=[c[0] for c in CHECKS])
def test_check_error(probe_pack, snippet, message, where):
    errors, first_line = probe_pack(snippet)
    assert len(errors) == 1, [e.message for e in errors]
    err = errors[0]
    assert isinstance(err, DslCheckError)
    assert err.message + (f"; {err.hint}" if err.hint else "") == message
    assert err.span.file.endswith("game.yaml")
    assert (err.span.line - first_line + 1, err.span.col - 6) == where


def test_valid_snippet_compiles(probe_pack):
    errors, _ = probe_pack("gain n gold\nif c is crown and p == me:\n    move c to hand\nset passed = true")
    assert errors == []


# ---------------------------------------------------------------- step budget
LOOP_GAME = """\
kind: game
players: {min: 1, max: 2}
resources:
  gold: {}
card_kinds:
  token: {starts_in: pile}
zones:
  pile: {per: game, visibility: public, holds: token}
flow:
  setup: |
    shuffle pile
  round: |
    shuffle pile
    while true:
        let x = 1
  end_when: round > 1
  scoring: |
    shuffle pile
score:
  resource: gold
"""


def test_step_budget_stops_an_endless_loop_at_its_line(tmp_path):
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: loop\nname: Loop\nversion: "0.1"\n', encoding="utf-8")
    (tmp_path / "game.yaml").write_text(LOOP_GAME, encoding="utf-8")
    problems = Problems()
    pack = read_pack(tmp_path, problems)
    assert pack is not None and not problems.errors, problems.errors
    game = Game(pack, problems)
    assert not problems.errors, problems.errors
    with pytest.raises(RuleError) as info:
        game.new_state(1, seed=1)
    err = info.value
    assert f"step budget of {STEP_BUDGET} exceeded" in err.message
    assert "(in round)" in err.message
    assert err.span.file.endswith("game.yaml")
    assert err.span.line in (14, 15)          # the `while` or the `let` of its body


def test_rules_that_call_themselves_stop_with_a_located_error(tmp_path):
    """A procedure calling itself is cut at a depth limit, not run until memory runs out."""
    import shutil
    from meeple.core.errors import RuleError
    from meeple.runtime.game import MAX_DEPTH, load_game
    pack = tmp_path / "pack"
    shutil.copytree(Path(__file__).parent / "packs" / "flags", pack)
    game = pack / "game.yaml"
    text = game.read_text()
    text = text.replace("procedures:\n", "procedures:\n  forever:\n    effect: |\n      call forever()\n", 1)
    text = text.replace("  setup: |\n    let nothing = 0\n", "  setup: |\n    call forever()\n", 1)
    game.write_text(text)
    g = load_game(str(pack))
    with pytest.raises(RuleError) as info:
        g.new_state(2, 1)
    assert f"more than {MAX_DEPTH} deep" in info.value.message
    assert info.value.span.file.endswith("game.yaml") and info.value.span.line > 0


# ---------------------------------------------------------------- texts in quoted and plain YAML scalars
# (id, the effect as written in the YAML file after 'effect: ' (lines after the first are
#  written as they stand), message, (line, column) in the file counted from the 'effect:' line)
QUOTED = [
    ("double-quoted-newline-escape", r'"gain 1 gold\nbad syntax"',
     "unexpected 'bad'; expected a statement (gain, set, move, if, for each, ...) or end of line", (1, 27)),
    ("double-quoted-indented-after-escape", r'"gain 1 gold\n  gain 1 gold"',
     "unexpected indentation: only the lines after a ':' are indented", (1, 29)),
    ("double-quoted-escaped-quotes-first", r'"log \"hi\"\ngain 1 glod"', "unknown resource 'glod'; did you mean 'gold'?", (1, 33)),
    ("double-quoted-tab-escape", r'"gain\t1 glod"', "unknown resource 'glod'; did you mean 'gold'?", (1, 22)),
    ("double-quoted-unicode-escape", r'"log \u0022x\u0022\ngain 1 glod"', "unknown resource 'glod'; did you mean 'gold'?", (1, 40)),
    ("double-quoted-folded", '"gain 1 gold\n      gain 1 glod"', "unexpected 'gain'; expected end of line", (2, 7)),
    ("double-quoted-escaped-line-break", '"gain 1 \\\n      glod"', "unknown resource 'glod'; did you mean 'gold'?", (2, 7)),
    ("double-quoted-blank-line-is-a-newline", '"gain 1 gold\n\n      foo"',
     "unexpected 'foo'; expected a statement (gain, set, move, if, for each, ...) or end of line", (3, 7)),
    ("single-quoted-doubled-quote", "'log \"it''s\"\n\n      gain 1 glod'", "unknown resource 'glod'; did you mean 'gold'?", (3, 14)),
    ("plain-folded", "gain 1 gold\n      gain 1 glod", "unexpected 'gain'; expected end of line", (2, 7)),
    ("plain-blank-line", "gain 1 gold\n\n      gain 1 glod", "unknown resource 'glod'; did you mean 'gold'?", (3, 14)),
    ("plain-one-line", "gain 1 glod", "unknown resource 'glod'; did you mean 'gold'?", (1, 20)),
    ("double-quoted-one-line", '"gain 1 glod"', "unknown resource 'glod'; did you mean 'gold'?", (1, 21)),
    ("double-quoted-text-ends-early", r'"gain 1 gold\nmove c"', "line ends too early; expected 'to'", (1, 33)),
    ("folded-first-paragraph", ">\n      gain 1 gold\n      gain 1 glod", "unexpected 'gain'; expected end of line", (3, 7)),
    ("folded-second-paragraph", ">\n      gain 1 gold\n\n      gain 1 glod", "unknown resource 'glod'; did you mean 'gold'?", (4, 14)),
    ("folded-more-indented-line", ">\n      gain 1 gold\n\n      if true:\n          gain 1 glod",
     "unknown resource 'glod'; did you mean 'gold'?", (5, 18)),
    ("folded-after-blank-lines", ">-\n\n\n      gain 1 glod", "unknown resource 'glod'; did you mean 'gold'?", (4, 14)),
    ("literal-after-blank-lines", "|\n\n      gain 1 gold\n\n      gain 1 glod", "unknown resource 'glod'; did you mean 'gold'?", (5, 14)),
]


def _probe_effect(root: Path, written: str) -> tuple:
    shutil.copytree(MINIMAL, root)
    game = (MINIMAL / "game.yaml").read_text(encoding="utf-8")
    game = game.replace("procedures:\n", "procedures:\n  probe:\n    params: {c: coin}\n    effect: " + written + "\n", 1)
    (root / "game.yaml").write_text(game, encoding="utf-8")
    effect_line = game.splitlines().index("  probe:") + 3
    problems = Problems()
    pack = read_pack(root, problems)
    assert pack is not None and not problems.errors, [str(e) for e in problems.errors]
    Game(pack, problems, generate=False)
    return problems.errors, effect_line


@pytest.mark.parametrize("written, message, where", [c[1:] for c in QUOTED], ids=[c[0] for c in QUOTED])
def test_errors_in_quoted_and_plain_scalars_point_at_the_right_place(tmp_path, written, message, where):
    """The text of a quoted or plain scalar is not its source: escapes ('\\n', '\\"', "''")
    and folded lines move its characters. The error is where the character is written."""
    errors, effect_line = _probe_effect(tmp_path / "p", written)
    assert len(errors) == 1, [str(e) for e in errors]
    err = errors[0]
    assert err.message + (f"; {err.hint}" if err.hint else "") == message
    assert (err.span.line - effect_line + 1, err.span.col) == where


def test_a_scalar_read_otherwise_than_yaml_did_points_at_its_start():
    """Where the text cannot be matched with its source, the start of the scalar, never a wrong line."""
    from meeple.dsl.parser import to_span
    origin = TextOrigin("f.yaml", 4, 13, False, raw='"gain 1 \\q"', style='"', text="gain 1 ?")
    assert (to_span(origin, 1, 8).line, to_span(origin, 1, 8).col) == (4, 12)
    origin = TextOrigin("f.yaml", 4, 13, False, raw='"gain 1 x"', style='"', text="not this text")
    assert (to_span(origin, 2, 3).line, to_span(origin, 2, 3).col) == (4, 12)


def test_every_character_of_a_dumped_scalar_maps_to_where_yaml_wrote_it():
    """Random texts written by PyYAML in every style but '|' (escapes, folding at a narrow width):
    each character maps to its own character in the file, to the backslash of its escape,
    or (a space or newline made by folding) to the end of a line."""
    import random
    import yaml
    from meeple.loading.yamlsrc import load_yaml_text
    from meeple.dsl.source import position
    rng = random.Random(7)
    styled = {'"': 0, "'": 0, "": 0, ">": 0}
    for k in range(300):
        # every other text is words only: PyYAML writes those plain, folded at the width
        alphabet = "ab c\"'\\\n\t#:é→" if k % 2 else "ab cd é"
        value = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))).strip() or "x"
        for style in ('"', "'", None, ">"):
            written = yaml.dump({"k": value}, default_style=style, width=rng.choice([10, 20, 80]), allow_unicode=True)
            doc = load_yaml_text(written, "f.yaml")
            assert doc.data["k"] == value
            origin = doc.origins[("k",)]
            if not origin.raw:
                continue
            styled[origin.style] += 1
            lines = written.splitlines()
            text_lines = value.split("\n")
            for li, text_line in enumerate(text_lines):
                for ci, ch in enumerate(text_line + "\n" if li < len(text_lines) - 1 else text_line):
                    at = position(origin, li + 1, ci + 1)
                    assert at is not None, (written, value)
                    source_line = lines[at[0] - 1]
                    source = source_line[at[1] - 1] if at[1] <= len(source_line) else "\n"
                    assert source == ch or source == "\\" or (ch in " \n" and source == "\n") \
                        or (ch == "'" and source == "'"), (written, value, li, ci, at)
    assert min(styled.values()) >= 50, styled


def test_a_long_quoted_text_is_refused_at_its_start_with_little_work(tmp_path):
    """200 KB of escapes on one line (a bigger file is refused before it is read: docs/limits.md, "Pack files"):
    reading the pack costs what a small pack costs (8,674 calls today), not a pass per escape."""
    from work import counted
    with counted() as work:
        errors, effect_line = _probe_effect(tmp_path / "p", '"' + "gain 1 gold\\n" * 16_000 + '"')
    assert work.calls < 100_000, work
    assert [e.message for e in errors] == ["this text is 192,000 chars long; a text of the effect language has at most 10,000"]
    assert (errors[0].span.line, errors[0].span.col) == (effect_line, len("    effect: ") + 1)
