"""The compiler asks a typed vocabulary for names (docs/architecture.md, "The
effect language's pipeline"), not the engine's Game: dsl/vocabulary.py declares
every name it reads, a vocabulary built by hand compiles rules with no Game at
all, and a Game's tables are its vocabulary's (the same objects), with compile
outputs in ``vocab.result``."""
from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path
from typing import Optional

from meeple.runtime.game import load_game
from meeple.dsl.compiler import Compiler
from meeple.dsl.errors import Span
from meeple.dsl.pygen import PyGen
from meeple.dsl.runtime import Frame
from meeple.dsl.source import Source, TextOrigin
from meeple.dsl.typesys import INT, Type
from meeple.dsl.vocabulary import Vocabulary

ROOT = Path(__file__).resolve().parent.parent
COMPILER_MODULES = ("compiler.py", "expressions.py", "operators.py", "calls.py", "functions.py", "statements.py",
                    "interaction.py", "steps.py", "pygen.py", "hoist.py", "types.py",
                    *(f"gen/{p.name}" for p in sorted((ROOT / "dsl" / "gen").glob("*.py"))))


def _names_read_of_vocabulary(path: Path) -> set[tuple[str, int]]:
    """(name, line) for every ``self.g.<name>``, and ``g.<name>`` where ``g = self.g``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        base = node.value
        if (isinstance(base, ast.Attribute) and base.attr == "g" and isinstance(base.value, ast.Name)
                and base.value.id == "self") or (isinstance(base, ast.Name) and base.id == "g"):
            out.add((node.attr, node.lineno))
    return out


def test_the_vocabulary_declares_every_name_the_compiler_reads():
    v = Vocabulary()
    missing = []
    for module in COMPILER_MODULES:
        for name, line in sorted(_names_read_of_vocabulary(ROOT / "dsl" / module)):
            if not hasattr(v, name):
                missing.append(f"dsl/{module}:{line}: {name}")
    assert not missing, "add these to dsl/vocabulary.py (and fill them in engine/runtime/game.py):\n" + "\n".join(missing)


def _compile(vocab: Vocabulary, text: str, want: Optional[Type] = None):
    """The expression written as Python (the one back end: the checker makes no function)."""
    errors: list = []
    origin = TextOrigin("<test>", 1, 1, False)
    comp = Compiler(vocab, errors)
    comp.gen = PyGen(vocab, "test")
    fn, code = comp.expression("test", Source(text, origin, Span("<test>", 1, 1)), want=want)
    comp.written()
    return fn, code, errors


class _State:
    players = 2

    def __init__(self, res):
        self.res = res


def test_a_vocabulary_built_by_hand_compiles_rules_without_a_game():
    v = Vocabulary(min_players=2, max_players=2, res_names=["coins"], res_index={"coins": 0}, nres=1,
                   res_min=[0], res_max=[None], res_start=[0])
    fn, code, errors = _compile(v, "coins of me + 1", want=INT)
    assert not errors
    st = _State([4, 9])
    assert fn(st, Frame(-1, 0, [None] * (code.nlocals + 1), 1, -1)) == 10
    _, _, errors = _compile(v, "coin + 1")
    assert errors and "coins" in str(errors[0].hint)


def test_a_game_reaches_its_vocabulary_as_one_object_and_compiling_writes_the_result():
    """The game holds its vocabulary (``game.vocab``) rather than copies of its tables: the
    only ones it has as its own attributes are those the running rules read of ``st.game``
    (``RunningGame``), and they are the vocabulary's, the same objects."""
    game = load_game("troyes", generate=False)
    v = game.vocab
    copied = {f.name for f in fields(Vocabulary)} & set(vars(game)) - {"min_players", "max_players"}   # the game's own, as declared
    assert copied == {"card_def_index", "ncards", "slot_owner", "slot_card"}
    for name in copied:
        assert getattr(game, name) is getattr(v, name) or getattr(game, name) == getattr(v, name), name
    r = v.result
    assert game.codes is r.codes and len(r.codes) > 0
    assert game.proc_code is r.proc_code and game.hook_code is r.hook_code and game.handler_code is r.handler_code
    assert game.compiled.can_refuse == r.uses_require == v.uses_require
    assert v.broken_functions is r.broken_functions
