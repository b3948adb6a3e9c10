"""The generated-Python back end (dsl/pygen.py, dsl/gen/), the one back end of the language.

Until issue 22 the closures were the reference: the same pack, seed and choices gave the
same log and final state with either. What they gave is recorded (tests/closure_record.py),
and the generated code must still give it. The generator must never turn a pack's text
into code: hostile names and texts stay data.
"""
import json
import random
import shutil
from pathlib import Path

import pytest

from meeple.core.errors import Problems
from meeple.runtime.game import Game, load_game
from meeple.loading.folders import shipped_packs
from meeple.loading.pack import read_pack
from golden_games import game_of
from shipped_games import seed_game
from closure_record import as_recorded

MINIMAL = Path(__file__).parent / "content" / "valid" / "minimal"


def play(game, players: int, seed: int):
    st = game.new_state(players, seed)
    rng = random.Random(seed)
    while not st.over:
        game.apply(st, rng.randrange(len(st.pending.options)))
    return st


@pytest.mark.parametrize("pack", shipped_packs())
def test_generated_rules_play_the_games_the_closures_played(pack):
    """The games of seeds 0 and 1 at the smallest and largest counts, as the generated
    back end plays them (shipped_games: played once a session): the choices and the end
    the closures played (tests/closure_record.py)."""
    fast = game_of(pack)
    assert fast.pygen is not None and fast.pygen.generated > 0
    counts = sorted({fast.min_players, fast.max_players})
    for players in counts:
        for seed in range(2):
            a = seed_game(pack, players, seed)
            assert as_recorded(f"shipped game: {pack}, {players} players, seed {seed}", (a.log, a.to_json())), (players, seed)


HOSTILE = [
    "__import__('os').system('echo pwned')",
    "x; import os",
    "'''",
    "') or raise SystemExit #",
    "{0.__class__}",
]


def test_hostile_texts_stay_data(tmp_path):
    """Texts and enum values reach generated code only as names bound to the
    value, never as source: a text that is Python stays a text."""
    root = tmp_path / "hostile"
    shutil.copytree(MINIMAL, root)
    game = (root / "game.yaml").read_text(encoding="utf-8")
    # a player variable holding each hostile text, compared in a condition that is generated
    game = game.replace("player_variables:\n  passed: bool", "player_variables:\n  passed: bool\n  note: text")
    lines = "\n".join(f"        set note = {json.dumps(h)}\n        require note == {json.dumps(h)}" for h in HOSTILE)
    game = game.replace("    - id: pass\n      name: Pass\n      effect: |\n",
                        "    - id: pass\n      name: Pass\n      effect: |\n" + lines + "\n")
    (root / "game.yaml").write_text(game, encoding="utf-8")
    problems = Problems()
    pack = read_pack(root, problems)
    assert pack is not None and not problems.errors, [e.message for e in problems.errors]
    g = Game(pack, problems)
    assert not problems.errors, [e.message for e in problems.errors]
    source = g.pygen.source
    for h in HOSTILE:
        assert h not in source
    assert "import" not in source and "pwned" not in source
    st = play(g, 2, 1)
    assert st.over


def test_generated_source_holds_only_made_names():
    """Every name in the generated module is one the generator made, a frame or
    state field, or one of the few builtins it allows."""
    import re
    g = game_of("troyes")
    code = "\n".join(line for line in g.pygen.source.splitlines() if not line.lstrip().startswith("#"))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))
    allowed_plain = {"def", "return", "if", "else", "for", "in", "not", "and", "or", "is", "None", "True", "False",
                     "lambda", "st", "fr", "L", "n", "out", "append", "len", "list", "range", "min", "max", "sum",
                     "bool", "any", "all", "default", "c", "p", "s", "locals", "me", "this", "res", "pvars", "gvars",
                     "cvars", "zones", "loc", "players", "opts", "round", "while", "break", "elif", "pass", "raise", "continue",
                     "events", "get", "str", "used", "tx", "remove", "track", "add", "abs", "sort", "key",
                     "try", "except", "from", "as", "game", "span", "F", "shuffle", "rand_below", "own",
                     "ans", "answer", "to", "texts", "pending", "action_describer", "who", "int", "__class__",
                     "budget", "map", "setdefault",
                     # the instructions that pause or run other code (dsl/gen/pausing.py): their locals,
                     # and the fields of the frames, codes, actions and game they read
                     "items", "x", "v", "i", "chosen", "cv", "left", "ci", "code", "frames", "steps", "values", "z",
                     "owner", "act", "ai", "card", "param", "run", "err", "exc", "pc", "extend", "reverse", "codes",
                     "proc_code", "hook_code", "handler_code", "card_def_index", "live_slots", "slot_owner", "menu_steps",
                     "actions", "ncards", "nlocals", "direct", "effect", "param_slot", "scratch", "spans"}
    made = re.compile(r"^_(e|a|k|v|h|s|t|c|m|i|g|x|p|z|o|b|w|j|u|cs|pa|q|r)\d+$"
                      r"|^_(U|me|mo|scored|cache|div|mod|range|move|own|wz|spent|counted|negative|Refusal|uses|join|big|b|xs|s|c|x|k|key|text|seen|acts|m"
                      r"|ME|RF|named|err|exc|NO_ANSWER|Decision|no_chooser|Frame|call_direct|charge|used_once_more|picks_prompt|short)?$|^a\d+$")
    strange = sorted(w for w in words if w not in allowed_plain and not made.match(w))
    assert strange == []


