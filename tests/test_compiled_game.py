"""A compiled game is left as loading made it: playing, viewing, re-dealing for a
planning bot and scoring write nothing onto the ``Game`` or the parts composed with it
(what they work out once, such as what each seat cannot see, lives in
``game.observer.knowledge``), and a write onto any of them once it is built is
refused. So one compiled game can be shared by every game played with it, as
``simulate`` shares it.
"""
from __future__ import annotations

import random
from dataclasses import FrozenInstanceError

import pytest

from meeple.play.agents import make_agents
from meeple.play.session import observation
from meeple.runtime.game import load_game

PACKS = ["citadels", "troyes", "signorie"]


PARTS = ["vocab", "rules", "observer", "action_menus", "layout", "compiled"]


def _attributes(game) -> dict:
    """The identity of every attribute of the game and of each of its parts."""
    out = {name: id(value) for name, value in vars(game).items()}
    for part in PARTS:
        out.update({f"{part}.{name}": id(value) for name, value in vars(getattr(game, part)).items()})
    return out


@pytest.mark.parametrize("pack", PACKS)
def test_playing_viewing_and_planning_write_nothing_onto_the_game(pack):
    game = load_game(pack)
    before = _attributes(game)
    players = game.min_players
    agents = make_agents("greedy" + ",random" * (players - 1), players, seed=3, game=game)
    st = game.new_state(players, 3)
    rng = random.Random(3)
    decisions = 0
    while not st.over and decisions < 60:        # enough for views, re-deals and scoring to be asked for
        seat = st.pending.player
        for p in range(players):
            game.view(st, p)
        agent = agents[seat]
        index = agent.choose(observation(game, st, agent, seat), list(range(st.pending.count()))) \
            if seat == 0 else rng.randrange(st.pending.count())
        game.apply(st, index)
        decisions += 1
    assert decisions == 60 or st.over
    assert _attributes(game) == before
    assert game.observer.knowledge.hidden_slots(0) == game.observer.hidden_slots_of(0)


@pytest.fixture(scope="module")
def troyes():
    return load_game("troyes")


@pytest.mark.parametrize("part, name", [
    ("", "id"),                     # the game's own
    ("", "codes"),                  # a table the running rules read
    ("", "cache"),                  # a new attribute
    ("rules", "can_refuse"),
    ("rules", "cache"),
    ("observer", "hidden_vars"),
    ("action_menus", "vocab"),
    ("vocab", "res_names"),
    ("vocab", "result"),
    ("layout", "nslots"),
    ("compiled", "menus"),
])
def test_a_write_onto_a_built_game_or_its_parts_is_refused(troyes, part, name):
    target = getattr(troyes, part) if part else troyes
    before = dict(vars(target)) if hasattr(target, "__dict__") else None
    with pytest.raises(FrozenInstanceError):
        setattr(target, name, None)
    if hasattr(target, name):
        with pytest.raises(FrozenInstanceError):
            delattr(target, name)
    assert dict(vars(target)) == before

