"""A pack's own JSON Schemas (``meeple schema --pack GAME KIND``), generated from its
declarations: every shipped file fits its pack's schema, and a broken card is refused
by the schema and by ``meeple validate`` for the same reason, at the same value."""
import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from meeple.cli import ExitCode, main
from meeple.runtime.game import load_game
from meeple.loading.folders import content_root, shipped_packs
from meeple.loading.schemas import _explain, pack_schema
from meeple.loading.yamlsrc import load_yaml
from golden_games import game_of

REPO = Path(__file__).resolve().parent.parent


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)     # libyaml's, if built: the same data, read faster


def _data(path: Path):
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)


def _files(folder: Path, kind: str) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml") if (_data(p) or {}).get("kind") == kind)


@pytest.fixture(scope="module")
def packs():
    """The shipped packs as read (the session's shared games: the pack does not depend on
    how its rules are compiled)."""
    return {p: game_of(p).pack for p in shipped_packs()}


@pytest.mark.parametrize("pack_id", shipped_packs())
def test_every_shipped_file_fits_its_packs_schema(packs, pack_id):
    pack = packs[pack_id]
    checked = 0
    for kind, folder in (("cards", content_root() / pack_id), ("rules", content_root() / pack_id),
                         ("scenario", REPO / "tests" / "scenarios" / pack_id)):
        sch = pack_schema(pack, kind)
        Draft202012Validator.check_schema(sch)
        validator = Draft202012Validator(sch)
        for path in _files(folder, kind):
            errors = [e.message for e in validator.iter_errors(_data(path))]
            assert errors == [], f"{path}: {errors[:3]}"
            checked += 1
    assert checked >= 2


def test_the_cards_schema_has_each_kinds_fields_with_types_enums_bounds_and_defaults(packs):
    sch = pack_schema(packs["troyes"], "cards")
    assert sch["$id"] == "https://meeple.dev/schemas/packs/troyes/cards.schema.json"
    assert sch["properties"]["card_kind"]["enum"] == ["die", "citizen", "cube", "building", "space", "nave", "activity",
                                                       "event", "character"]
    activity = sch["$defs"]["activity"]
    assert activity["required"] == ["id", "name", "colour", "level", "cost", "divisor", "slot1", "fewer"]
    assert activity["additionalProperties"] is False
    props = activity["properties"]
    assert props["level"] == {"type": "integer", "minimum": 1, "maximum": 3, "description": "a whole number from 1 to 3; required"}
    assert props["colour"] == {"enum": ["red", "white", "yellow", "black"],
                               "description": "colour: one of red, white, yellow, black; required"}
    assert props["slot2"] == {"type": "integer", "description": "a whole number; optional, 0 when left out", "default": 0}
    assert props["modifies"] == {"enum": ["red", "white", "yellow", "black", None],
                                 "description": "colour: one of red, white, yellow, black, or none; optional, none when left out"}
    assert props["hooks"]["propertyNames"] == {"enum": ["effect", "modify"]}
    assert sch["$defs"]["activity.patch"]["required"] == ["id"]
    assert {"if": {"properties": {"card_kind": {"const": "activity"}}, "required": ["card_kind"]},
            "then": {"properties": {"cards": {"items": {"$ref": "#/$defs/activity"}},
                                    "replace": {"items": {"$ref": "#/$defs/activity"}},
                                    "patch": {"items": {"$ref": "#/$defs/activity.patch"}}}}} in sch["allOf"]
    district = pack_schema(packs["citadels"], "cards")["$defs"]["district"]["properties"]
    assert district["points"] == {"type": "integer", "minimum": 0, "description": "a whole number, at least 0; optional, as its cost when left out"}
    # an expansion's fields are there too
    assert pack_schema(packs["citadels-2016"], "cards")["$defs"]["character"]["properties"]["variant"]["default"] == 0