def test_generated_code_is_one_module():
    g = game_of("citadels")
    fn = g.actions[0].when
    assert fn.__code__.co_filename == g.pygen.filename == "<meeple:citadels rules>"


def _minimal_with(tmp_path, old: str, new: str) -> Game:
    root = tmp_path / "pack"
    shutil.copytree(MINIMAL, root)
    game = (root / "game.yaml").read_text(encoding="utf-8")
    assert old in game
    (root / "game.yaml").write_text(game.replace(old, new), encoding="utf-8")
    return root


@pytest.mark.parametrize("old, new, line_text", [
    # an action effect run in place (it never pauses)
    ("        set passed = true\n    - id: pass", "        set passed = true\n        gain 1 / (size(hand) - size(hand)) gold\n    - id: pass",
     "gain 1 / (size(hand) - size(hand)) gold"),
    # inside a generated loop of the round
    ("    for each p in players:\n        as p:\n            call turn()",
     "    for each p in players:\n        let z = 0\n        if p == player(2):\n            set z = 7 % z\n        as p:\n            call turn()",
     "set z = 7 % z"),
    # inside loops nested deeper than one generated function holds (``RunWriter.apart``)
    ("        set passed = true\n    - id: pass",
     "        set passed = true\n" + "".join("        " + "    " * i + "repeat 1 times:\n" for i in range(14))
     + "        " + "    " * 14 + "gain 1 / (size(hand) - size(hand)) gold\n    - id: pass",
     "gain 1 / (size(hand) - size(hand)) gold"),
])
def test_rule_errors_point_at_the_statement(tmp_path, old, new, line_text):
    from meeple.core.errors import RuleError
    root = _minimal_with(tmp_path, old, new)
    text = (root / "game.yaml").read_text(encoding="utf-8").splitlines()
    want_line = next(i for i, line in enumerate(text, 1) if line_text in line)
    g = _generated(root)
    with pytest.raises(RuleError) as info:
        st = g.new_state(2, 1)
        while not st.over:
            g.apply(st, 0)
    err = info.value
    assert err.span.line == want_line, (err.span, err.message)
    assert "division by zero" in err.message


def test_hostile_identifiers_stay_names_of_the_pack(tmp_path):
    """Variables named like the generator's own names (``st``, ``fr``, ``_k1``,
    ``_e2``, ``__import__``) are the pack's variables: the generated code reads
    them by index and never confuses them with its own names."""
    root = _minimal_with(tmp_path, "player_variables:\n  passed: bool",
                         "player_variables:\n  passed: bool\n  st: int\n  fr: int\n  _k1: int\n  _e2: int\n  __import__: int")
    game = (root / "game.yaml").read_text(encoding="utf-8")
    effect = ("        set st = 2\n        set fr = st + 1\n        set _k1 = fr * st\n        set _e2 = _k1 - fr\n"
              "        set __import__ = _e2 + _k1\n        require __import__ == 9 and _e2 == 3 and _k1 == 6\n")
    game = game.replace("    - id: pass\n      name: Pass\n      effect: |\n", "    - id: pass\n      name: Pass\n      effect: |\n" + effect)
    (root / "game.yaml").write_text(game, encoding="utf-8")
    problems = Problems()
    g = Game(read_pack(root, problems), problems)
    assert not problems.errors, [e.message for e in problems.errors]
    assert "__import__" not in g.pygen.source
    st = g.new_state(2, 3)
    g.apply(st, "pass")                      # the require holds: every value went where it should
    me = st.log[-1][0]
    assert [g.evaluate(st, name, me) for name in ("st", "fr", "_k1", "_e2", "__import__")] == [2, 3, 6, 3, 9]


