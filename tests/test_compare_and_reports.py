"""The balance workbench's outputs: compare (paired games, intervals, the
false discovery rate), one-off --set changes, CSV records and the HTML report."""
import csv
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import main

REPO = Path(__file__).resolve().parent.parent
RICH = str(REPO / "tests" / "content" / "valid" / "rich-merchant")


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def _compare(*args):
    r = run("compare", *args, "--format", "json", "--workers", 2)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@pytest.mark.parametrize("games", [40, pytest.param(120, marks=pytest.mark.slow)])
def test_an_identical_copy_changes_nothing_significantly(games):
    """Paired games of identical packs are the same games: every paired difference is
    exactly 0, whatever their number (40; 120 in the soak run, ``slow``)."""
    c = _compare("citadels", "citadels", "-n", games, "-p", 4)
    assert c["significant"] == 0
    assert all(m["difference"] == 0 for m in c["metrics"] if m["paired"])


def test_a_district_worth_20_points_is_a_significant_change():
    c = _compare("citadels", "-n", 150, "-p", 4, "--set", "citadels/districts/palace.points=20")
    palace = next(m for m in c["metrics"] if m["metric"] == "palace (district in city) win rate")
    assert palace["significant"] and palace["difference"] > 0.2
    assert c["metrics"][0]["significant"]                     # significant ones first


def test_a_merchant_taking_6_gold_is_a_significant_change():
    c = _compare("citadels", RICH, "-n", 150, "-p", 4)
    assert c["significant"] >= 1
    length = next(m for m in c["metrics"] if m["metric"] == "game length (rounds)")
    assert length["significant"] and length["difference"] < 0         # gold comes faster: shorter games


@pytest.mark.parametrize("setting, message", [("kep.cost=4", "no card 'kep'; did you mean 'keep'?"),
                                              ("citysize=8", "neither CARD.FIELD nor a constant"),
                                              ("keep.cost=three", "card 'keep': cost must be a whole number, not 'three'"),
                                              ("troyes/districts/keep.cost=4", "'troyes' is not a pack loaded here")])
def test_bad_set_changes_are_usage_errors_naming_the_option(setting, message):
    r = run("compare", "citadels", "-n", 2, "-p", 4, "--set", setting)
    assert r.exit_code == 2 and r.output.startswith(f"error: --set {setting!r}: ") and message in r.output, r.output


def test_records_have_one_row_per_player_per_game(tmp_path):
    out = tmp_path / "records.csv"
    r = run("simulate", "citadels", "-n", 10, "-p", 3, "--workers", 1, "--records", out)
    assert r.exit_code == 0
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 30
    for g in range(10):
        game = [row for row in rows if row["game"] == str(g)]
        assert abs(sum(float(row["win_share"]) for row in game) - 1) < 1e-6
        assert sorted(int(row["rank"]) for row in game)[0] == 1
        assert sum(int(row["first"]) for row in game) == 1
    assert all("character in acting:" in row["cards"] for row in rows)


def test_the_html_report_has_its_plots_and_numbers(tmp_path):
    out = tmp_path / "report.html"
    r = run("simulate", "citadels", "-n", 60, "-p", 4, "--workers", 1, "--format", "json", "--report", out)
    d = json.loads(r.output)
    text = out.read_text()
    assert text.count("<svg") >= 4
    for title in ("Score distribution per seat", "Win rate per seat", "Win rate per character in acting", "Top cards by effect on winning"):
        assert title in text
    assert f"{100 * d['seats'][0]['win_rate']:.1f}%" in text
    assert_effects_on_winning(d)
    assert "<script" not in text and not re.search(r"(src|href)=\"http", text)    # self-contained


def assert_effects_on_winning(d):
    """Each card's effect on winning in each zone (the JSON's ``effect``) is its holders'
    win rate minus the zone's average (what the report plots), inside its interval,
    which is wider than the card's own win rate's (the zone's average is estimated too)."""
    for zone, rows in d["cards"].items():
        average = sum(r["win_rate"] * r["games"] for r in rows) / sum(r["games"] for r in rows)
        for r in rows:
            assert r["effect"] == pytest.approx(r["win_rate"] - average, abs=1e-12), (zone, r)
            lo, hi = r["effect_ci"]
            assert lo <= r["effect"] <= hi and hi - lo > r["win_ci"][1] - r["win_ci"][0] - 1e-12, (zone, r)


