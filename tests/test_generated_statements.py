"""Statements written as Python by the generator do what the closures did, the closures
having been the reference back end until they were retired (what they gave is recorded:
tests/closure_record.py).

Draw, swap and roll in a generated run of statements (``meeple.dsl.gen.statements``:
``w_Draw``, ``w_Swap``, ``w_Roll``) against the closures' record: the same cards in the same
zones and order, the same zone of each card, the same copy-on-write flags, the same cards
tracked, the same dice values from the same draws of the game's generator, the same steps
charged; and their errors at their place. Each case is a statement added to the end of the
setup of the engine test pack tests/packs/dice (a run that never pauses, so it is generated
whole), which leaves the red die in the stock and the three white dice in player 1's pool;
the state is read as the setup ends.

The statements that pause or run other code, each an instruction of its own
(``meeple.dsl.gen.pausing``), and the loops, ifs and 'as' around them laid out with jumps
(``meeple.dsl.gen.instructions``), in whole games of tests/packs/asking (below), against the
closures' record; each case is shown able to fail by a slip in its generated instruction
(``MUTANTS``).
"""
from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from meeple.core.errors import Problems, RuleError
from meeple.loading.pack import read_pack
from meeple.dsl.gen.module import Module
from meeple.dsl.types import _end
from meeple.runtime.game import Game
from meeple.runtime.state import State
from closure_record import as_recorded

PACK = Path(__file__).parent / "packs" / "dice"
SETUP_END = "        move those(d in pool of p where d.colour == red) to stock\n"

CASES = {
    "draw": "draw 2 from pool of player(1) to pool of player(2)",
    "draw more than it holds": "draw 9 from pool of player(1) to pool of player(2)",
    "draw a counted number": "draw size(pool of player(1)) - 1 from pool of player(1) to stock",
    "draw a negative number": "draw 0 - 2 from pool of player(1) to stock",
    "draw from an empty zone": "draw 2 from pool of player(2) to stock",
    "draw to the bottom": "draw 2 from pool of player(1) to bottom of stock",
    "draw into the zone drawn from": "draw 2 from pool of player(1) to pool of player(1)",
    "draw to the bottom of the zone drawn from": "draw 2 from pool of player(1) to bottom of pool of player(1)",
    "swap": "swap pool of player(1) with pool of player(2)",
    "swap a zone with itself": "swap pool of player(1) with pool of player(1)",
    "swap after a write": "move top(stock) to pool of player(2); swap stock with pool of player(2)",
    "roll a zone": "roll pool of player(1)",
    "roll a list": "roll those(d in pool of player(1) where d.faces == 6)",
    "roll a die": "roll top(pool of player(1))",
    "roll no die": "roll top(pool of player(2))",
    "roll twice": "roll stock; roll pool of player(1); roll stock",
    "draw then roll": "draw 1 from stock to pool of player(1); roll pool of player(1)",
}

# a line each statement's Python has (and no other statement's)
WRITTEN = {"draw ": "for _ in range(", "swap ": "st.own[_z", "roll ": "st.rand_below("}

ERRORS = {
    "draw: its count fails": ("draw 6 / (size(stock) - 1) from stock to pool of player(2)", "6 / ("),
    "draw: a player who is not there": ("draw 1 from stock to pool of player(5)", "player(5)"),
    "swap: a player who is not there": ("swap pool of player(1) with pool of player(5)", "player(5)"),
    "roll: its dice fail": ("roll those(d in pool of player(1) where d.faces / (size(stock) - 1) > 0)", "d.faces / ("),
}


def _game(tmp_path: Path, statements: str) -> Game:
    root = tmp_path / "pack"
    shutil.copytree(PACK, root)
    game = root / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert SETUP_END in text
    added = "".join(f"    {line}\n" for line in statements.split("; "))
    game.write_text(text.replace(SETUP_END, SETUP_END + added), encoding="utf-8")
    problems = Problems()
    g = Game(read_pack(root, problems), problems)
    assert not problems.errors, [e.message for e in problems.errors]
    return g


