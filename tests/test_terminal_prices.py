"""`meeple play` on a pseudo-terminal: prices before choosing and the score explained,
in exact screen lines, for a whole game of each of the three games.

The person's answers depend on the menu shown (a deal with an event in Troyes, a red
die and its marriage in Signorie), so each game reaches the decisions with prices;
the games are seeded, so the screens are the same every run. What the prices claim
is checked in tests/test_prices.py, the breakdown's numbers in tests/test_scoring.py.
"""
from __future__ import annotations

import re
from typing import Callable

from answering import menu_above, on_a_terminal


def play_deciding(args: list[str], decide: Callable[[str], str], columns: int = 100, timeout: float = 300) -> str:
    """Runs ``meeple play ARGS`` on a pseudo-terminal; at each prompt types what
    ``decide`` answers to the menu above it; returns the screen as text."""
    def answer(screen: bytes, typed: int) -> str:
        text = screen.decode().replace("\r\n", "\n")
        return decide(menu_above(text))
    return on_a_terminal(args, answer, columns, timeout, refusals=5)      # no answer refused for ever


def block(screen: str, first: str, n: int) -> list[str]:
    """The ``n`` lines of the screen from the first that is ``first``."""
    lines = screen.splitlines()
    return lines[lines.index(first):lines.index(first) + n]


def ending(screen: str) -> list[str]:
    """The final scores and what follows them."""
    return screen[screen.index("final scores after"):].splitlines()


def first(menu: str) -> str:
    """The first number the menu shows (a turn's menu keeps its numbers, so it need not be 1)."""
    return re.search(r"\n +(\d+)\. ", menu).group(1)


# the words the persons below read a menu by, in each language the screens are tested in
MENU_WORDS = {
    "en": {"a die": ("choose a die:", "add a die to the group:"), "a fee": r"pay [1-9]", "the die's use": "what to do with the die",
           "a deal": "Deal with an event: ", "a red die": "Take a die: Red die ", "signoria": "signoria"},
    "ja": {"a die": ("ダイスを選ぶ:", "グループに加えるダイス:"), "a fee": r"支払い ドゥニエ [1-9]", "the die's use": "ダイスの使い道:",
           "a deal": "イベントの対処: ", "a red die": "ダイスを選ぶ: 赤ダイス", "signoria": "シニョーリア"},
}


def chosen(menu: str, label: str) -> str | None:
    """The first option whose label starts with ``label``: by its key in brackets where the
    menu shows keys (English), else by its number."""
    m = re.search(r"\n +(\d+)\. " + re.escape(label) + r"[^\n]*?(?:   \[([^\]\n]+)\])?\n", menu)
    return (m.group(2) or m.group(1)) if m else None


def troyes_person_in(lang: str) -> Callable[[str], str]:
    """Deals with an event when one is offered; picks a die with a fee when one is offered."""
    words = MENU_WORDS[lang]

    def person(menu: str) -> str:
        if any(prompt in menu for prompt in words["a die"]):
            m = re.search(r"\n +(\d+)\. [^\n]*" + words["a fee"], menu)
            if m:
                return m.group(1)
        return chosen(menu, words["a deal"]) or first(menu)
    return person


def signorie_person_in(lang: str) -> Callable[[str], str]:
    """Takes a red die when offered, and marries with it."""
    words = MENU_WORDS[lang]

    def person(menu: str) -> str:
        red = chosen(menu, words["a red die"])
        if red:
            return red
        use = chosen(menu, words["signoria"]) if words["the die's use"] in menu else None
        return use or first(menu)
    return person


troyes_person, signorie_person = troyes_person_in("en"), signorie_person_in("en")