def test_the_comparison_report_shows_both_side_by_side(tmp_path):
    out = tmp_path / "compare.html"
    r = run("compare", "citadels", "-n", 40, "-p", 4, "--workers", 1, "--set", "palace.points=20", "--report", out)
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "Every figure: differences, variant minus base" in text and text.count("<svg") >= 8
    assert text.index("<h2>What was compared</h2>") < text.index("<h2>The answer</h2>") \
        < text.index("<h2>Direct effects of the changed cards</h2>") < text.index("<h2>Every figure")
    assert "district palace: points 10 -&gt; 20" in text or "district palace: points 5 -&gt; 20" in text
    assert "base: citadels" in text and "variant: citadels" in text
    assert "Forest plot of the differences" in text and ">palace (district in city) win rate" in text


def test_the_ray_backend_gives_the_local_results():
    """Same seed, same figures: a local Ray instance (the extra meeple[ray])
    against one local process."""
    import io
    from meeple.workbench.simulate import SimConfig, simulate
    local_rows, ray_rows = io.StringIO(), io.StringIO()
    local = simulate(SimConfig("citadels", 16, 4, seed=2, workers=1), records=local_rows).to_dict()
    ray = simulate(SimConfig("citadels", 16, 4, seed=2, workers=2, backend="ray"), records=ray_rows).to_dict()
    for key in ("seats", "cards", "mean_rounds", "mean_decisions", "score_spread", "first_player"):
        assert ray[key] == local[key], key
    assert ray_rows.getvalue() == local_rows.getvalue() and local_rows.getvalue().count("\n") == 1 + 16 * 4


def _known_case():
    """40 paired games, 2 players: the variant adds 3 +- 1 points to P1 (clear),
    1 +- 2 to P2 (less clear), half a round to a game, and changes no winner."""
    from meeple.workbench.compare import Pairs, comparison
    from meeple.runtime.game import load_game
    from meeple.workbench.simulate import Outcome, SimConfig, Summary, card_tables
    from meeple.workbench.tally import Tally
    tables = card_tables(load_game(str(REPO / "tests" / "content" / "valid" / "minimal")))
    base, variant, pairs = Tally(tables, 2), Tally(tables, 2), Pairs(2)
    for i in range(40):
        a = Outcome(i, [10, 10], [0], 10, 100, 0, (), ())
        b = Outcome(i, [13 + (i % 3 - 1), 11 + (i % 5 - 2)], [0], 10 + i % 2, 100, 0, (), ())
        base.add(a)
        variant.add(b)
        pairs.add(a, b)
    return comparison(Summary(SimConfig("base", 40, 2), 1.0, base), Summary(SimConfig("variant", 40, 2), 1.0, variant), pairs)


def test_the_compare_table_is_in_the_order_it_states():
    """Differences in different units cannot be ranked by size: the figures are
    ordered, and say so, by |difference| / half its interval (significant first)."""
    from meeple.workbench.compare import ORDER
    c = _known_case()
    assert [(m["metric"], round(m["clarity"], 2), m["significant"]) for m in c["metrics"]] == [
        ("P1 mean score", 11.54, True),
        ("score spread (best - worst)", 4.66, True),
        ("game length (rounds)", 3.19, True),
        ("P2 mean score", 2.25, True),
        ("P1 win rate", 0.0, False),
        ("P2 win rate", 0.0, False),
        ("first player win rate", 0.0, False)]
    assert ORDER == "significant first, then the clearest: |difference| / half its 95% interval, largest first"


def test_the_compare_text_leads_with_the_answer():
    """Header, then the significant differences (P1 gains 2.975 points a game:
    10 -> 12.975), then the rest, clearest first; numbers in their units."""
    from meeple.workbench.answer import format_text
    text = format_text(_known_case()).split("\n\n")
    assert text[0].splitlines()[0] == "compared: base -> variant"
    assert text[0].splitlines()[1].startswith("40 paired games, 2 players, bots random, seed 0")
    answer = text[1].splitlines()
    assert answer[0] == ("answer: 4 differences are significant (95% intervals, Benjamini-Hochberg over 7 figures, "
                         "false discovery rate 5%):")
    assert answer[1].split() == ["P1", "mean", "score", "10.00", "->", "12.97", "+2.98", "[+2.72,", "+3.23]", "points"]
    assert answer[3].split()[-4:] == ["+0.50", "[+0.34,", "+0.66]", "rounds"]
    assert text[2].splitlines()[0] == "other figures, clearest first (3 of 3):"
    assert text[2].splitlines()[1].split() == ["P1", "win", "rate", "100.0%", "->", "100.0%", "+0.0", "[+0.0,", "+0.0]", "pp"]