def _as_setup_ends(g: Game) -> dict:
    seen: list = []

    def read(st) -> None:
        seen.append(dict(zones=[z[:] for z in st.zones], loc=st.loc[:], own=st.own[:], cvars=st.cvars[:],
                         rng=st.rng, budget=st.budget, track=sorted(st.track)))
    g.new_state(2, 7, prepare=read, track=True)
    return seen[0]


@pytest.mark.parametrize("case", list(CASES))
def test_a_generated_draw_swap_or_roll_does_what_the_closures_did(tmp_path, case):
    statements = CASES[case]
    generated = _game(tmp_path, statements)
    for verb, written in WRITTEN.items():       # each statement written out
        if verb in statements:
            assert written in generated.pygen.source, verb
    assert as_recorded(f"setup ends: {case}", _as_setup_ends(generated))


@pytest.mark.parametrize("statements, needle", list(ERRORS.values()), ids=list(ERRORS))
def test_a_generated_draw_swap_or_roll_fails_at_its_failing_part(tmp_path, statements, needle):
    g = _game(tmp_path, statements)
    with pytest.raises(RuleError) as info:
        g.new_state(2, 7)
    err = info.value
    seen = [(err.message, Path(err.span.file).name, err.span.line, err.span.col)]
    line = next(i for i, text in enumerate((PACK / "game.yaml").read_text(encoding="utf-8").splitlines(), 1)
                if text == SETUP_END.rstrip("\n")) + 1
    assert seen[0][1:] == ("game.yaml", line, 4 + statements.index(needle) + 1)     # the failing part, indented 4


# ---------------------------------------------------------------- statements that pause or run other code
# Each case is added to the round of the engine test pack tests/packs/asking, under 'as p:' (a unit
# that pauses, so each statement is an instruction of its own, dsl/gen/pausing.py, and the loops and
# ifs around them are laid out with jumps, dsl/gen/instructions.py). The game is played to its end
# by a seeded chooser, with a JSON round-trip of the state at every decision (the game paused,
# saved and taken up again); each decision posed and the end are compared with the closures' record.
ASKING = Path(__file__).parent / "packs" / "asking"
ROUND_END = "            let nothing = 0\n"

PAUSING = {     # the statements, and the prompt of a decision the case must pose (None: it poses none of its own)
    "choose: a pause and its answer": (['choose t from stock "pick"', "move t to hand"], "pick"),
    "may choose, taken or declined": (['may choose t from stock where t.points > 1 "maybe"', "move t to hand"], "maybe"),
    "choose by another player": (['choose t from stock by player(2) "for P2"', "move t to hand of player(2)"], "for P2"),
    "choose where, with a cached part": (['choose t from stock where t.points > size(hand) "fits"', "move t to hand"],
                                         "fits"),
    "choose up to": (['choose up to 2 ts from stock where ts.points < 4 and size(chosen) < 2 "several"', "move ts to hand"],
                     "several (1 chosen)"),
    "choose a range": (['choose 1..2 ts from stock "one or two"', "move ts to hand"], "one or two (1 chosen)"),
    "choose with labels that read the state": (["for each t in stock:", "    set t.value = t.points + round",
                                                'choose t from stock "valued"', "move t to hand"], "valued"),
    "choose one": (['choose one "what":', '    "coin":', "        gain 1 coins", '    "score" if coins > 2:',
                    "        gain 1 score"], "what"),
    "may choose one by another player": (['may choose one by player(2) "gift":', '    "coin":', "        give 1 coins to player(2)"],
                                         "gift"),
    "a hook, run in place or paused": (["move top(stock) to hand", "do bonus of top(hand)"], "give back"),
    "a hook of no card": (["do bonus of first(t in hand where t.points > 9)"], None),
    "an event": (["move first(t in stock where t.points == 4) to hand of player(2)", "emit scored(me, 2)"], "a gift"),
    "the action loop": (["call turn()"], "choose an action"),
    "a procedure call that pauses": (["call take(2)"], "take a token"),
    "a loop containing a choice": (["repeat 2 times:", '    choose t from stock "again"', "    move t to hand"], "again"),
    "a walk containing a choice": (["move top(stock) to hand of player(2)", "for each q in players:",
                                    '    choose t from hand of q "from each"', "    move t to used"], "from each"),
    "a sorted walk containing a choice": (["for each t in stock where t.points > 1 by 0 - t.points:",
                                           '    may choose one "keep?":', '        "keep":', "            move t to hand"],
                                          "keep?"),
    "a while containing a choice": (["while size(hand) < 3 and size(stock) > 0:", '    choose t from stock "fill"',
                                     "    move t to hand"], "fill"),
    "as around a choice": (["as player(1):", '    choose t from stock "for P1"', "    move t to hand"], "for P1"),
    "if around a choice": (["if coins > 2:", '    choose t from stock "rich"', "    move t to hand", "else:",
                            "    call take(1)"], "rich"),
}