def test_troyes_a_neutral_die_shows_its_fee_and_the_score_is_explained():
    screen = play_deciding(["troyes", "-p", "2", "--seed", "3", "--bots", "human,random"], troyes_person)
    # the hire cost, then what the dice cost at least before choosing the action: P1's own
    # white 6 and 5 reach the Priest's divisor 4 for nothing; for the Raid (red, divisor 4)
    # P1 has no red die left, and P2's red 4 costs 2 deniers (one die of another: 2 each)
    assert block(screen, "   5. Activate: Priest, pay 4 deniers, then at least 0 deniers (white, cost 4, divisor 4)", 5) == [
        "   5. Activate: Priest, pay 4 deniers, then at least 0 deniers (white, cost 4, divisor 4)",
        "      [activate:priest]",
        "   6. Activate: Artisan, pay 3 deniers, then at least 0 deniers (yellow, cost 3, divisor 3)",
        "      [activate:artisan]",
        "   7. Build the cathedral, then at least 0 deniers   [cathedral]",
    ]
    assert "   8. Deal with an event: Raid, then at least 2 deniers (red, divisor 4)   [deal:raid]" in screen
    # the round's first menu names the black die to beat: the highest of the 5, 1 and 2 rolled
    assert "  black dice: Black die=5, Black die=1, Black die=2" in screen
    assert "   8. Intercept the highest black die: Black die=5   [intercept]" in screen
    assert "  11. Place a citizen: Red die (4, P2), pay 2 deniers (P2's dice in the square)" in screen
    # another player's die: 2 deniers, to them; the Raid (divisor 4) takes the 4 alone: the 3 and
    # the 2 would need a second die of P2's, 4 deniers each, more than P1 has, so they are not offered
    assert block(screen, "P1, choose a die:", 3) == [
        'P1, choose a die:',
        "   1. Red die (4, P2), pay 2 deniers (P2's dice in the square)   [red_die]",
        'your choice: 1',
    ]
    at = screen.index("  P1 (you) choose a die: Red die (4, P2) (P2's dice in the square)")
    told = screen[at:].splitlines()
    assert told[told.index("  since you last looked:"):][:3] == [      # the 2 shown, paid to P2
        '  since you last looked:',
        '    Deal with an event: dice stock +Red die, cubes on events (Raid) +Cube P1; P1 deniers -2,',   # no face in the stock
        '        influence +1, cubes -1; P2 deniers in the square +2, dice in the square -Red die=4',
    ]
    # the final board is the end, not a new round, and shows each player's characters
    assert "── the end, after round 4 ──" in screen and "── round 5" not in screen
    end = screen[screen.index("── the end"):]
    assert "        character cards: Urbain IV, the Florentine" in end and "hidden" not in end
    assert ending(screen) == [
        "final scores after 4 rounds:",
        "  1. P2  7  winner",      # what the rules scored during play, rule by rule, then the final parts
        "       = Event resolved 1 - Schism 1 + craftsmen's slots 2 - cathedral levels without a cube 2 +",
        "         event cards 1 + character cards 6",
        "  2. P1  5",
        "       = Event resolved 11 - Schism 6 + Build the cathedral 1 - Cannot intercept (lose 2 VP) 2 -",
        "         cathedral levels without a cube 4 + event cards 4 + character cards 1",
        "seed 3",
    ]


