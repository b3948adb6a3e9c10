"""Copy-on-write zone lists (State.clone shares them; meeple.dsl.types.own_zone copies).

Why: a planning bot clones the state for every option it tries, and copying
50-170 zone lists was half of a clone. Sharing them is only safe if every
write copies a list its state does not own first: a write missed anywhere
lets a bot's planning move the real game's cards, silently. So every form
of write is tried on a clone and on its original, and
real bots' decisions are checked to leave the real state as it was.
"""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from meeple.dsl.errors import Refusal
from meeple.play.bots import GreedyAgent, MctsAgent, Perspective, evaluator
from meeple.runtime.redeal import Redeal
from meeple.core.errors import Problems
from meeple.runtime.game import Game
from meeple.loading.folders import shipped_packs
from meeple.loading.pack import read_pack
from meeple.authoring.starts import Start
from golden_games import game_of

MINIMAL = Path(__file__).parent / "content" / "valid" / "minimal"

# each statement is the whole effect of the minimal pack's 'pass' action; setup deals
# every player 2 cards, so the hands and the deck all hold cards when it runs
WRITES = {
    "move to the top": "move top(deck) to hand",
    "move a whole zone": "move deck to hand",
    "move to the bottom": "move top(deck) to bottom of hand",
    "move within a zone to the bottom": "move top(hand) to bottom of hand",
    "draw": "draw 2 from deck to hand",
    "draw to the bottom": "draw 2 from deck to bottom of hand",
    "shuffle": "shuffle deck",
    "swap": "swap hand with hand of next_player(me)",
    # a list owned before the swap moves with its flag: written after it, in place or copied as it should
    "swap after a write": "move top(deck) to hand; swap hand with hand of next_player(me); move top(deck) to hand",
}


def _pack(tmp: Path, statement: str) -> Game:
    root = tmp / "pack"
    shutil.copytree(MINIMAL, root)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("  setup: |\n    shuffle deck\n",
                        "  setup: |\n    shuffle deck\n    for each p in players:\n        draw 2 from deck to hand of p\n")
    text = text.replace("      name: Pass\n      effect: |\n",
                        "      name: Pass\n      effect: |\n" + "".join(f"        {line}\n" for line in statement.split("; ")))
    (root / "game.yaml").write_text(text, encoding="utf-8")
    problems = Problems()
    pack = read_pack(root, problems)
    assert pack is not None and not problems.errors, [e.message for e in problems.errors]
    game = Game(pack, problems)
    assert not problems.errors, [e.message for e in problems.errors]
    return game


def _zones(st) -> list:
    return [z[:] for z in st.zones]


def _pass(game: Game, st) -> None:
    game.apply(st, "pass")


def _arrange(game: Game, st) -> None:
    """A scenario's start block: player 1's hand set to the deck's two top cards."""
    deck = st.zones[game.vocab.zone_base[game.vocab.zone_index["deck"]]]
    ids = [game.vocab.card_def_ids[c] for c in deck[-2:]]
    Start(game, None, (), {"players": {1: {"hand": ids}}})(st)


def _deal(game: Game, st) -> None:
    """A planning bot's sample: player 1's hidden cards (the deck, the others' hands) dealt again."""
    Redeal(game, st, 0).deal(st, random.Random(4))


FORMS = [(name, statement, _pass) for name, statement in WRITES.items()] + \
        [("scenario arrange", "set passed = true", _arrange), ("the deal of a sample", "set passed = true", _deal)]