@pytest.mark.parametrize("unit, x, ci, shown", [
    ("win share", 0.4162, [-0.1774, 0.005921], ("41.6%", "+41.6", "[-17.7, +0.6] pp")),
    ("points", 13.747, [-0.59, -0.003], ("13.75", "+13.75", "[-0.59, -0.00] points")),
    ("rounds", -0.297, [-0.59, -0.003], ("-0.30", "-0.30", "[-0.59, -0.00] rounds")),
])
def test_numbers_read_alike_in_every_figure(unit, x, ci, shown):
    """A rate is a percentage with one decimal and its difference and interval are in
    percentage points; other figures have two decimals, their interval their unit."""
    from meeple.workbench.answer import difference, interval, value
    assert (value(x, unit), difference(x, unit), interval(ci, unit)) == shown


def test_suggestive_differences_are_told_apart_and_not_counted():
    """Twenty figures whose intervals all leave out 0, only one clearly: after the
    correction one is significant, the others are suggestive, said so, and the
    count of significant ones is 1."""
    from meeple.workbench.answer import headline as told
    from meeple.workbench.compare import _false_discovery, headline, order
    metrics = [{"metric": "a figure with a long name that a table must not cut at forty characters", "unit": "points",
                "base": 1.0, "variant": 4.0, "difference": 3.0, "ci": [2.9, 3.1], "significant": True, "paired": True}]
    metrics += [{"metric": f"figure {i}", "unit": "points", "base": 0.0, "variant": 0.1, "difference": 0.1,
                 "ci": [0.001, 0.199], "significant": True, "paired": True} for i in range(19)]
    metrics += [{"metric": f"still {i}", "unit": "points", "base": 0.0, "variant": 0.0, "difference": 0.0,
                 "ci": [-0.1, 0.1], "significant": False, "paired": True} for i in range(20)]
    for m in metrics:
        m["excludes_zero"] = m["significant"]
    _false_discovery(metrics)
    order(metrics)
    h = headline(metrics)
    assert h["significant"] == [metrics[0]["metric"]] and len(h["suggestive"]) == 19 and h["by_chance"] == 2.0
    lines = told({"headline": h, "metrics": metrics})
    assert lines[0].startswith("answer: 1 difference is significant")
    assert lines[1].split()[:15] == metrics[0]["metric"].split()
    assert lines[2] == ("suggestive, not counted: 19 more intervals leave out 0 before the correction; "
                        "among 40 figures about 2 would by chance:")
    assert len(lines) == 3 + 19
    short = told({"headline": h, "metrics": metrics}, full=False)      # the text without --full: the 3 clearest
    assert short[2].endswith("would by chance (the 3 clearest; --full lists all):") and len(short) == 3 + 3
    assert short[3:] == lines[3:6]


def test_a_cost_change_names_its_derived_points_and_its_direct_effect():
    """The Palace at cost 3 (its points follow its cost): the first lines name both
    changes, the points marked as derived, and where the Palace went (issue 23's aim:
    within 15 lines)."""
    r = run("compare", "citadels", "-n", 40, "-p", 4, "--workers", 1, "--set", "palace.cost=3")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()[:15]
    assert "  district palace: cost 5 -> 3" in lines
    assert "  district palace: points 5 -> 3 (derived: follows cost)" in lines
    held = next(i for i, line in enumerate(lines) if line.startswith("  palace (district) in city: "))
    assert lines[held + 1].startswith("    by seat P1/P2/P3/P4 ")


@pytest.mark.parametrize("diffs, clarity", [([1, 1, 1], None),              # the same in every pair: exact
                                            ([0, 0, 0], 0.0),
                                            ([0, 2, 1], 1 / 1.96)])
def test_clarity_of_a_difference(diffs, clarity):
    from meeple.workbench.compare import Paired, order
    paired = Paired("x", "points")
    for d in diffs:
        paired.add(0, d, d)
    m = [paired.to_dict()]
    order(m)
    assert m[0]["clarity"] == (clarity if clarity is None else pytest.approx(clarity * 3 ** 0.5))


