"""Packs that extend packs (engine/loading/expansion.py): what the merged game holds,
load order, and which changes by two packs are conflicts.

The broken cases with their exact messages are fixture folders under
tests/content/invalid/expansion_*; these tests build small packs on the fly.
"""
import random
from pathlib import Path

import pytest

from meeple.core.errors import PackInvalid, Problems
from meeple.runtime.game import load_game
from meeple.loading.folders import resolve_all
from meeple.loading.pack import read_packs
from golden_games import game_of

REPO = Path(__file__).resolve().parent.parent
MINIMAL = REPO / "tests" / "content" / "valid" / "minimal"
PLUS = REPO / "tests" / "content" / "valid" / "expansion"


def _mod(tmp_path: Path, name: str, extends: list[str], files: dict[str, str]) -> Path:
    root = tmp_path / name
    root.mkdir()
    ext = ", ".join(extends)
    pid = name.replace("_", "-")
    (root / "pack.yaml").write_text(f"kind: pack\nid: {pid}\nname: {name}\nversion: \"0.1\"\nextends: [{ext}]\n")
    for fname, text in files.items():
        (root / fname).write_text(text)
    return root


def _load(*roots):
    problems = Problems()
    pack = read_packs(list(roots), problems)
    return pack, [e.message for e in problems.errors]


PATCH_COST = "kind: cards\ncard_kind: coin\npatch:\n  - id: silver\n    cost: {}\n"


def test_the_merged_game_holds_every_change():
    game = load_game(str(PLUS))
    ids = [c.id for c in game.pack.cards]
    assert ids == ["silver", "crown", "gold_coin"]            # copper removed, crown replaced in place, gold coin added
    silver = next(c for c in game.pack.cards if c.id == "silver")
    assert silver.field("cost") == 3 and silver.field("value") == 2      # patched cost, value kept
    crown = next(c for c in game.pack.cards if c.id == "crown")
    assert crown.names.get() == "Crown of the realm" and not crown.hooks  # replaced whole: no hooks left
    assert [i for i, _, _ in game.pack.load_order] == ["minimal", "minimal-plus"]
    ops = sorted((c.op, c.what, c.name) for c in game.pack.changes)
    assert ops == [("add", "card", "gold_coin"), ("add", "constants", "hoard_bonus"), ("add", "procedures", "reward_hoard"),
                   ("override", "flow", "scoring"), ("patch", "card", "silver"), ("remove", "card", "copper"),
                   ("replace", "card", "crown")]


def test_game_plus_expansion_is_the_same_as_the_expansion_alone():
    a = load_game(str(PLUS))
    b = load_game(f"{MINIMAL}+{PLUS}")
    assert [c.id for c in a.pack.cards] == [c.id for c in b.pack.cards]
    assert a.pack.load_order == b.pack.load_order


@pytest.mark.parametrize("seed", range(4))
def test_the_expansion_plays_to_its_end_by_its_own_rules(seed):
    """Random games of the merged pack end with every coin taken, and each player's gold
    is what the merged rules give: the coins' values (the patched silver, the added gold
    coin, the replaced crown without its old hook and trigger), the added hoard bonus
    for three coins or more, 1 more for the crown."""
    game = load_game(str(PLUS))
    st = game.new_state(2, seed)
    rng = random.Random(seed)
    while not st.over:
        game.apply(st, rng.randrange(len(st.pending.options)))
    gold, deck, hand = game.vocab.res_index["gold"], game.vocab.zone_base[game.vocab.zone_index["deck"]], game.vocab.zone_base[game.vocab.zone_index["hand"]]
    value = {c.id: c.field("value") for c in game.pack.cards}
    assert st.zones[deck] == []
    for p in range(2):
        coins = [game.vocab.card_def_ids[c] for c in st.zones[hand + p]]
        expected = sum(value[c] for c in coins) + (2 if len(coins) >= 3 else 0) + ("crown" in coins)
        assert st.res[p * game.vocab.nres + gold] == expected, (p, coins)
    assert sorted(st.ranking) == [0, 1] and len(st.scores) == 2


