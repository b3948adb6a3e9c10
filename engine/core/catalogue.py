"""The interface's own words, in every language meeple speaks: one message catalogue.

Every line the play screens write (``meeple play``, ``meeple rules``, '?' at a prompt,
the narration, the final scores; and every word of ``meeple serve``'s pages) is written in the code in English and looked up
here by that English text, gettext's way: the code reads as it prints, a message
with values keeps them in braces (``"final scores after {n} rounds:"``), and a
message with no translation shows its English. ``tests/test_catalogue.py`` plays
whole games of every shipped pack under ``--lang ja`` and fails on any English word
left on the screen, so a message added without its translation is caught there.

Two messages of the same English that read otherwise in another language are told
apart by a context before the text (``say("drawer\\x04cards")``: the card drawer's
link, not the counter ``cards``); its English is the text after it.

A pack's own words are not here: its names (``name:``), texts and the words of its
rules (``view: words:``) come from the pack.
"""
from __future__ import annotations

LANGUAGES = ("en", "ja")
OWN_NAMES = {"en": "English", "ja": "日本語"}      # each language by its own name (a page's language links)
CONTEXT = "\x04"        # 'drawer\x04cards': a message told apart from another of the same English (gettext's way)

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
    "total {n}": "合計 {n}",
    "{what}: at most {n}": "{what}: {n}以下",
    "at most {n}": "{n}以下",
    "board": "盤面",
    "yes": "はい",
    "no": "いいえ",
    "your {z}": "あなたの{z}",
    "P{n}'s {z}": "P{n}の{z}",
    ", pay {what}": "、支払い {what}",
    ", then at least {what}": "、その後 最低 {what}",
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
    "'{answer}' is not one of the options: give {numbers}": "'{answer}' は選択肢にありません: {numbers}を入力してください",
    ", or ? for help": "(? でヘルプ)",
    "a number 1-{n}": "1-{n}の番号",
    "one of the numbers shown ({runs})": "表示された番号 ({runs}) のどれか",
    "  a number or a key in brackets: choose that option": "  番号か角かっこ内のキー: その選択肢を選ぶ",
    "  a number: choose that option (its key, which ? N names, too)": "  番号: その選択肢を選ぶ (? N が示すそのキーでも選べます)",
    "  option {n}: key [{key}]": "  選択肢{n}: キー [{key}]",
    "  ? N: what option N does, and its card, in full": "  ? N: 選択肢Nの効果とそのカードの全文",
    "  ? ID or ? NAME: that card, in full (ids as `meeple cards` lists them)":
        "  ? ID か ? 名前: そのカードの全文 (IDは `meeple cards` の一覧のとおり)",
    "  ? rules: how to play, in short (all of it: `{command}`)": "  ? rules: 遊び方の概要 (全文: `{command}`)",
    "  ?: this help": "  ?: このヘルプ",
    "  undo: take back your choices in the action under way (not once anything random or hidden is out)": "  取り消し: 進行中のアクションでの自分の選択を取り消す (偶然の要素や隠れた情報が出たあとは不可)",
    # 'undo' at a prompt (meeple.play.undo)
    "undo": "取り消し",
    "  cannot undo: {reason}": "  取り消せません: {reason}",
    "nothing to take back": "取り消せる選択はありません",
    "the game is over": "ゲームは終了しています",
    "the action is over": "そのアクションはもう終わっています",
    "another player has chosen since": "その後に他のプレイヤーが選択しました",
    "something random has happened since (a roll, a shuffle)": "その後に偶然の要素がありました (ダイス、シャッフル)",
    "a card you could not see has come into view since": "その後に見えなかったカードが見えました",
    "  P{p} took back the choices since their last action": "  P{p} は直前のアクションからの選択を取り消しました",
    "  no option {n}: give 1-{m}": "  選択肢{n}はありません: 1-{m}を入力してください",
    "  option {n} names no card": "  選択肢{n}はカードを指していません",
    "  no card '{ref}': give an option's number or a card's id or name":
        "  カード '{ref}' はありません: 選択肢の番号か、カードのIDか名前を入力してください",
    "  cards whose name starts with '{ref}': {cards}; give one's id or whole name":
        "  名前が '{ref}' で始まるカード: {cards}。IDか名前全体を入力してください",
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
    "human": "人間",
    "(hidden)": "(非公開)",
    "  refused: {reason}": "  できません: {reason}",
    "a requirement does not hold": "条件を満たしていません",      # a 'require' with no message (meeple.dsl.errors.UNMET)
    # why the engine refused an option named by its key (meeple.runtime.actions: refusal_reason)
    "'{key}' names several options: {options}": "'{key}' は複数の選択肢に当たります: {options}",
    "'{choice}' is not one of the choices for '{action}' ({among}); legal: {legal}":
        "'{choice}' は '{action}' ({among}) の選択肢にありません。選べるもの: {legal}",
    "'{action}' needs a choice: {legal}": "'{action}' には選択が必要です: {legal}",
    "'{action}' is allowed {n} time(s) a turn": "'{action}' は1手番に{n}回までです",
    "'{action}' needs: {when}": "'{action}' の条件を満たしていません: {when}",
    "'{action}': nothing to choose ({among})": "'{action}': 選べるものがありません ({among})",
    "'{action}' is not available to P{n} now": "'{action}' は今 P{n} には使えません",
    "'{key}' is not a legal option; legal: {legal} (did you mean '{close}'?)":
        "'{key}' は選べる選択肢ではありません。選べるもの: {legal} ('{close}' のことですか?)",
    "'{key}' is not a legal option; legal: {legal}": "'{key}' は選べる選択肢ではありません。選べるもの: {legal}",
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
    # the browser's pages (meeple serve: meeple.web), in the terms above
    "Table view": "テーブルビュー",
    ": every card and the seed are shown here, for designers; no player should see this page.":
        ": すべてのカードとシードが表示されます。デザイナー用で、プレイヤーに見せてはいけないページです。",
    "table view": "テーブルビュー",
    "spectator": "観戦者",
    "You are {who}": "あなたは{who}",
    "step {step} of {steps}": "{steps}手中{step}手目",
    "round {n}": "ラウンド{n}",
    "the end": "終了",
    " (looking back)": " (振り返り中)",
    "language": "言語",
    "time": "時間",
    "first": "最初",
    "back": "戻る",
    "forward": "進む",
    "now": "現在",
    "step": "手",
    "go": "移動",
    "jump to": "移動先",
    "jump": "移動",
    "Board": "盤面",
    "What happened": "起きたこと",
    "what happened": "起きたこと",
    "Choices": "選択の記録",
    "log": "記録",
    "{n} earlier choices: step back to see them.": "それより前の選択{n}回: 戻ると見られます。",
    "Your choice: {prompt}": "あなたの選択: {prompt}",
    "{who} is choosing…": "{who}が選んでいます…",
    "{who} was to choose": "{who}が選ぶところでした",
    "help on option {n}": "選択肢{n}のヘルプ",
    "how to play": "遊び方",
    "drawer\x04cards": "カード一覧",
    "{name}, in the card drawer": "{name} (カード一覧で見る)",
    "{name} (option {n})": "{name} (選択肢{n})",
    "what the bot's search gave each option": "ボットの探索による各選択肢の評価",
    "option": "選択肢",
    "value": "評価値",
    "visits": "訪問回数",
    "Final scores": "最終得点",
    "place": "順位",
    "player": "プレイヤー",
    "score": "得点",
    "made of": "内訳",
    "winner": "勝者",
    "pages": "ページ",
    "{who} here": "この時点の{who}",
    "download the log": "ログをダウンロード",
    "copy as scenario": "シナリオとしてコピー",
    "with bots": "ボット",
    "the server's --bots": "サーバーの `--bots`",
    "fork from here (step {step})": "ここから分岐 ({step}手目)",
    "── everything, hidden too ──": "── すべて (非公開も) ──",
    "public": "公開",
    "owner": "持ち主のみ",
    "nobody": "誰にも非公開",
    "  hidden variables: ": "  非公開の変数: ",
    "replay": "再生",
    "{name} · seats": "{name} · 席",
    "{name}: the seats": "{name}: 席",
    "Give each player their own link: a link opens that seat's view only.":
        "各プレイヤーに自分のリンクを渡してください。リンクはその席から見える内容だけを開きます。",
    "back to the table": "テーブルに戻る",
    "{name} · cards": "{name} · カード一覧",
    "{name}: the cards": "{name}: カード一覧",
    "Start the server with --figures SIM.json (meeple simulate --format json) to see each card's figures.":
        "各カードの統計を見るには、サーバーを `--figures SIM.json` (`meeple simulate --format json`) で起動してください。",
    "used {times} times by {users} players; their win rate {rate} (95% interval {lo}-{hi}; fair share {fair})":
        "{users}人が{times}回使用。その勝率 {rate} (95%区間 {lo}-{hi}、公平な取り分 {fair})",
    "{where}: in {games} games, win rate {rate} ({lo}-{hi})": "{where}: {games}ゲームで勝率 {rate} ({lo}-{hi})",
    "; effect on winning {effect} against the average of its zone (95% interval {elo} to {ehi})":
        "、勝利への効果は場所の平均に対して {effect} (95%区間 {elo} から {ehi})",
    "; no effect on winning in this file (made before simulate gave it: run it again)":
        "、このファイルには勝利への効果がありません (simulate が出力する前のファイルです: もう一度実行してください)",
    "P{n}'s bot stopped: {reason}": "P{n}のボットが止まりました: {reason}",
    # what meeple serve prints
    "replaying {path}": "再生: {path}",
    "{n} players": "{n}人",
    "  every link: {url}": "  全員のリンク: {url}",
    # the browser's refusals and messages
    "nobody chooses here: this table replays a log (fork it to play on)":
        "ここでは誰も選べません: このテーブルはログを再生しています (続けて遊ぶには分岐してください)",
    "it is not your turn": "あなたの番ではありません",
    "the game moved on since this page was made; look again": "このページのあとにゲームが進みました。もう一度見てください",
    "no option {n}": "選択肢{n}はありません",
    "refused: {reason}": "できません: {reason}",
    "cannot undo: {reason}": "取り消せません: {reason}",
    "undo: back to the action menu": "取り消し: アクションの選択に戻る",
    "not found": "見つかりません",
    "no such page: a seat's link is the one meeple serve printed": "そのページはありません: 席のリンクは `meeple serve` が表示したものです",
    "no such step": "その手はありません",
    "this game has steps 0-{n}": "このゲームの手は0-{n}です",
    "not a choice": "選択ではありません",
    "choose with one of your options": "あなたの選択肢から選んでください",
    "not yet": "まだです",
    "the log holds the seed, which tells every hidden card: it is given once the game is over":
        "ログにはすべての非公開カードがわかるシードが含まれるため、ゲーム終了後に渡されます",
    "table view only": "テーブルビュー専用",
    "a scenario holds the seed": "シナリオにはシードが含まれます",
    "fork from the table view": "分岐はテーブルビューから行ってください",
    "too many games": "ゲームが多すぎます",
    "not these bots": "そのボットは使えません",
    "bots: {reason}": "ボット: {reason}",
    "open the link of your seat that meeple serve printed": "`meeple serve` が表示したあなたの席のリンクを開いてください",
    "no such language": "その言語はありません",
    "no language '{asked}': give one of {known}": "言語 '{asked}' はありません: {known} のどれかを指定してください",
    "no such card": "そのカードはありません",
    "no option": "選択肢がありません",
    "help on an option is for the seat choosing, at its choice": "選択肢のヘルプは、選んでいる席がその選択のときに見られます",
    "option {n}": "選択肢{n}",
}

CATALOGUE: dict[str, dict[str, str]] = {"ja": JA}


def say(text: str, lang: str = "en", **values: object) -> str:
    """``text`` (a message as the code writes it, in English) in ``lang``, its
    braces filled with ``values``; its English where it has no translation."""
    out = CATALOGUE.get(lang, {}).get(text, text.rpartition(CONTEXT)[2])
    return out.format(**values) if values else out


def translated(text: str, lang: str) -> bool:
    """Whether ``text`` has its own words in ``lang`` (English always has)."""
    return lang == "en" or text in CATALOGUE.get(lang, {})


def names(text: str) -> dict[str, str]:
    """A message in every language, as a declared ``name:`` is ({'en': ..., 'ja': ...})."""
    return {"en": text.rpartition(CONTEXT)[2], **{lang: table[text] for lang, table in CATALOGUE.items() if text in table}}