@pytest.mark.parametrize("name, statement, write", FORMS, ids=[f[0] for f in FORMS])
def test_a_write_on_a_clone_or_its_original_leaves_the_other_as_it_was(tmp_path, name, statement, write):
    game = _pack(tmp_path, statement)
    alone = game.new_state(2, 3)        # the same write on a state that shares nothing: what both must give
    write(game, alone)
    expected = json.dumps(alone.to_json())
    # written on the clone: the original is as it was (and the clone did change, as alone did)
    st = game.new_state(2, 3)
    before = json.dumps(st.to_json())
    clone = st.clone()
    write(game, clone)
    assert json.dumps(st.to_json()) == before
    assert json.dumps(clone.to_json()) == expected
    assert _zones(clone) != _zones(st), f"{name}: the write changed no zone (the case tests nothing)"
    # written on the original: the clone is as it was
    st = game.new_state(2, 3)
    clone = st.clone()
    before = json.dumps(clone.to_json())
    write(game, st)
    assert json.dumps(clone.to_json()) == before
    assert json.dumps(st.to_json()) == expected
    # a clone of a clone: writing on the middle one leaves both others be
    st = game.new_state(2, 3)
    middle = st.clone()
    last = middle.clone()
    first, kept = json.dumps(st.to_json()), json.dumps(last.to_json())
    write(game, middle)
    assert json.dumps(st.to_json()) == first and json.dumps(last.to_json()) == kept
    # and every card lies where its state says, in each of them
    for s in (st, middle, last):
        for c, slot in enumerate(s.loc):
            assert s.zones[slot].count(c) == 1


def test_a_new_state_owns_its_lists_and_a_clone_leaves_both_owning_none():
    game = game_of("citadels")
    st = game.new_state(4, 1)
    assert set(st.own) == {1} and len(st.own) == len(st.zones)
    clone = st.clone()
    assert set(st.own) == {0} and set(clone.own) == {0}
    assert all(a is b for a, b in zip(st.zones, clone.zones)) and st.zones is not clone.zones
    game.apply(clone, 0)        # the clone's writes copy what they write: the rest stays shared
    copied = [slot for slot, z in enumerate(clone.zones) if z is not st.zones[slot]]
    assert copied and sorted(copied) == [slot for slot, o in enumerate(clone.own) if o]
    assert set(st.own) == {0}


def test_a_restore_shares_the_lists_and_owns_none():
    game = game_of("citadels")
    st = game.new_state(3, 1)
    copy = st.clone()
    game.apply(st, 0)
    st.restore(copy)
    assert st == copy and st.zones is not copy.zones
    assert set(st.own) == {0} and set(copy.own) == {0}
    game.apply(st, 0)
    assert st != copy
    # its zones are as they were (restore adopts the copy's other lists as they are: the
    # copy is done with; the zone lists it shares no more are written in place)
    assert _zones(copy) == _zones(game.new_state(3, 1))


# ---- real bots: their planning never reaches the real state

BOT_CASES = [(pack, n) for pack in shipped_packs() for n in sorted({2, game_of(pack).max_players})]
CHOICES = 60       # the first choices of each game (the bots' decisions among them)


class _Watched:
    """An agent whose every choice is checked to leave the real state as it was."""

    def __init__(self, inner, game: Game):
        self.inner, self.game, self.decisions = inner, game, 0

    def choose(self, st, dec) -> int:
        before = json.dumps(st.to_json())
        pick = self.inner.choose(Perspective(self.game, st, dec.player), list(range(dec.count())))
        assert json.dumps(st.to_json()) == before, f"{type(self.inner).__name__}'s planning changed the real state"
        self.decisions += 1
        return pick


@pytest.mark.parametrize("pack, players", BOT_CASES, ids=[f"{p}-{n}p" for p, n in BOT_CASES])
def test_a_planning_bots_choice_leaves_the_real_state_as_it_was(pack, players):
    game = game_of(pack)
    value = evaluator(game)
    bots = {0: _Watched(GreedyAgent(1, value), game), 1: _Watched(MctsAgent(1, value, iterations=10), game)}
    st = game.new_state(players, 5)
    rng = random.Random(5)
    while not st.over and st.choices() < CHOICES:
        dec = st.pending
        bot = bots.get(dec.player)
        allowed = list(range(dec.count()))
        pick = bot.choose(st, dec) if bot is not None else rng.randrange(len(allowed))
        while True:
            try:
                game.apply(st, allowed[pick])
                break
            except Refusal:
                if st.pending is not dec:
                    break
                del allowed[pick]
                pick = rng.randrange(len(allowed))
    assert bots[0].decisions > 0 and bots[1].decisions > 0