def _asking(tmp_path: Path, lines: list, name: str = "pack") -> Game:
    root = tmp_path / name
    shutil.copytree(ASKING, root)
    game = root / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert ROUND_END in text
    game.write_text(text.replace(ROUND_END, "".join(f"            {line}\n" for line in lines) + ROUND_END), encoding="utf-8")
    problems = Problems()
    g = Game(read_pack(root, problems), problems)
    assert not problems.errors, [e.message for e in problems.errors]
    return g


def _played(g: Game, players: int, seed: int) -> list:
    """Every decision posed (player, prompt, kind, options with their labels, uses) and the
    choice made, then the end; the state is saved and read back at every decision."""
    seen: list = []
    st = g.new_state(players, seed)
    rng = random.Random(seed)
    while not st.over:
        st = State.from_json(g, json.loads(json.dumps(st.to_json())))
        dec = st.pending.to_json()
        pick = rng.randrange(len(dec["options"]))
        seen.append((dec, pick))
        g.apply(st, pick)
    seen.append(json.dumps(st.to_json(), sort_keys=True))
    return seen


def _games(g: Game) -> list:
    return [_played(g, players, seed) for players in (2, 3) for seed in range(4)]


def _instructions(g: Game) -> set:
    """The files of the functions the instructions of every unit run as."""
    return {f.__code__.co_filename for code in g.codes for f in code.instrs}


@pytest.mark.parametrize("case", list(PAUSING))
def test_a_generated_instruction_does_what_the_closures_did(tmp_path, case):
    lines, prompt = PAUSING[case]
    generated = _asking(tmp_path, lines)
    # every instruction generated (``_end``, where a jump leads past the last, is the runtime's own)
    assert _instructions(generated) <= {generated.pygen.filename, _end.__code__.co_filename}
    a = _games(generated)
    if prompt is not None:      # the statement asked, and was answered
        assert any(step[0]["prompt"] == prompt for game in a for step in game[:-1])
    assert as_recorded(f"games: {case}", a)


# A plausible slip in the instruction each case runs (the kind of instruction by its made name's
# prefix: q a question, c a call or hook, v an event, pa the action loop, r a repeat, w a walk,
# b a branch, s entering 'as'), as (prefix, pattern, replacement) over its lines.
REVERSED = ("q", r"^st\.pending = ", "opts.reverse(); st.pending = ")      # the options offered in another order
MUTANTS = {
    "choose: a pause and its answer": REVERSED,
    "may choose, taken or declined": ("q", r"^return -3$", "L[0] = None"),      # a declined 'may' goes on
    "choose by another player": ("q", r"^who = (?!fr\.me).*", "who = fr.me"),      # the frame's player asked
    "choose where, with a cached part": ("q", r"= _U$", "= 0"),      # the cached part not emptied before the walk
    "choose up to": ("q", r"chosen \+ \[ans\]", "[ans]"),          # the picks so far forgotten
    "choose a range": ("q", r"^if len\(chosen\) >= ", "if len(chosen) > "),     # 'done' offered one pick late
    "choose with labels that read the state": ("q", r"\(cv\[", "(0 * cv["),       # labels read nothing
    "choose one": REVERSED,
    "may choose one by another player": ("q", r"^opts\.append\(_k\d+\)$", "pass"),      # no 'skip' offered
    "a hook, run in place or paused": ("c", r", fr\.me, c\)", ", fr.me, fr.this)"),      # the hook's 'this'
    "a hook of no card": ("c", r"^if c is None:$", "if False:"),
    "an event": ("v", r"owner if owner >= 0 else fr\.me", "fr.me"),      # handlers run as the emitter
    "the action loop": ("pa", r"if act\.param_slot >= 0:", "if False:"),      # the action's parameter lost
    "a procedure call that pauses": ("c", r"^loc\[0\] = ", "loc[0] = 1 + "),       # an argument changed
    "a loop containing a choice": ("r", r"^L\[(\d+)\] = n$", r"L[\1] = n - 1"),      # a round fewer
    "a walk containing a choice": ("w", r"= i \+ 1$", "= i + 2"),       # every other item
    "a sorted walk containing a choice": ("w", r"\.sort\(key=", ".sort(reverse=True, key="),
    "a while containing a choice": ("b", r"^return (\d+) if \(", r"return \1 if not ("),
    "as around a choice": ("s", r"^fr\.me = (?!L\[).*", "pass"),       # 'as' not entered
    "if around a choice": ("b", r"^return (\d+) if \(", r"return \1 if not ("),
}