@pytest.mark.parametrize("text, value", [
    (" + ".join(["1"] * 40), 40),                                  # a long sum (left-nested)
    ("(" * 60 + "2" + " - 1)" * 60, -58),                          # deep parentheses
    (" + ".join(f"({i} * 2 - {i})" for i in range(30)), sum(range(30))),
])
def test_compiling_is_linear_in_the_text(text, value):
    """Each node is compiled once: a sum of 40 terms used to compile its left side
    twice at every '+' (2^40 steps). Counted, not timed; and it gives the sum's value."""
    from meeple.dsl.compiler import Compiler
    g = game_of("citadels")
    calls = {"n": 0}

    class Counting(Compiler):
        def expr(self, unit, n):
            calls["n"] += 1
            return super().expr(unit, n)
    from meeple.dsl.parser import parse
    from meeple.dsl.source import TextOrigin
    from meeple.dsl.types import Code, Unit, _Scope
    origin = TextOrigin("<expression>", 1, 1, False)
    tree = parse(text, origin, "expr_start")
    Counting(g.vocab, []).expr(Unit(Code("x"), origin, _Scope()), tree)
    nodes = text.count("+") + text.count("-") + text.count("*") + text.count("(") + 1
    assert calls["n"] <= 3 * nodes + 10, calls["n"]
    assert g.evaluate(g.new_state(4, 1), text) == value


# Expressions whose generated Python once differed from their closure: (id, setup lines
# run as the first player after each player drew 2 coins, the value of out or flag).
OPERAND_CASES = [
    # a zone 'of others' as an operand: its conditional expression was not bracketed, so
    # 'hand of others + xs' dropped xs, and 'xs + hand of others' read a name not yet bound
    ("others-left-of-plus", "set out = size(hand of others + those(c in hand))", ("out", 4)),
    ("others-right-of-plus", "set flag = size(those(c in hand) + hand of others) == 4", ("flag", True)),
    # first() of a plain list tested the length of a name before binding it
    ("first-of-a-list", "set out = first([7, 8])", ("out", 7)),
    ("first-of-a-list-in-a-loop", "for each q in [1, 2, 3]:\n    set out = out + first([q, 9])", ("out", 6)),
    ("first-of-an-empty-list", "set flag = first(those(c in hand where c.cost > 99)) is none", ("flag", True)),
    # walks over 'ZONE of all' read seat by seat (no joined list): every kind of walk
    ("walk-of-all-count", "set out = count(c in hand of all where c.cost > 0)", ("out", 4)),
    ("walk-of-all-sum", "set out = sum(c.cost for c in hand of all) + sum(c.cost for c in deck)", ("out", 10)),
    ("walk-of-all-every", "set flag = every(c in hand of all where c.cost <= 3)", ("flag", True)),
    ("walk-of-all-any", "set flag = any(c in hand of all where c.cost > 3)", ("flag", False)),
    ("walk-of-all-first", "set flag = first(c in hand of all where c.cost > 0) in hand of first(players)", ("flag", True)),
    ("walk-of-all-max-min", "set flag = max(c.cost for c in hand of all) >= min(c.cost for c in hand of all)", ("flag", True)),
    ("walk-of-all-those", "set out = size(those(c in hand of all where c.cost >= 1))", ("out", 4)),
]


@pytest.mark.parametrize("lines, value", [c[1:] for c in OPERAND_CASES], ids=[c[0] for c in OPERAND_CASES])
def test_generated_operands_give_their_value(tmp_path, lines, value):
    root = tmp_path / "operands"
    shutil.copytree(MINIMAL, root)
    game = (root / "game.yaml").read_text(encoding="utf-8")
    game = game.replace("player_variables:\n", "variables:\n  out: int\n  flag: bool\n\nplayer_variables:\n", 1)
    body = "for each p in players:\n    as p:\n        draw 2 from deck to hand\nas first(players):\n" + \
        "".join(f"    {line}\n" for line in lines.splitlines())
    game = game.replace("  setup: |\n    shuffle deck\n", "  setup: |\n    shuffle deck\n" + "".join(f"    {x}\n" for x in body.splitlines()), 1)
    (root / "game.yaml").write_text(game, encoding="utf-8")
    problems = Problems()
    g = Game(read_pack(root, problems), problems)
    assert not problems.errors, [str(e) for e in problems.errors]
    if "hand of all" in lines:     # walked seat by seat
        assert "in range(st.players):\n        for " in g.pygen.source
    got = list(g.new_state(2, 1).gvars)
    name, want = value
    assert got[("out", "flag").index(name)] == want


