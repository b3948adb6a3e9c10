"""Extension points of the Citadels family: the expansions use the base
pack's formulas and procedures (functions: and procedures: of
content/citadels/game.yaml) instead of writing them out again, so a change
to the base reaches them without editing them."""
import shutil
from pathlib import Path

import pytest

from meeple.authoring.scenario import run_file

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


# ---------------------------------------------------------------- override fingerprints (base_sha)
from meeple.core.errors import Problems  # noqa: E402
from meeple.loading.expansion import fingerprint  # noqa: E402
from meeple.loading.pack import read_packs  # noqa: E402

OVERRIDE = """\
kind: rules
{base_sha}override:
  procedures:
    complete_check:
      effect: |
        if size(city) >= city_size - 1 and first_complete is none:
            set first_complete = me
"""
NOW = "31fe772f"      # fingerprint of citadels' complete_check as shipped


def _fingerprint_warnings(root: Path) -> list[tuple[str, int, str]]:
    problems = Problems()
    pack = read_packs([root], problems)
    assert pack is not None and not problems.errors, [e.message for e in problems.errors]
    return [(Path(w.span.file).name, w.span.line, w.message) for w in problems.warnings
            if "base_sha" in w.message or "fingerprint" in w.message]


def _mymod(tmp_path: Path, base_sha: str, extends: str = "citadels") -> Path:
    root = tmp_path / "mymod"
    root.mkdir()
    (root / "pack.yaml").write_text(f"kind: pack\nid: mymod\nname: My mod\nversion: \"0.1\"\nextends: [{extends}]\n")
    (root / "rules.yaml").write_text(OVERRIDE.format(base_sha=base_sha))
    return root


def test_the_fingerprint_is_of_the_base_value():
    assert fingerprint({"effect": "if size(city) >= complete_at() and first_complete is none:\n"
                                  "    set first_complete = me\n"}) == NOW
    assert fingerprint({"b": 1, "a": 2}) == fingerprint({"a": 2, "b": 1})


FINGERPRINT_CASES = [
    ("missing", "",
     [("rules.yaml", 4, "this override of procedure 'complete_check' records no fingerprint of the base it replaces; "
                        f"add 'procedures.complete_check: {NOW}' under base_sha: and meeple validate will warn when the base changes")]),
    ("up to date", f"base_sha:\n  procedures.complete_check: {NOW}\n", []),
    ("upper case", f"base_sha:\n  procedures.complete_check: {NOW.upper()}\n", []),
    ("stale", "base_sha:\n  procedures.complete_check: 0badc0de\n",
     [("rules.yaml", 6, "the base procedure 'complete_check' changed since this override was written (base_sha 0badc0de, "
                        f"now {NOW}); review it, then update base_sha to 'procedures.complete_check: {NOW}'")]),
    ("names no override", f"base_sha:\n  procedures.complete_check: {NOW}\n  procedures.complete_chek: {NOW}\n",
     [("rules.yaml", 4, "base_sha: 'procedures.complete_chek' names no override of this file "
                        "(did you mean 'procedures.complete_check'?)")]),
]


@pytest.mark.parametrize("base_sha, expected", [c[1:] for c in FINGERPRINT_CASES], ids=[c[0] for c in FINGERPRINT_CASES])
def test_an_override_records_the_base_it_replaced(tmp_path, base_sha, expected):
    assert _fingerprint_warnings(_mymod(tmp_path, base_sha)) == expected


def test_a_fingerprint_is_eight_hex_digits(tmp_path):
    problems = Problems()
    read_packs([_mymod(tmp_path, "base_sha:\n  procedures.complete_check: latest\n")], problems)
    assert len(problems.errors) == 1 and "latest" in problems.errors[0].message


@pytest.mark.parametrize("pack", FAMILY[1:])
def test_the_shipped_expansions_record_every_fingerprint(pack):
    assert _fingerprint_warnings(CONTENT / pack) == []


@pytest.mark.parametrize("pack", FAMILY[1:])
def test_a_change_to_an_overridden_base_procedure_is_noticed(tmp_path, pack):
    root = _family(tmp_path)
    game = root / "citadels" / "game.yaml"
    text = game.read_text()
    game.write_text(text.replace("if size(city) >= complete_at() and first_complete is none:",
                                 "if size(city) >= complete_at() and first_complete is none:  # reviewed", 1))
    warnings = _fingerprint_warnings(root / pack)
    assert [m.split(" (")[0] for _, _, m in warnings] == [
        "the base procedure 'complete_check' changed since this override was written"]


# ---------------------------------------------------------------- hooks instead of overrides
import yaml  # noqa: E402