def test_two_packs_patching_one_field_alike_do_not_conflict(tmp_path):
    a = _mod(tmp_path, "mod_a", [str(MINIMAL)], {"cards.yaml": PATCH_COST.format(3)})
    b = _mod(tmp_path, "mod_b", [str(MINIMAL)], {"cards.yaml": PATCH_COST.format(3)})
    pack, errors = _load(a, b)
    assert errors == []


def test_two_packs_patching_different_fields_do_not_conflict(tmp_path):
    a = _mod(tmp_path, "mod_a", [str(MINIMAL)], {"cards.yaml": PATCH_COST.format(3)})
    b = _mod(tmp_path, "mod_b", [str(MINIMAL)], {"cards.yaml": "kind: cards\ncard_kind: coin\npatch:\n  - id: silver\n    value: 5\n"})
    pack, errors = _load(a, b)
    assert errors == []
    silver = next(c for c in pack.cards if c.id == "silver")
    assert (silver.field("cost"), silver.field("value")) == (3, 5)


def test_a_pack_may_change_what_a_pack_it_extends_changed(tmp_path):
    a = _mod(tmp_path, "mod_a", [str(MINIMAL)], {"cards.yaml": PATCH_COST.format(3)})
    b = _mod(tmp_path, "mod_b", ["mod_a"], {"cards.yaml": PATCH_COST.format(4)})
    pack, errors = _load(b)
    assert errors == []
    assert next(c for c in pack.cards if c.id == "silver").field("cost") == 4
    assert [i for i, _, _ in pack.load_order] == ["minimal", "mod-a", "mod-b"]


# Two unrelated packs touching one thing: (first pack's file, second's, the message's key words)
CONFLICTS = [
    ("replace both", "kind: cards\ncard_kind: coin\nreplace:\n  - {id: copper, name: C1, cost: 1}\n",
     "kind: cards\ncard_kind: coin\nreplace:\n  - {id: copper, name: C2, cost: 1}\n", "both change card 'copper'"),
    ("remove and patch", "kind: cards\ncard_kind: coin\nremove: [copper]\n",
     "kind: cards\ncard_kind: coin\npatch:\n  - {id: copper, cost: 2}\n", "patch: card 'copper' was removed by mod-a"),
    ("override twice", "kind: rules\noverride:\n  flow:\n    max_rounds: 5\n",
     "kind: rules\noverride:\n  flow:\n    max_rounds: 6\n", "both change flow step 'max_rounds'"),
    ("add one name twice", "kind: rules\nadd:\n  constants:\n    bonus: 1\n",
     "kind: rules\nadd:\n  constants:\n    bonus: 1\n", "constant 'bonus' already exists"),
]


@pytest.mark.parametrize("name, first, second, message", CONFLICTS, ids=[c[0] for c in CONFLICTS])
def test_conflicts_name_both_packs(tmp_path, name, first, second, message):
    fname = "rules.yaml" if first.startswith("kind: rules") else "cards.yaml"
    a = _mod(tmp_path, "mod_a", [str(MINIMAL)], {fname: first})
    b = _mod(tmp_path, "mod_b", [str(MINIMAL)], {fname: second})
    pack, errors = _load(a, b)
    assert any(message in e for e in errors), errors


def test_packs_extending_each_other_in_a_circle(tmp_path):
    _mod(tmp_path, "mod_a", ["mod_b"], {})
    b = _mod(tmp_path, "mod_b", ["mod_a"], {})
    pack, errors = _load(b)
    assert any("in a circle: mod-b -> mod-a -> mod-b" in e for e in errors), errors


def test_two_games_cannot_load_together():
    with pytest.raises(PackInvalid) as err:
        load_game("citadels+troyes")
    assert "are separate games" in str(err.value.problems.errors[0].message)


def test_resolve_all_splits_on_plus():
    assert [p.name for p in resolve_all("citadels+troyes")] == ["citadels", "troyes"]


