"""`meeple validate` reports everything at once: a schema error leaves out only its
part, what loaded is still compiled, consequences of a left-out part are held
back in one note; `--only-mine` hides the warnings of the packs a mod extends.

(The exact output of each broken pack is in tests/content/invalid/*/expected.txt;
schema_and_dsl_errors, expansion_remove_missing_and_dsl and
expansion_rules_schema_and_dsl are this feature's cases.)
"""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import ExitCode, main
from meeple.core.errors import ContentError, Problems, Span
from meeple.loading.salvage import keep_valid_parts
from meeple.loading.yamlsrc import load_yaml_text

REPO = Path(__file__).resolve().parent.parent


def _doc(text: str):
    return load_yaml_text(text, "x.yaml")


GAME = (REPO / "tests" / "content" / "valid" / "minimal" / "game.yaml").read_text(encoding="utf-8")

# (kind, text, what is kept (a path into the kept data and its value, or None: the
# whole file is left out), names the left-out parts declare)
CASES = [
    ("one card of three", "cards",
     "kind: cards\ncard_kind: coin\ncards:\n  - {id: a, name: A, cost: 1}\n  - {id: b, name: B, cost: 1, copies: two}\n"
     "  - {id: c, name: C, cost: 1}\n",
     (("cards",), [{"id": "a", "name": "A", "cost": 1}, {"id": "c", "name": "C", "cost": 1}]), {"b"}),
    ("a bad card_kind: the whole file", "cards",
     "kind: cards\ncard_kind: 3\ncards:\n  - {id: a, name: A, cost: 1}\n", None, {"a"}),
    ("one zone", "game", GAME.replace("visibility: owner,", "visibility: owners,"),
     (("zones",), None), {"hand"}),
    ("an optional flow key", "game", GAME.replace("max_rounds: 20", "max_rounds: twenty"),
     (("flow", "max_rounds"), "absent"), set()),
    ("an unknown top-level key: its names", "game", GAME.replace("resources:", "resourses:"),
     (("resourses",), "absent"), {"gold"}),
    ("a required key: the whole file", "game", GAME.replace("players: {min: 2, max: 3}", "players: {min: two, max: 3}"),
     None, set()),
    ("one add: entry of a rules file", "rules",
     "kind: rules\nadd:\n  procedures:\n    a: {efect: x}\n    b: {effect: x}\n",
     (("add", "procedures"), {"b": {"effect": "x"}}), {"a"}),
    ("a manifest's version written as a number", "pack",
     "kind: pack\nid: p\nname: P\nversion: 0.1\n", (("version",), "0.1"), set()),
    ("a manifest's extends: the whole file", "pack",
     "kind: pack\nid: p\nname: P\nversion: '0.1'\nextends: 3\n", None, set()),
]


@pytest.mark.parametrize("name,kind,text,kept,names", CASES, ids=[c[0] for c in CASES])
def test_keep_valid_parts(name, kind, text, kept, names):
    doc, left = keep_valid_parts(_doc(text), kind)
    assert left == names
    if kept is None:
        assert doc is None
        return
    path, value = kept
    data = doc.data
    for part in path[:-1]:
        data = data[part]
    if value == "absent":
        assert path[-1] not in data
    elif value is not None:
        assert data[path[-1]] == value
    if name == "one zone":
        assert list(doc.data["zones"]) == ["deck"]


def test_positions_move_up_with_the_list():
    doc, _ = keep_valid_parts(_doc(CASES[0][2]), "cards")
    assert doc.span(("cards", 1, "id")).line == 6          # card c, now the second, still points at its line
    assert ("cards", 2, "id") not in doc.spans


@pytest.mark.parametrize("message,held", [
    ("unknown card id 'crown'", True),
    ("unknown card kind 'crown'", True),
    ("'crown' is not a hook of coin (declared: bonus)", True),
    ("remove: there is no card 'crown' to remove (in minimal)", True),
    ("cannot set 'crown': not a variable (declare it, or use 'let')", True),
    ("unknown resource 'glod'", False),
    ("card 'crown': copies: expected a whole number, found the text 'three'", False),
])
def test_errors_that_only_name_a_left_out_part_are_held_back(message, held):
    problems = Problems(left_out={"crown"})
    problems.add(ContentError(message, Span("x.yaml", 1, 1)))
    assert (problems.hidden, problems.errors) == (([problems.hidden[0]], []) if held else ([], [problems.errors[0]]))


def test_the_three_errors_in_json_with_the_held_back_one(monkeypatch):
    monkeypatch.chdir(REPO)
    r = CliRunner().invoke(main, ["validate", "tests/content/invalid/schema_and_dsl_errors", "--format", "json"])
    assert r.exit_code == ExitCode.CONTENT_INVALID
    out = json.loads(r.output)
    where = "tests/content/invalid/schema_and_dsl_errors/"
    assert [(e["file"], e["line"], e["message"]) for e in out["errors"]] == [
        (where + "cards.yaml", 16, "card 'crown': copies: expected a whole number, found the text 'three'"),
        (where + "gems.yaml", 10, "unexpected 'gian'; expected a statement (gain, set, move, if, for each, ...) or end of line"),
        (where + "game.yaml", 39, "unknown resource 'glod'")]
    assert [(e["line"], e["message"]) for e in out["held_back"]] == [(59, "unknown card id 'crown'")]
    assert out["compiled"] is True