# ---------------------------------------------------------------- procedures run in place
PROC_ERROR = ("procedures:\n  turn:",
              "procedures:\n  bump:\n    params: {n: int}\n    effect: |\n      gain 1 gold\n      gain 7 / n gold\n"
              "  settle:\n    effect: |\n      call bump(size(hand) - size(hand))\n  turn:")


def test_an_error_in_a_procedure_run_in_place_names_the_procedure_and_its_line(tmp_path):
    """A call of a procedure that never pauses is a plain Python call in the generated
    run; its errors still point at the callee's statement and say '(in procedure NAME)',
    as the run loop says of a procedure run in a frame of its own."""
    from meeple.core.errors import RuleError
    root = _minimal_with(tmp_path, *PROC_ERROR)
    game = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(game.replace("        set passed = true\n    - id: pass",
                                                 "        set passed = true\n        call settle()\n    - id: pass"), encoding="utf-8")
    text = (root / "game.yaml").read_text(encoding="utf-8").splitlines()
    want_line = next(i for i, line in enumerate(text, 1) if "gain 7 / n gold" in line)
    g = _generated(root)
    assert g.pygen.inline_procs == {"bump": False, "settle": False}
    with pytest.raises(RuleError) as info:
        st = g.new_state(2, 1)
        while not st.over:
            g.apply(st, 0)
    assert info.value.span.line == want_line
    assert info.value.message.startswith("`7 / n`: division by zero (`n` is 0) (in procedure bump)"), info.value.message


def _generated(root) -> Game:
    """The pack at ``root``, its rules generated."""
    problems = Problems()
    g = Game(read_pack(root, problems), problems)
    assert not problems.errors
    return g


def _played(g: Game, players: int, seed: int) -> tuple:
    """The log and the final state of a game played with random choices (``play``)."""
    st = play(g, players, seed)
    return st.log, st.to_json()


def _chain(n: int) -> str:
    """Procedures step1 .. stepN, each calling the next; the last gains 1 gold."""
    out = []
    for i in range(1, n + 1):
        body = f"call step{i + 1}()" if i < n else "gain 1 gold"
        out.append(f"  step{i}:\n    effect: |\n      {body}\n")
    return "procedures:\n" + "".join(out) + "  turn:"


@pytest.mark.parametrize("chain, inline", [(3, 3), (16, 16), (40, 16)])
def test_calls_run_in_place_only_up_to_a_depth(tmp_path, chain, inline):
    """A chain of calls deeper than INLINE_DEPTH keeps frames for the rest (never Python's
    recursion limit), and plays exactly as the closures did."""
    from meeple.dsl.gen.runs import INLINE_DEPTH
    assert INLINE_DEPTH == 16
    root = _minimal_with(tmp_path, "procedures:\n  turn:", _chain(chain))
    game = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(game.replace("        set passed = true\n    - id: pass",
                                                 "        set passed = true\n        call step1()\n    - id: pass"), encoding="utf-8")
    g = _generated(root)
    assert sorted(g.pygen.inline_procs, key=lambda s: int(s[4:])) == [f"step{i}" for i in range(chain - inline + 1, chain + 1)]
    assert as_recorded(f"a chain of {chain} calls", _played(g, 2, 3))


@pytest.mark.parametrize("bodies, want", [
    ({"a": "gain 1 gold", "b": "call a()"}, {"a": False, "b": False}),
    ({"a": "stop", "b": "call a()"}, {"a": True, "b": False}),
    ({"a": "call b()", "b": "call a()"}, {}),                                   # a cycle: frames
    ({"a": "call a()"}, {}),
    ({"a": "choose c from hand\nmove c to deck", "b": "call a()", "c": "gain 1 gold"}, {"c": False}),   # pauses
    ({"a": "call nowhere()"}, {}),                                              # an unknown callee
    ({"a": "if true:\n    call b()", "b": "play actions turn until true"}, {}),
    ({"a": None, "b": "call a()"}, {}),                                         # a text that did not parse
])
def test_which_procedures_run_in_place(bodies, want):
    from meeple.dsl.parser import parse
    from meeple.dsl.gen.runs import inline_procedures
    from meeple.dsl.source import TextOrigin
    parsed = {k: parse(v + "\n", TextOrigin("t.yaml", 1, 1, True), "start") if v is not None else None for k, v in bodies.items()}
    assert inline_procedures(parsed) == want


