"""Draw, swap and roll written as Python in a generated run of statements
(``meeple.dsl.gen.statements``: ``w_Draw``, ``w_Swap``, ``w_Roll``) do what their
closures do (``meeple.dsl.statements``, ``meeple.dsl.interaction``): the same cards
in the same zones and order, the same zone of each card, the same copy-on-write
flags, the same cards tracked, the same dice values from the same draws of the
game's generator, the same steps charged, and the same errors at the same place.

Each case is a statement added to the end of the setup of the engine test pack
tests/packs/dice (a run that never pauses, so it is generated whole), which leaves
the red die in the stock and the three white dice in player 1's pool; the state
is read as the setup ends, under either back end.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from meeple.core.errors import Problems, RuleError
from meeple.loading.pack import read_pack
from meeple.runtime.game import Game

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


def _game(tmp_path: Path, statements: str, generate: bool) -> Game:
    root = tmp_path / ("generated" if generate else "closures")
    shutil.copytree(PACK, root)
    game = root / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert SETUP_END in text
    added = "".join(f"    {line}\n" for line in statements.split("; "))
    game.write_text(text.replace(SETUP_END, SETUP_END + added), encoding="utf-8")
    problems = Problems()
    g = Game(read_pack(root, problems), problems, generate=generate)
    assert not problems.errors, [e.message for e in problems.errors]
    return g


def _as_setup_ends(g: Game) -> dict:
    seen: list = []

    def read(st) -> None:
        seen.append(dict(zones=[z[:] for z in st.zones], loc=st.loc[:], own=st.own[:], cvars=st.cvars[:],
                         rng=st.rng, budget=st.budget, track=sorted(st.track)))
    g.new_state(2, 7, prepare=read, track=True)
    return seen[0]


@pytest.mark.parametrize("statements", list(CASES.values()), ids=list(CASES))
def test_a_generated_draw_swap_or_roll_does_what_its_closure_does(tmp_path, statements):
    generated, closures = (_game(tmp_path, statements, generate) for generate in (True, False))
    for verb, written in WRITTEN.items():       # each statement written out, not a call of its closure
        if verb in statements:
            assert written in generated.pygen.source, verb
    assert _as_setup_ends(generated) == _as_setup_ends(closures)


@pytest.mark.parametrize("statements, needle", list(ERRORS.values()), ids=list(ERRORS))
def test_a_generated_draw_swap_or_roll_fails_as_its_closure_fails(tmp_path, statements, needle):
    seen = []
    for generate in (True, False):
        g = _game(tmp_path, statements, generate)
        with pytest.raises(RuleError) as info:
            g.new_state(2, 7)
        err = info.value
        seen.append((err.message, Path(err.span.file).name, err.span.line, err.span.col))
    assert seen[0] == seen[1]
    line = next(i for i, text in enumerate((PACK / "game.yaml").read_text(encoding="utf-8").splitlines(), 1)
                if text == SETUP_END.rstrip("\n")) + 1
    assert seen[0][1:] == ("game.yaml", line, 4 + statements.index(needle) + 1)     # the failing part, indented 4