def test_broken_declarations_are_not_compiled(monkeypatch):
    monkeypatch.chdir(REPO)
    r = CliRunner().invoke(main, ["validate", "tests/content/invalid/unknown_type", "--format", "json"])
    out = json.loads(r.output)
    assert out["compiled"] is False and [e["message"] for e in out["errors"]] == [
        "field 'coin.cost': unknown type 'integer'"]


# ---------------------------------------------------------------- --only-mine
def _troyes_mod(tmp_path: Path) -> Path:
    mod = tmp_path / "mymod"
    mod.mkdir()
    (mod / "pack.yaml").write_text('kind: pack\nid: mymod\nname: My mod\nversion: "0.1"\nextends: [troyes]\n', encoding="utf-8")
    (mod / "cards.yaml").write_text(
        "kind: cards\ncard_kind: activity\npatch:\n  - id: artisan\n    cost: 4\n    provisional: {cost: a guess}\n",
        encoding="utf-8")
    (mod / "rules.yaml").write_text("kind: rules\nadd:\n  procedures:\n    tidy:\n      effect: |\n        gian 1 gold\n",
                                    encoding="utf-8")
    return mod


def test_only_mine_hides_the_base_packs_warnings(tmp_path, monkeypatch):
    _troyes_mod(tmp_path)
    monkeypatch.chdir(tmp_path)
    full = CliRunner().invoke(main, ["validate", "mymod"])
    mine = CliRunner().invoke(main, ["validate", "mymod", "--only-mine"])
    assert full.exit_code == mine.exit_code == ExitCode.CONTENT_INVALID
    base = [line for line in full.output.splitlines() if ": warning: " in line and not line.startswith("mymod/")]
    assert base                       # the base game's provisional values, each a line without the flag
    assert mine.output.splitlines() == [
        "mymod/rules.yaml:6:9: error: unexpected 'gian'; expected a statement (gain, set, move, if, for each, ...) or end of line",
        "            gian 1 gold",
        "            ^^^^",
        "mymod/cards.yaml:5:11: warning: provisional value artisan.cost: a guess",
        "mymod: load order troyes 0.1.0 -> mymod 0.1",
        f"mymod: 1 error(s), 1 provisional value(s); {len(base)} provisional value(s) in base packs hidden",
    ]
    assert full.output.splitlines()[-1] == f"mymod: 1 error(s), {len(base) + 1} provisional value(s)"


def test_only_mine_in_json_and_on_a_base_game(tmp_path, monkeypatch):
    _troyes_mod(tmp_path)
    monkeypatch.chdir(tmp_path)
    out = json.loads(CliRunner().invoke(main, ["validate", "mymod", "--only-mine", "--format", "json"]).output)
    assert [w["message"] for w in out["warnings"]] == ["provisional value artisan.cost: a guess"]
    assert out["base_provisional_hidden"] > 0 and out["base_warnings_hidden"] == 0
    r = CliRunner().invoke(main, ["validate", "citadels", "--only-mine"])
    assert r.exit_code == ExitCode.OK
    assert r.output.splitlines()[-1].endswith("; 18 provisional value(s); 0 provisional value(s) in base packs hidden")


@pytest.mark.parametrize("broken", [150, 1000])
def test_many_broken_parts_are_left_out_in_linear_time(broken):
    """Leaving out broken parts costs the file's length, not the square of it (found by
    tools/fuzz.py: a line repeated 3,000 times took 20 s). Past MAX_PARTS_LEFT_OUT broken
    parts the file is left out whole."""
    from meeple.loading.salvage import MAX_PARTS_LEFT_OUT
    from work import counted
    cards = "".join(f"  - {{id: b{i}, name: B, cost: 1, copies: two}}\n" for i in range(broken))
    text = "kind: cards\ncard_kind: coin\ncards:\n  - {id: a, name: A, cost: 1}\n" + cards + "  - {id: z, name: Z, cost: 2}\n"
    with counted() as work:
        kept, names = keep_valid_parts(_doc(text), "cards")
    assert work.calls < 1_000 * broken, work      # 520 to 640 a part today; a pass a part made 1,000,000 for 1,000
    if broken <= MAX_PARTS_LEFT_OUT:
        assert [c["id"] for c in kept.data["cards"]] == ["a", "z"]
        assert kept.spans[("cards", 1, "cost")].line == broken + 5      # the last card moved up, its place kept
        assert names == {f"b{i}" for i in range(broken)}
    else:
        assert kept is None and "a" in names and "z" in names