@pytest.mark.parametrize("args", ["false, 2", "true, 0", "none == none, 1"])
def test_a_literal_argument_of_a_function_used_in_a_walk_compiles(tmp_path, args):
    """A pack function whose parameter is read inside a comprehension, called with true or
    false as written: the literal is used in place, never passed on as a parameter name
    (it was: 'def _a13(st, fr, L, _x14, False, ...)', so the module did not compile and the
    game stopped with a NameError)."""
    root = _minimal_with(tmp_path, "procedures:\n",
                         "functions:\n  cheap:\n    params: {any_cost: bool, limit: int}\n"
                         "    value: count(c in deck where any_cost or c.cost <= limit)\n\nprocedures:\n")
    game = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(game.replace("      set passed = false\n",
                                                 f"      set passed = false\n      gain cheap({args}) gold\n", 1), encoding="utf-8")
    st = play(_generated(root), 2, 1)
    assert as_recorded(f"a literal argument: {args}", (st.log, st.scores))


def test_a_generated_module_that_does_not_compile_is_an_internal_error_naming_its_rule(tmp_path, monkeypatch):
    """Python may refuse the generated module (a defect of the generator's, or one of
    Python's own limits). No other back end stands in (the closures once did, silently):
    loading stops with an internal error naming the function refused and the rule it was
    written from, and the command line says so in one line, exit 3."""
    import builtins
    import meeple.dsl.gen.module as G
    from click.testing import CliRunner
    from meeple.cli import ExitCode, main
    root = _minimal_with(tmp_path, "procedures:\n",
                         "functions:\n  cheap:\n    params: {limit: int}\n"
                         "    value: count(c in deck where c.cost <= limit)\n\nprocedures:\n")
    game = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(game.replace("      set passed = false\n",
                                                 "      set passed = false\n      gain cheap(2) gold\n", 1), encoding="utf-8")

    def picky(source, *args, **kwargs):     # the whole module, and any part with a walk, "too deep"
        if "def _a" in source:
            raise SyntaxError("too many statically nested blocks")
        return builtins.compile(source, *args, **kwargs)
    monkeypatch.setattr(G, "compile", picky, raising=False)
    with pytest.raises(G.GeneratedCodeError) as caught:
        Game(read_pack(root, Problems()), Problems(), generate=True)
    message = str(caught.value)
    assert "does not compile (SyntaxError: too many statically nested blocks) in _a" in message, message
    assert "count(...) in function cheap" in message and "defect of meeple's" in message, message
    result = CliRunner().invoke(main, ["compile", str(root)])
    assert result.exit_code == ExitCode.INTERNAL, result.output
    assert "internal error: GeneratedCodeError: meeple's generated Python for <meeple:" in result.output
    assert "Traceback" not in result.output
    monkeypatch.undo()
    Game(read_pack(root, Problems()), Problems(), generate=True)      # Python takes it as written


def test_an_expression_the_generator_cannot_write_is_an_internal_error_naming_its_place(tmp_path, monkeypatch):
    """No closure stands in for an expression the generator cannot write (one did, silently):
    loading stops with an internal error naming the rule and where its text is."""
    from meeple.dsl.gen.context import Unsupported
    from meeple.dsl.gen.module import GeneratedCodeError
    from meeple.dsl.gen.operators import OperatorWriter
    root = _minimal_with(tmp_path, "      set passed = false\n", "      set passed = false\n      gain size(hand) + 1 gold\n")

    def unwritable(self, ctx, n):
        raise Unsupported("a sum")
    monkeypatch.setattr(OperatorWriter, "arith", unwritable)
    with pytest.raises(GeneratedCodeError) as caught:
        Game(read_pack(root, Problems()), Problems(), generate=True)
    message = str(caught.value)
    assert "cannot write an expression of" in message and "game.yaml:" in message and "Unsupported: a sum" in message, message
    monkeypatch.undo()
    Game(read_pack(root, Problems()), Problems(), generate=True)