def test_signorie_a_die_below_its_threshold_a_hire_and_a_dowry_show_their_florins_and_the_score_is_explained():
    screen = play_deciding(["signorie", "-p", "2", "--seed", "3", "--bots", "human,random"], signorie_person)
    assert block(screen, "P1, choose an action:", 12) == [
        "P1, choose an action:",
        "   1. Take a die: Yellow die 1 (2), pay 0 florins   [take:yellow_1]",
        "   2. Take a die: Yellow die 2 (2), pay 0 florins   [take:yellow_2]",
        "   3. Take a die: Red die 1 (5), pay 0 florins   [take:red_1]",
        "   4. Take a die: Red die 2 (6), pay 0 florins   [take:red_2]",
        "   5. Take a die: Purple die 1 (4), pay 0 florins   [take:purple_1]",
        "   6. Take a die: Purple die 2 (1), pay 2 florins   [take:purple_2]",       # threshold 3, value 1
        "   7. Take a die: Grey die 1 (3), pay 1 florin   [take:grey_1]",           # threshold 4, value 3
        "   8. Take a die: Grey die 2 (4), pay 0 florins   [take:grey_2]",
        "   9. Take a die: Cyan die 1 (4), pay 1 florin   [take:cyan_1]",           # threshold 5, value 4
        "  10. Take a die: Cyan die 2 (6), pay 0 florins   [take:cyan_2]",
        "  11. Pass for the round   [pass]",
    ]
    assert block(screen, "P1, what to do with the die:", 5) == [
        "P1, what to do with the die:",
        "   1. hire: Yellow column assistant 1, pay 1 florin (cost 1)   [hire]",    # the first free slot of the column to the left
        "   2. administration   [administration]",
        "   3. signoria   [signoria]",
        "your choice: signoria",
    ]
    assert block(screen, "P1, dowry (florins):", 7) == [
        "P1, dowry (florins):",
        "   1. 1, pay 1 florin   [1]",
        "   2. 2, pay 2 florins   [2]",
        "   3. 3, pay 3 florins   [3]",
        "   4. 4, pay 4 florins   [4]",
        "your choice: 1",
        "  P1 (you) dowry (florins): 1",
    ]
    # 6 - 1; the dice taken's total (view: totals) beside the reward's threshold, 13, it is read against
    assert block(screen, "  P1 (you) dowry (florins): 1", 4)[1:] == [
        "  -- P1 florins 5, victory points 2, brides on board 1, dice taken total 5 (the reward: at most 13)",
        "     | P2 florins 7, victory points 0, brides on board 1, dice taken total 0 (the reward: at most",
        "     13)"]
    assert block(screen, "P1, the round's reward:", 5) == [      # the reward named, its card's facts (about r)
        "P1, the round's reward:",
        "   1. reward: A son (space 1)   [reward]",
        "   2. florins   [florins]",
        "your choice: 1",
        "  P1 (you) the round's reward: reward: A son (space 1)",
    ]
    lines = screen.splitlines()
    at = lines.index("  P1 (you) dowry (florins): 1")
    assert lines[at + 12:at + 15] == [       # the marriage told under the action that made it, after P2's turn
        "  since you last looked:",
        "    Marriage: daughters married in cities (Napoli) +Daughter P1, marriage tile (Napoli) -Sforza (2);",
        "        P1 florins -1, victory points +2, family in hand -Daughter, marriage row +Sforza (2)",
    ]
    assert "        family on tracks: Son (military, rank 1)" in lines        # a man's track and rank
    assert "── the end, after round 7 ──" in screen
    assert ending(screen) == [
        "final scores after 7 rounds:",
        "  1. P1  73  winner",      # 2 VP a florin of a marriage, the initiative track, the rewards ...
        "       = Marriage 20 + Administration 6 + Diplomacy 1 + Initiative 18 + A new bride 8 + Alliances'",
        "         honour 5 + marriage row 15",
        "  2. P2  51",
        "       = Marriage 12 + Administration 12 + Diplomacy 3 + Initiative 9 + A new bride 8 + Careers'",
        "         honour 2 + Grey column assistant 2 3 + Cyan column assistant 2 2",
        "seed 3",
    ]


def test_citadels_build_shows_its_gold_and_the_score_is_explained():
    screen = play_deciding(["citadels", "-p", "4", "--seed", "3", "--bots", "human,random,random,random"],
                           first)
    assert "   4. Build: Trading Post, pay 2 gold (green, cost 2)   [build:trading_post]" in screen
    lines = screen.splitlines()      # the Thief's choice said at once, under the board's variables' names
    at = lines.index("  P3 (random) choose an action: Rob: Bishop (your chosen character; rank 5)")
    assert lines[at + 1] == "    board: the robbed character none -> Bishop (rank 5); the robber none -> P3"
    assert block(screen, "  since you last looked:", 2) == [      # what each rule did, under its name
        "  since you last looked:", "    Character selection: P4 chosen character +1 hidden"]
    assert "── the end, after round 13 ──" in screen
    end = screen[screen.index("── the end"):].splitlines()
    assert end[1] == "  the crown's holder: P1  the first to complete a city: P2"      # a board fact at the end
    assert ending(screen) == [
        "final scores after 13 rounds:",
        "  1. P1  21  winner",
        "       = districts 21",
        "  2. P2  19",
        "       = districts 15 + completed city 4",
        "  3. P4  18",
        "       = districts 16 + completed city 2",
        "  4. P3  8",
        "       = districts 8",
        "seed 3",
    ]


def test_a_wrong_reveal_is_an_error_at_its_line(tmp_path):
    from small_packs import validated_with
    code, output, line, _ = validated_with(tmp_path, "troyes", "  reveal: [characters]", "  reveal: [charactrs]")
    assert code == 1, output
    assert (f"game.yaml:{line}:12: error: view: reveal: 'charactrs' is not a zone listed in view: player; "
            "did you mean 'characters'?") in output, output