def _mutated(monkeypatch, prefix: str, pattern: str, replacement: str) -> list:
    """Generated instructions of kind ``prefix`` written with ``pattern`` replaced; returns the
    lines it changed."""
    real, changed = Module.instruction, []

    def instruction(self, p, body, last, head=""):
        if p == prefix:
            lines = [re.sub(pattern, replacement, line.strip()) for line in [*body, last]]
            changed.extend(new for new, old in zip(lines, [*body, last]) if new != old.strip())
            indents = [line[:len(line) - len(line.lstrip())] for line in [*body, last]]
            body, last = [i + line for i, line in zip(indents, lines)][:-1], indents[-1] + lines[-1]
        return real(self, p, body, last, head)
    monkeypatch.setattr(Module, "instruction", instruction)
    return changed


def test_every_case_has_a_mutant():
    assert sorted(MUTANTS) == sorted(PAUSING)


@pytest.mark.parametrize("case", list(PAUSING))
def test_a_case_fails_when_its_instruction_is_written_wrong(tmp_path, monkeypatch, case):
    """The comparison can fail: with a slip in the generated instruction the case runs, the
    games are not those the closures played (or the rules fail)."""
    lines = PAUSING[case][0]
    changed = _mutated(monkeypatch, *MUTANTS[case])
    mutant = _asking(tmp_path, lines, "mutant")
    assert changed, "the slip was written somewhere"
    try:
        differ = not as_recorded(f"games: {case}", _games(mutant), record=False)
    except (RuleError, TypeError, IndexError):
        differ = True
    assert differ


PAUSING_ERRORS = {      # the statements, and the part of them the error is told at
    "choose: its where-clause fails": (['choose t from stock where t.points / (round - round) > 0 "x"'], "t.points / ("),
    "choose up to: its count fails": (['choose up to 2 / (round - round) ts from stock "x"'], "2 / ("),
    "choose: a chooser who is no player": (['choose t from stock by first(q in players where q == me and q != me) "x"'],
                                           "first("),
    "choose one: a condition fails": (['choose one "x":', '    "a" if 1 / (round - round) > 0:', "        gain 1 coins"],
                                      "1 / ("),
    "call: an argument fails": (["call take(3 / (round - round))"], "3 / ("),
    "emit: an argument fails": (["emit scored(me, 1 / (round - round))"], "1 / ("),
    "play actions: its end test fails": (["play actions turn until 1 / (round - round) > 0"], "1 / ("),
}


@pytest.mark.parametrize("lines, needle", list(PAUSING_ERRORS.values()), ids=list(PAUSING_ERRORS))
def test_a_generated_instruction_fails_at_its_failing_part(tmp_path, lines, needle):
    g = _asking(tmp_path, lines)
    with pytest.raises(RuleError) as info:
        _played(g, 2, 0)
    err = info.value
    seen = [(err.message, Path(err.span.file).name, err.span.line, err.span.col)]
    first = next(i for i, text in enumerate((ASKING / "game.yaml").read_text(encoding="utf-8").splitlines(), 1)
                 if text == ROUND_END.rstrip("\n"))      # the first line added takes its place
    k = next(k for k, text in enumerate(lines) if needle in text)
    assert seen[0][1:] == ("game.yaml", first + k, 12 + lines[k].index(needle) + 1)     # the failing part, indented 12