# ---------------------------------------------------------------- walks and jumps of rules that pause
ROUND = "    for each p in players:\n        as p:\n            call turn()\n"


@pytest.mark.parametrize("walk", [
    "    for each p in players by gold of p:\n",
    "    for each p in players where gold of p < 3:\n",
    "    for each p in players where gold of p < 9 by 0 - gold of p:\n",
])
def test_a_walk_whose_body_pauses_starts_as_the_closures_did(tmp_path, walk):
    """The start of a 'for each' whose body asks players (its items kept and sorted) is
    generated; it keeps and orders the items the closures did."""
    root = _minimal_with(tmp_path, ROUND, walk + "        as p:\n            call turn()\n")
    g = _generated(root)
    assert "def _w" in g.pygen.source
    assert as_recorded(f"a walk whose body pauses: {walk.strip()}", _played(g, 3, 4))


def test_a_walk_over_a_zone_walks_the_cards_it_started_with(tmp_path):
    """Cards taken from the deck while the walk pauses do not change what it walks."""
    root = _minimal_with(tmp_path, ROUND, "    for each c in deck where c.cost <= 2:\n        as player(1):\n"
                                          "            call turn()\n")
    log, end = _played(_generated(root), 2, 3)
    assert len(log) > 2
    assert as_recorded("a walk over a zone", (log, end))


@pytest.mark.parametrize("pack", shipped_packs())
def test_no_jump_leads_to_a_jump_or_the_end(pack):
    """Each jump's place holds the instruction it leads to: a loop's way back is its test."""
    g = game_of(pack)
    assert not [(code.name, pc) for code in g.codes for pc, op in enumerate(code.instrs) if hasattr(op, "jump_to")]


def _located_error(root, line_text: str) -> str:
    """The pack at ``root`` played: it stops with a rule error at the line holding
    ``line_text``; its message (returned)."""
    from meeple.core.errors import RuleError
    text = (root / "game.yaml").read_text(encoding="utf-8").splitlines()
    want_line = next(i for i, line in enumerate(text, 1) if line_text in line)
    with pytest.raises(RuleError) as info:
        play(_generated(root), 2, 1)
    assert info.value.span.line == want_line, info.value.span
    return info.value.message


def test_an_error_in_a_loop_test_reached_by_its_way_back_names_the_test(tmp_path):
    root = _minimal_with(tmp_path, ROUND, "    let k = 0\n    while 6 / (2 - k) > 0:\n        as player(1):\n"
                                          "            call turn()\n        set k = k + 1\n")
    assert _located_error(root, "while 6 / (2 - k)").startswith("`6 / (2 - k)`: division by zero (`2 - k` is 0) (in round)")


def test_playing_as_a_player_who_is_not_there_names_the_statement(tmp_path):
    root = _minimal_with(tmp_path, ROUND, "    for each p in players:\n        as player(9):\n            call turn()\n")
    assert "fr.me = " in _generated(root).pygen.source
    assert _located_error(root, "as player(9)").startswith("`player(9)`: there is no player 9 (there are 2 players) (in round)")


TURN = "      set passed = false\n      play actions turn until passed\n"


@pytest.mark.parametrize("changes, line_text, message", [
    # the round asks with no current player: the menu is made, the decision has no one to ask
    ([(ROUND, "    call turn()\n"), (TURN, "      play actions turn until round > 1\n")],
     "play actions turn until", "`play actions turn until round > 1`: no current player here"),
    # the end test itself fails
    ([(TURN, TURN.replace("until passed", "until passed or 6 / (gold - gold) > 0"))],
     "play actions turn until", "`6 / (gold - gold)`: division by zero (`gold - gold` is 0)"),
])
def test_an_error_of_play_actions_names_the_statement(tmp_path, changes, line_text, message):
    """'play actions' is one generated instruction (its end test, menu and decision written
    in); its errors name its line, as the closures' did."""
    root = _minimal_with(tmp_path, *changes[0])
    for old, new in changes[1:]:
        game = (root / "game.yaml").read_text(encoding="utf-8")
        assert old in game
        (root / "game.yaml").write_text(game.replace(old, new), encoding="utf-8")
    assert "def _pa" in _generated(root).pygen.source
    assert _located_error(root, line_text).startswith(message)


