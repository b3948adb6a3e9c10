"""The play view (engine/play/terminal.py): driven through a pseudo-terminal as a person
plays, and its layout functions one by one, against the shipped packs' ``view:``."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import doctext
from answering import on_a_terminal
from meeple.cli import main
from meeple.runtime.game import load_game
from meeple.play.terminal import TerminalView
from golden_games import game_of

ROOT = Path(__file__).resolve().parent.parent



def first_shown(screen: bytes) -> str:
    """The first number of the last menu on the screen (a turn's menu keeps its numbers,
    so it need not be 1: meeple.play.agents.MenuNumbers)."""
    menu = screen[screen.rindex(b"\nP"):]
    return re.search(rb"\n +(\d+)\. ", menu).group(1).decode()


def play_in_a_terminal(args: list[str], answers: list[str], columns: int = 100, timeout: float = 300) -> str:
    """Runs ``meeple play ARGS`` on a pseudo-terminal, types ``answers`` one per
    prompt (then the first number shown), and returns the screen as text."""
    return on_a_terminal(args, lambda screen, typed: answers[typed] if typed < len(answers) else first_shown(screen),
                         columns, timeout)


CITADELS_SEED_3 = ["citadels", "-p", "4", "--seed", "3", "--bots", "human,random,random,random"]


def test_a_person_reads_the_board_asks_for_help_and_a_card_and_is_refused_then_plays():
    screen = play_in_a_terminal(CITADELS_SEED_3, ["?", "? 2", "? castle", "? nothing", "9", "x", "1"])
    start = screen.index("── round 1 ")
    lines = screen[start:].splitlines()
    assert lines[1:16] == [
        "  the crown's holder: P4",
        "  set aside face up: Assassin (rank 1), Architect (rank 7)",
        "  set aside face down: 1",
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
    assert after[:46] == [
        "P1, choose a character:",
        "   1. Bishop (rank 5)   [bishop]",
        "   2. Magician (rank 3)   [magician]",
        "   3. Warlord (rank 8)   [warlord]",
        "   4. Thief (rank 2)   [thief]",
        "your choice: ?",
        "  a number or a key in brackets: choose that option",
        "  ? N: what option N does, and its card, in full",
        "  ? ID or ? NAME: that card, in full (ids as `meeple cards` lists them)",
        "  ? rules: how to play, in short (all of it: `meeple rules citadels`)",
        "  undo: take back your choices in the action under way (not once anything random or hidden is out)",
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
        "  P3 (random) choose an action: Rob: Bishop (your chosen character; rank 5)",
        "    board: the robbed character none -> Bishop (rank 5); the robber none -> P3",
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
        "    no income: no district of the character's colour",     # not silent when it gives nothing
        "  P4 (random) choose an action: Draw districts",
    ]
    # before the person's turn: what each rule did since they last looked, under its name, hidden cards as
    # counts, each character as it is shown (the robbery was said under the Thief's choice, so not again)
    turn = screen[screen.index("  since you last looked:\n    Character selection: P1 chosen"):].splitlines()
    assert turn[:22] == [
        "  since you last looked:",
        "    Character selection: P1 chosen character +Bishop (rank 5)",
        "    Character selection: P2 chosen character +1 hidden",
        "    Character selection: set aside face down +1; P3 chosen character +1 hidden",
        "    A character is called: P3 chosen character -1 hidden, character playing +Thief (rank 2)",
        "    Take 2 gold: P3 gold +2",
        "    Build: P3 gold -1, score +1, hand -1 hidden, city +Tavern (green, cost 1)",
        "    A character is called: P2 chosen character -1 hidden, character playing +Magician (rank 3); P3",
        "        character playing -Thief (rank 2), characters revealed +Thief (rank 2)",
        "    Draw districts: deck -1; P2 hand +1 hidden",
        "    Build: P2 gold -1, score +1, hand -1 hidden, city +Watchtower (red, cost 1)",
        "    A character is called: P2 character playing -Magician (rank 3), characters revealed +Magician",
        "        (rank 3); P4 chosen character -1 hidden, character playing +King (rank 4)",
        "    Draw districts: deck -1; P4 hand +1 hidden",
        "    A character is called: P1 chosen character -Bishop (rank 5), character playing +Bishop (rank 5);",
        "        P4 character playing -King (rank 4), characters revealed +King (rank 4)",
        "    The Thief takes the gold: P1 gold -2; P3 gold +2",
        "",
        "P1, choose an action:",
        "   1. Take 2 gold   [take_gold]",
        "   2. Draw districts   [draw_cards]",
        "   3. Collect income   [income]",
    ]
    # the turn keeps its numbers: Collect income stays 3 after gathering, the builds come after it
    assert "   3. Collect income   [income]\n   4. Build: Trading Post, pay 2 gold (green, cost 2)   [build:trading_post]" in screen
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
    g = game_of(game)
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
    g = game_of("troyes")
    st = g.new_state(4, 3)
    while st.round < 3:
        g.apply(st, 0)
    board = TerminalView(g).board(st, 0)
    assert re.search(r"\n  activity cards: \w[\w ]* \((red|white|yellow), cost \d, divisor \d\)", board)
    assert re.search(r"\n        citizens in stock: \d+\n", board) and "citizen@" not in board and "cube@" not in board


def test_the_live_score_of_a_finished_classic_game_is_its_end_scoring():
    """Classic Citadels scores only at the end (score_extras adds nothing), so the
    live expression on a final state counts the end scoring once more: twice the score."""
    g = game_of("citadels")
    fn, code = g.compiled.live_score
    from meeple.dsl.runtime import Frame
    for seed in (1, 2, 3, 4):
        st = g.new_state(4, seed)
        import random
        rng = random.Random(seed)
        while not st.over:
            g.apply(st, rng.randrange(len(st.pending.options)))
        live = [fn(st, Frame(-1, 0, [None] * max(1, code.nlocals), p, -1)) for p in range(4)]
        assert live == [2 * s for s in st.scores]


def test_changes_and_facts_and_standing():
    g = game_of("citadels")
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
    g = load_game(str(ROOT / "tests" / "packs" / "dice"))      # a small game that declares no view
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
     "game.yaml:{line}:24: error: view: facts: card kind 'district' has no field, variable or function of one district 'cots'; "
     "did you mean 'cost'?"),
    ("    character: [rank]", "    character: [rank, build_price]",      # a function of one district, not of a character
     "game.yaml:{line}:23: error: view: facts: card kind 'character' has no field, variable or function of one character "
     "'build_price'; did you mean 'build_limit'?"),
    ("    district: [colour, cost]", "    distrikt: [colour, cost]",
     "game.yaml:{line}:5: error: view: facts: unknown card kind 'distrikt'; did you mean 'district'?"),
    ("  board: [crown,", "  board: [crwn,",
     "game.yaml:{line}:11: error: view: board: 'crwn' is not a game variable or a shared zone; did you mean 'crown'?"),
    ("  player: [gold,", "  player: [glod,",
     "game.yaml:{line}:12: error: view: player: 'glod' is not a resource, a player variable or a per-player zone; did you mean 'gold'?"),
    ("  count: [deck, face_down_aside]", "  count: [drawn]",
     "game.yaml:{line}:11: error: view: count: 'drawn' is not a zone listed in view: board or view: player"),
    ("      price: {gold: build_price(d)}", "      price: {glod: build_price(d)}",
     "game.yaml:{line}:15: error: action 'build': price: unknown resource 'glod'; did you mean 'gold'?"),
    ("      price: {gold: build_price(d)}", "      price: {gold: build_prics(d)}",
     "game.yaml:{line}:21: error: unknown function 'build_prics'"),
    ("  count: [deck, face_down_aside]", "  count: deck",
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


@pytest.mark.parametrize("new, message", [
    ("  totals: {taken: valu}", "game.yaml:{line}:12: error: view: totals: 'taken': its cards have no number variable 'valu'; "
                                "did you mean 'value'?"),
    ("  totals: {takn: value}", "game.yaml:{line}:12: error: view: totals: 'takn' is not a zone listed in view: board or "
                                "view: player; did you mean 'taken'?"),
    ("  totals: {taken: {sum: value, at_most: reward_treshold}}", "game.yaml:{line}:41: error: unknown name 'reward_treshold'"),
])
def test_validate_locates_a_wrong_view_total(tmp_path, new, message):
    pack = _copy(tmp_path, "signorie")
    text = (pack / "game.yaml").read_text()
    old = "  totals: {taken: {sum: value, at_most: reward_threshold, for: {en: the reward, ja: 報酬}}}"
    assert old in text
    line = text[:text.index(old)].count("\n") + 1
    (pack / "game.yaml").write_text(text.replace(old, new, 1))
    r = CliRunner().invoke(main, ["validate", str(pack)])
    assert r.exit_code == 1, r.output
    assert message.format(line=line) in r.output, r.output


def _in_order(lines: list[str], output: str) -> None:
    at = 0
    for line in lines:
        if line.strip() != "...":
            at = output.index(line + "\n", at) + len(line)


@pytest.mark.parametrize("doc", ["README.md", "docs/play.md"])
def test_the_documented_play_examples_are_what_play_prints(doc):
    bots = doctext.output_of(doc, "meeple play citadels -p 4 --seed 7 --bots random").splitlines()
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random"])
    _in_order(bots, r.output)


def test_the_documented_human_turn_is_what_play_prints():
    human = doctext.block_from("docs/play.md", "P1, choose a character:\n   1. Bishop (rank 5)").splitlines()
    _in_order(human, play_in_a_terminal(CITADELS_SEED_3, ["? 2", "9", "1", "? 1", "1"]))


def test_lang_ja_shows_japanese_names_and_texts():
    g = game_of("citadels")
    view = TerminalView(g, lang="ja")
    keep = view.find_card("見張り台")
    assert keep == view.find_card("keep")
    assert view.card_text(keep).splitlines() == [
        "見張り台  [keep]  (建物)",
        "  色 紫, コスト 3, 破壊されない はい, 得点 3",
        "  この建物は、傭兵によって破壊されることはありません。",
    ]
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random", "--lang", "ja"])
    assert "  表向きで除外: 魔術師 (番号 3), 建築家 (番号 7)\n" in r.output
    assert TerminalView(g).card_text(keep).splitlines()[1] == "  colour purple, cost 3, indestructible yes, points 3"


TROYES_ROUND_2 = [      # how round 1 ended and round 2 began, each line under the rule that did it
    "  since you last looked:",
    "    Pass: P1 deniers in the square +2",
    # the dice stock shows no faces (show_values: false): a die's last value means nothing there
    "    End of the round: dice stock +Yellow die x5 +White die x6, neutral dice in the square -White",
    "        die=1 -White die=4 -White die=3 -Yellow die=2 -Yellow die=3 x2, neutral citizens in stock",
    "        +1, citizens pushed out (Palace) -Citizen P1, citizens pushed out (Town Hall) -Neutral",
    "        citizen; P1 deniers +4, deniers in the square -4, citizens in hand +Citizen; P2 deniers +4,",
    "        deniers in the square -4, dice in the square -White die=4 x2 -White die=3 -Yellow die=3",
    "        -Yellow die=2",
    "    Activity cards revealed: activity cards +Mercenaries (red, cost 4, divisor 4) +Chapter (white,",
    "        cost 4, divisor 4) +Innkeeper (yellow, cost 3, divisor 3)",
    "    Income: P1 deniers +10; P2 deniers +10",
    "    Wages: P1 deniers -4; P2 deniers -6",
    "    Workforce: dice stock -Red die x4 -Yellow die x6 -White die x5, neutral dice in the square",
    "        +White die=2 +White die=6 +White die=4 +Yellow die=2 +Yellow die=1; P1 dice in the square",
    "        +Red die=5 +Red die=3 +Yellow die=5 +Yellow die=6; P2 dice in the square +Red die=3 x2",
    "        +White die=2 +White die=3 +Yellow die=1 x2",
    "    Events: event row +Siege (red, divisor 4) +Flood (yellow, divisor 5), red events -1",
    "    Black dice: dice stock -Black die x5, black dice +Black die=2 +Black die=3 +Black die=4 x3",
    "    Schism: P2 influence -2",
    "── round 2 of 4 ────────────────────────────────────────",
]
SIGNORIE_ROUND_2 = [    # the end of round 1, step by step, then the new round's dice and tiles
    "  since you last looked:",
    "    Initiative: P1 victory points +1",
    "    A new bride: P1 brides on board +1; P2 brides on board +1",
    "    End of the round: dice rows -Yellow die 2=1 -Grey die 2=3 -Cyan die 1=6; P1 dice taken -Yellow",
    "        die 1=6 -Red die 1=3 -Purple die 2=1 -Grey die 1=6; P2 dice taken -Red die 2=3 -Purple die",
    "        1=6 -Cyan die 2=5",
    "    Start of the round: dice rows +Yellow die 3=6 +Yellow die 4=3 +Red die 3=5 +Red die 4=4 +Purple",
    "        die 3=2 +Purple die 4=6 +Grey die 3=1 +Grey die 4=4 +Cyan die 3=4 +Cyan die 4=4, marriage",
    "        tile (Napoli) +Gonzaga (4), assignments (Yellow column) +Mercenaries -Tithe, assignments",
    "        (Red column) +Nursery +Court -Household -Betrothal, assignments (Purple column) +Trade",
    "        -Nursery, assignments (Grey column) +Household -Trade, assignments (Cyan column) +Betrothal",
    "        +Tithe -Mercenaries -Court, alliance tiles to come -1",
    "── round 2 of 7 ────────────────────────────────────────",
]


@pytest.mark.parametrize("lang, n, expected", [
    ("en", 7, [
        "  Bishopric row 1-1  [bishopric_1_1]  (space)",
        "    site bishopric, colour white, row 1, position 1, low 1, high 2",
        "    The left space of row 1 of the Bishopric: a citizen placed with a white die showing 1 or 2",
        "    enters here, moving the one here to the right space (a citizen on the right is pushed out and",
        "    lies on the building until the round ends). A citizen here gives its owner a white die each",
        "    round; you pay a wage of 1 denier a round for it."]),
    ("ja", 1, [
        "  宮殿 1  [palace_1]  (スペース)",
        "    場所 宮殿, 色 赤, 列 1, 列内の位置 1, 最小の出目 1, 最大の出目 1",
        "    宮殿のマス: 出目1の赤ダイスで市民駒を置くとここに入り、ここにいた市民駒を押し出します(ラウンド終",
        "    了まで建物の上に置かれます)。ここの市民駒は毎ラウンド持ち主に赤ダイスを1個与え、毎ラウンド給料2",
        "    ドゥニエを払います。"]),
])
def test_question_n_on_a_troyes_space_says_what_the_space_is(lang, n, expected):
    """'? N' at the set-up's placement: a building's space says which die puts a citizen
    there, what a citizen there gives and costs, not only its fields."""
    g = game_of("troyes")
    st = g.new_state(2, 5)
    view = TerminalView(g, lang=lang)
    opts = view.options(st, st.pending.player)
    assert view.help(f"? {n}", opts, st).splitlines() == expected


@pytest.mark.parametrize("game, seed, card, narration", [
    ("troyes", 4, "  Palace 1  [palace_1]  (space)", TROYES_ROUND_2),
    ("signorie", 4, "  Yellow die 1  [yellow_1]  (die)", SIGNORIE_ROUND_2)])
def test_a_person_plays_troyes_and_signorie_to_the_end_in_100_columns(game, seed, card, narration):
    screen = play_in_a_terminal([game, "-p", "2", "--seed", str(seed), "--bots", "human,random"], ["?", "? 1", "zz"])
    lines = screen.splitlines()
    assert card in lines
    assert any(line.startswith("'zz' is not one of the options: give a number 1-") for line in lines)
    assert "  since you last looked:" in lines and screen.rstrip().endswith(f"seed {seed}")
    assert max(len(line) for line in lines) <= 100
    end = lines.index(narration[-1])
    assert lines[end - len(narration) + 1:end + 1] == narration


# ---------------------------------------------------------------- s11-tview2: what a new player still missed

def _at_menu_with(g, action_id: str, seed: int = 3, players: int = 4):
    """A state whose pending action menu offers ``action_id`` (options taken first, so the game moves)."""
    import random
    rng = random.Random(seed)
    st = g.new_state(players, seed)
    while not st.over:
        if st.pending.kind == "action" and any(o[0].split(":")[0] == action_id for o in st.pending.options):
            return st
        g.apply(st, rng.randrange(len(st.pending.options)))
    raise AssertionError(f"no menu with {action_id}")


@pytest.mark.parametrize("game, action, lang, expected", [
    ("citadels", "take_gold", "en", [
        "  Take 2 gold  [take_gold]  (action)",
        "    Gather: take 2 gold from the bank. Each turn starts by gathering, gold or districts (not both);",
        "    only then can you build or end your turn."]),
    ("citadels", "end_turn", "en", [
        "  End turn  [end_turn]  (action)",
        "    End your turn (once you have gathered); the next character in rank order is called."]),
    ("citadels", "income", "ja", [
        "  収入を得る  [income]  (アクション)",
        "    手番中の好きなタイミングで1回: キャラクターの収入として、自分の街にあるそのキャラクターの色の建",
        "    物1軒につき1金を受け取ります(王様は黄、伝道師は青、商人は緑、傭兵は赤)。"]),
    ("troyes", "farm", "en", [
        "  Farming  [farm]  (action)",
        "    Yellow dice only: gain floor(sum / 2) deniers."]),
    ("signorie", "pass", "en", [
        "  Pass for the round  [pass]  (action)",
        "    Pass for the rest of the round: no more dice this round."]),
])
def test_question_n_explains_an_action_that_names_no_card(game, action, lang, expected):
    g = game_of(game)
    st = _at_menu_with(g, action)
    view = TerminalView(g, lang=lang)
    opts = view.options(st, st.pending.player)
    n = next(i for i, o in enumerate(opts) if o[0] == action) + 1
    assert view.help(f"? {n}", opts, st).splitlines() == expected


def test_question_n_on_a_card_action_shows_the_action_the_granting_card_and_the_card_it_names():
    g = game_of("citadels")
    st = _at_menu_with(g, "rob")
    view = TerminalView(g)
    opts = view.options(st, st.pending.player)
    n = next(i for i, o in enumerate(opts) if o[0] == "rob:bishop") + 1
    lines = view.help(f"? {n}", opts, st).splitlines()
    assert lines[0] == "  Rob  [rob]  (action)"
    assert lines[1] == "  Thief  [thief]  (character)"
    assert "  Bishop  [bishop]  (character)" in lines and lines.index("  Bishop  [bishop]  (character)") > 1
    n = next(i for i, o in enumerate(opts) if o[0].startswith("build:")) + 1 if any(
        o[0].startswith("build:") for o in opts) else None
    if n:
        assert view.help(f"? {n}", opts, st).splitlines()[:2] == [
            "  Build  [build]  (action)",
            "    After gathering: build one district from your hand by paying its cost in gold (the coins at"]


@pytest.mark.parametrize("game, zone, en, ja", [
    ("citadels", "picked", "chosen character", "選んだキャラクター"),
    ("citadels", "face_up_aside", "set aside face up", "表向きで除外"),
    ("citadels-dark-city", "revealed", "characters revealed", "公開したキャラクター"),     # inherited
    ("citadels-2016", "deck", "deck", "山札"),
    ("troyes", "reserve", "citizens in stock", "ストックの市民駒"),
    ("signorie", "taken", "dice taken", "取ったダイス"),
])
def test_zones_have_names_in_every_game(game, zone, en, ja):
    g = game_of(game)
    assert TerminalView(g).zone_name(zone) == en and TerminalView(g, lang="ja").zone_name(zone) == ja
    # every zone of the three games is named; an expansion's own (hidden, off the board) may not be
    unnamed = [z.name for z in g.vocab.zone_defs if not z.names]
    assert unnamed == [] if game in ("citadels", "troyes", "signorie") else all(
        z.visibility == "nobody" or not z.board or z.of_card for z in g.vocab.zone_defs if z.name in unnamed)


def test_a_zone_without_a_name_shows_its_id_and_an_option_says_whose_by_name():
    g = game_of("citadels")
    view = TerminalView(g)
    assert view.zone_name("no_such_zone") == "no_such_zone"
    st = _at_menu_with(g, "destroy")
    labels = [o[1] for o in view.options(st, st.pending.player) if o[0].startswith("destroy:")]
    assert labels and all(re.search(r"\((P\d's city|your city); \w+, cost \d\)$", l) for l in labels), labels


def test_the_thiefs_choice_is_said_to_the_victim_at_once_and_once():
    screen = play_in_a_terminal(CITADELS_SEED_3, [])
    lines = screen.splitlines()
    rob = lines.index("  P3 (random) choose an action: Rob: Bishop (your chosen character; rank 5)")
    assert lines[rob + 1] == "    board: the robbed character none -> Bishop (rank 5); the robber none -> P3"
    assert screen.count("the robbed character none -> Bishop") == 1
    # a variable cleared at the round's end is not announced
    assert "-> none" not in screen.split("since you last looked")[0] and "    board: the robbed character Bishop" not in screen


def test_the_murder_is_said_at_once_to_a_bots_only_table_too():
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random"])
    lines = r.output.splitlines()
    i = lines.index("  P4 (random) choose an action: Murder: Architect (rank 7)")
    assert lines[i + 1] == "    board: the murdered character none -> Architect (rank 7)"


def test_the_game_ends_with_the_humans_own_view_then_the_scores():
    screen = play_in_a_terminal(CITADELS_SEED_3, [])
    last = screen[screen.rindex("── round "):screen.index("final scores")].splitlines()
    assert "  P1 (you)  gold 9  score 21" in last and "  P2  gold 2  score 19" in last
    # the human's own view of a finished game: their hand by name, the others' as counts
    import random
    g = game_of("citadels")
    for seed in range(1, 40):
        st = g.new_state(4, seed)
        rng = random.Random(seed)
        while not st.over:
            g.apply(st, rng.randrange(len(st.pending.options)))
        hand = st.zones[g.vocab.zone_base[g.vocab.zone_index["hand"]]]
        if hand:
            break
    board = TerminalView(g).board(st, 0)
    assert "  P1 (you)  " in board
    assert re.search(r"\n        hand: [A-Z][\w ']+ \(\w+, cost \d\)", board.split("\n  P2")[0]), board
    assert re.search(r"\n        hand: \d+ hidden", board.split("\n  P2")[1])


@pytest.mark.parametrize("text, width, indent, expected", [
    ("  abc def ghi", 9, 4, ["  abc def", "    ghi"]),                 # ASCII: as textwrap
    ("  建物は破壊されません。", 12, 4, ["  建物は破壊", "    されませ", "    ん。"]),   # 2 columns each
    ("  あいうえ。かき", 11, 2, ["  あいう", "  え。かき"]),        # never a line starting with '。'
    ("  手札: 城 (yellow, cost 4)", 18, 4, ["  手札: 城", "    (yellow, cost", "    4)"]),
    ("  取り立て (白), 略奪", 15, 4, ["  取り立て", "    (白), 略奪"]),      # never a line ending with '('
])
def test_wide_text_wraps_by_display_width(text, width, indent, expected):
    from meeple.play.lines import width_of, wrap
    out = wrap(text, width, indent).splitlines()
    assert out == expected
    assert width_of("城") == 2 and width_of("a城") == 3


def test_lang_ja_plays_in_japanese_within_60_columns():
    from meeple.play.terminal import width_of
    screen = play_in_a_terminal(CITADELS_SEED_3 + ["--lang", "ja"], ["4", "? 1", "1", "1"], columns=60)
    lines = screen.splitlines()
    assert max(width_of(line) for line in lines) <= 60
    at = lines.index("P1, アクションを選ぶ:")
    # numbers only: the keys (the pack's ids, English) are not shown in Japanese; '? 1' names the action's
    assert lines[at + 1:at + 3] == ["   1. 2金を受け取る", "   2. 建物カードを引く"]
    assert lines[at + 9:at + 13] == [
        "あなたの選択: ? 1",
        "  2金を受け取る  [take_gold]  (アクション)",
        "    資源の獲得: 銀行から2金を受け取ります。手番ではまず2金か",
        "    建物カードのどちらか一方を得ます。その後に建設や手番終了",
    ]
    assert "  10. 建設: 交易所、支払い 金貨 2 (緑, コスト 2)" in lines and "      [build:trading_post]" not in lines
    assert "  P1 (あなた) アクションを選ぶ: 2金を受け取る" in lines


def test_option_and_told_lines_wrap_at_the_terminal_width():
    screen = play_in_a_terminal(CITADELS_SEED_3, ["4", "1"], columns=60)
    lines = screen.splitlines()
    assert max(len(line) for line in lines) <= 60
    assert "   9. Build: Castle, pay 4 gold (yellow, cost 4)" in lines and "      [build:castle]" in lines
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random"], env={"COLUMNS": "50"})
    assert max(len(line) for line in r.output.splitlines()) <= 50
    assert "  P4 (random) choose an action: Murder: Architect\n      (rank 7)\n" in r.output


@pytest.mark.parametrize("old, new, message", [
    ("      text:\n        en: \"Gather: take 2", "      txet:\n        en: \"Gather: take 2",
     "game.yaml:{line}:7: error: unknown key 'txet' in action 'take_gold'; did you mean 'text'?"),
    ("name: {en: chosen character, ja: 選んだキャラクター}", "nmae: {en: chosen character}",
     "game.yaml:{line}:62: error: unknown key 'nmae' in zones.picked; did you mean 'name'?"),
    ("name: {en: chosen character, ja: 選んだキャラクター}", "name: {ja: 選んだキャラクター}",
     "game.yaml:{line}:62: error: zones.picked.name: missing required key 'en'"),
])
def test_validate_locates_a_wrong_action_text_or_zone_name(tmp_path, old, new, message):
    test_validate_locates_a_wrong_view_or_price(tmp_path, old, new, message)


def test_meeple_cards_shows_a_card_actions_text(tmp_path):
    pack = _copy(tmp_path)
    chars = (pack / "characters.yaml").read_text()
    old = "        name: {en: Rob, ja: 盗む}\n"
    assert old in chars
    (pack / "characters.yaml").write_text(chars.replace(old, old + "        text: {en: Name a character to rob., ja: 盗む相手を告げます。}\n"))
    r = CliRunner().invoke(main, ["cards", str(pack), "thief"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    at = lines.index("  action rob (Rob), group turn, 1 per turn")
    assert lines[at + 1] == "    text: Name a character to rob."
    r = CliRunner().invoke(main, ["cards", str(pack), "thief", "--lang", "ja"])
    assert "    text: 盗む相手を告げます。" in r.output.splitlines()


def test_lang_ja_asks_the_packs_prompts_in_japanese():
    screen = play_in_a_terminal(CITADELS_SEED_3 + ["--lang", "ja"], [], columns=100)
    lines = screen.splitlines()
    assert "P1, キャラクターを選ぶ:" in lines
    assert "  P2 (ランダム) 手札に残す建物を選ぶ: (非公開)" in lines
    view = TerminalView(game_of("citadels"), lang="ja")
    assert view.prompt("choose an action") == "アクションを選ぶ" and view.prompt("not declared") == "not declared"
    assert TerminalView(game_of("citadels")).prompt("keep a district") == "keep a district"


def test_validate_warns_of_a_prompt_no_rule_asks(tmp_path):
    pack = _copy(tmp_path)
    text = (pack / "game.yaml").read_text()
    old = "    keep a district: {ja: 手札に残す建物を選ぶ}"
    line = text[:text.index(old)].count("\n") + 1
    (pack / "game.yaml").write_text(text.replace(old, "    keep a distrct: {ja: 手札に残す建物を選ぶ}"))
    r = CliRunner().invoke(main, ["validate", str(pack)])
    assert r.exit_code == 0, r.output
    assert f"game.yaml:{line}:5: warning: view: prompts: no rule asks 'keep a distrct'; did you mean 'keep a district'?" in r.output


@pytest.mark.parametrize("lang, prefix, several", [("en", "orsini", "cards whose name starts with 'orsini': Orsini (2) [orsini_2]"),
                                                   ("ja", "オルシーニ", "名前が 'オルシーニ' で始まるカード: オルシーニ家 (2) [orsini_2]")])
def test_a_card_is_found_by_the_start_of_its_name(lang, prefix, several):
    """'? Orsini' at a Signorie prompt: the tiles are named 'Orsini (5)' and so on; all
    of them are listed, and a start that only one name has shows that card."""
    from meeple.play.choicehelp import answer_help
    g = game_of("signorie")
    view = TerminalView(g, lang=lang)
    st = g.new_state(2, 1)
    listed = answer_help(view, f"? {prefix}", [], st)
    assert listed.startswith("  " + several) and all(f"[orsini_{n}]" in listed for n in (2, 3, 4, 5))
    assert answer_help(view, f"? {prefix}家 (5" if lang == "ja" else f"? {prefix} (5", [], st).split("[")[1].startswith("orsini_5]")
    assert answer_help(view, "? medici (2)", [], st).split("[")[1].startswith("medici_2]")    # a whole name: that card
    assert "'zz'" in answer_help(view, "? zz", [], st) and "[" not in answer_help(view, "? zz", [], st)


def _reward_bounds_kept(game) -> int:
    """Random 2-player Signorie games: at every 'the round's reward' its chooser's dice
    total, as the line between turns shows it, is within the bound shown beside it
    ('dice taken total 7 (the reward: at most 13)'). How many rewards were offered."""
    import random
    view = TerminalView(game, width=400)
    offered = 0
    for seed in range(1, 6):
        st, rng = game.new_state(players=2, seed=seed), random.Random(seed)
        while not st.over:
            if st.pending.prompt == "the round's reward":
                shown = re.findall(r"dice taken total (\d+) \(the reward: at most (\d+)\)", view.standing(st))
                total, bound = map(int, shown[st.pending.player])
                assert total <= bound, f"P{st.pending.player + 1} offered the reward with {total} over {bound}"
                offered += 1
            game.apply(st, rng.randrange(len(st.pending.values)))
    return offered


def test_signorie_shows_the_reward_threshold_beside_the_dice_total_it_is_read_against(tmp_path):
    """The reward goes to dice summing to at most 13 (the BGA Signorie help, 「報酬タイル」): the
    line between turns shows that 13, the rules' own constant, beside the total; a pack with
    another threshold shows its own, and a bound shown 3 lower than the rules' is caught."""
    game = game_of("signorie")
    st = game.new_state(players=2, seed=3)
    assert TerminalView(game).standing(st) == ("  -- P1 florins 6, victory points 0, brides on board 1, dice taken total 0 (the "
                                               "reward: at most 13)\n     | P2 florins 7, victory points 0, brides on board 1, dice "
                                               "taken total 0 (the reward: at most\n     13)")
    assert _reward_bounds_kept(game) > 10
    pack = _copy(tmp_path, "signorie")
    text = (pack / "game.yaml").read_text()
    assert "  reward_threshold: 13 " in text
    (pack / "game.yaml").write_text(text.replace("  reward_threshold: 13 ", "  reward_threshold: 12 "))
    assert "dice taken total 0 (the reward: at most 12)" in TerminalView(load_game(str(pack))).standing(st)
    (pack / "game.yaml").write_text(text.replace("at_most: reward_threshold,", "at_most: reward_threshold - 3,"))
    with pytest.raises(AssertionError, match=r"offered the reward with \d+ over \d+"):
        _reward_bounds_kept(load_game(str(pack)))


