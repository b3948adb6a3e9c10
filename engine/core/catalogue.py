"""The interface's own words, in every language meeple speaks: one message catalogue.

Every line the play screens write (``meeple play``, ``meeple rules``, '?' at a prompt,
the narration, the final scores) is written in the code in English and looked up
here by that English text, gettext's way: the code reads as it prints, a message
with values keeps them in braces (``"final scores after {n} rounds:"``), and a
message with no translation shows its English. ``tests/test_catalogue.py`` plays
whole games of every shipped pack under ``--lang ja`` and fails on any English word
left on the screen, so a message added without its translation is caught there.

A pack's own words are not here: its names (``name:``), texts and the words of its
rules (``view: words:``) come from the pack.
"""
from __future__ import annotations

LANGUAGES = ("en", "ja")

JA: dict[str, str] = {
    # the board (meeple.play.terminal)
    "── round {n} ": "── ラウンド{n} ",
    "── round {n} of {m} ": "── ラウンド{n}/{m} ",
    "── set-up ": "── 準備 ",
    "── the end, after round {n} ": "── 終了 (ラウンド{n}のあと) ",
    " (you)": " (あなた)",
    "{n} hidden": "非公開{n}枚",
    "hidden": "非公開",
    "cards": "枚",
    "none": "なし",
    "board": "盤面",
    "yes": "はい",
    "no": "いいえ",
    "your {z}": "あなたの{z}",
    "P{n}'s {z}": "P{n}の{z}",
    ", pay {what}": "、支払い {what}",
    "{n} {what}": "{what} {n}",
    "(action)": "(アクション)",
    "action: {name}": "アクション: {name}",
    "(this text is in English only)": "(この文章は英語のみです)",
    # the prompt and '?'
    "choose an action": "アクションを選ぶ",
    "choose": "選ぶ",
    "{prompt} ({n} chosen)": "{prompt} ({n}個選択済み)",
    "skip": "選ばない",
    "neutral": "中立",
    "done": "終わる",
    "your choice": "あなたの選択",
    "'{answer}' is not one of the options: give {numbers} or a key in brackets":
        "'{answer}' は選択肢にありません: {numbers}か、角かっこ内のキーを入力してください",
    ", or ? for help": "(? でヘルプ)",
    "a number 1-{n}": "1-{n}の番号",
    "one of the numbers shown ({runs})": "表示された番号 ({runs}) のどれか",
    "  a number or a key in brackets: choose that option": "  番号か角かっこ内のキー: その選択肢を選ぶ",
    "  ? N: what option N does, and its card, in full": "  ? N: 選択肢Nの効果とそのカードの全文",
    "  ? ID or ? NAME: that card, in full (ids as `meeple cards` lists them)":
        "  ? ID か ? 名前: そのカードの全文 (IDは `meeple cards` の一覧のとおり)",
    "  ? rules: how to play, in short (all of it: `{command}`)": "  ? rules: 遊び方の概要 (全文: `{command}`)",
    "  ?: this help": "  ?: このヘルプ",
    "  no option {n}: give 1-{m}": "  選択肢{n}はありません: 1-{m}を入力してください",
    "  option {n} names no card": "  選択肢{n}はカードを指していません",
    "  no card '{ref}': give an option's number or a card's id or name":
        "  カード '{ref}' はありません: 選択肢の番号か、カードのIDか名前を入力してください",
    "  this pack has no how-to-play (`{command}` says so)": "  このパックには遊び方がありません (`{command}`)",
    "  all of it: `{command}`": "  全文: `{command}`",
    # how to play (meeple rules)
    "{name}: how to play": "{name}: 遊び方",
    "What {name} changes": "{name} での変更点",
    "no how-to-play in this pack": "このパックには遊び方がありません",
    # the table (meeple play)
    "{name} with {n} players": "{name} ({n}人)",
    ", seed {seed}": "、シード {seed}",
    "you": "あなた",
    "random": "ランダム",
    "greedy": "貪欲",
    "mcts": "モンテカルロ探索",
    "(hidden)": "(非公開)",
    "  refused: {reason}": "  できません: {reason}",
    "  since you last looked:": "  前回から起きたこと:",
    "final scores after {n} rounds:": "最終得点 ({n}ラウンド後):",
    "  winner": "  勝者",
    "seed {seed}": "シード {seed}",
    "log written to {path}": "ログを書き出しました: {path}",
    "game abandoned": "ゲームを中断しました",
    " (seed {seed})": " (シード {seed})",
    "the game so far ({n} choice, unfinished) written to {path}": "ここまでのゲーム ({n}回の選択、未完) を書き出しました: {path}",
    "the game so far ({n} choices, unfinished) written to {path}": "ここまでのゲーム ({n}回の選択、未完) を書き出しました: {path}",
    # the narration (meeple.play.narration): a step of the flow, a step not to be named
    "Setup": "準備",
    "Round": "ラウンド",
    "Final scoring": "最終得点計算",
    "Rules": "ルール",
    "a hidden card": "非公開のカード",
    # the final score explained (meeple.runtime.scoring)
    "during play": "ゲーム中",
    "final scoring": "最終得点",
}

CATALOGUE: dict[str, dict[str, str]] = {"ja": JA}


def say(text: str, lang: str = "en", **values: object) -> str:
    """``text`` (a message as the code writes it, in English) in ``lang``, its
    braces filled with ``values``; its English where it has no translation."""
    out = CATALOGUE.get(lang, {}).get(text, text)
    return out.format(**values) if values else out


def translated(text: str, lang: str) -> bool:
    """Whether ``text`` has its own words in ``lang`` (English always has)."""
    return lang == "en" or text in CATALOGUE.get(lang, {})


def names(text: str) -> dict[str, str]:
    """A message in every language, as a declared ``name:`` is ({'en': ..., 'ja': ...})."""
    return {"en": text, **{lang: table[text] for lang, table in CATALOGUE.items() if text in table}}
