"""'undo' at ``meeple play``'s prompt (engine/play/undo.py): a player takes back their
choices since their last action while it is under way, unless going back could be used
to learn or redraw something: another player has chosen since, something random happened
(the game's generator moved), or a card they could not see came into view, for good or
for a moment."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from answering import first_shown
from golden_games import game_of
from meeple.cli import main
from meeple.play import undo as U
from meeple.play.agents import MenuNumbers
from small_packs import load_small

GEMS = """\
kind: game
players: {min: 2, max: 2}
resources:
  vp: {min: 0}
card_kinds:
  gem:
    starts_in: pile
zones:
  deck: {per: game, visibility: nobody, holds: gem}
  shown: {per: game, visibility: public, holds: gem}
  pile: {per: game, visibility: public, holds: gem}
  won: {per: player, visibility: public, holds: gem}
actions:
  turn:
    - id: take
      effect: |
        choose g from pile "take which"
        move g to won
        gain 1 vp
    - id: peek
      effect: |
        move top(deck) to shown
        move top(shown) to deck
        choose g from pile "take which"
        move g to won
flow:
  setup: |
    let nothing = 0
  round: |
    for each p in players:
        as p:
            play actions turn until size(won) > 0
  end_when: round >= 1
  scoring: |
    let nothing = 0
score:
  resource: vp
"""
CARDS = """\
kind: cards
card_kind: gem
cards:
  - {id: ruby, name: Ruby, copies: 3}
  - {id: sapphire, name: Sapphire, copies: 2, starts_in: deck}
"""


def _state(st) -> str:
    return json.dumps(st.to_json(), sort_keys=True)


def test_a_choice_inside_an_action_is_taken_back_but_not_after_a_card_was_seen(tmp_path):
    """'take' then 'take which': back at the action menu, the state as it was, the log
    without both choices. 'peek' shows the deck's top card and puts it back before the
    same question: the cards lie where they lay, yet the card was seen, so no undo."""
    game = load_small(tmp_path / "gems", "gems", {"game.yaml": GEMS, "gems.yaml": CARDS})
    st = game.new_state(2, 1)
    before = _state(st)
    point = U.undo_point(st)
    game.apply(st, "take")
    assert st.pending.prompt == "take which" and U.why_not(game, st, point, 0) is None
    assert U.why_not(game, st, point, 1) == "nothing to take back"          # not P2's to take back
    U.take_back(st, point)
    assert _state(st) == before and st.log == [] and st.pending.kind == "action"
    point = U.undo_point(st)
    game.apply(st, "peek")
    assert st.loc == point.state.loc            # the card went back: only the replay sees it was shown
    assert U.why_not(game, st, point, 0) == "a card you could not see has come into view since"
    game.apply(st, 0)
    assert U.why_not(game, st, point, 0) == "another player has chosen since" or st.pending.player == 1


REASONS = ("another player has chosen since", "something random has happened since (a roll, a shuffle)")


@pytest.mark.parametrize("pack, players", [("citadels", 3), ("troyes", 2), ("signorie", 2), ("citadels-2016", 4)])
def test_every_undo_allowed_in_random_games_gives_back_the_state_of_its_action(pack, players):
    """At every later choice of P1's in random games, undo to P1's last action choice is
    refused while the action is over (an action menu, or a new round), refused when another player chose since or the
    generator moved, and where it is allowed it gives back exactly the state as the action
    was chosen (its log, its pending menu, every list)."""
    game = game_of(pack)
    allowed = 0
    for seed in range(1, 4):
        st = game.new_state(players, seed)
        rng = random.Random(seed)
        point = None
        while not st.over:
            dec = st.pending
            if dec.player == 0 and point is not None:
                why = U.why_not(game, st, point, 0)
                since = st._log[len(point.state._log):]
                if dec.kind == "action" or st.round != point.state.round:
                    assert why == "the action is over"
                elif any(e[0] != 0 for e in since):
                    assert why == REASONS[0]
                elif st.rng != point.state.rng:
                    assert why == REASONS[1]
                if why is None:
                    copy = st.clone()
                    U.take_back(copy, point)
                    assert _state(copy) == _state(point.state)
                    allowed += 1
            i = rng.randrange(dec.count())
            if dec.kind == "action" and dec.player == 0:
                point = U.undo_point(st)
            game.apply(st, i)
    assert allowed >= 5, allowed


def test_citadels_cards_drawn_from_the_deck_cannot_be_taken_back():
    """Citadels' gather (draw 2, keep 1) shows two cards from the hidden deck: the choice of
    which to keep cannot be undone (the player would redraw knowing them)."""
    game = game_of("citadels")
    found = 0
    for seed in range(1, 4):
        st = game.new_state(3, seed)
        rng = random.Random(seed)
        point = None
        while not st.over and found < 3:
            dec = st.pending
            if dec.player == 0 and point is not None and dec.prompt == "keep a district":
                assert U.why_not(game, st, point, 0) == "a card you could not see has come into view since"
                found += 1
            i = rng.randrange(dec.count())
            if dec.kind == "action" and dec.player == 0:
                point = U.undo_point(st) if dec.key(i).startswith("draw_cards") else None
            game.apply(st, i)
    assert found == 3


def _answering_undo_inside_an_action(undo: str):
    """``meeple play`` answers: the first number shown, except ``undo`` at the first prompt
    (nothing to take back) and at P1's first choice inside an action; what was asked."""
    asked: list = []
    numbers = MenuNumbers.numbers

    def remember(self, dec):
        asked.append((dec.kind, dec.prompt, numbers(self, dec)))
        return asked[-1][2]

    typed = {"first": True, "inside": True}

    def ask(prompt: str) -> str:
        kind = asked[-1][0]
        if typed["first"]:
            typed["first"] = False
            return undo
        if kind != "action" and len(asked) > 1 and asked[-2][0] == "action" and typed["inside"]:
            typed["inside"] = False
            return undo
        return str(min(asked[-1][2]))
    return asked, remember, ask


@pytest.mark.parametrize("lang, undo", [("en", "undo"), ("ja", "取り消し")])
def test_undo_at_the_prompt_goes_back_to_the_action_menu(tmp_path, lang, undo):
    """At the terminal: 'undo' (取り消し in Japanese) with nothing to take back says so; typed
    at the first choice inside an action it says P1 took it back and asks the action menu
    again, with the same numbers; the game plays on and its log replays."""
    from unittest import mock
    from meeple.cli import games
    from meeple.core.catalogue import say
    asked, remember, ask = _answering_undo_inside_an_action(undo)
    log = tmp_path / "game.json"
    with mock.patch.object(MenuNumbers, "numbers", remember), mock.patch.object(games, "_ask", ask):
        r = CliRunner().invoke(main, ["play", "troyes", "-p", "2", "--seed", "1", "--bots", "human,random",
                                      "--log", str(log), "--lang", lang], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert say("  cannot undo: {reason}", lang, reason=say("nothing to take back", lang)) in r.output
    assert say("  P{p} took back the choices since their last action", lang, p=1) in r.output
    at = next(i for i in range(1, len(asked)) if asked[i][0] != "action" and asked[i - 1][0] == "action")
    assert asked[at + 1][:2] == asked[at - 1][:2] and asked[at + 1][2] == asked[at - 1][2]     # the same menu again
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0 and ": identical" in replayed.output, replayed.output