def test_a_typed_action_not_offered_is_told_why():
    """A person who types the key of an action the menu does not offer is told the engine's
    reason (an action needing its card, an action of another part of the round), then asked
    again; a typed word that names no action gets the usual answer only."""
    from test_terminal_prices import first, play_deciding
    typed: dict = {}

    def person(menu: str) -> str:
        for key, shown in (("activate", "[activate:"), ("farm", "[intercept]"), ("zz", "[pass]")):
            if key not in typed and "choose an action:" in menu and shown in menu:
                typed[key] = True
                return key
        return first(menu)
    screen = play_deciding(["troyes", "-p", "2", "--seed", "3", "--bots", "human,random"], person)
    assert block(screen, "your choice: activate", 3) == [
        "your choice: activate",
        "'activate' needs a choice: activate:priest, activate:artisan",
        "'activate' is not one of the options: give a number 1-27 or a key in brackets, or ? for help"]
    assert block(screen, "your choice: farm", 3)[1] == "'farm' is not available to P1 now"      # the combat menu
    assert block(screen, "your choice: zz", 2)[1].startswith("'zz' is not one of the options")


def block(screen: str, first_line: str, n: int) -> list[str]:
    lines = screen.splitlines()
    return lines[lines.index(first_line):lines.index(first_line) + n]