# base procedures no expansion may override whole any more: they call small
# named hooks (procedures and functions of citadels' game.yaml) instead
NOT_OVERRIDDEN = {
    "procedures": ["turn", "selection"],
    "flow": ["setup", "round", "scoring"],
    "actions.turn": ["take_gold", "draw_cards", "build", "income", "end_turn"],
}
HOOKS_USED = {
    "citadels-dark-city": {"take_crown", "turn_starting", "end_of_turn", "after_setup", "before_resume",
                           "murdered_called", "murdered_crown", "end_of_round", "after_build", "score_extras"},
    "citadels-2016": {"take_crown", "turn_starting", "end_of_turn", "before_setup", "after_setup", "before_resume",
                      "murdered_called", "murdered_crown", "end_of_round", "before_pick", "after_selection",
                      "after_gather", "collect_income", "pay_build", "after_build", "score_extras"},
}
MAX_LINES = 12          # effect lines of any override of a base procedure, function, action or flow step
EXCEPTIONS: dict[str, str] = {}     # "pack:section.name": why it may be longer (none today)


def _lines(text: str) -> int:
    return len([x for x in str(text).splitlines() if x.strip() and not x.strip().startswith("#")])


def _overrides(pack: str) -> dict[str, int]:
    """Every override of the pack's rules file: 'section.name' -> its effect lines."""
    override = yaml.safe_load((CONTENT / pack / "rules.yaml").read_text())["override"]
    out = {}
    for name, proc in override.get("procedures", {}).items():
        out[f"procedures.{name}"] = _lines(proc["effect"])
    for name, fn in override.get("functions", {}).items():
        out[f"functions.{name}"] = _lines(fn["value"])
    for group, actions in override.get("actions", {}).items():
        for action in actions:
            out[f"actions.{group}.{action['id']}"] = _lines(action.get("effect", ""))
    for name, step in override.get("flow", {}).items():
        out[f"flow.{name}"] = _lines(step)
    return out


@pytest.mark.parametrize("pack", FAMILY[1:])
def test_the_expansions_use_the_base_s_extension_points(pack):
    overrides = _overrides(pack)
    for section, names in NOT_OVERRIDDEN.items():
        for name in names:
            assert f"{section}.{name}" not in overrides, name
    assert {k.split(".", 1)[1] for k in overrides if k.startswith("procedures.")} >= HOOKS_USED[pack]


@pytest.mark.parametrize("pack", FAMILY[1:])
def test_every_override_of_the_base_is_small(pack):
    too_long = {k: n for k, n in _overrides(pack).items() if n > MAX_LINES and f"{pack}:{k}" not in EXCEPTIONS}
    assert too_long == {}


@pytest.mark.parametrize("pack", FAMILY[1:])
def test_every_hook_the_expansions_override_is_in_the_base(pack):
    """An override names a base procedure or function (else it would be an add:)."""
    base = yaml.safe_load((CONTENT / "citadels" / "game.yaml").read_text())
    for key in _overrides(pack):
        section, name = key.split(".", 1)
        if section in ("procedures", "functions"):
            assert name in base[section], key


# the base game's extension points: each does nothing, or the base's own rule
BASE_HOOKS = {
    "procedures": {"turn_opening": 1, "take_crown": 2, "turn_starting": 1, "end_of_turn": 1, "before_setup": 1,
                   "after_setup": 1, "character_called": 9, "before_resume": 1, "murdered_called": 1, "murdered_crown": 1,
                   "end_of_round": 1, "before_pick": 2, "after_selection": 1, "after_gather": 1,
                   "collect_income": 1, "pay_build": 1, "after_build": 1, "score_extras": 1},
    "functions": {"resumed_by": 1, "face_up_count": 1, "last_face_down": 1, "build_cost": 1, "may_build_twin": 1, "buildable": 1,
                  "free_build": 1, "build_open": 1, "district_points": 1, "colour_bonus": 1, "completed": 1},
}


def test_the_base_hooks_are_small():
    base = yaml.safe_load((CONTENT / "citadels" / "game.yaml").read_text())
    sizes = {section: {name: _lines(base[section][name]["effect" if section == "procedures" else "value"])
                       for name in names} for section, names in BASE_HOOKS.items()}
    assert sizes == BASE_HOOKS