def test_play_actions_compiled_after_the_pack_lists_by_the_engine():
    """A 'play actions' compiled after the pack was (a snippet with its own generated
    module, which has no menus): it lists the group's actions by the engine's listing
    and poses the decision the pack's own turn does."""
    from meeple.dsl.compiler import Compiler
    from meeple.dsl.pygen import PyGen
    from meeple.dsl.runtime import Frame
    from meeple.dsl.source import Source, TextOrigin
    from meeple.core.errors import Span
    game = load_game(str(MINIMAL))
    errors: list = []
    comp = Compiler(game.vocab, errors)
    comp.gen = PyGen(game.vocab)
    unit = comp.unit("snippet", Source("play actions turn until passed\n", TextOrigin("<snippet>", 1, 1, True),
                                       Span("<snippet>", 1, 1)), (), me_bound=True)
    comp.gen.finish()
    assert not errors and "def _pa" in comp.gen.source
    try:
        st = game.new_state(2, 1)
        want = st.pending
        assert want.kind == "action"
        st.frames.append(Frame(unit, 0, [None] * game.codes[unit].nlocals, want.player, -1))
        st.pending = None
        game.rules.run(st)
        assert st.pending.kind == "action" and st.pending.player == want.player
        assert st.pending.keys() == want.keys() and len(want.keys()) > 1
    finally:
        del game.codes[unit:]


SETUP = "    shuffle deck\n"


@pytest.mark.parametrize("lines, gold", [
    # a pick by a named player, then used
    ("    choose c from deck by player(2)\n    move c to hand of player(2)\n    give c.value gold to player(2)\n", None),
    # nothing to choose: a plain choose goes on with none ...
    ("    choose c from hand of player(1) by player(1)\n    if c is none:\n        give 3 gold to player(1)\n", 3),
    # ... 'may choose' ends the effect
    ("    may choose c from hand of player(1) by player(1)\n    give 3 gold to player(1)\n", 0),
    # a list, not a zone; 'may' offers to skip
    ("    may choose c from those(x in deck where x.cost <= 9) by player(1)\n    give 2 gold to player(1)\n", None),
])
def test_a_generated_choice_plays_as_the_closures_did(tmp_path, lines, gold):
    """'choose' (one pick, no where-clause) is one generated instruction: the same options,
    skips and empty cases as the closures gave, in the same games."""
    root = _minimal_with(tmp_path, SETUP, SETUP + lines)
    g = _generated(root)
    assert "def _q" in g.pygen.source
    assert as_recorded(f"a choice: {lines.strip()}", _played(g, 2, 5))
    if gold is not None:
        st = g.new_state(2, 5)
        assert st.res[0 * g.vocab.nres + g.vocab.res_index["gold"]] == gold


@pytest.mark.parametrize("lines, message", [
    ("    choose c from deck\n", "`choose c from deck`: no current player here"),
    ("    choose c from deck by first(q in players where false)\n",
     "`first(q in players where false)` found nothing, but `choose` needs a player"),
    ("    choose c from deck by player(1 + 6 / (size(deck) - size(deck)))\n", "`6 / (size(deck) - size(deck))`: division by zero (`size(deck) - size(deck)` is 0)"),
])
def test_an_error_of_a_generated_choice_names_the_statement(tmp_path, lines, message):
    root = _minimal_with(tmp_path, SETUP, SETUP + lines)
    assert _located_error(root, "choose c from deck").startswith(message)


# ---------------------------------------------------------------- the generated source, read by people
def _functions(source: str) -> list:
    import ast
    return [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)]


@pytest.mark.parametrize("pack", shipped_packs())
def test_a_generated_function_assigns_no_local_it_does_not_read(pack):
    """``L = fr.locals`` and every other local is written only where it is read, and a
    walk takes only the values it reads (it was: 175 of citadels' 340 functions began
    with an unused ``L = fr.locals``)."""
    import ast
    unread = []
    for fn in _functions(game_of(pack).pygen.source):
        stored = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        unread += [f"{fn.name}: {name}" for name in sorted(stored - read - {"_"})]
        if fn.name.startswith("_a"):
            unread += [f"{fn.name}: parameter {a.arg}" for a in fn.args.args if a.arg not in read]
    assert unread == []


