"""Extension points of the Citadels family: the expansions use the base
pack's formulas and procedures (functions: and procedures: of
content/citadels/game.yaml) instead of writing them out again, so a change
to the base reaches them without editing them."""
import shutil
from pathlib import Path

import pytest

from engine.scenario import run_file

CONTENT = Path(__file__).resolve().parent.parent / "content"
FAMILY = ("citadels", "citadels-dark-city", "citadels-2016")

# P1 King with a manor (cost 3) and a temple; P4 the Warlord with 1 gold,
# who takes 2 gold and destroys the manor. Seed 002 line 63: cost minus 1.
SCENARIO = """\
kind: scenario
pack: {pack}
players: 4
seed: 25
scenarios:
  - name: the Warlord destroys a manor
    options: {options}
    start:
      variables: {{crown: 1}}
      players:
        1: {{city: [manor, temple]}}
        4: {{gold: 1}}
    steps:
      - arrange: {{zones: {{offered: [king, bishop, merchant, warlord], face_up_aside: [], face_down_aside: []}}}}
      - choose: [king, bishop, merchant, warlord]
      - choose: [take_gold, end_turn, take_gold, end_turn, take_gold, end_turn]
      - choose: take_gold
        by: 4
      - choose: destroy:manor
      - expect:
          - gold of player(4) == 3 - {paid}
          - not any(d in city of player(1) where d is manor)
          - first(d in deck) is manor
"""
OPTIONS = {"citadels": "{}", "citadels-dark-city": "{use_diplomat: false}", "citadels-2016": "{}"}

BASE_COST = "    value: worth(d) - 1 + wall(d)\n"


def _family(tmp_path: Path, cost_line: str = BASE_COST) -> Path:
    """The three packs side by side in tmp_path, the base's destroy_cost line replaced."""
    for name in FAMILY:
        shutil.copytree(CONTENT / name, tmp_path / name)
    game = tmp_path / "citadels" / "game.yaml"
    text = game.read_text()
    assert BASE_COST in text
    game.write_text(text.replace(BASE_COST, cost_line))
    return tmp_path


@pytest.mark.parametrize("pack", FAMILY)
@pytest.mark.parametrize("cost_line, paid", [(BASE_COST, 2), ("    value: worth(d) + wall(d)\n", 3)],
                         ids=["as shipped", "base Warlord pays 1 more"])
def test_a_change_to_the_base_warlord_reaches_every_pack(tmp_path, pack, cost_line, paid):
    root = _family(tmp_path, cost_line)
    scenario = root / f"warlord_{pack}.yaml"
    scenario.write_text(SCENARIO.format(pack=pack, options=OPTIONS[pack], paid=paid))
    results = run_file(scenario)
    assert [(r.name, r.ok, r.message) for r in results] == [("the Warlord destroys a manor", True, results[0].message)]


@pytest.mark.parametrize("pack", FAMILY[1:])
def test_the_expansions_do_not_write_the_destroy_formula_out(pack):
    """The formula lives once, in the base: no expansion file spells it out."""
    for f in (CONTENT / pack).glob("*.yaml"):
        text = f.read_text()
        assert "raises_destroy_cost and w != d" not in text, f
        assert "- 1 + wall(d)" not in text, f
        assert "d.cost - 1" not in text, f
