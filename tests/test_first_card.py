"""docs/packs.md's first card stays true: it validates, shows and plays."""
import random
import re
import shutil
from pathlib import Path

from click.testing import CliRunner

import doctext
from meeple.cli import main
from meeple.runtime.game import load_game

ROOT = Path(__file__).resolve().parent.parent


def test_first_card_example(tmp_path):
    first = re.compile(r"# yaml-language-server[^\n]*\nkind: cards\ncard_kind: district\ncards:\n  - id: bank")
    block = next((b for b in doctext.blocks("docs/packs.md", "yaml", under="Write your first card") if first.match(b)), None)
    assert block, "the 'write your first card' example is missing from docs/packs.md"
    pack = tmp_path / "mypack"
    shutil.copytree(ROOT / "content" / "citadels", pack)
    (pack / "bank.yaml").write_text(block, encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["validate", str(pack)]).exit_code == 0
    assert "Bank  [bank]" in runner.invoke(main, ["cards", str(pack), "bank"]).output
    game = load_game(str(pack))
    st = game.new_state(4, 3)
    rng = random.Random(3)
    while not st.over:
        game.apply(st, rng.randrange(len(st.pending.options)))
    assert st.scores
