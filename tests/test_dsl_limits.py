"""The documented limits of the effect language (dsl/limits.py, docs/limits.md):
texts too long, nested too deep, numbers too large and functions expanded too far
are refused with a located message, with little work (counted in function calls,
tests/work.py: the same on any machine); everything within the limits compiles in
linear time and runs, giving the value it should, from a deep stack too.
"""
import os
import random
import re
import shutil
from pathlib import Path

import pytest

from meeple.dsl.errors import DslCheckError, DslSyntaxError
from meeple.dsl.limits import MAX_DEPTH, MAX_EXPANSION, MAX_INT, MAX_TEXT
from meeple.dsl.parser import parse
from meeple.dsl.source import TextOrigin
from meeple.core.errors import Problems
from meeple.runtime.game import Game
from meeple.loading.pack import read_pack
from work import counted

MINIMAL = Path(__file__).parent / "content" / "valid" / "minimal"
# Every compile here (the minimal pack with one hostile or long text) and every refusal
# stays under this many function calls (tests/work.py); the most was 869,774 (the
# 5,000-term chain, with the closures and the generated code). A pass that walked a long text once per part, or a
# deep one once per level, would make tens of millions.
CALLS = 3_000_000


@pytest.fixture(autouse=True)
def _forget_the_trees_of_these_texts():
    """The parser keeps the trees of texts it has read (meeple.dsl.parser._TREES); the very deep and
    very long ones made here are not left for other tests, which walk them recursively."""
    import meeple.dsl.parser as P
    before = set(P._TREES)
    yield
    for key in set(P._TREES) - before:
        del P._TREES[key]


def make_pack(root: Path, setup: str, functions: str = "") -> Path:
    """The minimal pack with game variables ``out`` (a number) and ``flag`` (true/false),
    ``setup`` appended to its setup (each line indented as written) and ``functions``."""
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(MINIMAL, root)
    game = (MINIMAL / "game.yaml").read_text(encoding="utf-8")
    game = game.replace("player_variables:\n", "variables:\n  out: int\n  flag: bool\n\nplayer_variables:\n", 1)
    if functions:
        game = game.replace("procedures:\n", "functions:\n" + functions + "\nprocedures:\n", 1)
    game = game.replace("  setup: |\n    shuffle deck\n",
                        "  setup: |\n    shuffle deck\n" + "".join(f"    {line}\n" for line in setup.splitlines()), 1)
    (root / "game.yaml").write_text(game, encoding="utf-8")
    return root


def setup_line(root: Path) -> int:
    """The line of game.yaml where make_pack's ``setup`` text starts (column 5)."""
    lines = (root / "game.yaml").read_text(encoding="utf-8").splitlines()
    return lines.index("    shuffle deck") + 2


def compile_pack(root: Path, generate: bool):
    """(game, errors): the pack read and compiled with one back end."""
    problems = Problems()
    pack = read_pack(root, problems)
    assert pack is not None and not problems.errors, [str(e) for e in problems.errors]
    game = Game(pack, problems, generate=generate)
    return game, problems.errors


def at_stack_depth(frames: int, fn):
    """``fn()`` called with ``frames`` more frames on the stack (as from deep inside a caller)."""
    if frames > 0:
        return at_stack_depth(frames - 1, fn)
    return fn()


def run(root: Path, frames: int = 0):
    """Compile (the rules generated: the generator writes every expression itself, nothing
    stands in for it) and set up a game, from ``frames`` deeper. Returns the game variables."""
    def go():
        game, errors = compile_pack(root, True)
        assert errors == [], [str(e) for e in errors]
        st = game.new_state(2, 1)
        return list(st.gvars)
    with counted() as work:
        result = at_stack_depth(frames, go)
    assert work.calls < CALLS, work
    return result


def first_error(root: Path):
    with counted() as work:
        game, errors = compile_pack(root, generate=False)
    assert work.calls < CALLS, work
    assert errors, "expected an error"
    return errors[0]


# ---------------------------------------------------------------- chains: linear, never deep
def _chain(rng: random.Random, terms: int, ops: str) -> str:
    parts = [str(rng.randint(1, 9))]
    for _ in range(terms - 1):
        parts.append(rng.choice(ops))
        parts.append(str(rng.randint(1, 9)))
    return " ".join(parts)


def _python(text: str) -> int:
    """The value of a DSL chain of numbers in Python (DSL '/' rounds down)."""
    return eval(text.replace("/", "//"), {"__builtins__": {}})     # noqa: S307 - digits and operators only


