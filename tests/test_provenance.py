"""Every number of every shipped pack is confirmed by a cited source or marked
provisional (with a reason), and citations are data the engine checks.

A number is a constant (a by_players table is one value), a whole number a
card writes, and a card's count (copies or per_player) when it is not 1. It is
cited when a ``sources:`` entry (the card's own, its card file's, or the
game's) names it with a reference the pack declares (pack.yaml references:,
inherited by the packs that extend it), and provisional when a
``provisional:`` note names it (meeple.loading.pack.provenance).

A reference is a public document (publisher, title, language, web address),
and a citation names its place by section and a few words quoted, never by a
line number (docs/citations.md, meeple.loading.citations)."""
import shutil
from pathlib import Path

import pytest

from meeple.core.errors import Problems
from meeple.loading.citations import QUOTE_MAX, line_number, parse, references_named
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
    refs = {r.id for r in pack.references}
    rows = [r for r in provenance(pack) if r.status == "cited"]
    assert rows and all(set(references_named(r.detail)) <= refs for r in rows)


def _citations(pack) -> dict[str, str]:
    """Every citation of a pack (each once), with where it is written."""
    out = {cite: f"{s.file}:{s.line}" for _, cite, s in pack.game.sources}
    for card in pack.cards:
        out.update({cite: f"{s.file}:{s.line}" for _, cite, s in card.sources})
    return out


@pytest.mark.parametrize("spec", SHIPPED)
def test_every_citation_gives_a_section_and_a_short_quote_never_a_line_number(spec):
    """Each cite reads ID "SECTION": "QUOTE" (NOTE); the quote is at most QUOTE_MAX
    characters; a cite may go without a quote only when its note says the
    document's wording is not at hand (and what the document gives)."""
    pack, _ = _pack(spec)
    bad = []
    for cite, where in _citations(pack).items():
        cites = parse(cite)
        if cites is None:
            bad.append(f"{where}: not ID \"SECTION\": \"QUOTE\": {cite}")
            continue
        if line_number(cite):
            bad.append(f"{where}: a line number ({line_number(cite)}): {cite}")
        for c in cites:
            if len(c.quote) > QUOTE_MAX:
                bad.append(f"{where}: a quote of {len(c.quote)} characters: {c.quote}")
            if not c.quote and "wording not at hand" not in c.note:
                bad.append(f"{where}: {c.ref} \"{c.section}\" quotes nothing and does not say why")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("spec", SHIPPED)
def test_every_reference_is_a_public_document(spec):
    """Shipped packs declare references in the structured form: a title, who publishes
    it, its language and a web address; nothing in them names a file of our own."""
    pack, _ = _pack(spec)
    assert pack.references
    for ref in pack.references:
        assert ref.title and ref.publisher and ref.language, ref
        assert ref.url.startswith(("https://", "http://")), ref
        assert not any(w in ref.describe() for w in ("seed", "shared/", ".md:", "sources.md", "-cards.md")), ref


@pytest.mark.parametrize("citation, refs, line", [
    ('bga "S": "q"', ("bga",), None),
    ('bga "S": "q" (a note (with parentheses))', ("bga",), None),
    ('bga "S": "q"; book "Setup": "two gold" (2-3 players)', ("bga", "book"), None),
    ('book "page" (wording not at hand)', ("book",), None),
    ("seed-002 l.90", ("seed-002",), "l.90"),
    ("seed-002 line 59: up to 3", ("seed-002",), "line 59"),
    ("seed-002 lines 17-19; other 4b", ("seed-002",), "lines 17-19"),
    ("house rule 3", ("house",), None),
    ('bga "S": "on line 3 of the card"', ("bga",), None),          # words quoted are not a place
])
def test_the_citation_format_is_read(citation, refs, line):
    assert references_named(citation) == refs
    assert (line_number(citation) or None) == line


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
    _edit(root / "characters.yaml", "build_limit: 'bga-citadels \"", "build_limit: 'bga-citadel \"")
    _edit(root / "game.yaml", '; citadels-rulebook-2016 "Playing', '; citadels-rulebok-2016 "Playing')
    errors = sorted(_errors([root]))
    assert len(errors) == 2, errors
    assert "build_limit: the citation" in errors[0] and "names no reference 'bga-citadel'" in errors[0]
    assert "did you mean 'bga-citadels'" in errors[0]
    assert "picks_each: the citation" in errors[1] and "names no reference 'citadels-rulebok-2016'" in errors[1]   # a second cite
    assert "did you mean 'citadels-rulebook-2016'" in errors[1]


def test_a_line_number_as_the_place_is_a_warning(tmp_path):
    root = _copy(tmp_path)
    _edit(root / "game.yaml", """starting_gold: 'bga-citadels "ゲームの準備": "また金貨2個を受け取ります"'""",
          'starting_gold: "bga-citadels l.6"')
    problems = Problems()
    read_packs([root], problems)
    assert not problems.errors
    warned = [w.message for w in problems.warnings if "line number" in w.message]
    assert warned == ["sources: starting_gold: the citation 'bga-citadels l.6' gives a line number ('l.6'), which points "
                      'into a copy the reader does not have: give the section and a few words quoted, ID "SECTION": "QUOTE" '
                      "(docs/citations.md)"]


