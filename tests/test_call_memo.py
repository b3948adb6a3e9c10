"""A pack's function that walks something is evaluated once per set of arguments while
one expression (or one action menu) is evaluated: the evaluation's memo (dsl/gen/walks.py).

The pack below has four gems in its pile, three red and one blue. ``worth(colour)``
counts the gems of a colour in the pile (a walk). The action ``take`` offers a gem of a
colour worth at least 2 (``with``), when ``worth(red) + worth(red)`` is at least 6
(``when``): the three red gems. Without the memo the menu walks the pile six times
(twice for ``when``, once for each of the four gems); with it, twice (red once, for
``when`` and the three rubies alike, the menu's memo serving both; blue once). The walks
are counted as calls of the generated walk's helper, never timed.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from meeple.runtime.game import Game
from small_packs import load_small

GAME = """\
kind: game
players: {min: 1, max: 2}
enums:
  colour: [red, blue]
resources:
  vp: {min: 0}
card_kinds:
  gem:
    starts_in: pile
    fields: {colour: colour}
zones:
  pile: {per: game, visibility: public, holds: gem}
  won: {per: player, visibility: public, holds: gem}
functions:
  worth:
    params: {c: colour}
    value: count(g in pile where g.colour == c)
actions:
  turn:
    - id: take
      when: "WHEN"
      with: g in pile where worth(g.colour) >= 2
      effect: |
        move g to won
        gain 1 vp
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
  - {id: ruby, name: Ruby, colour: red, copies: 3}
  - {id: sapphire, name: Sapphire, colour: blue, copies: 1}
"""


def _game(root: Path, when: str) -> Game:
    return load_small(root, "gems", {"game.yaml": GAME.replace("WHEN", when), "gems.yaml": CARDS})


def _walks_while(fn) -> int:
    """How many times a generated walk's helper (``_a<n>``) runs while ``fn()`` runs."""
    seen = [0]

    def profile(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_filename.startswith("<meeple:") and code.co_name.startswith("_a"):
            seen[0] += 1
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen[0]


@pytest.mark.parametrize("when, offered, walks", [
    # (the action's 'when', gems offered by id, the pile's walks while the menu is made)
    ("worth(red) + worth(red) >= 6", ["ruby", "ruby", "ruby"], 2),   # red (when and with), blue
    ("worth(red) + worth(red) >= 7", [], 1),                          # 3 + 3 < 7: the 'with' is not walked
    ("worth(blue) >= 1", ["ruby", "ruby", "ruby"], 3),    # when's one call is not kept: with walks red, blue
])
def test_a_function_walks_once_for_each_set_of_arguments(tmp_path, when, offered, walks):
    game = _game(tmp_path / "gems", when)
    st = game.new_state(1, 1)
    # the game's first decision is the menu; made again on a copy, its walks are counted
    if offered:
        labels = [game.vocab.card_def_ids[opt[2]] for opt in st.pending.values if opt[2] is not None]
        assert labels == offered
    else:
        assert st.pending is None or not [opt for opt in st.pending.values if opt[2] is not None]
    counted = _walks_while(lambda: game.new_state(1, 1))
    # new_state also walks the pile for the round's 'until' and for end_when (no function:
    # inline, no helper); only the menu's calls of worth run a helper
    assert counted == walks


def test_the_memo_key_tells_the_arguments_apart(tmp_path):
    """Red is worth 3 and blue 1: were the memo keyed wrongly (blue reading red's value),
    the sapphire would be offered too."""
    game = _game(tmp_path / "gems", "true")
    st = game.new_state(1, 1)
    ids = sorted(game.vocab.card_def_ids[opt[2]] for opt in st.pending.values)
    assert ids == ["ruby", "ruby", "ruby"]
