"""The play view (engine/terminal.py): driven through a pseudo-terminal as a person
plays, and its layout functions one by one, against the shipped packs' ``view:``."""
from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.game import load_game
from engine.terminal import TerminalView

ROOT = Path(__file__).resolve().parent.parent



def play_in_a_terminal(args: list[str], answers: list[str], columns: int = 100, timeout: float = 60) -> str:
    """Runs ``meeple play ARGS`` on a pseudo-terminal, types ``answers`` one per
    prompt (then '1'), and returns the screen as text."""
    master, slave = os.openpty()
    env = dict(os.environ, COLUMNS=str(columns), LINES="40")
    proc = subprocess.Popen([sys.executable, "-m", "engine.cli", "play", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    screen, typed = b"", 0
    try:
        while True:
            ready, _, _ = select.select([master], [], [], timeout)
            if not ready:
                raise AssertionError("meeple play stopped answering:\n" + screen.decode()[-2000:])
            try:
                data = os.read(master, 65536)
            except OSError:        # the child closed the terminal
                break
            if not data:
                break
            screen += data
            while screen.count(b"your choice:") > typed:
                os.write(master, ((answers[typed] if typed < len(answers) else "1") + "\n").encode())
                typed += 1
    finally:
        proc.wait(timeout)
        os.close(master)
    assert proc.returncode == 0, screen.decode()[-2000:]
    return screen.decode().replace("\r\n", "\n")


CITADELS_SEED_3 = ["citadels", "-p", "4", "--seed", "3", "--bots", "human,random,random,random"]


def test_a_person_reads_the_board_asks_for_help_and_a_card_and_is_refused_then_plays():
    screen = play_in_a_terminal(CITADELS_SEED_3, ["?", "? 2", "? castle", "? nothing", "9", "x", "1"])
    start = screen.index("── round 1 ")
    lines = screen[start:].splitlines()
    assert lines[1:15] == [
        "  crown: P4",
        "  face_up_aside: Assassin (rank 1), Architect (rank 7)",
        "  deck: 50",
        "  P1 (you)  gold 2  score 0",
        "        hand: Castle (yellow, cost 4), Trading Post (green, cost 2), Battlefield (red, cost 3),",
        "          Market (green, cost 2)",
        "  P2  gold 2  score 0",
        "        hand: 4 hidden",
        "  P3  gold 2  score 0",
        "        hand: 4 hidden",
        "  P4  gold 2  score 0",
        "        hand: 4 hidden",
        "  P4 (random) choose a character: (hidden)",
        "  since you last looked:",
    ]
    after = screen[screen.index("P1, choose a character:"):].splitlines()
    assert after[:43] == [
        "P1, choose a character:",
        "   1. Bishop (rank 5)   [bishop]",
        "   2. Magician (rank 3)   [magician]",
        "   3. Warlord (rank 8)   [warlord]",
        "   4. Thief (rank 2)   [thief]",
        "your choice: ?",
        "  a number or a key in brackets: choose that option",
        "  ? N: the card option N names, in full",
        "  ? ID or ? NAME: that card, in full (ids as `meeple cards` lists them)",
        "  ?: this help",
        "your choice: ? 2",
        "  Magician  [magician]  (character)",
        "    rank 3, build_limit 1",
        "    Once in your turn, either exchange your whole hand with another player (even an empty hand), or",
        "    discard any number of cards and draw as many.",
        "    action: Magic",
        "your choice: ? castle",
        "  Castle  [castle]  (district)",
        "    colour yellow, cost 4, points 4",
        "your choice: ? nothing",
        "  no card 'nothing': give an option's number or a card's id or name",
        "your choice: 9",
        "'9' is not one of the options: give a number 1-4 or a key in brackets, or ? for help",
        "your choice: x",
        "'x' is not one of the options: give a number 1-4 or a key in brackets, or ? for help",
        "your choice: 1",
        "  P1 (you) choose a character: Bishop (rank 5)",
        "  P2 (random) choose a character: (hidden)",
        "  P3 (random) choose a character: Thief (rank 2)",
        "  -- P1 gold 2, score 0 | P2 gold 2, score 0 | P3 gold 2, score 0 | P4 gold 2, score 0",
        "  P3 (random) choose an action: Rob: Bishop (your picked; rank 5)",
        "  P3 (random) choose an action: Take 2 gold",
        "  P3 (random) choose an action: Build: Tavern (green, cost 1)",
        "  P3 (random) choose an action: End turn",
        "  -- P1 gold 2, score 0 | P2 gold 2, score 0 | P3 gold 3, score 1 | P4 gold 2, score 0",
        "  P2 (random) choose an action: Draw districts",
        "  P2 (random) keep a district: (hidden)",
        "  P2 (random) choose an action: Build: Watchtower (red, cost 1)",
        "  P2 (random) choose an action: End turn",
        "  -- P1 gold 2, score 0 | P2 gold 1, score 1 | P3 gold 3, score 1 | P4 gold 2, score 0",
        "  P4 (random) choose an action: Collect income",
        "  P4 (random) choose an action: Draw districts",
        "  P4 (random) keep a district: (hidden)",
    ]
    # before the person's turn: only what changed since they last looked, then the menu with prices and whose
    turn = screen[screen.index("  since you last looked:\n  board: robbed none -> Bishop (rank 5); robber none -> P3; deck 50 -> 48"):].splitlines()
    assert turn[:13] == [
        "  since you last looked:",
        "  board: robbed none -> Bishop (rank 5); robber none -> P3; deck 50 -> 48",
        "  P1: gold 2 -> 0; acting +Bishop (rank 5)",
        "  P2: gold 2 -> 1; score 0 -> 1; city +Watchtower (red, cost 1); revealed +Magician (rank 3)",
        "  P3: gold 2 -> 5; score 0 -> 1; hand 4 -> 3 hidden; city +Tavern (green, cost 1); revealed +Thief",
        "      (rank 2)",
        "  P4: hand 4 -> 5 hidden; picked 1 -> 0 hidden; revealed +King (rank 4)",
        "",
        "P1, choose an action:",
        "   1. Take 2 gold   [take_gold]",
        "   2. Draw districts   [draw_cards]",
        "   3. Collect income   [income]",
        "your choice: 1",
    ]
    assert "   1. Build: Trading Post, pay 2 gold (green, cost 2)   [build:trading_post]" in screen
    # the board once per round, never before each decision; the game plays to its end
    assert screen.count("── round 1 ") == 1 and screen.count("── round 2 ") == 1
    assert re.search(r"final scores after \d+ rounds:\n  1\. P\d  \d+  winner", screen)
    assert screen.rstrip().endswith("seed 3")
    assert max(len(line) for line in screen.splitlines()) <= 100


def test_a_warlord_menu_says_whose_district_and_what_destroying_it_costs():
    screen = play_in_a_terminal(CITADELS_SEED_3, ["3"])
    assert "   4. Destroy a district: Tavern, pay 0 gold (P3's city; green, cost 1)   [destroy:tavern]" in screen


@pytest.mark.parametrize("game, players, width", [
    ("citadels", 4, 100), ("citadels", 7, 60), ("citadels-dark-city", 8, 80), ("citadels-2016", 5, 100),
    ("troyes", 4, 100), ("troyes", 2, 60), ("signorie", 4, 100), ("signorie", 3, 70),
])
def test_every_board_line_fits_the_terminal(game, players, width):
    g = load_game(game)
    view = TerminalView(g, width=width)
    st = g.new_state(players, 5)
    import random
    rng = random.Random(5)
    longest = 0
    while not st.over:
        if st.pending.kind == "action" or rng.random() < 0.05:
            for viewer in (None, 0):
                text = view.board(st, viewer) + "\n" + view.standing(st)
                longest = max(longest, max(len(line) for line in text.splitlines()))
        g.apply(st, rng.randrange(len(st.pending.options)))
    assert 0 < longest <= width


def test_troyes_shows_its_activity_cards_and_counts_not_a_dump():
    g = load_game("troyes")
    st = g.new_state(4, 3)
    while st.round < 3:
        g.apply(st, 0)
    board = TerminalView(g).board(st, 0)
    assert re.search(r"\n  activities: \w[\w ]* \((red|white|yellow), cost \d\)", board)
    assert re.search(r"\n        reserve: \d+\n", board) and "citizen@" not in board and "cube@" not in board


def test_the_live_score_of_a_finished_classic_game_is_its_end_scoring():
    """Classic Citadels scores only at the end (score_extras adds nothing), so the
    live expression on a final state counts the end scoring once more: twice the score."""
    g = load_game("citadels")
    fn, code = g.live_score
    from dsl.runtime import Frame
    for seed in (1, 2, 3, 4):
        st = g.new_state(4, seed)
        import random
        rng = random.Random(seed)
        while not st.over:
            g.apply(st, rng.randrange(len(st.pending.options)))
        live = [fn(st, Frame(-1, 0, [None] * max(1, code.nlocals), p, -1)) for p in range(4)]
        assert live == [2 * s for s in st.scores]


def test_changes_and_facts_and_standing():
    g = load_game("citadels")
    view = TerminalView(g)
    st = g.new_state(4, 3)
    before = view.snapshot(st, 0)
    castle = view.find_card("Castle")
    assert view.card(castle) == "Castle (yellow, cost 4)" and view.find_card("castle") == castle
    assert view.fact_values(view.find_card("king")) == ["rank 4"]
    assert view.changes(before, before) == []
    after = dict(before)
    after[(0, "gold")] = 5
    from collections import Counter
    after[(0, "hand")] = before[(0, "hand")] - Counter({"Castle (yellow, cost 4)": 1})
    after[(0, "city")] = Counter({"Castle (yellow, cost 4)": 1})
    assert view.changes(before, after) == ["  P1: gold 2 -> 5; hand -Castle (yellow, cost 4); city +Castle (yellow, cost 4)"]
    assert view.standing(st) == "  -- P1 gold 2, score 0 | P2 gold 2, score 0 | P3 gold 2, score 0 | P4 gold 2, score 0"


def test_a_pack_without_a_view_still_shows_its_board(tmp_path):
    g = load_game(str(ROOT / "tests" / "packs" / sorted(p.name for p in (ROOT / "tests" / "packs").iterdir() if (p / "pack.yaml").exists())[0]))
    st = g.new_state(g.min_players, 1)
    text = TerminalView(g).board(st, None)
    assert text.startswith("── round ") and "P1" in text


def test_quiet_and_bots_only_output_stay_short():
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random", "--quiet"])
    assert r.exit_code == 0 and r.output.splitlines()[0] == "Citadels with 4 players, seed 7"
    assert r.output.splitlines()[1].startswith("final scores after ") and len(r.output.splitlines()) == 6
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random"])
    assert r.output.count("── round ") <= 20 and "since you last looked" not in r.output


def _copy(tmp_path, pack: str = "citadels") -> Path:
    dest = tmp_path / pack
    shutil.copytree(ROOT / "content" / pack, dest)
    return dest


@pytest.mark.parametrize("old, new, message", [
    ("    district: [colour, cost]", "    district: [colour, cots]",
     "game.yaml:{line}:24: error: view: facts: card kind 'district' has no field 'cots'; did you mean 'cost'?"),
    ("    district: [colour, cost]", "    distrikt: [colour, cost]",
     "game.yaml:{line}:5: error: view: facts: unknown card kind 'distrikt'; did you mean 'district'?"),
    ("  board: [crown,", "  board: [crwn,",
     "game.yaml:{line}:11: error: view: board: 'crwn' is not a game variable or a shared zone; did you mean 'crown'?"),
    ("  player: [gold,", "  player: [glod,",
     "game.yaml:{line}:12: error: view: player: 'glod' is not a resource, a player variable or a per-player zone; did you mean 'gold'?"),
    ("  count: [deck]", "  count: [drawn]",
     "game.yaml:{line}:11: error: view: count: 'drawn' is not a zone listed in view: board or view: player"),
    ("      price: {gold: build_cost(d)}", "      price: {glod: build_cost(d)}",
     "game.yaml:{line}:15: error: action 'build': price: unknown resource 'glod'; did you mean 'gold'?"),
    ("      price: {gold: build_cost(d)}", "      price: {gold: build_cots(d)}",
     "game.yaml:{line}:21: error: unknown function 'build_cots'"),
    ("  count: [deck]", "  count: deck",
     "game.yaml:{line}:10: error: view.count: expected a list, found the text 'deck'"),
])
def test_validate_locates_a_wrong_view_or_price(tmp_path, old, new, message):
    pack = _copy(tmp_path)
    text = (pack / "game.yaml").read_text()
    assert old in text
    line = text[:text.index(old)].count("\n") + 1
    (pack / "game.yaml").write_text(text.replace(old, new, 1))
    r = CliRunner().invoke(main, ["validate", str(pack)])
    assert r.exit_code == 1, r.output
    assert message.format(line=line) in r.output, r.output


def _readme_block(start: str) -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    at = readme.index(start)
    return readme[at:readme.index("```", at)].splitlines()


def _in_order(lines: list[str], output: str) -> None:
    at = 0
    for line in lines:
        if line.strip() != "...":
            at = output.index(line + "\n", at) + len(line)


def test_the_readme_play_examples_are_what_play_prints():
    bots = _readme_block("$ meeple play citadels -p 4 --seed 7 --bots random\n")[1:]
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random"])
    _in_order(bots, r.output)
    human = _readme_block("P1, choose a character:\n   1. Bishop (rank 5)")
    _in_order(human, play_in_a_terminal(CITADELS_SEED_3, ["? 2", "9", "1"]))


def test_lang_ja_shows_japanese_names_and_texts():
    g = load_game("citadels")
    view = TerminalView(g, lang="ja")
    keep = view.find_card("見張り台")
    assert keep == view.find_card("keep")
    assert view.card_text(keep).splitlines() == [
        "見張り台  [keep]  (district)",
        "  colour purple, cost 3, indestructible True, points 3",
        "  この建物は、傭兵によって破壊されることはありません。",
    ]
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random", "--lang", "ja"])
    assert "  face_up_aside: 魔術師 (rank 3), 建築家 (rank 7)\n" in r.output


@pytest.mark.parametrize("game, seed, card", [("troyes", 4, "  Palace 1  [palace_1]  (space)"),
                                             ("signorie", 4, "  Yellow die 1  [yellow_1]  (die)")])
def test_a_person_plays_troyes_and_signorie_to_the_end_in_100_columns(game, seed, card):
    screen = play_in_a_terminal([game, "-p", "2", "--seed", str(seed), "--bots", "human,random"], ["?", "? 1", "zz"])
    lines = screen.splitlines()
    assert card in lines
    assert any(line.startswith("'zz' is not one of the options: give a number 1-") for line in lines)
    assert "  since you last looked:" in lines and screen.rstrip().endswith(f"seed {seed}")
    assert max(len(line) for line in lines) <= 100