def test_references_old_and_new_forms_and_one_id_twice(tmp_path):
    """A reference may still be one line (older packs); an expansion may declare again a
    document its base declares, but not another document under the same id."""
    root = _copy(tmp_path)
    mod = tmp_path / "mod"
    mod.mkdir()
    same = ("  bga-citadels:\n    publisher: Board Game Arena\n    title: Gamehelpcitadels\n    language: ja\n"
            "    url: https://ja.doc.boardgamearena.com/Gamehelpcitadels\n"
            "    note: the Japanese game help of Citadels on Board Game Arena, the rules this pack plays by default\n")
    (mod / "pack.yaml").write_text(f"kind: pack\nid: mod\nname: Mod\nversion: '0.1'\nextends: [{root}]\n"
                                   "references:\n  house: our own playtests\n" + same, encoding="utf-8")
    (mod / "cards.yaml").write_text("kind: cards\ncard_kind: district\npatch:\n"
                                    "  - {id: castle, cost: 5, sources: {cost: 'house rule 3'}}\n", encoding="utf-8")
    pack, problems = _pack([root, mod])
    assert not problems.errors, problems.errors
    house = next(r for r in pack.references if r.id == "house")
    assert (house.title, house.publisher, house.url) == ("our own playtests", "", "")
    assert [r.id for r in pack.references].count("bga-citadels") == 1
    (mod / "pack.yaml").write_text((mod / "pack.yaml").read_text(encoding="utf-8").replace("language: ja", "language: en"),
                                   encoding="utf-8")
    errors = _errors([root, mod])
    assert len(errors) == 1 and "reference 'bga-citadels' is already declared" in errors[0] and "as another document" in errors[0]


def test_a_citation_must_name_a_real_field_or_constant(tmp_path):
    root = _copy(tmp_path)
    _edit(root / "districts.yaml", "  cost: 'citadels-java", "  cots: 'citadels-java")
    _edit(root / "characters.yaml", 'sources: {build_limit:', 'sources: {build_limt:')
    _edit(root / "game.yaml", "  starting_hand: 'bga-citadels", "  starting_hnd: 'bga-citadels")
    errors = _errors([root])
    assert len(errors) == 3, errors
    assert any("'cots' is not a field of district" in e and "cost" in e for e in errors)
    assert any("'build_limt' is not a field of character" in e and "build_limit" in e for e in errors)
    assert any("'starting_hnd' is not a constant" in e and "starting_hand" in e for e in errors)


def test_a_value_is_cited_or_provisional_not_both(tmp_path):
    root = _copy(tmp_path)
    _edit(root / "purple.yaml", "sources: {extra_draw: 'bga-citadels",
          """sources: {cost: 'citadels-java "cards.tsv"', extra_draw: 'bga-citadels""")
    _edit(root / "game.yaml", "sources:\n", 'provisional:\n  city_size: "a guess"\n\nsources:\n')
    errors = _errors([root])
    assert len(errors) == 2, errors
    assert all("cited and also marked provisional" in e for e in errors)


def test_a_files_citation_yields_to_a_cards_provisional_note():
    pack, _ = _pack("citadels")
    rows = {(r.who, r.what): r for r in provenance(pack)}
    assert rows[("observatory", "cost")].status == "provisional"       # the file cites every cost but this one
    assert rows[("manor", "cost")].status == "cited" and rows[("manor", "cost")].detail.startswith('citadels-java "cards.tsv"')
    assert rows[("game", "face_up")].value == {2: 0, 3: 0, 4: 2, 5: 1, 6: 0, 7: 0}


def test_unmarked_numbers_are_found(tmp_path):
    root = _copy(tmp_path)
    _edit(root / "game.yaml", """  starting_gold: 'bga-citadels "ゲームの準備": "また金貨2個を受け取ります"'\n""", "")
    _edit(root / "districts.yaml", """  cost: 'citadels-java "cards.tsv": "Name Qty color cost text" (the row of each coloured district)'\n""", "")
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
        """  - {id: palace, copies: 2, sources: {copies: 'bga-citadels "ゲームの準備" (an inherited reference)'}}\n""", encoding="utf-8")
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
    assert ('architect.build_limit = 3  cited: bga-citadels "⑦建築家": "建築家は1回の手番で3軒まで建物をたてる事ができます" '
            "(up to 3 districts a turn)") in out.output
    assert "numbers by kind: cited / provisional / unmarked" in out.output
    refs = out.output.split("references:\n", 1)[1].splitlines()
    assert refs[0] == ('  bga-citadels: Board Game Arena, "Gamehelpcitadels" (ja), https://ja.doc.boardgamearena.com/Gamehelpcitadels; '
                       "the Japanese game help of Citadels on Board Game Arena, the rules this pack plays by default")
    assert [r.split(":")[0].strip() for r in refs] == ["bga-citadels", "citadels-java", "citadels-rulebook-2016",
                                                       "citadels-classic-blurb"]   # a second cite counts
    one = CliRunner().invoke(main, ["cards", "citadels", "university", "--provenance"])
    assert one.output.splitlines()[0].startswith('university.cost = 6  cited: bga-citadels "大学/ドラゴンの守り": "建設コストは6')