def test_rules_and_scenario_schemas_are_narrowed_by_the_pack(packs):
    rules = pack_schema(packs["citadels"], "rules")["properties"]["override"]["properties"]
    assert "ban" not in rules["procedures"]["propertyNames"]["enum"] and rules["procedures"]["propertyNames"]["enum"]
    scenario = pack_schema(packs["troyes"], "scenario")["properties"]
    assert (scenario["players"]["minimum"], scenario["players"]["maximum"]) == (2, 4)
    assert scenario["options"]["additionalProperties"] is False
    # the kinds a pack does not narrow are the generic schemas
    assert pack_schema(packs["troyes"], "game") == json.loads((REPO / "schemas" / "game.schema.json").read_text())


# (pack, file, card, field, value, what meeple validate says, what the generated schema says)
BROKEN = [
    ("troyes", "activities.yaml", "artisan", "level", 4,
     "card 'artisan': level must be at most 3, not 4", "card 'artisan': level: must be at most 3, found 4"),
    ("troyes", "activities.yaml", "artisan", "level", 0,
     "card 'artisan': level must be at least 1, not 0", "card 'artisan': level: must be at least 1, found 0"),
    ("troyes", "activities.yaml", "artisan", "divisor", 0,
     "card 'artisan': divisor must be at least 1, not 0", "card 'artisan': divisor: must be at least 1, found 0"),
    ("troyes", "cathedral.yaml", "cathedral_1_1", "value", 7,
     "card 'cathedral_1_1': value must be at most 6, not 7", "card 'cathedral_1_1': value: must be at most 6, found 7"),
    ("troyes", "activities.yaml", "artisan", "colour", "whte",
     "card 'artisan': colour must be one of red, white, yellow, black, not 'whte'; did you mean 'white'?",
     "card 'artisan': colour: the text 'whte' is not one of: red, white, yellow, black"),
    ("citadels", "districts.yaml", "manor", "colour", "purpel",
     "card 'manor': colour must be one of yellow, blue, green, red, purple, not 'purpel'; did you mean 'purple'?",
     "card 'manor': colour: the text 'purpel' is not one of: yellow, blue, green, red, purple"),
    ("citadels", "districts.yaml", "manor", "cost", -1,
     "card 'manor': cost must be at least 0, not -1", "card 'manor': cost: must be at least 0, found -1"),
    ("citadels", "characters.yaml", "king", "rank", 0,
     "card 'king': rank must be at least 1, not 0", "card 'king': rank: must be at least 1, found 0"),
    ("citadels", "districts.yaml", "manor", "cost", "three",
     "card 'manor': cost must be a whole number, not 'three'", "card 'manor': cost: expected a whole number, found the text 'three'"),
    ("citadels", "districts.yaml", "manor", "costs", 3,
     "card 'manor': 'costs' is not a field of district; did you mean 'cost'?", "unknown key 'costs' in card 'manor'"),
]


@pytest.mark.parametrize("pack_id, file, card, field, value, said, schema_said", BROKEN,
                         ids=[f"{b[2]}.{b[3]}={b[4]}" for b in BROKEN])
def test_a_broken_card_fails_the_schema_and_validate_for_the_same_reason(tmp_path, packs, pack_id, file, card, field,
                                                                         value, said, schema_said):
    folder = tmp_path / f"my{pack_id}"
    shutil.copytree(content_root() / pack_id, folder)
    path = folder / file
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    entry = next(c for c in data["cards"] if c["id"] == card)
    entry[field] = value
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    doc = load_yaml(path, file)
    errors = list(Draft202012Validator(pack_schema(packs[pack_id], "cards")).iter_errors(doc.data))
    explained = [e for x in errors for e in _explain(doc, x)]
    assert [e.message for e in explained] == [schema_said]
    at = explained[0].span
    where = ("cards", data["cards"].index(entry), field)
    assert (at.line, at.col) == ((doc.key_span if field == "costs" else doc.span)(where).line,
                                 (doc.key_span if field == "costs" else doc.span)(where).col)
    r = invoke("validate", folder)
    assert r.exit_code == ExitCode.CONTENT_INVALID
    lines = [ln for ln in r.output.splitlines() if ": error: " in ln]
    assert len(lines) == 1 and lines[0].endswith(f"{file}:{at.line}:{at.col}: error: {said}"), r.output