CHAINS = [
    # (id, text of the 'set', expected value or None to compute it with Python)
    ("sum-200", "set out = " + " + ".join(["1"] * 200), 200),
    ("difference-200", "set out = 1000 - " + " - ".join(["2"] * 199), 1000 - 2 * 199),
    ("product-200", "set out = " + " * ".join(["1"] * 199) + " * 7", 7),
    ("mixed-200", "set out = " + _chain(random.Random(1), 200, "+-*"), None),
    ("with-division-200", "set out = " + _chain(random.Random(2), 200, "+-*/%"), None),
    ("names-200", "set out = " + " + ".join(["player_count"] * 200), 400),
    ("bracketed-sums-200", "set out = " + " * ".join(["(1 + 1)"] * 10) + " + " + " - ".join(["(2 * 3)"] * 190), None),
    ("and-200", "set flag = " + " and ".join(["1 < 2"] * 200), True),
    ("or-200", "set flag = " + " or ".join(["1 > 2"] * 199) + " or 3 >= 3", True),
    ("comparisons-of-chains", "set flag = " + " + ".join(["1"] * 100) + " == " + " * ".join(["10"] * 2), True),
    ("lists-200", "set out = size(" + " + ".join(["[1, 2]"] * 200) + ")", 400),
    ("sum-2000", "set out = " + " + ".join(["1"] * 2000), 2000),
    ("mixed-2000", "set out = " + _chain(random.Random(3), 2000, "+-*"), None),
    ("and-1000", "set flag = " + " and ".join(["true"] * 1000), True),
]


@pytest.mark.parametrize("text, value", [c[1:] for c in CHAINS], ids=[c[0] for c in CHAINS])
def test_long_chains_compile_and_give_pythons_value(tmp_path, text, value):
    """A chain of operators is one level of nesting however long it is: every pass walks
    it in a loop; it gives the value Python gives, within CALLS calls."""
    if value is None:
        value = _python(text.split("=", 1)[1])
    gvars = run(make_pack(tmp_path / "p", text))
    assert gvars[0 if text.startswith("set out") else 1] == value


@pytest.mark.parametrize("head, term, join", [("set out = ", "1", " + "), ("set out = ", "(2)", " - "),
                                              ("set flag = ", "true", " and ")],
                         ids=["sum", "bracketed-differences", "and"])
def test_a_chain_ten_times_longer_costs_ten_times_the_work(tmp_path, head, term, join):
    """Compiling a chain and running it is linear in its length: beyond what the pack costs
    with a chain of one term, 1,000 terms cost at most 12 times what 100 cost, in function
    calls (tests/work.py; a pass over the chain at each of its parts would cost 100 times).
    Each is counted the second time it is compiled, its tree parsed (Lark's LALR parser,
    linear) and kept by the first, so that every count is of the same passes."""
    def cost(n: int) -> int:
        root = make_pack(tmp_path / f"p{n}", head + join.join([term] * n))
        for _ in range(2):
            with counted() as work:
                game, errors = compile_pack(root, True)
                assert errors == [], [str(e) for e in errors]
                game.new_state(2, 1)
        return work.calls
    base = cost(1)
    short, long = cost(100) - base, cost(1000) - base
    assert 0 < short and long <= 12 * short, (base, short, long)


