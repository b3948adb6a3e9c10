"""`meeple validate` warns where a card's hand-written text names a number its rules do
not (engine/authoring/cardtext.py): the text says 6, the cost is now 7. A warning, never an error."""
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.authoring.cardtext import number_warnings, text_numbers
from meeple.cli import ExitCode, main
from meeple.core.errors import Problems
from meeple.runtime.game import check_pack
from meeple.loading.folders import resolve_all, shipped_packs
from meeple.loading.pack import read_packs
from golden_games import game_of

CONTENT = Path(__file__).resolve().parent.parent / "content"

# (text, locale, the numbers it names)
TEXTS = [
    ("When you draw, draw 3 instead of 2 (keep 1).", "en", [3, 2, 1]),
    ("Take two coins; the murdered one is skipped; no one else.", "en", [2]),
    ("Build one more card, the 1st and 2nd in turn.", "en", [1]),
    ("Twelve points, 10% more", "en", [12]),
    ("建設コストは６ですが、得点は8点", "ja", [6, 8]),
    ("山札から三枚引き、二番目のカードを捨てる", "ja", [3]),
    ("第一手番、2番目の手番、1回の手番で3軒", "ja", [1, 3]),
]


@pytest.mark.parametrize("text,lang,numbers", TEXTS, ids=[t for t, _, _ in TEXTS])
def test_numbers_a_text_names(text, lang, numbers):
    assert [v for v, _, _ in text_numbers(text, lang)] == numbers


# Warnings per shipped pack with the checks as they are (docs/packs.md, "A card's text against its rules"): each
# names a number the rules derive (3 = 2 + 1, 5 = 6 - 1, 6 = 7 - 1) and does not write.
SHIPPED = {"citadels": 0, "citadels-dark-city": 1, "citadels-2016": 6, "troyes": 0, "signorie": 0}


@pytest.mark.parametrize("pack", shipped_packs())
def test_shipped_packs_have_few_warnings(pack):
    warnings = number_warnings(game_of(pack).pack)
    assert len(warnings) == SHIPPED[pack], [w.message for w in warnings]


def _validate(path: Path):
    problems = Problems()
    pack = read_packs(resolve_all(str(path)), problems)
    assert check_pack(pack, problems) is not None and not problems.errors
    return pack


def test_a_changed_cost_is_flagged_at_the_number_in_the_text(tmp_path):
    mod = tmp_path / "univ"
    shutil.copytree(CONTENT / "citadels", mod)
    (mod / "pack.yaml").write_text((mod / "pack.yaml").read_text().replace("id: citadels", "id: univ"))
    purple = mod / "purple.yaml"
    assert not [w for w in number_warnings(_validate(mod)) if "university" in w.message]
    purple.write_text(purple.read_text().replace("    cost: 6\n    points: 8\n    sources: {cost: 'bga-citadels",
                                                 "    cost: 7\n    points: 8\n    sources: {cost: 'bga-citadels", 1))
    found = [(w.span.file.rsplit("/", 1)[-1], w.span.line, w.span.col, w.message) for w in number_warnings(_validate(mod))]
    assert found == [
        ("purple.yaml", 125, 17, "card 'university': text (en) says 6; the card's numbers are 7, 8, 0, 1, 2, 3, 5"),
        ("purple.yaml", 126, 17, "card 'university': text (ja) says 6; the card's numbers are 7, 8, 0, 1, 2, 3, 5"),
    ]
    r = CliRunner().invoke(main, ["validate", str(mod)], catch_exceptions=False)
    assert r.exit_code == ExitCode.OK          # a warning never fails validation
    # files are named as the loader shows them: relative to the working folder
    assert f"{os.path.relpath(purple)}:125:17: warning: card 'university': text (en) says 6;" in r.output
    assert "          en: Costs 6, worth 8 points. The Warlord pays 5 to destroy it.\n                    ^\n" in r.output


def test_json_lists_the_warning_with_its_place(tmp_path):
    mod = tmp_path / "univ"
    shutil.copytree(CONTENT / "citadels", mod)
    (mod / "pack.yaml").write_text((mod / "pack.yaml").read_text().replace("id: citadels", "id: univ"))
    purple = mod / "purple.yaml"
    purple.write_text(purple.read_text().replace("en: Costs 6, worth 8 points.", "en: Costs 9, worth 8 points."))
    r = CliRunner().invoke(main, ["validate", str(mod), "--format", "json"], catch_exceptions=False)
    out = json.loads(r.output)
    assert r.exit_code == ExitCode.OK and out["valid"]
    hits = [w for w in out["warnings"] if "university" in w["message"]]
    assert [(w["line"], w["col"], w["message"]) for w in hits] == [
        (125, 17, "card 'university': text (en) says 9; the card's numbers are 6, 8, 0, 1, 2, 3, 5")]
