"""Numbers for every card, however it is used (engine/workbench/simulate.py, ``CardTables.used``):
a player uses card C when a choice of theirs that stood names C: an action whose
parameter is C, C's own action, or a ``choose`` that picked C. A refusal undoes
the uses of the choices it undoes (they leave the log the uses are read from). The
engine test pack tests/packs/usage has all three, and a refusal of each sort; a
scripted player makes the counts exact."""
import json
from pathlib import Path

import pytest

from meeple.runtime.game import load_game
from meeple.play.session import play
from meeple.workbench.simulate import Outcome, SimConfig, Summary, card_tables, format_text, simulate
from meeple.workbench.tally import Tally

PACK = str(Path(__file__).parent / "packs" / "usage")
GAME = load_game(PACK)


class Sniffer:
    """Sniffs whenever it may: the first time the unripe apple (refused: the sniff is
    undone), then the last fruit; otherwise takes the first option (picking the apple
    is refused, then the next fruit is taken)."""
    needs_view = False

    def __init__(self):
        self.sniffs = 0

    def choose(self, view, options):
        keys = [o[0] for o in options]
        if "sniff" in keys:
            return keys.index("sniff")
        if keys[0] == "apple":          # the choice of the sniff
            self.sniffs += 1
            return 0 if self.sniffs == 1 else len(keys) - 1
        return 0


def scripted():
    st = play(GAME, 2, 0, [Sniffer(), Sniffer()], track=True)
    return st, card_tables(GAME).used(st._log)


def per_player(used: tuple) -> list[dict[str, dict[str, int]]]:
    """Used codes -> per player, card kind -> {card: times}."""
    tables = card_tables(GAME)
    out: list[dict] = [{}, {}]
    for code in used:
        p, d = divmod(code, tables.ndefs)
        by_card = out[p].setdefault(tables.def_kinds[d], {})
        by_card[tables.def_ids[d]] = by_card.get(tables.def_ids[d], 0) + 1
    return out


def test_the_scripted_game_as_expected():
    st, _ = scripted()
    assert [k for _, _, k in st.log] == ["sniff", "plum", "pick:pear", "pick:plum"]
    # the sniff of the apple (two choices that stood, then undone) and each player's pick of the apple
    assert st.refused == 4
    assert st.scores == [2, 3]


# (player, kind) -> {card: times}: the hammer's action once (its refused sniff undone),
# the plum sniffed, the pear and the plum picked; the apple never (each use refused)
@pytest.mark.parametrize("player,kind,expected", [
    (0, "tool", {"hammer": 1}),
    (0, "fruit", {"pear": 1, "plum": 1}),
    (1, "fruit", {"plum": 1}),
    (1, "tool", None),
])
def test_uses_per_player(player, kind, expected):
    _, used = scripted()
    assert per_player(used)[player].get(kind) == expected


def test_uses_in_order():
    _, used = scripted()
    tables = card_tables(GAME)
    names = [(code // tables.ndefs, tables.def_ids[code % tables.ndefs]) for code in used]
    assert names == [(0, "hammer"), (0, "plum"), (0, "pear"), (1, "plum")]


def test_summary_usage_table_exact():
    _, used = scripted()
    cfg = SimConfig(PACK, 2, 2)
    # the same game twice, then one where nobody used anything and P1 won
    tally = Tally(card_tables(GAME), 2)
    for o in (Outcome(0, [2, 3], [1], 1, 4, 0, (), used), Outcome(1, [2, 3], [1], 1, 4, 0, (), used),
              Outcome(2, [5, 1], [0], 1, 4, 0, (), ())):
        tally.add(o)
    d = Summary(cfg, 1.0, tally).to_dict()
    fruit = {r["card"]: r for r in d["used"]["fruit"]}
    assert list(d["used"]) == ["fruit", "tool"]
    assert [r["card"] for r in d["used"]["fruit"]] == ["apple", "pear", "plum"]       # every card of the kind, unused too
    assert (fruit["apple"]["times"], fruit["apple"]["users"], fruit["apple"]["win_rate"]) == (0, 0, 0.0)
    assert fruit["pear"]["by_seat"] == {"P1": 2, "P2": 0} and fruit["pear"]["users"] == 2
    assert fruit["pear"]["win_rate"] == 0.0 and fruit["pear"]["mean_score"] == 2.0
    assert fruit["plum"]["times"] == 4 and fruit["plum"]["by_seat"] == {"P1": 2, "P2": 2} and fruit["plum"]["users"] == 4
    assert fruit["plum"]["win_rate"] == 0.5 and fruit["plum"]["mean_score"] == 2.5
    assert [round(x, 4) for x in fruit["plum"]["win_ci"]] == [0.15, 0.85]
    assert d["used"]["tool"] == [{"card": "hammer", "times": 2, "by_seat": {"P1": 2, "P2": 0}, "users": 2, "win_rate": 0.0,
                                  "win_ci": [0.0, pytest.approx(0.6576, abs=1e-4)], "mean_score": 2.0, "score_ci": [2.0, 2.0]}]
    text = format_text(d).splitlines()
    head = text.index(next(line for line in text if line.startswith("fruit used")))
    assert text[head] == ("fruit used             times users  win rate  95% interval     mean score  95% interval    "
                          "times by P1/P2")
    assert text[head + 1:head + 4] == [
        "plum                       4     4     50.0%  [ 15.0%,  85.0%]      2.50  [1.93, 3.07]    2/2",
        "pear                       2     2      0.0%  [  0.0%,  65.8%]      2.00  [2.00, 2.00]    2/0",
        "apple                      0     0      0.0%  [  0.0%,   0.0%]      0.00  -               0/0",
    ]


def test_simulate_lists_every_card_of_a_used_kind():
    d = simulate(SimConfig(PACK, 6, 2, seed=1)).to_dict()
    assert [r["card"] for r in d["used"]["fruit"]] == ["apple", "pear", "plum"]
    for rows in d["used"].values():
        for r in rows:
            assert r["times"] == sum(r["by_seat"].values()) and r["users"] <= r["times"]
    assert all(r["times"] == 0 for r in d["used"]["fruit"] if r["card"] == "apple")     # refused every time


def test_troyes_reports_every_activity_card_and_event(tmp_path):
    game = load_game("troyes")
    d = simulate(SimConfig("troyes", 8, 4, seed=1)).to_dict()
    for kind in ("activity", "event"):
        ids = sorted(c.id for c in game.vocab.card_defs if c.kind == kind)
        assert [r["card"] for r in d["used"][kind]] == ids
    assert sum(r["times"] for r in d["used"]["activity"]) > 0 and sum(r["times"] for r in d["used"]["event"]) > 0
    json.dumps(d)           # the JSON output carries them
    assert "activity used" in format_text(d) and "event used" in format_text(d)
