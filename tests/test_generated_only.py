"""A game of a shipped pack runs generated code only: no function of the checker's modules
(``meeple.dsl.statements``, ``interaction``, ``expressions``, ``operators``, ``calls`` ...)
is called while it is played. The checker makes no function of what it checks (the
closures it once built are retired): a generated module that does not compile is an
internal error (``meeple.dsl.gen.module.GeneratedCodeError``), nothing stands in for it.

Every function called while the game is played is seen (``sys.setprofile``) and those
defined in the checker's modules are named; the shared helpers a generated instruction
may call (the step budget's ``charge`` and ``counted``, the prompt of 'choose up to') are
the runtime's, not the checker's."""
from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from golden_games import game_of
from meeple.loading.folders import shipped_packs
from meeple.runtime.game import Game

CHECKERS = ("statements.py", "interaction.py", "expressions.py", "operators.py", "calls.py", "functions.py",
            "compiler.py", "steps.py", "hoist.py", "guards.py", "gen/runs.py")
SHARED = {"steps.py:charge", "steps.py:counted", "interaction.py:picks_prompt"}


def checker_functions_run(game: Game, players: int, seed: int, each=None) -> Counter:
    """The functions defined in the checker's modules that ran while a seeded random game
    was played (by module and name), with how often; the shared helpers left out. ``each``:
    called with the state after every choice, as the game is played."""
    seen: Counter = Counter()

    def look(frame, event, arg):
        if event == "call":
            f = frame.f_code.co_filename.replace("\\", "/")
            if "/dsl/" in f and f.endswith(CHECKERS):
                name = f"{f.split('/dsl/')[1]}:{frame.f_code.co_name}"
                if name not in SHARED:
                    seen[name] += 1
    st = game.new_state(players, seed)
    rng = random.Random(seed)
    sys.setprofile(look)
    try:
        while not st.over:
            game.apply(st, rng.randrange(st.pending.count()))
            if each is not None:
                each(st)
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("pack", shipped_packs())
def test_a_shipped_game_runs_no_closure_the_checker_built(pack):
    game = game_of(pack)
    assert checker_functions_run(game, game.max_players, 1) == Counter()


def test_the_checker_is_seen_when_it_runs():
    """The look can fail: an expression evaluated as the game is played (a designer's
    console, ``Game.evaluate``) is checked there, and the checker's functions are seen."""
    game = game_of("signorie")
    seen = checker_functions_run(game, game.max_players, 1, lambda st: game.evaluate(st, "round + 1"))
    assert seen["compiler.py:expr"] > 0 and seen["expressions.py:x_Name"] > 0


def test_a_game_loaded_to_be_checked_only_runs_no_rule():
    """``generate=False`` ('meeple validate', 'cards', 'diff', 'patch', tune's checks) checks the
    rules and writes none: the game is read (its pack, its rules checked, its problems) but
    starting it, or evaluating an expression in it, is refused with a message saying how to
    load it to play; each of its instructions is one that refuses to run, not a function of
    the rule."""
    from meeple.dsl.types import CheckedOnly, _end, unwritten
    from meeple.runtime.game import load_game
    game = load_game("citadels", generate=False)
    assert game.pygen is None and len(game.codes) > 40
    made = {op for code in game.codes for op in code.instrs if not hasattr(op, "jump_to")}
    assert made == {unwritten, _end}          # ``_end``: a jump past the last instruction, the runtime's
    with pytest.raises(CheckedOnly, match="loaded to be checked only .* load it with generate=True"):
        game.new_state(4, 1)
    with pytest.raises(CheckedOnly):
        game.expression("round + 1")
    with pytest.raises(CheckedOnly):
        unwritten(None, None)