def test_a_function_fact_is_worked_out_from_the_game_and_reads_nothing_hidden():
    """Signorie's cities show ``marriage_space`` and ``marriage_tile_in`` (view: facts:
    functions of one city): the space a daughter marrying there takes, 1 + the daughters
    married there, and the tile she takes, if one is left, by its name, at every 'marry
    into' of random games, in English and in Japanese; they are the same on every
    re-deal of what the chooser cannot see (a fact reads only what every player sees);
    checked only (``generate=False``), nothing is generated to work it out with."""
    import random
    from meeple.runtime.redeal import determinize
    g = game_of("signorie")
    v = g.vocab
    married, tiles = v.zone_index["married"], v.zone_index["marriage_tile"]
    views = {lang: TerminalView(g, width=300, lang=lang) for lang in ("en", "ja")}
    asked = 0
    for seed in range(1, 12):
        st = g.new_state(2, seed)
        rng, samples = random.Random(seed), random.Random(seed + 7)
        while not st.over:
            dec = st.pending
            if dec.prompt == "marry into":
                asked += 1
                at = [v.kind_cards["city"].index(c) for c in dec.values]
                spaces = [len(st.zones[v.zone_base[married] + k]) + 1 for k in at]
                tile = [st.zones[v.zone_base[tiles] + k][:1] for k in at]
                for lang, words in (("en", ("next space and least dowry", "tile")), ("ja", ("次のマスと最低持参金", "タイル"))):
                    view = views[lang]
                    assert [o[1] for o in view.options(st, dec.player)] == \
                        [f"{view.name(c)} ({words[0]} {n}" + "".join(f", {words[1]}: {view.name(t)}" for t in ts) + ")"
                         for c, n, ts in zip(dec.values, spaces, tile)]
                s = determinize(g, st, dec.player, samples)
                assert [views["en"].card(c, s) for c in dec.values] == [views["en"].card(c, st) for c in dec.values]
            g.apply(st, rng.randrange(dec.count()))
    assert asked >= 5, asked
    assert load_game("signorie", generate=False).compiled.fact_functions[("city", "marriage_space")][0] is None


def test_a_function_fact_that_gives_a_list_is_an_error_at_its_name(tmp_path):
    """A fact is one value: a function of one district giving a list of cards, named in
    view: facts, is an error at its name there."""
    pack = _copy(tmp_path)
    text = (pack / "game.yaml").read_text()
    text = text.replace("functions:\n", "functions:\n  alike:\n    params: {d: district}\n"
                        "    value: those(x in deck where x.colour == d.colour)\n", 1)
    text = text.replace("    district: [colour, cost]", "    district: [colour, cost, alike]", 1)
    (pack / "game.yaml").write_text(text)
    line = text[:text.index("    district: [colour, cost, alike]")].count("\n") + 1
    r = CliRunner().invoke(main, ["validate", str(pack)])
    assert r.exit_code != 0
    assert (f"game.yaml:{line}:30: error: view: facts: 'alike' gives a list of district cards; a fact is a number, "
            "a flag, a text, a seat, an enum's value or a card") in r.output, r.output
