"""Stable option keys: an option naming one of several identical pieces is keyed
by what a player sees (id, owner, value: ``white_die@P2=4``), not by its
position among the options, so keys do not renumber as pieces are taken.

Why: scenarios (and people at ``meeple play``) had to count positions
(``white_die#3``); logs written that way must still replay.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.dsl.runtime import ActionDescriber, ChoiceDescriber, Decision, fitting
from meeple.dsl.typesys import Card
from meeple.dsl.types import SKIP
from meeple.play.agents import HumanAgent
from meeple.cli import main
from meeple.core.errors import IllegalChoice
from meeple.authoring.scenario import run_file
from meeple.play.session import ReplayDiverged, replay
from golden_games import game_of

HERE = Path(__file__).parent
OLD_LOG = HERE / "logs" / "troyes-positional-keys.json"
TROYES = game_of("troyes")
IDS = TROYES.vocab.card_def_ids


def cards(card_id: str, n: int) -> list[int]:
    return [c for c, i in enumerate(IDS) if i == card_id][:n]


WHITE = cards("white_die", 4)
RED = cards("red_die", 1)
CITIZENS = {seat: [c for c in cards("citizen", 10_000) if TROYES.vocab.card_seat[c] == seat][:2] for seat in (0, 1)}


def choice(values: list, snaps: list, kind: str = "die") -> Decision:
    """A 'choose' decision over cards of ``kind`` with the (value, owner) snapshots given
    (dice: (value, owner); citizens: (owner,))."""
    t = Card(kind)
    keyer, text, _ = TROYES.vocab.describe(t)
    d = ChoiceDescriber(keyer, text, SKIP, "skip", TROYES.vocab.detail(t))
    return Decision(0, "choose", None, "choice", values=values, describer=d, texts=snaps)


W0, W1, W2, W3 = WHITE
# (case, values, snapshots (value, owner 0-based or None), expected keys)
CASES = [
    ("different owners and values", [W0, W1, W2], [(4, 1), (5, 1), (4, 2)],
     ["white_die@P2=4", "white_die@P2=5", "white_die@P3=4"]),
    ("same owner and value: numbered", [W0, W1, W2], [(4, 1), (4, 1), (3, 1)],
     ["white_die@P2=4", "white_die@P2=4#2", "white_die@P2=3"]),
    ("neutral dice: no owner", [W0, W1], [(6, None), (2, None)], ["white_die=6", "white_die=2"]),
    ("neutral and owned", [W0, W1, W2, W3], [(6, None), (6, 0), (6, None), (1, 0)],
     ["white_die=6", "white_die@P1=6", "white_die=6#2", "white_die@P1=1"]),
    ("a unique die keeps its plain id", [RED[0], W0], [(3, 0), (3, 0)], ["red_die", "white_die"]),
    ("unique among others", [RED[0], W0, W1], [(3, 0), (3, 0), (5, 0)], ["red_die", "white_die@P1=3", "white_die@P1=5"]),
    ("skip stays skip", [W0, SKIP, W1], [(1, 0), None, (2, 0)], ["white_die@P1=1", "skip", "white_die@P1=2"]),
]


@pytest.mark.parametrize("values, snaps, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_keys_of_identical_dice(values, snaps, expected):
    dec = choice(values, snaps)
    assert dec.keys() == expected
    assert [dec.key(i) for i in range(len(values))] == expected      # one key (a log entry) is the same key
    assert [o[0] for o in dec.options] == expected
    assert [dec.find(k) for k in expected] == list(range(len(values)))


def test_pieces_without_an_owner_variable_set_take_their_seat():
    """Citizens declare 'owner' but it is not set here: the seat of the per-player piece."""
    values = CITIZENS[0] + CITIZENS[1][:1]
    assert choice(values, [(None,)] * 3, "citizen").keys() == ["citizen@P1", "citizen@P1#2", "citizen@P2"]
    assert choice(values, [(2,)] * 3, "citizen").keys() == ["citizen@P3", "citizen@P3#2", "citizen@P3#3"]


def test_kinds_without_owner_or_value_keep_positional_numbers():
    """Citadels districts: two identical cards are 'castle', 'castle#2', as before."""
    game = game_of("citadels")
    castles = [c for c, i in enumerate(game.vocab.card_def_ids) if i == "castle"][:2]
    t = Card("district")
    keyer, text, _ = game.vocab.describe(t)
    dec = Decision(0, "p", None, "choice", values=castles, describer=ChoiceDescriber(keyer, text, SKIP, "skip", game.vocab.detail(t)))
    assert dec.keys() == ["castle", "castle#2"] == [dec.positional_key(0), dec.positional_key(1)]


# (what is typed, the options it names): shorter and longer spellings of a stable key
FIND = [
    ("white_die@P2=4", [0]),
    ("white_die@P2=5", [1]),
    ("white_die@P3", [3]),                 # unique without the value
    ("white_die@P2", [0, 1]),              # two of P2's: ambiguous
    ("white_die=4", [0, 3]),               # P2's 4 and P3's 4: ambiguous
    ("white_die=5", [1]),
    ("white_die", [0, 1, 3]),              # every white die
    ("red_die@P1=3", [2]),                 # the full key of a die keyed plainly (the only red one)
    ("red_die@P2", []),
    ("red_die=6", []),
    ("black_die", []),
    ("skip", [4]),
]


@pytest.mark.parametrize("want, found", FIND, ids=[w for w, _ in FIND])
def test_what_a_key_names(want, found):
    dec = choice([W0, W1, RED[0], W2, SKIP], [(4, 1), (5, 1), (3, 0), (4, 2), None])
    assert dec.keys() == ["white_die@P2=4", "white_die@P2=5", "red_die", "white_die@P3=4", "skip"]
    assert dec.matches(want) == found
    assert dec.find(want) == (found[0] if len(found) == 1 else None)


def test_interchangeable_dice_any_spelling_names_the_first_or_the_nth():
    dec = choice([W0, W1, W2], [(4, 1), (4, 1), (4, 1)])
    assert dec.keys() == ["white_die@P2=4", "white_die@P2=4#2", "white_die@P2=4#3"]
    assert [dec.find(k) for k in ("white_die", "white_die@P2", "white_die=4", "white_die#3", "white_die@P2=4#2")] == [0, 0, 0, 2, 1]
    assert dec.find("white_die#4") is None


def test_action_keys_follow_the_same_rule():
    t = Card("die")
    keyer, text, _ = TROYES.vocab.describe(t)
    detail = TROYES.vocab.detail(t)
    d = ActionDescriber([("place", "Place", keyer, text), ("reroll", "Reroll", keyer, text), ("pass", "Pass", None, None)],
                        [detail, detail, None])
    values = [(0, None, W0), (0, None, W1), (0, None, RED[0]), (1, None, W0), (2, None, None)]
    snaps = [(4, 1), (4, None), (2, 0), (4, 1), None]
    dec = Decision(0, "act", None, "action", values=values, describer=d, texts=snaps)
    expected = ["place:white_die@P2=4", "place:white_die=4", "place:red_die", "reroll:white_die", "pass"]
    assert dec.keys() == expected
    assert [dec.key(i) for i in range(len(values))] == expected
    assert [dec.positional_key(i) for i in range(len(values))] == ["place:white_die", "place:white_die#2", "place:red_die",
                                                                    "reroll:white_die", "pass"]
    assert dec.find("place:white_die@P2") == 0
    assert dec.find("reroll:white_die@P2=4") == 3       # the full key of the only white die to reroll
    assert dec.matches("place:white_die") == [0, 1]
    assert dec.find("white_die@P2=4") is None           # an action's key needs its action


def test_the_human_may_type_a_stable_key_or_a_shorter_one():
    options = [["white_die@P2=4", "White die (4, P2)", 0], ["white_die@P2=5", "White die (5, P2)", 1], ["skip", "skip", 2]]
    for typed, index in (("white_die@P2=5", 1), ("white_die=4", 0), ("2", 1)):
        assert HumanAgent(0, ask=lambda _: typed, echo=lambda _: None).choose({}, options) == index
    said: list[str] = []
    answers = iter(["white_die@P2", "skip"])
    assert HumanAgent(0, ask=lambda _: next(answers), echo=said.append).choose({}, options) == 2
    assert said[-1] == "'white_die@P2' is not one of the options: give a number 1-3 or a key in brackets"
    assert fitting(["white_die@P2=4", "white_die@P2=4#2"], "white_die#2") == [1]


def test_apply_refuses_an_ambiguous_key_and_says_which_options_it_fits():
    st = TROYES.new_state(3, 34)
    for _ in range(15):          # the 15 placements of the setup (the first option each time)
        TROYES.apply(st, 0)
    assert st.pending.keys() == ["combat_reroll:red_die@P1=4", "combat_reroll:red_die@P1=2", "combat_reroll:white_die@P1=3",
                                 "combat_reroll:white_die@P1=5", "combat_reroll:yellow_die", "intercept"]
    before = st.to_json()
    with pytest.raises(IllegalChoice) as err:
        TROYES.apply(st, "combat_reroll:red_die@P1")
    assert (err.value.code, err.value.message) == (
        "ambiguous", "'combat_reroll:red_die@P1' names several options: combat_reroll:red_die@P1=4, combat_reroll:red_die@P1=2")
    assert st.to_json() == before
    TROYES.apply(st, "combat_reroll:red_die=2")
    assert st.log[-1] == [0, 1, "combat_reroll:red_die@P1=2"]


# ------------------------------------------------------------------ logs
def test_a_log_written_with_positional_keys_replays_identically():
    """tests/logs/troyes-positional-keys.json was written by `meeple play troyes -p 3 --seed 5
    --bots random,random,random --log` before keys were stable; written again (the keys as
    they were then: Decision.positional_key) when Troyes came to offer only dice that can
    reach a divisor, which changed the random game."""
    log = json.loads(OLD_LOG.read_text(encoding="utf-8"))
    old = [c for c in log["choices"] if "#" in c[2]]
    assert len(old) == 37 and old[0] == [2, 3, "white_die#3"]
    st = replay(TROYES, log, same_pack=True)
    assert st.scores == log["scores"] and st.round == log["rounds"]
    assert [e[:2] for e in st.log] == [c[:2] for c in log["choices"]]
    assert st.log[18] != log["choices"][18] == [2, 3, "white_die#3"]
    assert st.log[18][:2] == [2, 3] and st.log[18][2].startswith("white_die@P3=")
    result = CliRunner().invoke(main, ["replay", str(OLD_LOG)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "replayed 204 choices of troyes (3 players, seed 5): identical"


def test_an_old_log_with_a_changed_key_still_diverges():
    log = json.loads(OLD_LOG.read_text(encoding="utf-8"))
    n = next(i for i, c in enumerate(log["choices"]) if c[2] == "white_die#3")
    log["choices"][n][2] = "white_die#2"
    with pytest.raises(ReplayDiverged) as err:
        replay(TROYES, log)
    assert str(err.value.message).startswith(f"choice {n + 1}: option 3 is not 'white_die#2' any more; legal: ")


# ------------------------------------------------------------------ scenarios
SCENARIO = """\
kind: scenario
pack: {pack}
players: 3
seed: 34
scenarios:
  - name: stable keys
    steps:
      - choose: [town_hall_1_1, town_hall_2_1, town_hall_3_1, bishopric_2_2, town_hall_2_2, town_hall_1_2, bishopric_3_2,
                 palace_1, palace_4, palace_5, palace_2, bishopric_1_1, bishopric_2_1, palace_3, palace_6]
      - choose: [intercept, white_die@P1=5, skip, intercept, red_die@P2=4, skip, intercept, red_die@P3=2]
      - choose: farm
      - offered: [yellow_die@P1=5, yellow_die@P2, yellow_die=6]
        not_offered: [yellow_die@P3=6, yellow_die=3]
      - choose: yellow_die@P2
        refused: ambiguous
      - choose: [yellow_die@P2=4, yellow_die@P1=1, skip]
      - expect: square of player(2) == 4
