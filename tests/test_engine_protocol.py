"""The decision protocol: views hide what a player may not see; illegal
choices are refused with a reason and leave the state untouched; logs
replay exactly; the runtime holds no game-specific code."""
import json
import random
import re
from pathlib import Path

import pytest

from meeple.core.errors import IllegalChoice
from meeple.play.session import ReplayDiverged, make_log, replay
from golden_games import game_of

GAME = game_of("citadels")
ROOT = Path(__file__).resolve().parent.parent


def advance_to_turns(seed=4, players=4):
    st = GAME.new_state(players, seed)
    while st.pending.kind != "action":
        GAME.apply(st, 0)
    return st


def test_view_hides_other_hands_characters_and_deck_order():
    st = advance_to_turns()
    me = st.pending.player
    v = GAME.view(st, me)
    other = (me + 1) % st.players
    assert isinstance(v["zones"][f"hand/P{me + 1}"], list)
    assert v["zones"][f"hand/P{other + 1}"] == {"hidden": len(st.zones[GAME.vocab.zone_base[GAME.vocab.zone_index['hand']] + other])}
    assert set(v["zones"]["deck"]) == {"hidden"}
    assert set(v["zones"]["face_down_aside"]) == {"hidden"}
    assert isinstance(v["zones"]["face_up_aside"], list) and len(v["zones"]["face_up_aside"]) == 2
    # face-down characters of players not yet called stay hidden from others
    for p in range(st.players):
        z = v["zones"][f"picked/P{p + 1}"]
        assert isinstance(z, list) if p == me else z == {"hidden": len(st.zones[GAME.vocab.zone_base[GAME.vocab.zone_index['picked']] + p])}
    # only the decider sees the options
    assert "options" in v["decision"]
    assert "options" not in GAME.view(st, other)["decision"]


def test_illegal_choice_is_refused_with_reason_and_state_untouched():
    st = advance_to_turns()
    before = st.to_json()
    with pytest.raises(IllegalChoice) as info:
        GAME.apply(st, "end_turn")
    assert info.value.message == "gather resources (2 gold or districts) before ending your turn"
    assert st.to_json() == before
    with pytest.raises(IllegalChoice) as info:
        GAME.apply(st, "take_glod")
    assert "legal:" in info.value.message and "did you mean 'take_gold'" in info.value.message
    assert st.to_json() == before
    with pytest.raises(IllegalChoice):
        GAME.apply(st, 999)
    assert st.to_json() == before
    GAME.apply(st, "take_gold")          # and the game goes on


def play(seed, players=4):
    st = GAME.new_state(players, seed)
    rng = random.Random(seed)
    while not st.over:
        GAME.apply(st, rng.randrange(len(st.pending.options)))
    return st


def test_log_replays_exactly_and_divergence_is_reported():
    st = play(21)
    log = json.loads(json.dumps(make_log(GAME, st, 21, "citadels")))
    again = replay(GAME, log)
    assert again == st
    log["choices"][5][2] = "not-a-key"
    with pytest.raises(ReplayDiverged, match="choice 6"):
        replay(GAME, log)


# The shipped games' vocabulary (Citadels, Troyes, Signorie): none of it may appear
# in engine/ or dsl/, docstrings, comments and messages included; examples there
# use engine words (zone, card, hand, coins, score, pawn).
GAME_WORDS = (
    "gold", "city", "cities", "district", "citizen", "palace", "florin", "denier", "cathedral", "character",
    "crown", "assassin", "thief", "thieves", "magician", "king", "bishop", "bishopric", "merchant", "architect",
    "warlord", "troyes", "signorie", "signoria", "signori", "citadel", "marriage", "offspring", "alliance",
)
# Whole words, case-insensitive, a plural allowed; '_' and digits separate words
# (palace_1, city_size), so 'king' is found in 'king_1' but not in 'taking'.
GAME_WORD = re.compile(r"(?<![a-z])(?:" + "|".join(GAME_WORDS) + r")(?:s|es)?(?![a-z])", re.I)
# Names a third-party library chose, which the code must spell as they are.
FOREIGN_NAMES = ("exc.character", "found character")   # PyYAML's ReaderError attribute and scanner messages


def game_words(text: str) -> list[tuple[int, str]]:
    hits = []
    for number, line in enumerate(text.splitlines(), 1):
        for name in FOREIGN_NAMES:
            line = line.replace(name, "")
        hits += [(number, m.group(0)) for m in GAME_WORD.finditer(line)]
    return hits


def test_game_word_matching():
    assert game_words("taking, ranking, making, seeking; Kingdom; goldfish; velocity; Bishopsgate") == []
    assert game_words("the King\npalace_1, city_size=8, 'gold of p', Citadels, thieves\nraise exc.character") == [
        (1, "King"), (2, "palace"), (2, "city"), (2, "gold"), (2, "Citadels"), (2, "thieves")]


def test_no_game_words_in_engine_or_dsl():
    hits = []
    for folder in ("engine", "dsl"):
        for f in sorted((ROOT / folder).rglob("*")):
            if f.suffix in (".py", ".lark"):
                hits += [f"{f.relative_to(ROOT).as_posix()}:{line}: {word!r}"
                         for line, word in game_words(f.read_text(encoding="utf-8"))]
    assert not hits, "game words in the engine or the language:\n" + "\n".join(hits)
