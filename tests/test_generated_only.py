"""A game of a shipped pack runs generated code only: no function the checker built (a
closure of ``meeple.dsl.statements``, ``interaction``, ``expressions``, ``operators``,
``calls`` ...) is called while it is played. The closures are the reference back end
(``generate=False``) and what dsl/faults.py re-runs, watched, to tell a fault in the
language's words; not what a game runs (a generated module that does not compile is an
internal error, ``meeple.dsl.gen.module.GeneratedCodeError``: nothing stands in for it).

Every function called while the game is played is seen (``sys.setprofile``) and those
defined in the checker's modules are named; the shared helpers a generated instruction
may call (the step budget's ``charge`` and ``counted``, the prompt of 'choose up to') are
not closures the checker built."""
from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from golden_games import game_of
from meeple.loading.folders import shipped_packs
from meeple.runtime.game import Game, load_game

CHECKERS = ("statements.py", "interaction.py", "expressions.py", "operators.py", "calls.py", "functions.py",
            "compiler.py", "steps.py", "hoist.py", "guards.py", "gen/runs.py")
SHARED = {"steps.py:charge", "steps.py:counted", "interaction.py:picks_prompt"}


def checker_functions_run(game: Game, players: int, seed: int) -> Counter:
    """The functions defined in the checker's modules that ran while a seeded random game
    was played (by module and name), with how often; the shared helpers left out."""
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
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("pack", shipped_packs())
def test_a_shipped_game_runs_no_closure_the_checker_built(pack):
    game = game_of(pack)
    assert checker_functions_run(game, game.max_players, 1) == Counter()


def test_the_closures_are_seen_when_they_run():
    """The look can fail: the same game played by the closures calls them."""
    game = load_game("signorie", generate=False)
    seen = checker_functions_run(game, game.max_players, 1)
    assert seen["interaction.py:op"] > 0 and seen["statements.py:loop"] > 0