@pytest.mark.parametrize("pack", shipped_packs())
def test_each_generated_function_follows_a_comment_naming_its_rule_and_its_line(pack):
    """Every function of the module comes after a comment: the YAML file and line, and the
    rule (a procedure, a card's hook, an action ...), or the action group of a menu. A run of
    statements names the line of its first statement, as its line table does."""
    import re
    g = game_of(pack)
    lines = g.pygen.source.splitlines()
    named = 0
    for i, line in enumerate(lines):
        if not line.startswith("def "):
            continue
        head = lines[i - 1]
        if head.startswith("# the menu of action group '"):
            continue
        found = re.fullmatch(r"# (.+):(\d+): (\S.*)", head)
        assert found is not None, (head, line)
        file, at = Path(found.group(1)), int(found.group(2))
        assert file.is_file() and 1 <= at <= len(file.read_text(encoding="utf-8").splitlines()), head
        if line.startswith("def _i"):
            first = i + 2 + (lines[i + 1] == "    L = fr.locals")      # module lines count from 1
            assert g.pygen.line_spans[first].line == at and str(g.pygen.line_spans[first].file) == str(file)
        named += 1
    assert named > 50



@pytest.mark.parametrize("pack", shipped_packs())
def test_generated_blocks_are_indented_four_spaces_a_level(pack):
    """Every block of the module is indented four spaces more than the one around it."""
    import io
    import tokenize
    widths, steps = [0], set()
    for token in tokenize.generate_tokens(io.StringIO(game_of(pack).pygen.source).readline):
        if token.type == tokenize.INDENT:
            steps.add(len(token.string) - widths[-1])
            widths.append(len(token.string))
            assert token.string == " " * len(token.string), token
        elif token.type == tokenize.DEDENT:
            widths.pop()
    assert steps == {4}

def test_names_in_comments_stay_comments(tmp_path):
    """A comment's text comes from the pack (its folder's name is in every file name), so
    a name that would end the line or hide code is written as its escapes."""
    from meeple.dsl.gen.module import comment
    for text in ["a\nimport os", "a\rraise SystemExit", "a\u2028b\x85c\x0cd", "nul\x00", "é 王 ok"]:
        line = comment(text)
        assert line.startswith("# ") and len(line.splitlines()) == 1 and "\x00" not in line
        scope: dict = {}
        exec(compile(f"{line}\nx = 1\n", "<test>", "exec"), scope)
        assert scope["x"] == 1 and "import" not in scope
    assert comment("é 王 ok") == "# é 王 ok"
    root = tmp_path / "evil\nraise SystemExit #"
    shutil.copytree(MINIMAL, root)
    problems = Problems()
    g = Game(read_pack(root, problems), problems)
    assert not problems.errors
    source = g.pygen.source
    assert "\nraise SystemExit" not in source and "evil\\nraise SystemExit #" in source
    assert play(g, 2, 1).over


def test_a_traceback_through_generated_code_shows_its_lines():
    """The module's lines are registered with linecache under its file name, so Python's
    traceback (and `meeple --debug`) shows the generated line that failed, not a blank."""
    import traceback
    from meeple.dsl.runtime import Frame
    g = load_game("citadels")
    fn = g.actions[0].when
    assert fn.__code__.co_filename == g.pygen.filename == "<meeple:citadels rules>"
    with pytest.raises(AttributeError) as info:
        fn(None, Frame(-1, 0, [None] * 4, 0, -1))        # no state: the first read of it fails
    last = traceback.extract_tb(info.tb)[-1]
    assert last.filename == g.pygen.filename and last.name == fn.__name__
    written = g.pygen.source.splitlines()[last.lineno - 1].strip()
    assert last.line == written and "st." in written
    shown = "".join(traceback.format_exception(info.value))
    assert f'File "{g.pygen.filename}", line {last.lineno}, in {fn.__name__}\n    {written}' in shown


def test_meeple_debug_shows_the_generated_line_of_an_internal_error(monkeypatch, fresh_games):
    """An internal error raised inside generated code: `meeple --debug` prints a traceback
    whose last frame is the generated line, with its text."""
    from click.testing import CliRunner
    import meeple.dsl.gen.module as G
    from meeple.cli import ExitCode, main

    class Broken(Exception):
        pass

    def broken(*args):
        raise Broken("a defect in the engine")
    monkeypatch.setitem(G._RUNTIME, "_Decision", broken)      # what a generated question calls to ask
    r = CliRunner().invoke(main, ["--debug", "play", "citadels", "-p", "2", "--bots", "random,random", "--seed", "3", "--quiet"])
    assert r.exit_code == ExitCode.INTERNAL, r.output
    tail = r.output[r.output.rindex('File "<meeple:citadels rules>"'):]
    assert "_Decision(" in tail.splitlines()[1] and "a defect in the engine" in r.output