def test_the_comparison_report_has_a_forest_plot_of_the_differences():
    """One row per metric (its label as SVG text, in the table's order within
    its unit), its interval, a zero line per unit panel."""
    from meeple.workbench.report import render_html
    c = _known_case()
    page = render_html(c["summaries"], c)
    svg = page.split("<h3>Forest plot of the differences</h3>")[1].split("<table")[0]
    svg = svg[svg.index("<svg"):]
    assert svg.rstrip().endswith("</svg>")
    labels = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    rows = [t for t in labels if not re.fullmatch(r"[−\-0-9.]+", t)]
    assert rows == ["win rate, variant minus base (95% interval)", "P1 win rate", "P2 win rate", "first player win rate",
                    "points, variant minus base (95% interval)", "P1 mean score *", "score spread (best - worst) *", "P2 mean score *",
                    "rounds, variant minus base (95% interval)", "game length (rounds) *"]
    for m in c["metrics"]:
        assert f'id="forest-row-{m["metric"]}' in svg
    assert svg.count('id="forest-zero') == 3


def test_the_simulate_report_has_the_card_tables_of_the_text(tmp_path):
    """Every row of the text output's card tables is a row of the HTML, same
    figures, same order."""
    out = tmp_path / "report.html"
    r = run("simulate", "citadels", "-n", 40, "-p", 4, "--workers", 1, "--report", out)
    text, page = r.output, out.read_text()
    for kind in ("character in acting", "district in city"):
        section = page.split(f"<h3>Cards: {kind}</h3>")[1].split("</table>")[0]
        rows = [re.findall(r"<td>([^<]*)</td>", row) for row in section.split("<tr>")[2:]]
        block = text.split("\n" + kind)[1].split("\n\n")[0].splitlines()[1:]
        assert len(rows) == len(block) > 0
        for cells, line in zip(rows, block):
            card, games, rate, lo, hi, score = re.fullmatch(
                r"(\S+)\s+(\d+)\s+([\d.]+%)\s+\[\s*([\d.]+%),\s*([\d.]+%)\]\s+([\d.]+)", line).groups()
            assert cells[:5] == [card, games, rate, f"[{lo}, {hi}]", score]
    assert "<summary>Cards: district in hand (" in page          # the zones the text leaves out, folded


@pytest.mark.parametrize("row, cells", [
    ({"card": "tavern", "games": 12, "win_rate": 0.25, "win_ci": [0.1, 0.5], "mean_score": 14.5, "score_ci": [13.0, 16.0]},
     ["tavern", "12", "25.0%", "[10.0%, 50.0%]", "14.50", "[13.00, 16.00]"]),
    ({"card": "canal", "used": 30, "by_seat": {"P1": 20, "P2": 10}, "use_rate": 0.75, "use_ci": [0.6, 0.9], "note": "a<b"},
     ["canal", "30", "P1: 20, P2: 10", "75.0%", "[60.0%, 90.0%]", "a&lt;b"]),
])
def test_card_tables_render_whatever_fields_a_row_has(row, cells):
    from meeple.workbench.report import card_tables
    page = card_tables({"cards": {"activity in row": [row]}, "shown": ["activity in row"]})
    assert page.startswith("<h3>Cards: activity in row</h3>")
    assert re.findall(r"<td>([^<]*)</td>", page.replace("&lt;", "\0")) == [c.replace("&lt;", "\0") for c in cells]


def test_the_simulate_report_has_the_tables_of_the_cards_players_used(tmp_path):
    """The 'KIND used' tables of the text (every Troyes activity card and event, with how
    often and by whom) are in the HTML too, the same cards in the same order."""
    out = tmp_path / "report.html"
    r = run("simulate", "troyes", "-n", 4, "-p", 2, "--workers", 1, "--report", out)
    text, page = r.output, out.read_text()
    for kind in ("activity", "event"):
        section = page.split(f"<h3>Cards used: {kind}</h3>")[1].split("</table>")[0]
        html_cards = [re.findall(r"<td>([^<]*)</td>", row)[0] for row in section.split("<tr>")[2:]]
        block = text.split(f"\n{kind} used")[1].split("\n\n")[0].splitlines()[1:]
        assert html_cards == [line.split()[0] for line in block] and len(html_cards) == {"activity": 27, "event": 17}[kind]