# ---------------------------------------------------------------- diff and new-pack
def test_diff_lists_each_change_card_by_card():
    import json
    from click.testing import CliRunner
    from meeple.cli import main
    result = CliRunner().invoke(main, ["diff", str(MINIMAL), str(PLUS), "--format", "json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert [c["id"] for c in d["cards"]["added"]] == ["gold_coin"]
    assert [c["id"] for c in d["cards"]["removed"]] == ["copper"]
    assert [c["id"] for c in d["cards"]["replaced"]] == ["crown"]
    assert d["cards"]["changed"] == [{"id": "silver", "kind": "coin", "changes": [{"key": "cost", "from": 2, "to": 3}]}]
    assert d["rules"]["added"] == ["constant hoard_bonus", "procedure reward_hoard"]
    assert [r["rule"] for r in d["rules"]["changed"]] == ["flow scoring"]


def test_diff_of_a_pack_with_itself_is_empty():
    from click.testing import CliRunner
    from meeple.cli import main
    result = CliRunner().invoke(main, ["diff", "citadels", "citadels"])
    assert result.exit_code == 0 and result.output.strip().endswith("no differences")


@pytest.mark.parametrize("base", ["citadels", "troyes", "signorie"])
def test_new_pack_validates_and_passes_its_test_as_generated(tmp_path, monkeypatch, base):
    from click.testing import CliRunner
    from meeple.cli import main
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(main, ["new-pack", "mymod", "--extends", base])
    assert made.exit_code == 0, made.output
    for f in ("pack.yaml", "rules.yaml", "README.md", "tests/mymod.yaml"):
        assert (tmp_path / "mymod" / f).is_file(), f
    kinds = {c.kind for c in game_of(base).pack.cards}
    assert {p.stem for p in (tmp_path / "mymod").glob("*.yaml")} == kinds | {"pack", "rules"}
    checked = runner.invoke(main, ["validate", "mymod"])
    assert checked.exit_code == 0 and "mymod: valid" in checked.output, checked.output
    tested = runner.invoke(main, ["test", "mymod/tests"])
    assert tested.exit_code == 0 and "1 passed, 0 failed" in tested.output, tested.output
    again = runner.invoke(main, ["new-pack", "mymod", "--extends", base])
    assert again.exit_code == 2 and "already exists" in again.output


def test_rules_schema_sections_follow_the_game_schema():
    """A rules file's add: and override: sections are the game file's own
    sections (card kinds and players / flow / score with nothing required);
    tools/make_rules_schema.py writes it again after the game schema changes."""
    import copy
    from meeple.loading.schemas import schema
    game, rules = schema("game")["properties"], schema("rules")["properties"]
    for section, spec in rules["add"]["properties"].items():
        want = copy.deepcopy(game[section])
        if section == "card_kinds":
            want["additionalProperties"].pop("required", None)
        assert spec == want, section
    for section, spec in rules["override"]["properties"].items():
        want = copy.deepcopy(game[section])
        if section in ("players", "flow", "score"):
            want.pop("required", None)
        assert spec == want, section


def test_a_pack_adds_lines_to_the_view_it_extends(tmp_path):
    # its own marks after the base's lines; a line the base lists already is an error at its line
    shipped = game_of("citadels-2016").defn.view
    assert [n for n, _ in shipped.board][-6:] == ["bewitched", "witch", "magistrate", "blackmailer", "tax_token", "exhibits"]
    assert [n for n, _ in shipped.board][:3] == ["crown", "murdered", "robbed"]
    assert ("exhibits", ) == tuple(n for n, _ in shipped.count if n == "exhibits")
    mod = _mod(tmp_path, "mod_view", ["citadels"], {"rules.yaml": (
        "kind: rules\nadd:\n  view:\n    board: [crown]\n    facts: {district: [built_round]}\n")})
    pack, errors = _load(mod)
    assert errors == ["view: board: 'crown' is already listed"]
    line = (mod / "rules.yaml").read_text().splitlines().index("    board: [crown]") + 1
    problems = Problems()
    read_packs([mod], problems)
    assert (problems.errors[0].span.file.endswith("rules.yaml"), problems.errors[0].span.line) == (True, line)
    mod2 = _mod(tmp_path, "mod_view2", ["citadels"], {"rules.yaml": (
        "kind: rules\nadd:\n  view:\n    facts: {district: [built_round]}\n")})
    game = load_game(str(mod2))
    assert dict((k, [f for f, _ in fs]) for k, _, fs in game.defn.view.facts)["district"] == ["colour", "cost", "built_round"]
