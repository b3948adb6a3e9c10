"""`meeple play --lang ja` on a pseudo-terminal: a whole game of each of the three games
in Japanese, in exact screen lines (a price before choosing, what a rule did, a board
fact, the score explained), to its end and exit 0 (``on_a_terminal`` checks the exit).

The person plays as in tests/test_terminal_prices.py (the same seeds and choices, so
the same games as the English screens there), reading the Japanese menus, which show
numbers only (an option's key, the pack's id in English, is not shown: '? N' names it). That no
English word is left anywhere on such a screen is tests/test_catalogue.py's.
"""
from __future__ import annotations

from test_terminal_prices import block, first, play_deciding, signorie_person_in, troyes_person_in


def ending(screen: str) -> list[str]:
    return screen[screen.index("最終得点 ("):].splitlines()


troyes_person, signorie_person = troyes_person_in("ja"), signorie_person_in("ja")


def test_troyes_in_japanese():
    screen = play_deciding(["troyes", "-p", "2", "--seed", "3", "--bots", "human,random", "--lang", "ja"], troyes_person)
    # fact, price and what the dice cost at least, no English key (the Raid: a die of P2's, 2 deniers)
    assert "   5. 活動カードの活性化: 司祭、支払い ドゥニエ 4、その後 最低 ドゥニエ 0 (白, コスト 4, 除数 4)" in screen
    assert "   8. イベントの対処: 襲撃、その後 最低 ドゥニエ 2 (赤, 除数 4)" in screen
    assert "   8. 迎撃: 黒ダイス=5" in screen        # the black die to beat, the highest of 5, 1, 2
    # the Raid (divisor 4) takes the 4 alone: the 3 and the 2 would need a second die of P2's
    assert block(screen, "P1, ダイスを選ぶ:", 3) == [
        "P1, ダイスを選ぶ:",
        "   1. 赤ダイス (4, P2)、支払い ドゥニエ 2 (P2の広場のダイス)",
        "あなたの選択: 1",
    ]
    told = screen[screen.index("  P1 (あなた) ダイスを選ぶ: 赤ダイス (4, P2) (P2の広場のダイス)"):].splitlines()
    assert told[told.index("  前回から起きたこと:"):][:3] == [
        "  前回から起きたこと:",
        "    イベントの対処: ダイスのストック +赤ダイス, イベントのキューブ (襲撃) +キューブ P1; P1 ドゥニエ",
        "        -2, 影響点 +1, キューブ -1; P2 広場のドゥニエ +2, 広場のダイス -赤ダイス=4",
    ]
    assert "── 終了 (ラウンド4のあと) ──" in screen and "── ラウンド5" not in screen
    assert "        キャラクターカード: ウルバヌス４世, フィレンツェの男" in screen[screen.index("── 終了"):]
    assert ending(screen) == [
        "最終得点 (4ラウンド後):",
        "  1. P2  7  勝者",
        "       = イベントの解決 1 - 分裂 1 + 職人のスロット 2 - キューブのない大聖堂の段 2 + イベントカード",
        "         1 + キャラクターカード 6",
        "  2. P1  5",
        "       = イベントの解決 11 - 分裂 6 + 大聖堂の建設 1 - 迎撃できない (2勝利点を失う) 2 - キューブのな",
        "         い大聖堂の段 4 + イベントカード 4 + キャラクターカード 1",
        "シード 3",
    ]


def test_signorie_in_japanese():
    screen = play_deciding(["signorie", "-p", "2", "--seed", "3", "--bots", "human,random", "--lang", "ja"], signorie_person)
    assert block(screen, "P1, アクションを選ぶ:", 8)[5:] == [
        "   5. ダイスを選ぶ: 紫ダイス1 (4)、支払い フロリン 0",
        "   6. ダイスを選ぶ: 紫ダイス2 (1)、支払い フロリン 2",      # threshold 3, value 1
        "   7. ダイスを選ぶ: 灰ダイス1 (3)、支払い フロリン 1",
    ]
    assert block(screen, "P1, ダイスの使い道:", 6) == [
        "P1, ダイスの使い道:",
        "   1. 雇う: 黄列の助手1、支払い フロリン 1 (コスト 1)",
        "   2. 業務",
        "   3. シニョーリア",
        "あなたの選択: 3",
        "  P1 (あなた) ダイスの使い道: シニョーリア",
    ]
    lines = screen.splitlines()
    at = lines.index("  P1 (あなた) 持参金 (フロリン): 1")
    assert lines[at + 1:at + 3] == [
        "  -- P1 フロリン 5, 勝利点 2, ボードの花嫁 1, 取ったダイス 合計 5 (報酬: 13以下) | P2 フロリン 7, 勝",
        "     利点 0, ボードの花嫁 1, 取ったダイス 合計 0 (報酬: 13以下)"]       # the total beside the reward's threshold
    assert lines[at + 10:at + 13] == [
        "  前回から起きたこと:",
        "    結婚: 都市に嫁いだ娘 (ナポリ) +娘 P1, 結婚タイル (ナポリ) -スフォルツァ家 (2); P1 フロリン -1,",
        "        勝利点 +2, 手元の家族 -娘, 結婚の列 +スフォルツァ家 (2)",
    ]
    assert "        トラック上の家族: 息子 (軍事, ランク 1)" in lines      # a man's track and rank
    assert "── 終了 (ラウンド7のあと) ──" in screen
    assert ending(screen) == [
        "最終得点 (7ラウンド後):",
        "  1. P1  73  勝者",
        "       = 結婚 20 + 業務 6 + 外交 1 + イニシアチブ 18 + 新しい花嫁 8 + 同盟の誉れ 5 + 結婚の列 15",
        "  2. P2  51",
        "       = 結婚 12 + 業務 12 + 外交 3 + イニシアチブ 9 + 新しい花嫁 8 + 職業の誉れ 2 + 灰列の助手2 3 +",
        "         シアン列の助手2 2",
        "シード 3",
    ]


def test_citadels_in_japanese():
    screen = play_deciding(["citadels", "-p", "4", "--seed", "3", "--bots", "human,random,random,random", "--lang", "ja"],
                           first)
    assert "   4. 建設: 交易所、支払い 金貨 2 (緑, コスト 2)" in screen
    lines = screen.splitlines()
    at = lines.index("  P3 (ランダム) アクションを選ぶ: 盗む: 伝道師 (あなたの選んだキャラクター; 番号 5)")
    assert lines[at + 1] == "    盤面: 盗まれるキャラクター なし -> 伝道師 (番号 5); 盗んだプレイヤー なし -> P3"
    assert block(screen, "  前回から起きたこと:", 2) == ["  前回から起きたこと:", "    キャラクター選択: P4 選んだキャラクター +1 非公開"]
    end = screen[screen.index("── 終了 (ラウンド13のあと) ──"):].splitlines()
    assert end[1] == "  王冠を持つプレイヤー: P1  最初に街を完成させたプレイヤー: P2"
    assert ending(screen) == [
        "最終得点 (13ラウンド後):",
        "  1. P1  21  勝者",
        "       = 建物 21",
        "  2. P2  19",
        "       = 建物 15 + 街の完成 4",
        "  3. P4  18",
        "       = 建物 16 + 街の完成 2",
        "  4. P3  8",
        "       = 建物 8",
        "シード 3",
    ]