@pytest.mark.slow
def test_a_chain_as_long_as_a_text_may_be_runs(tmp_path):
    """About 5,000 terms: more than Python's compiler takes in one expression, so the
    generated back end writes it one operator after the other; it gives its value.
    A soak at the limit (9 s): the brief run is the 2,000-term sum of
    test_long_chains_compile_and_give_pythons_value."""
    text = "set out = " + "+".join(["1"] * ((MAX_TEXT - 30) // 2))
    gvars = run(make_pack(tmp_path / "p", text))
    assert gvars[0] == (MAX_TEXT - 30) // 2


# ---------------------------------------------------------------- nesting
# (id, start of the line, one level (repeated), the innermost value, what closes a level,
#  (the repetition where the first part too deep with MAX_DEPTH = 64 is, its column in it))
NESTING = [
    ("not", "set flag = ", "not ", "true", "", (64, 0)),
    ("unary-minus", "set out = ", "-", "1", "", (64, 0)),
    ("unary-minus-spaced", "set out = ", "- ", "1", "", (64, 0)),
    ("list", "set out = size(", "[", "1", "]", (63, 0)),
    ("if-then-else", "set out = ", "if true then ", "1", " else 2", (63, 3)),     # the condition of the 63rd
    ("count", "set out = ", "count(y in [", "1", "])", (22, 0)),
    ("call", "set out = ", "abs(", "1", ")", (64, 0)),
    ("bracketed-sum", "set out = ", "1 + (", "1", ")", (63, 0)),                  # the left side of the 63rd '+'
    ("bracketed-and", "set flag = ", "true and (", "true", ")", (63, 0)),
    ("comparison", "set flag = ", "true == (", "true", ")", (63, 0)),
]


def nested(head: str, level: str, inner: str, close: str, n: int) -> str:
    return head + level * n + inner + close * n + (")" if head.endswith("(") else "")


def deepest(head: str, level: str, inner: str, close: str) -> int:
    """The most repetitions the parser takes."""
    n = 1
    origin = TextOrigin("f.yaml", 1, 1, False)
    while True:
        try:
            parse(nested(head, level, inner, close, n + 1), origin)
        except DslSyntaxError:
            return n
        n += 1


@pytest.mark.parametrize("head, level, inner, close, where", [c[1:] for c in NESTING], ids=[c[0] for c in NESTING])
def test_nesting_beyond_the_limit_is_refused_where_it_starts(tmp_path, head, level, inner, close, where):
    """One repetition more than the parser takes, and a thousand (or as many as a text may
    hold): the same located error, at the start of the first part too deep."""
    n = deepest(head, level, inner, close)
    for reps in (n + 1, min(1000, (MAX_TEXT - 40) // (len(level) + len(close)))):
        root = make_pack(tmp_path / "p", nested(head, level, inner, close, reps))
        err = first_error(root)
        assert isinstance(err, DslSyntaxError)
        assert err.message == f"nested too deeply: more than {MAX_DEPTH} levels (brackets, operators, 'not', 'if', blocks, ...)"
        assert err.hint == "name an inner part with 'let', or move it into a procedure"
        assert err.span.file.endswith("game.yaml")
        assert err.span.line == setup_line(root)
        assert err.span.col == 5 + len(head) + (where[0] - 1) * len(level) + where[1]


# what each nesting of NESTING gives with n levels: (the variable, its value)
NESTED_VALUE = {
    "not": lambda n: ("flag", n % 2 == 0), "unary-minus": lambda n: ("out", (-1) ** n),
    "unary-minus-spaced": lambda n: ("out", (-1) ** n), "list": lambda n: ("out", 1),
    "if-then-else": lambda n: ("out", 1), "count": lambda n: ("out", 1), "call": lambda n: ("out", 1),
    "bracketed-sum": lambda n: ("out", n + 1), "bracketed-and": lambda n: ("flag", True),
    "comparison": lambda n: ("flag", True),
}


@pytest.mark.parametrize("case, head, level, inner, close", [c[:5] for c in NESTING], ids=[c[0] for c in NESTING])
def test_nesting_up_to_the_limit_runs_from_a_deep_stack(tmp_path, case, head, level, inner, close):
    """The deepest text the parser takes: every pass (checks, generated Python, the caches
    of loops, running it) stays within Python's recursion limit with 500 frames already
    in use, and gives the innermost value through every level."""
    n = deepest(head, level, inner, close)
    assert n >= MAX_DEPTH // 4
    gvars = run(make_pack(tmp_path / "p", nested(head, level, inner, close, n)), frames=500)
    name, value = NESTED_VALUE[case](n)
    assert gvars[("out", "flag").index(name)] == value


# (id, a block's first line (its level's indentation comes before it),
#  (the block line where the first part too deep is, its column after the indentation)
#  in 100 blocks inside each other)
BLOCKS = [
    ("if", "if true:", (64, 3)),                    # the condition of the 64th 'if'
    ("for-each", "for each v in [1]:", (63, 15)),   # the item of the list of the 63rd
    ("repeat", "repeat 1 times:", (64, 7)),
    ("while", "while out < 7:", (63, 6)),           # 'out' in the condition of the 63rd
    ("as", "as me:", (64, 3)),
]
RUNNABLE = ["if true:", "for each v in [1]:", "repeat 1 times:", "while out < 7:"]     # 'as me' needs a player


def blocks(head: str, n: int, indent: str = " ") -> str:
    return "".join(indent * i + head + "\n" for i in range(n)) + indent * n + "set out = 7"


def deepest_blocks(head: str) -> int:
    n = 1
    origin = TextOrigin("f.yaml", 1, 1, True)
    while True:
        try:
            parse(blocks(head, n + 1), origin)
        except DslSyntaxError:
            return n
        n += 1


@pytest.mark.parametrize("head, where", [c[1:] for c in BLOCKS], ids=[c[0] for c in BLOCKS])
def test_blocks_nested_beyond_the_limit_are_refused_at_the_first_too_deep(tmp_path, head, where):
    root = make_pack(tmp_path / "p", blocks(head, 100))
    err = first_error(root)
    assert err.message.startswith("nested too deeply")
    line, col = where
    assert (err.span.line, err.span.col) == (setup_line(root) + line - 1, 5 + (line - 1) + col)


@pytest.mark.parametrize("head", RUNNABLE)
def test_blocks_nested_up_to_the_limit_run(tmp_path, head):
    """Python allows 20 nested loops and about 100 levels of indentation: the generated
    back end writes a block nested deeper as a function of its own, which runs."""
    n = deepest_blocks(head)
    assert n >= MAX_DEPTH - 4
    gvars = run(make_pack(tmp_path / "p", blocks(head, n)), frames=500)
    assert gvars[0] == 7


def test_nested_blocks_too_many_for_a_text_are_refused_by_its_length(tmp_path):
    """300 blocks inside each other take more than MAX_TEXT characters."""
    root = make_pack(tmp_path / "p", blocks("if true:", 300))
    err = first_error(root)
    assert "chars long; a text of the effect language has at most" in err.message
    assert (err.span.line, err.span.col) == (setup_line(root) - 1, 5)


def test_a_long_elif_chain_is_not_nesting(tmp_path):
    """300 'elif's are one statement, not 300 levels (the generated back end writes Python's
    'elif', not an 'if' inside each 'else')."""
    text = "if out == 1:\n    set out = 0\n" + "elif out == 1:\n    set out = 0\n" * 300 + "else:\n    set out = 7"
    gvars = run(make_pack(tmp_path / "p", text))
    assert gvars[0] == 7


# ---------------------------------------------------------------- numbers and lengths
NUMBERS = [
    # (id, text, message or None when it is taken, (line, column) in the text)
    ("largest", f"set out = {MAX_INT}", None, None),
    ("largest-negative", f"set out = -{MAX_INT}", None, None),
    ("leading-zeros", "set out = " + "0" * 5000 + "7", None, None),
    ("one-more", f"set out = {MAX_INT + 1}", f"number {MAX_INT + 1} is too large: numbers are at most {MAX_INT:,}", (1, 11)),
    ("in-a-sum", f"set out = 1 + {10 ** 18}", f"number {10 ** 18} is too large: numbers are at most {MAX_INT:,}", (1, 15)),
    ("beyond-python-s-reading-limit", "set out = " + "9" * 4301,
     f"number 999999999999... (4,301 digits) is too large: numbers are at most {MAX_INT:,}", (1, 11)),
    ("second-line", "set out = 1\nset out = " + "1" * 5000,
     f"number 111111111111... (5,000 digits) is too large: numbers are at most {MAX_INT:,}", (2, 11)),
]


@pytest.mark.parametrize("text, message, where", [c[1:] for c in NUMBERS], ids=[c[0] for c in NUMBERS])
def test_numbers_beyond_the_limit_are_refused_where_they_are_written(tmp_path, text, message, where):
    root = make_pack(tmp_path / "p", text)
    if message is None:
        gvars = run(root)
        written = text.rsplit("= ", 1)[1]
        assert gvars[0] == (-1 if written.startswith("-") else 1) * int(written.lstrip("-").lstrip("0") or "0")
        return
    err = first_error(root)
    assert isinstance(err, DslSyntaxError) and err.message == message
    assert (err.span.line, err.span.col) == (setup_line(root) + where[0] - 1, 5 + where[1] - 1)


@pytest.mark.parametrize("start", ["start", "expr_start", "binder_start"])
def test_a_text_over_the_length_limit_is_refused_before_it_is_read(start):
    origin = TextOrigin("f.yaml", 7, 3, True)
    taken = "1" + " " * (MAX_TEXT - 1) if start == "expr_start" else ("x in hand" if start == "binder_start" else "stop")
    parse(taken.ljust(MAX_TEXT), origin, start)
    for size in (MAX_TEXT + 1, 1_000_000):
        text = ("1 + " * size)[:size]
        with counted() as work:
            with pytest.raises(DslSyntaxError) as info:
                parse(text, origin, start)
        assert work.calls < 1_000, work          # refused before the text is read: 42 calls today
        err = info.value
        assert err.message == f"this text is {size:,} chars long; a text of the effect language has at most {MAX_TEXT:,}"
        assert err.hint == "split it into procedures or functions"
        assert (err.span.file, err.span.line, err.span.col) == ("f.yaml", 7, 3)


def test_a_long_line_is_refused_with_little_work(tmp_path):
    """200 KB on one line (a megabyte file is refused before it is read: docs/limits.md, "Pack files")."""
    root = make_pack(tmp_path / "p", "set out = " + " + ".join(["1"] * 50_000))
    err = first_error(root)
    assert err.message.startswith("this text is 200,0")
    assert (err.span.line, err.span.col) == (setup_line(root) - 1, 5)       # where the setup text starts


# ---------------------------------------------------------------- functions, expanded where used
def functions(bodies: list) -> str:
    """Functions f0, f1, ... of one number x, with these bodies."""
    return "".join(f"  f{i}:\n    params: {{x: int}}\n    value: {body}\n" for i, body in enumerate(bodies))


def test_functions_using_each_other_too_deep_are_refused_without_recursing(tmp_path):
    """A chain of 300 functions, each using the next: its expansion would be 600 levels
    deep. Refused at the first use whose expansion is too deep, with little work."""
    bodies = [f"f{i + 1}(x) + 1" for i in range(299)] + ["x"]
    root = make_pack(tmp_path / "p", "set out = f0(1)", functions(bodies))
    with counted() as work:
        game, errors = compile_pack(root, generate=False)
    assert work.calls < CALLS, work
    err = errors[0]
    assert isinstance(err, DslCheckError)
    assert err.message.startswith("function 'f1' nests too deeply: with the functions it uses, expanded where used, it has ")
    assert err.message.endswith(f" levels of nesting, more than {MAX_DEPTH}")
    assert err.hint == "use fewer functions inside one another"
    lines = (root / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert (err.span.line, err.span.col) == (lines.index("  f0:") + 3, len("    value: ") + 1)   # in f0's body


def test_functions_that_double_at_every_level_are_refused_at_the_budget(tmp_path):
    """Each function uses the next twice: 2^20 copies (and 58 levels). Refused, before
    copying anything, where the copies would pass MAX_EXPANSION parts."""
    bodies = [f"f{i + 1}(x) + f{i + 1}(x)" for i in range(19)] + ["x"]
    root = make_pack(tmp_path / "p", "set out = f0(1)", functions(bodies))
    err = first_error(root)
    assert err.message == (f"functions expand to more than {MAX_EXPANSION:,} parts in this text (a function's body is "
                           "copied wherever it is used, and 'f1' is used too often)")
    lines = (root / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert (err.span.line, err.span.col) == (lines.index("  f0:") + 3, len("    value: ") + 1)   # in f0's body


def test_functions_up_to_the_limit_run_from_a_deep_stack(tmp_path):
    """Eight functions of eight levels each, one inside the other (64 levels), used at the
    deepest place a rule allows: every pass stays within Python's recursion limit."""
    wrap = "abs(" * 6
    bodies = [f"{wrap}f{i + 1}(x){')' * 6}" for i in range(7)] + ["abs(" * 7 + "x" + ")" * 7]
    head, level, inner, close = "set out = ", "abs(", "f0(2)", ")"
    n = deepest(head, level, inner, close)
    root = make_pack(tmp_path / "p", nested(head, level, inner, close, n), functions(bodies))
    gvars = run(root, frames=500)
    assert gvars[0] == 2


# ---------------------------------------------------------------- through the command line
CLI = [
    # (id, the setup text, where the error is (line, column) counted from the setup text's
    #  first line ('shuffle deck' is line 0), the start of the message)
    ("1000-nots", "set flag = " + "not " * 1000 + "true", (1, 5 + 11 + 63 * 4), "nested too deeply: more than 64 levels"),
    ("200-counts", "set out = " + "count(y in [" * 200 + "1" + "])" * 200, (1, 5 + 10 + 21 * 12),
     "nested too deeply: more than 64 levels"),
    ("300-if-blocks", blocks("if true:", 300), (0, 5), "this text is "),
    ("huge-number", "set out = " + "7" * 5000, (1, 15), "number 777777777777... (5,000 digits) is too large"),
    ("long-line", "set out = " + " + ".join(["1"] * 50_000), (0, 5), "this text is 200,0"),
]


@pytest.mark.parametrize("setup, where, message", [c[1:] for c in CLI], ids=[c[0] for c in CLI])
@pytest.mark.parametrize("command", [["validate"], ["play", "--players", "2", "--seed", "1", "--bots", "random"]])
def test_the_command_line_reports_the_limit_located_and_exits_1(tmp_path, setup, where, message, command):
    from click.testing import CliRunner
    from meeple.cli import main
    root = make_pack(tmp_path / "p", setup)
    with counted() as work:
        result = CliRunner().invoke(main, command[:1] + [str(root)] + command[1:])
    assert work.calls < CALLS, work
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    line, col = setup_line(root) - 1 + where[0], where[1]
    assert f"game.yaml:{line}:{col}: error: {message}" in result.output


# ---------------------------------------------------------------- mutated texts
def _mutations(rng: random.Random, text: str) -> str:
    """A shipped text with a number replaced by something deep, long or huge, or with a few
    tokens put in, taken out, copied or repeated."""
    numbers = [m for m in re.finditer(r"(?<![a-z_0-9])[0-9]+(?![a-z_0-9])", text)]
    if numbers and rng.random() < 0.5:
        k = rng.choice([3, 70, 400])
        m = rng.choice(numbers)
        part = rng.choice(["-" * k + "1", "abs(" * k + "2" + ")" * k, " + ".join(["1"] * k * 5), "(" * k + "3" + " * 2)" * k,
                           "count(y in [" * k + "1" + "])" * k, "if true then " * k + "4" + " else 5" * k,
                           "not " * k + "1", "9" * rng.randint(15, 6000)])
        return text[:m.start()] + "(" + part + ")" + text[m.end():]
    tokens = ["(", ")", "[", "]", ",", ".", "not ", "-", "+", "*", "/", " and ", " or ", "if ", " then ", " else ", "\n",
              "\n    ", ":", "==", "<", "..", "count(", "abs(", " in ", " where ", "me", "none", "true", "0", "x", '"t"',
              " of ", "all", "for each x in [1]:\n    ", "let x = "]
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(chars) + 1)
        kind = rng.random()
        if kind < 0.4:
            chars[i:i] = rng.choice(tokens)
        elif kind < 0.7:
            del chars[i:i + rng.randint(1, 5)]
        elif kind < 0.85 and chars:
            j = rng.randrange(len(chars))
            chars[i:i] = chars[j:j + rng.randint(1, 30)]
        else:
            chars[i:i] = rng.choice(tokens) * rng.randint(20, 300)
    return "".join(chars)


@pytest.mark.parametrize("runs", [pytest.param(int(os.environ.get("MEEPLE_FUZZ_DSL", "60")), id="brief"),
                                  pytest.param(3000, id="soak", marks=pytest.mark.slow)])
def test_mutated_texts_of_shipped_packs_compile_or_are_refused_never_crash(runs):
    """Texts of the shipped packs, mutated (seeded: 60 in the brief run, MEEPLE_FUZZ_DSL=N
    for N; 3,000 in the soak run, ``slow``), are checked only and compiled generated: only
    the language's own errors, each within CALLS calls."""
    from meeple.dsl.compiler import Compiler
    from meeple.dsl.errors import MeepleError, Span
    from meeple.dsl.pygen import PyGen
    from meeple.dsl.source import Source
    from meeple.runtime.game import load_game
    games = {name: load_game(name, generate=False) for name in ("citadels", "troyes")}
    texts = []
    for name, g in games.items():
        texts += [(name, "unit", p.body.text, tuple((x.name, g.vocab.type_of(x.type)) for x in p.params)) for p in g.defn.procedures]
        texts += [(name, "unit", a.effect.text, ()) for a in g.defn.actions]
        texts += [(name, "expression", f.body.text, tuple((x.name, g.vocab.type_of(x.type)) for x in f.params))
                  for f in g.defn.functions]
    rng = random.Random(11)
    origin = TextOrigin("<mutated>", 1, 1, True)
    for _ in range(runs):
        name, kind, text, params = rng.choice(texts)
        mutated = _mutations(rng, text)
        for generate in (False, True):
            comp = Compiler(games[name].vocab, [])
            if generate:
                comp.gen = PyGen(games[name].vocab)
            with counted() as work:
                try:
                    getattr(comp, kind)("mutated", Source(mutated, origin, Span("<mutated>", 1, 1)), params)
                    if generate and not comp.errors:
                        comp.gen.finish()
                except MeepleError:
                    pass
            assert work.calls < CALLS, (mutated[:200], work)
            assert all(isinstance(e, MeepleError) and e.span.line > 0 for e in comp.errors), mutated[:200]
