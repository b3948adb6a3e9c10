"""Running games cannot hang, fill the memory or crash: every bound of docs/limits.md
stops a game with a located rule error that names the game's seed and
the choices made before it, and every command shows it as a clean message
(exit 1), never a traceback.

The hostile packs that run are static folders, ``tests/content/hostile/run_*``,
each with an ``expected.txt``: the exact first lines ``meeple play FOLDER -p 2
--seed 1 --bots random --quiet`` prints to stderr (paths from the repository
root). The rest are tiny packs written into tmp_path.
"""
from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.dsl.types import MAX_ITEMS, MAX_NUMBER
from meeple.cli import ExitCode, main
from meeple.core.errors import Problems, RuleError
from meeple.runtime.game import MAX_DECISIONS, Game, load_game
from meeple.loading.pack import read_pack
from work import counted
from golden_games import game_of
from closure_record import as_recorded

REPO = Path(__file__).resolve().parent.parent
HOSTILE = sorted(p for p in (REPO / "tests" / "content" / "hostile").glob("run_*") if p.is_dir())
MINIMAL = REPO / "tests" / "content" / "valid" / "minimal"


def _cli(*args: str):
    result = CliRunner().invoke(main, [str(a) for a in args])
    # a traceback would surface as an exception other than SystemExit
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result


# ---------------------------------------------------------------- the hostile corpus
def test_the_corpus_has_its_cases():
    names = {p.name for p in HOSTILE}
    assert {"run_endless_actions", "run_refused_forever", "run_doubling_list", "run_squared_number",
            "run_growing_score", "run_calls_each_other", "run_event_echo", "run_end_divides_by_zero",
            "run_tiebreak_bad_player", "run_field_of_none"} <= names
    for folder in HOSTILE:
        assert (folder / "expected.txt").read_text(encoding="utf-8").startswith(f"tests/content/hostile/{folder.name}/")


# What a hostile pack's run may cost, in function calls (tests/work.py), once its pack is
# loaded: a bound stops each within 1,062,078 calls today (run_refused_forever, stopped by
# the bound on choices); a bound that let the rules run on (a step charged nothing, a list
# copied at each step) would make hundreds of millions. Its seconds: benchmarks/steps.py.
HOSTILE_RUN_CALLS = 5_000_000


@pytest.mark.parametrize("folder", HOSTILE, ids=[p.name for p in HOSTILE])
def test_hostile_pack_stops_at_a_bound_with_a_located_message(monkeypatch, folder):
    monkeypatch.chdir(REPO)
    load_game(str(folder.relative_to(REPO)))          # loading is not what is counted (the parser tables are cached)
    expected = (folder / "expected.txt").read_text(encoding="utf-8").rstrip("\n").splitlines()
    with counted() as work:
        result = _cli("play", folder.relative_to(REPO), "-p", "2", "--seed", "1", "--bots", "random", "--quiet")
    assert result.exit_code == ExitCode.CONTENT_INVALID, result.output
    assert result.stderr.splitlines()[:len(expected)] == expected, result.stderr
    assert "(game seed 1, " in expected[0]
    assert work.calls < HOSTILE_RUN_CALLS, f"{folder.name} made {work}"


# ---------------------------------------------------------------- which game, which seed
ENDLESS = "tests/content/hostile/run_endless_actions"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_names_the_game_and_its_seed_and_exits_1(monkeypatch, workers):
    monkeypatch.chdir(REPO)
    result = _cli("simulate", ENDLESS, "-n", "3", "-p", "2", "--seed", "4", "--workers", workers)
    assert result.exit_code == ExitCode.CONTENT_INVALID
    lines = result.stderr.splitlines()
    assert lines[0] == (f"{ENDLESS}/game.yaml:12:7: error: the game reached {MAX_DECISIONS} choices without ending "
                        "(a loop of choices that never ends? a longer game sets flow: max_decisions) (in procedure turn) "
                        f"(game seed 4000012, after choice {MAX_DECISIONS})")
    assert lines[-1] == (f"game 0 of {ENDLESS} (game seed 4000012) stopped the run; to play it again: "
                         f"meeple play {ENDLESS} -p 2 --seed 4000012 --bots random")


