"""Every number of every shipped pack is confirmed by a cited source or marked
provisional (with a reason), and citations are data the engine checks.

A number is a constant (a by_players table is one value), a whole number a
card writes, and a card's count (copies or per_player) when it is not 1. It is
cited when a ``sources:`` entry (the card's own, its card file's, or the
game's) names it with a reference the pack declares (pack.yaml references:,
inherited by the packs that extend it), and provisional when a
``provisional:`` note names it (meeple.loading.pack.provenance)."""
import shutil
from pathlib import Path

import pytest

from meeple.core.errors import Problems
from meeple.loading.folders import resolve_all
from meeple.loading.pack import provenance, read_packs

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ["citadels", "citadels+citadels-dark-city", "citadels+citadels-2016", "troyes", "signorie"]


def _pack(spec: str):
    problems = Problems()
    pack = read_packs(resolve_all(spec) if isinstance(spec, str) else spec, problems)
    return pack, problems


@pytest.mark.parametrize("spec", SHIPPED)
def test_every_number_is_cited_or_provisional(spec):
    pack, problems = _pack(spec)
    assert not problems.errors, problems.errors
    bare = [f"{r.span.file}:{r.span.line}: {r.who}.{r.what} = {r.value}" for r in provenance(pack) if r.status == "unmarked"]
    assert not bare, f"{len(bare)} number(s) neither cited nor provisional:\n" + "\n".join(bare)


@pytest.mark.parametrize("spec", SHIPPED)
def test_every_citation_names_a_declared_reference(spec):
    pack, _ = _pack(spec)
    refs = {r for r, _, _ in pack.references}
    rows = [r for r in provenance(pack) if r.status == "cited"]
    assert rows and all(r.detail.split()[0].rstrip(":,;") in refs for r in rows)


# ---------------------------------------------------------------- the checks, on a copy of citadels
def _copy(tmp_path: Path, name: str = "citadels") -> Path:
    dst = tmp_path / name
    shutil.copytree(ROOT / "content" / name, dst)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _errors(roots) -> list[str]:
    problems = Problems()
    read_packs(roots, problems)
    return [f"{e.message} | {e.hint}" for e in problems.errors]


def test_a_citation_must_name_a_declared_reference(tmp_path):
    root = _copy(tmp_path)
    _edit(root / "characters.yaml", 'build_limit: "seed-002 line 59', 'build_limit: "seed-02 line 59')
    errors = _errors([root])
    assert len(errors) == 1 and "names no reference 'seed-02'" in errors[0] and "seed-002" in errors[0]


def test_a_citation_must_name_a_real_field_or_constant(tmp_path):
    root = _copy(tmp_path)
    _edit(root / "districts.yaml", '  cost: "citadels-cards 2a"', '  cots: "citadels-cards 2a"')
    _edit(root / "characters.yaml", 'sources: {build_limit:', 'sources: {build_limt:')
    _edit(root / "game.yaml", '  starting_hand: "seed-002', '  starting_hnd: "seed-002')
    errors = _errors([root])
    assert len(errors) == 3, errors
    assert any("'cots' is not a field of district" in e and "cost" in e for e in errors)
    assert any("'build_limt' is not a field of character" in e and "build_limit" in e for e in errors)
    assert any("'starting_hnd' is not a constant" in e and "starting_hand" in e for e in errors)


def test_a_value_is_cited_or_provisional_not_both(tmp_path):
    root = _copy(tmp_path)
    _edit(root / "purple.yaml", 'sources: {extra_draw: "seed-002 line 97: 3 cards instead of 2"}',
          'sources: {extra_draw: "seed-002 line 97", cost: "citadels-cards 3a"}')
    _edit(root / "game.yaml", "sources:\n", 'provisional:\n  city_size: "a guess"\n\nsources:\n')
    errors = _errors([root])
    assert len(errors) == 2, errors
    assert all("cited and also marked provisional" in e for e in errors)


def test_a_files_citation_yields_to_a_cards_provisional_note():
    pack, _ = _pack("citadels")
    rows = {(r.who, r.what): r for r in provenance(pack)}
    assert rows[("observatory", "cost")].status == "provisional"       # the file cites every cost but this one
    assert rows[("manor", "cost")].status == "cited" and rows[("manor", "cost")].detail.startswith("citadels-cards 2a")
    assert rows[("game", "face_up")].value == {2: 0, 3: 0, 4: 2, 5: 1, 6: 0, 7: 0}


def test_unmarked_numbers_are_found(tmp_path):
    root = _copy(tmp_path)
    _edit(root / "game.yaml", '  starting_gold: "seed-002 line 6"\n', "")
    _edit(root / "districts.yaml", '  cost: "citadels-cards 2a"\n', "")
    pack, problems = _pack([root])
    assert not problems.errors
    bare = [(r.who, r.what) for r in provenance(pack) if r.status == "unmarked"]
    assert ("game", "starting_gold") in bare and ("manor", "cost") in bare and len(bare) == 1 + 17    # the 17 coloured districts


def test_an_expansion_inherits_references_and_a_patch_drops_the_citation(tmp_path):
    root = _copy(tmp_path)
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "pack.yaml").write_text(
        f"kind: pack\nid: mod\nname: Mod\nversion: '0.1'\nextends: [{root}]\n"
        "references: {house: 'our own playtests'}\n", encoding="utf-8")
    (mod / "cards.yaml").write_text(
        "kind: cards\ncard_kind: district\npatch:\n"
        "  - {id: manor, cost: 4}\n"
        "  - {id: castle, cost: 5, sources: {cost: 'house rule 3'}}\n"
        "  - {id: palace, copies: 2, sources: {copies: 'seed-002 (inherited reference)'}}\n", encoding="utf-8")
    (mod / "rules.yaml").write_text("kind: rules\noverride:\n  constants: {starting_gold: 3}\n", encoding="utf-8")
    pack, problems = _pack([root, mod])
    assert not problems.errors, problems.errors
    rows = {(r.who, r.what): r for r in provenance(pack)}
    assert rows[("manor", "cost")].status == "unmarked"           # the base's citation was for 3
    assert rows[("manor", "copies")].status == "cited"            # the fields the patch leaves keep theirs
    assert rows[("castle", "cost")].detail == "house rule 3"
    assert rows[("palace", "copies")].status == "cited"
    assert rows[("game", "starting_gold")].status == "unmarked"   # overridden: its citation went with the old value
    assert rows[("game", "starting_hand")].status == "cited"


def test_the_cli_prints_the_provenance(tmp_path):
    from click.testing import CliRunner
    from meeple.cli import main
    out = CliRunner().invoke(main, ["cards", "citadels", "--provenance"])
    assert out.exit_code == 0, out.output
    assert "observatory.cost = 5  provisional: classic cards.tsv" in out.output
    assert "architect.build_limit = 3  cited: seed-002 line 59" in out.output
    assert "numbers by kind: cited / provisional / unmarked" in out.output and "seed-002: seed 002" in out.output
    one = CliRunner().invoke(main, ["cards", "citadels", "university", "--provenance"])
    assert one.output.splitlines()[0].startswith("university.cost = 6  cited: seed-002 line 118")