"""


def test_a_scenario_with_stable_keys(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(SCENARIO.format(pack=(HERE.parent / "content" / "troyes").as_posix()), encoding="utf-8")
    [result] = run_file(f)
    assert result.ok, result.message


def test_trace_shows_stable_keys(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(SCENARIO.format(pack=(HERE.parent / "content" / "troyes").as_posix()), encoding="utf-8")
    lines: list[str] = []
    run_file(f, trace=lines.append)
    farm = [ln for ln in lines if ln.endswith("-> yellow_die@P2=4")]
    assert farm and farm[0].split(": ", 2)[2] == ("yellow_die@P1=5, yellow_die@P1=1, yellow_die@P2=2, yellow_die@P2=4, "
                                                   "yellow_die@P3=1, yellow_die=6 -> yellow_die@P2=4")


def test_play_shows_the_stable_key_next_to_each_option_and_takes_it():
    from answering import first_shown
    with first_shown(("",) * 15 + ("intercept", "red_die@P1=6")):       # the first option shown 15 times, then keys
        result = CliRunner().invoke(main, ["play", "troyes", "-p", "2", "--seed", "34", "--bots", "human,random"])
    out = result.output
    assert "   2. Red die (6, P1)   [red_die@P1=6]\n" in out
    assert "   5. Red die (3, P1)   [red_die@P1=3#2]\n" in out
    assert "   6. Yellow die (2, P1)   [yellow_die]\n" in out
    assert "P1 (you) intercept with: Red die (6, P1)" in out