def test_the_command_printed_plays_the_same_game_again(monkeypatch):
    monkeypatch.chdir(REPO)
    sim = _cli("simulate", "tests/content/hostile/run_refused_forever", "-n", "2", "-p", "2", "--seed", "2", "--workers", "1")
    again = sim.stderr.splitlines()[-1].split("to play it again: meeple ", 1)[1].split()
    played = _cli(*again, "--quiet")
    assert played.exit_code == ExitCode.CONTENT_INVALID
    assert played.stderr.splitlines()[0] == sim.stderr.splitlines()[0]


def test_compare_names_the_run_that_stopped(monkeypatch):
    monkeypatch.chdir(REPO)
    result = _cli("compare", "tests/content/valid/minimal", ENDLESS, "-n", "2", "-p", "2", "--workers", "1")
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert result.stderr.splitlines()[-1].startswith(f"game 0 of {ENDLESS} (game seed 0) stopped the run")


def _minimal_with(tmp_path: Path, old: str, new: str, name: str = "pack") -> Path:
    root = tmp_path / name
    shutil.copytree(MINIMAL, root)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    assert old in text
    (root / "game.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


BROKEN_TAKE = ("        gain c.value gold\n", "        gain c.value gold\n        gain 1 / (c.cost - c.cost) gold\n")


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def _same_file(shown: str, path: Path) -> bool:
    return Path(shown).resolve() == path.resolve()


def test_a_rule_error_names_the_seed_and_the_choice_it_followed(tmp_path):
    root = _minimal_with(tmp_path, *BROKEN_TAKE)
    game = load_game(str(root))
    st = game.new_state(2, 3)
    with pytest.raises(RuleError) as info:
        while True:
            game.apply(st, "take" if "take" in st.pending.keys() else 0)
    err = info.value
    assert (err.seed, err.choice) == (3, 1)
    assert err.message == "`1 / (c.cost - c.cost)`: division by zero (`c.cost - c.cost` is 0) (in action take) (game seed 3, after choice 1)"
    assert _same_file(err.span.file, root / "game.yaml") and err.span.line == _line_of(root / "game.yaml", "gain 1 / (")


def test_replay_shows_a_rule_error_located_not_as_a_divergence(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "game.json"
    assert _cli("play", str(MINIMAL), "-p", "2", "--seed", "5", "--bots", "random", "--quiet", "--log", str(log)).exit_code == 0
    broken = _minimal_with(tmp_path, *BROKEN_TAKE)
    result = _cli("replay", str(log), "--pack", str(broken))
    assert result.exit_code == ExitCode.CONTENT_INVALID
    first = result.stderr.splitlines()[0]
    line = _line_of(broken / "game.yaml", "gain 1 / (")
    assert first.startswith(f"{os.path.relpath(broken / 'game.yaml')}:{line}:14: error: `1 / (c.cost - c.cost)`: division by zero "
                            "(`c.cost - c.cost` is 0) (in action take) (game seed 5, after choice ")
    assert "replay diverged" not in result.stderr


def test_scenario_reports_rule_errors_and_broken_expectations(tmp_path):
    broken = _minimal_with(tmp_path, *BROKEN_TAKE)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "kind: scenario\npack: pack\nplayers: 2\nseed: 7\nscenarios:\n"
        "  - name: taking breaks a rule\n    steps:\n      - choose: take:copper\n"
        "  - name: an expectation that cannot be evaluated\n    steps:\n      - expect: size(hand of player(9)) == 0\n",
        encoding="utf-8")
    result = _cli("test", str(scenario))
    assert result.exit_code == ExitCode.CONTENT_INVALID
    lines = result.output.splitlines()
    line = _line_of(broken / "game.yaml", "gain 1 / (")
    assert lines[0] == (f"FAIL {os.path.relpath(broken / 'game.yaml')}:{line}:14: taking breaks a rule: "
                        "`1 / (c.cost - c.cost)`: division by zero (`c.cost - c.cost` is 0) (in action take) (game seed 7, after choice 1)")
    assert lines[1] == (f"FAIL {scenario}:11:30: an expectation that cannot be evaluated: expectation cannot be evaluated: "
                        "size(hand of player(9)) == 0: `player(9)`: there is no player 9 (there are 2 players)")


# ---------------------------------------------------------------- choices per game
def test_a_pack_sets_its_own_bound_on_choices(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "long"
    shutil.copytree(REPO / ENDLESS, root)
    text = (root / "game.yaml").read_text(encoding="utf-8").replace("  end_when: round >= 3\n", "  end_when: round >= 3\n  max_decisions: 40\n")
    (root / "game.yaml").write_text(text, encoding="utf-8")
    result = _cli("play", "long", "-p", "2", "--seed", "9", "--bots", "random", "--quiet")
    assert result.stderr.splitlines()[0] == ("long/game.yaml:12:7: error: the game reached 40 choices without ending (a loop of "
                                             "choices that never ends? a longer game sets flow: max_decisions) (in procedure turn) "
                                             "(game seed 9, after choice 40)")
    (root / "game.yaml").write_text(text.replace("max_decisions: 40", "max_decisions: 0"), encoding="utf-8")
    result = _cli("validate", "long")
    assert result.exit_code == ExitCode.CONTENT_INVALID
    assert result.output.splitlines()[0] == "long/game.yaml:27:18: error: flow.max_decisions: must be at least 1, found 0"


def test_shipped_games_stay_far_below_the_bound_on_choices():
    game = game_of("citadels-2016")
    assert game.max_decisions == MAX_DECISIONS
    from meeple.play.agents import make_agents
    from meeple.play.session import play
    st = play(game, 8, 1, make_agents("random", 8, 1, game))
    assert len(st.log) < MAX_DECISIONS // 5


# ---------------------------------------------------------------- the bounds of a running rule
RUN_GAME = """\
kind: game
players: {min: 1, max: 2}
resources:
  gold: {min: 0}
  debt: {}
variables:
  total: int
card_kinds:
  token: {starts_in: pile}
zones:
  pile: {per: game, visibility: public, holds: token}
flow:
  setup: |
    shuffle pile
  round: |
    as player(1):
        %s
  end_when: round >= 1
  scoring: |
    shuffle pile
score:
  resource: gold
"""

TOO_BIG = "is too large (a product, or a number kept in the game, is at most 10^18 in size)"
BOUNDS = [
    # (statements of the round, played as P1; the message; the line of the statement that breaks;
    # the text the error names and points at: the expression whose value broke the bound, else
    # the statement keeping it)
    ("let xs = [1]\nwhile true:\n    let xs = xs + xs",
     f"`xs + xs`: a list of 16384 items is too long (a rule builds lists of at most {MAX_ITEMS} items)", 3, "xs + xs"),
    ("let xs = those(x in 1..5000 where x > 0) + values(x for x in 1..5000)\nlet ys = xs + [1]",
     f"`xs + [1]`: a list of {MAX_ITEMS + 1} items is too long (a rule builds lists of at most {MAX_ITEMS} items)", 2, "xs + [1]"),
    ("let r = 1..20000", f"`1..20000`: range 1..20000 is too long (at most {MAX_ITEMS} numbers)", 1, "1..20000"),
    ("let b = 1000000000 * 1000000000\nlet r = b..b + 1",     # numbers written are at most 10^15 (dsl/limits.py)
     f"`b..b + 1`: a number of 19 digits {TOO_BIG}", 2, "b..b + 1"),
    ("let x = 2\nwhile true:\n    let x = x * x", f"`x * x`: a number of 20 digits {TOO_BIG}", 3, "x * x"),
    ("let x = 1000000000000000 * 1000000", f"`1000000000000000 * 1000000`: a number of 22 digits {TOO_BIG}", 1,
     "1000000000000000 * 1000000"),
    ("repeat 2000 times:\n    gain 1000000000000000 gold", f"`gain 1000000000000000 gold`: a number of 19 digits {TOO_BIG}", 2,
     "gain 1000000000000000 gold"),
    ("repeat 2000 times:\n    lose 1000000000000000 debt", f"`lose 1000000000000000 debt`: a number of 19 digits {TOO_BIG}", 2,
     "lose 1000000000000000 debt"),
    ("repeat 2000 times:\n    pay 1000000000000000 debt", f"`pay 1000000000000000 debt`: a number of 19 digits {TOO_BIG}", 2,
     "pay 1000000000000000 debt"),
    ("repeat 2000 times:\n    take 1000000000000000 debt from next_player(me)",
     f"`take 1000000000000000 debt from next_player(me)`: a number of 19 digits {TOO_BIG}", 2,
     "take 1000000000000000 debt from next_player(me)"),
    ("let y = 1\nrepeat 70 times:\n    let y = y + y\nset total = y",       # a local may grow by sums; what the game keeps may not
     f"`set total = y`: a number of 22 digits {TOO_BIG}", 4, "set total = y"),
    ("let x = 7\nset total = x % (x - x)", "`x % (x - x)`: division by zero (`x - x` is 0)", 2, "x % (x - x)"),
    ("set total = distance(me, player(3))", "`player(3)`: there is no player 3 (there are 2 players)", 1, "player(3)"),
    ("set total = max(x for x in []) + 1", "`max(x for x in []) + 1`: `max(...)` had no values, so `+` of none", 1,
     "max(x for x in []) + 1"),
    ("set total = tier(3, [1, 2], [5])", "`tier(3, [1, 2], [5])`: 2 thresholds but 1 point values", 1, "tier(3, [1, 2], [5])"),
]


def _run_pack(tmp_path: Path, statements: str) -> Path:
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: bounds\nname: Bounds\nversion: "0.1"\n', encoding="utf-8")
    body = statements.replace("\n", "\n        ")
    (tmp_path / "game.yaml").write_text(RUN_GAME % body, encoding="utf-8")
    return tmp_path


# What rules may cost between two choices before a bound stops them, in function calls: a
# loop that takes the whole step budget (1,000,000 steps) made 3,500,048 calls with the
# closures (retired), 53 with the generated back end; the cases below make at most 25,890. A walk or a
# statement the budget did not charge would run on, past any such bound.
BOUND_CALLS = 20_000_000


@pytest.mark.parametrize("statements, message, line, written", BOUNDS, ids=[m[:40] for _, m, _, _ in BOUNDS])
def test_rule_errors_are_told_and_located(tmp_path, statements, message, line, written):
    root = _run_pack(tmp_path, statements)
    problems = Problems()
    game = Game(read_pack(root, problems), problems)
    assert not problems.errors, problems.errors
    with counted() as work:
        with pytest.raises(RuleError) as info:
            game.new_state(2, 11)
    assert work.calls < BOUND_CALLS, work
    err = info.value
    assert err.message == f"{message} (in round) (game seed 11, before the first choice)"
    assert _same_file(err.span.file, root / "game.yaml") and err.span.line == 16 + line
    source = (root / "game.yaml").read_text(encoding="utf-8").splitlines()[err.span.line - 1]
    assert source[err.span.col - 1:err.span.col - 1 + err.span.length] == written


@pytest.mark.parametrize("statements", [
    "let xs = those(x in 1..5000 where x > 0) + values(x for x in 1..5000)\nset total = size(xs)",
    "let r = 0..9999\nset total = size(r)",
    "set total = 1000000000 * 1000000000",
    "set total = -1000000000 * 1000000000",
    "gain 1000000000 * 1000000000 gold",
])
def test_values_at_the_bounds_are_allowed(tmp_path, statements):
    problems = Problems()
    game = Game(read_pack(_run_pack(tmp_path, statements), problems), problems)
    assert not problems.errors, problems.errors
    st = game.new_state(2, 1)
    assert st.over


def test_a_walk_whose_sequence_repeats_a_call_runs(tmp_path):
    """The generated helper of a comprehension received its sequence's shared calls
    as names it did not have (an UnboundLocalError at play time)."""
    root = _minimal_with(tmp_path, "  setup: |\n    shuffle deck\n",
                         "  setup: |\n    shuffle deck\n    as player(1):\n"
                         "        lose max(x for x in (size(deck)..size(deck))) gold\n"
                         "        gain count(c in deck where count(y in size(hand)..size(hand) + 3 where y == c.cost) > 0) gold\n")
    problems = Problems()
    game = Game(read_pack(root, problems), problems)
    st = game.new_state(2, 4)
    rng = random.Random(4)
    while not st.over:
        game.apply(st, rng.randrange(st.pending.count()))
    assert as_recorded("a walk whose sequence repeats a call", st.to_json())


def test_lesser_of_nothing_is_a_load_error(tmp_path):
    problems = Problems()
    game = Game(read_pack(_run_pack(tmp_path, "set total = lesser()"), problems), problems, generate=False)
    assert [e.message for e in problems.errors] == ["lesser() takes at least 1 argument(s), given 0"]
    assert problems.errors[0].span.line == 17


# ---------------------------------------------------------------- dice
DICE_GAME = """\
kind: game
players: {min: 1, max: 2}
resources:
  gold: {min: 0}
card_kinds:
  die:
    starts_in: tray
    fields: {faces: "%s"}
    variables: {value: {type: int, default: 1}}
  chip:
    starts_in: tray2
    fields: {faces: int}
    variables: {value: {type: int, default: 1}}
zones:
  tray: {per: game, visibility: public, holds: die}
  tray2: {per: game, visibility: public, holds: chip}
flow:
  setup: |
    roll tray
  round: |
    roll tray
  end_when: round >= 1
  scoring: |
    roll tray
score:
  resource: gold
"""


@pytest.mark.parametrize("faces, shown, valid", [
    ("0", "0", False), ("-3", "-3", False), ("1000001", "1000001", False), ("~", "none", False),
    ("1", None, True), ("1000000", None, True)])
def test_dice_faces_are_checked_when_the_pack_loads(tmp_path, faces, shown, valid):
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: dice\nname: Dice\nversion: "0.1"\n', encoding="utf-8")
    (tmp_path / "game.yaml").write_text(DICE_GAME % ("int?" if faces == "~" else "int"), encoding="utf-8")
    # a chip of 0 faces is never rolled: no error for it
    (tmp_path / "cards.yaml").write_text(f"kind: cards\ncard_kind: die\ncards:\n  - {{id: d6, name: D6, faces: 6}}\n"
                                         f"  - {{id: odd, name: Odd, faces: {faces}}}\n", encoding="utf-8")
    (tmp_path / "chips.yaml").write_text("kind: cards\ncard_kind: chip\ncards:\n  - {id: chip, name: Chip, faces: 0}\n", encoding="utf-8")
    problems = Problems()
    game = Game(read_pack(tmp_path, problems), problems)
    if valid:
        assert not problems.errors, problems.errors
        assert game.new_state(1, 1).over
        return
    assert [(e.message, Path(e.span.file).resolve(), e.span.line) for e in problems.errors] == [
        (f"card 'odd': a die has 1 to 1000000 faces, not {shown} (a roll gives it a value from 1 to its faces)",
         (tmp_path / "cards.yaml").resolve(), 5)]


# ---------------------------------------------------------------- bots
def test_an_evaluation_that_breaks_stops_the_run(monkeypatch):
    """Not judged 0 (a bot would play blind): tests/test_step_budget.py has the cases."""
    monkeypatch.chdir(REPO)
    result = _cli("simulate", "tests/content/valid/minimal", "-n", "2", "-p", "2", "--workers", "1",
                  "--bots", "greedy", "--eval", "max(c.cost for c in hand) + 1")
    assert result.exit_code == ExitCode.CONTENT_INVALID, result.output
    assert result.stderr.startswith("--eval:1:1: error: "), result.stderr


# ---------------------------------------------------------------- a seeded search
NUMBERS = ["0", "1", "2", "-1", "7", "1000000", "999999999999", "1000000000000000", "gold", "round", "size(hand)", "size(deck)"]


def _number(r: random.Random, d: int) -> str:
    if d <= 0 or r.random() < 0.3:
        return r.choice(NUMBERS)
    a, b, xs = _number(r, d - 1), _number(r, d - 1), _list(r, d - 1)
    return r.choice([f"({a} + {b})", f"({a} - {b})", f"({a} * {b})", f"({a} / {b})", f"({a} % {b})", f"-{a}", f"abs({a})",
                     f"lesser({a}, {b})", f"count(x in {xs} where x == {a})", f"sum(x for x in {xs})",
                     f"max(x for x in {xs})", f"top_sum({xs}, {a})", f"tier({a}, {xs}, {_list(r, d - 1)})",
                     f"majority_share({a}, {xs}, {b}, {a})", f"distance(me, player({a}))"])


def _list(r: random.Random, d: int) -> str:
    if d <= 0 or r.random() < 0.3:
        return r.choice(["[1, 2, 3]", "[]", "[0]", "1..3", "0..0"])
    a, b = _number(r, d - 1), _number(r, d - 1)
    return r.choice([f"({a}..{b})", f"({_list(r, d - 1)} + {_list(r, d - 1)})", f"[{a}, {b}]",
                     f"values(x * {a} for x in {_list(r, d - 1)})", f"those(x in {_list(r, d - 1)} where x > {a})"])


def _card(r: random.Random, d: int) -> str:
    return r.choice(["top(deck)", "first(c in deck where c.cost > 1)", "random(hand)", f"first(c in hand where c.cost == {_number(r, d)})"])


def _statement(r: random.Random, d: int) -> str:
    n, who = _number(r, d), r.choice(["me", "random(players)", f"player({_number(r, d)})", f"holder({_card(r, d)})"])
    return r.choice([
        f"gain {n} gold", f"lose {n} gold", f"pay {n} gold", f"give {n} gold to {who}", f"take {n} gold from {who}",
        f"let y = {n}", f"let ys = {_list(r, d)}", f"draw {n} from deck to hand", f"move {_card(r, d)} to hand",
        f"repeat {n} times:\n    gain 1 gold", f"for each v in {_list(r, d)}:\n    let y = v * {n}",
        f"if {n} > {_number(r, d)}:\n    gain {_number(r, d)} gold", f"as {who}:\n    gain {n} gold",
        f"let z = {_card(r, d)}.value + {n}", f"let y = 0\nwhile y < {n}:\n    let y = y + {_number(r, 1)}",
        f"if {_card(r, d)} is crown:\n    do bonus of {_card(r, d)}", f"emit taken({_card(r, d)})",
        f"set passed of {who} = {n} > 2", f"move those(c in deck where c.cost > {n}) to hand of {who}",
        f"let c = random({_list(r, d)})\nlet y = c + {n}"])


@pytest.mark.parametrize("count", [pytest.param(int(os.environ.get("MEEPLE_RUNTIME_FUZZ", "60")), id="brief"),
                                   pytest.param(1000, id="soak", marks=pytest.mark.slow)])
def test_seeded_snippets_raise_only_located_rule_errors(count):
    """Random statements run in a game: only rule errors, each
    located, each stopped by a bound within BOUND_CALLS calls (60 snippets in the brief
    run, MEEPLE_RUNTIME_FUZZ=N for N; 1,000 in the soak run, ``slow``)."""
    from meeple.dsl.compiler import Compiler
    from meeple.dsl.pygen import PyGen
    from meeple.dsl.runtime import Frame
    from meeple.dsl.source import Source, TextOrigin
    from meeple.core.errors import MeepleError, Span
    game = load_game(str(MINIMAL))
    r = random.Random(20240611)
    ran = 0
    for i in range(count):
        text = "\n".join(_statement(r, r.randrange(1, 4)) for _ in range(r.randrange(1, 4))) + "\n"
        errors: list = []
        comp = Compiler(game.vocab, errors)
        comp.gen = PyGen(game.vocab)
        unit = comp.unit("snippet", Source(text, TextOrigin("<snippet>", 1, 1, True), Span("<snippet>", 1, 1)), (), me_bound=True)
        comp.gen.finish()
        try:
            if errors:
                continue
            st = game.new_state(2, i)
            st.frames.append(Frame(unit, 0, [None] * game.codes[unit].nlocals, st.pending.player, -1))
            st.pending = None
            with counted() as work:
                try:
                    game.rules.run(st)
                except MeepleError as err:
                    assert isinstance(err, RuleError) and err.span.line > 0, (text, err)
            assert work.calls < BOUND_CALLS, (text, work)
            ran += 1
        finally:
            del game.codes[unit:]
    assert ran >= count // 2        # most snippets compile, and run


def test_a_choice_for_no_player_is_a_located_rule_error(tmp_path):
    """``choose ... by X`` where X is none (a crown never set): the rules cannot ask anyone; the error points at the statement that asks, with the seed
    and the choice (found by tools/fuzz.py: a deleted ``set crown`` gave a TypeError)."""
    root = _minimal_with(tmp_path, "    shuffle deck\n", "    shuffle deck\n    choose c from deck by first(q in players where false)\n")
    result = _cli("play", root, "-p", "2", "--seed", "1", "--bots", "random", "--quiet")
    assert result.exit_code == ExitCode.CONTENT_INVALID, result.output
    first = result.stderr.splitlines()[0]
    assert ("`first(q in players where false)` found nothing, but `choose` needs a player (in setup)" in first
            and "(game seed 1, before the first choice)" in first)
    assert _same_file(first.split(":", 1)[0], root / "game.yaml")