# a change to a base turn action reaches the expansions (citadels-2016
# overrode take_gold whole before it used after_gather)
GATHER = """\
kind: scenario
pack: {pack}
players: 4
seed: 25
scenarios:
  - name: the King takes gold and builds
    options: {options}
    start:
      variables: {{crown: 1}}
      players:
        1: {{gold: 0, hand: [temple]}}
    steps:
      - arrange: {{zones: {{offered: [king, bishop, merchant, warlord], face_up_aside: [], face_down_aside: []}}}}
      - choose: [king, bishop, merchant, warlord]
      - choose: take_gold
      - expect: gold of player(1) == {gold}
      - choose: build:temple
      - expect:
          - gold of player(1) == {gold} - 1
          - any(d in city of player(1) where d is temple)
"""
BASE_GOLD = "        gain 2 gold\n        set gathered = true\n        call after_gather(true)\n"


@pytest.mark.parametrize("pack", FAMILY)
@pytest.mark.parametrize("gold_line, gold", [("        gain 2 gold\n", 2), ("        gain 3 gold\n", 3)],
                         ids=["as shipped", "base take_gold gives 3"])
def test_a_change_to_the_base_turn_actions_reaches_every_pack(tmp_path, pack, gold_line, gold):
    root = _family(tmp_path)
    game = root / "citadels" / "game.yaml"
    text = game.read_text()
    assert BASE_GOLD in text
    game.write_text(text.replace(BASE_GOLD, BASE_GOLD.replace("        gain 2 gold\n", gold_line)))
    scenario = root / f"gather_{pack}.yaml"
    scenario.write_text(GATHER.format(pack=pack, options=OPTIONS[pack], gold=gold))
    results = run_file(scenario)
    assert [(r.name, r.ok, r.message) for r in results] == [("the King takes gold and builds", True, results[0].message)]


# ---------------------------------------------------------------- the Witch's bewitched turn, once
# Both expansions' Witch pause a character's turn; the base's character_called
# plays the split turn (resumed_by, before_resume), so neither expansion
# overrides character_called and a change to it reaches both.
WITCH = """\
kind: scenario
pack: {pack}
players: 4
seed: 3
scenarios:
  - name: the Witch resumes the bewitched Merchant
    start:
      variables: {{crown: 1}}
      players:
        1: {{gold: 0, city: [tavern, market]}}
        4: {{gold: 0}}
    steps:
      - arrange: {{zones: {{offered: [witch, {second}, king, merchant], face_up_aside: [], face_down_aside: []}}}}
      - choose: [witch, {second}, king, merchant]
      - choose: [take_gold, bewitch:merchant]
        by: 1
      - choose: [take_gold, end_turn, take_gold, end_turn]
      - choose: gather_gold
        by: 4
      - choose: [income, merchant_gold, end_turn]
        by: [1, 1, 1]
      - expect:
          - gold of player(4) == 2
          - gold of player(1) == 2 + 2 + 1 + {bonus}
"""
SECOND = {"citadels-dark-city": "tax_collector", "citadels-2016": "thief"}
RESUME = "          as other:\n              call turn(c, true)\n"


@pytest.mark.parametrize("pack", FAMILY[1:])
@pytest.mark.parametrize("resume, bonus", [(RESUME, 0), ("          give 1 gold to other\n" + RESUME, 1)],
                         ids=["as shipped", "base gives the resuming player 1 gold"])
def test_a_change_to_the_base_s_split_turn_reaches_the_witch(tmp_path, pack, resume, bonus):
    root = _family(tmp_path)
    game = root / "citadels" / "game.yaml"
    text = game.read_text()
    assert text.count(RESUME) == 1
    game.write_text(text.replace(RESUME, resume))
    scenario = root / f"witch_{pack}.yaml"
    scenario.write_text(WITCH.format(pack=pack, second=SECOND[pack], bonus=bonus))
    results = run_file(scenario)
    assert [(r.name, r.ok, r.message) for r in results] == [("the Witch resumes the bewitched Merchant", True, results[0].message)]


# identical in both, and left there: raze's 3 lines name only what the base does not
# declare (the Artist's 'decorated', the Museum's 'exhibits' zone); declaring them in
# the base would change its games' state
SHARED_OVERRIDES = {"procedures.raze"}


def test_the_expansions_share_no_override_text():
    """What both expansions would write the same way belongs in the base: no override
    of more than one line is identical in the two (the Witch's character_called was)."""
    def texts(pack):
        override = yaml.safe_load((CONTENT / pack / "rules.yaml").read_text())["override"]
        out = {f"procedures.{n}": p["effect"] for n, p in override.get("procedures", {}).items()}
        out |= {f"functions.{n}": f["value"] for n, f in override.get("functions", {}).items()}
        return out
    dark, ed2016 = texts("citadels-dark-city"), texts("citadels-2016")
    shared = {k for k in dark.keys() & ed2016.keys() if dark[k] == ed2016[k] and _lines(dark[k]) > 1}
    assert shared <= SHARED_OVERRIDES
    assert "procedures.character_called" not in dark.keys() | ed2016.keys()