def test_bounds_are_checked_where_they_are_declared(tmp_path):
    folder = tmp_path / "mytroyes"
    shutil.copytree(content_root() / "troyes", folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    for old, new in (("level: {type: int, min: 1, max: 3}   #", "level: {type: int, min: 3, max: 1}   #"),
                     ("slot2: {type: int, default: 0}", "slot2: {type: int, default: 0, min: 1}"),
                     ("delayed: {type: bool, default: false}", "delayed: {type: bool, default: false, max: 1}")):
        assert old in text
        text = text.replace(old, new)
    game.write_text(text, encoding="utf-8")
    r = invoke("validate", folder)
    errors = [ln.split(": error: ", 1)[1] for ln in r.output.splitlines() if ": error: " in ln]
    assert errors == ["field 'activity.level': min (3) is more than max (1)",
                      "field 'activity.slot2': the default must be at least 1, not 0",
                      "field 'activity.delayed': min and max bound int fields only, not 'bool'"]


def test_meeple_schema_pack_prints_and_exports(tmp_path):
    r = invoke("schema", "--pack", "troyes", "cards")
    assert r.exit_code == 0 and json.loads(r.output)["$defs"]["activity"]["properties"]["level"]["maximum"] == 3
    r = invoke("schema", "--pack", "citadels", "--export", tmp_path / "s")
    assert r.exit_code == 0 and r.output == f"wrote 7 schema(s) to {tmp_path / 's'}\n"
    cards = json.loads((tmp_path / "s" / "cards.schema.json").read_text())
    assert cards["$id"] == "https://meeple.dev/schemas/packs/citadels/cards.schema.json"
    assert json.loads((tmp_path / "s" / "log.schema.json").read_text())["$id"].endswith("/log.schema.json")
    r = invoke("schema", "--pack", "citadles", "cards")
    assert r.exit_code == ExitCode.USAGE and "did you mean 'citadels'?" in r.output


@pytest.mark.parametrize("base", ["citadels", "troyes"])
def test_new_pack_schema_lines_point_inside_the_pack(tmp_path, base):
    r = invoke("new-pack", "mymod", "--extends", base, "--dir", tmp_path)
    assert r.exit_code == 0, r.output
    pack = tmp_path / "mymod"
    assert sorted(p.name for p in (pack / "schemas").iterdir()) == ["cards.schema.json", "pack.schema.json",
                                                                   "rules.schema.json", "scenario.schema.json"]
    for path in sorted(pack.rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        kind = yaml.safe_load(path.read_text(encoding="utf-8"))["kind"]
        up = "../" if path.parent.name == "tests" else ""
        assert first == f"# yaml-language-server: $schema={up}schemas/{kind}.schema.json", path
        target = (path.parent / first.split("=", 1)[1]).resolve()
        assert target.is_relative_to(pack.resolve()) and target.is_file()
        sch = json.loads(target.read_text(encoding="utf-8"))
        assert list(Draft202012Validator(sch).iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))) == [], path
    cards = json.loads((pack / "schemas" / "cards.schema.json").read_text(encoding="utf-8"))
    assert cards == json.loads(json.dumps(pack_schema(load_game(base, generate=False).pack, "cards")))


@pytest.mark.parametrize("doc", ["README.md", "docs/modding.md"])
def test_documented_new_pack_output_is_true(doc, tmp_path, monkeypatch):
    import doctext
    shown = doctext.output_of(doc, "meeple new-pack mymod --extends citadels")
    monkeypatch.chdir(tmp_path)
    assert invoke("new-pack", "mymod", "--extends", "citadels").output == shown
