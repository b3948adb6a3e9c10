"""meeple: a rules-as-data engine for modern board games.

A game is a content pack (YAML checked by JSON Schema, rules written in the
effect language, ``meeple.dsl``); this package loads packs, runs games and
plays them, and knows nothing of any one game. Its rooms, each importing only
the ones below it::

    meeple.cli          the command line (click lives here and nowhere else)
    meeple.workbench    many games at once: simulate, compare, reports, statistics
    meeple.authoring    writing packs: scenarios, scaffolds, diff, card text
    meeple.rl           research adapters: PettingZoo environments, OpenSpiel games (optional extras)
    meeple.play         who chooses: agents, planning bots, the terminal, sessions and logs
    meeple.runtime      the compiled game: state, flow, decisions, views, re-deals
    meeple.loading      files to model: YAML with positions, schemas, packs and extensions
    meeple.core.errors, meeple.core.outputs   the error hierarchy; safe reading and writing of files
    meeple.dsl          the effect language (imports nothing above it)

The names below are the public API; they are imported when first used, so that
``import meeple.dsl`` stays light::

    import meeple
    game = meeple.load("PACK")               # a shipped pack's id, or a pack folder
    state = game.new_state(players=4, seed=1)
    while not state.over:
        seat = state.pending.player
        view = game.view(state, seat)          # what that seat may know, and nothing else
        game.apply(state, 0)                   # the first option (an IllegalChoice says why one is refused)
    print(state.scores, state.ranking, game.winners(state))
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from meeple.loading.versions import ENGINE_VERSION as __version__

_PUBLIC = {
    "load": ("meeple.runtime.game", "load_game"),
    "Game": ("meeple.runtime.game", "Game"),
    "State": ("meeple.runtime.state", "State"),
    "make_agents": ("meeple.play.agents", "make_agents"),
    "RandomAgent": ("meeple.play.agents", "RandomAgent"),
    "GreedyAgent": ("meeple.play.bots", "GreedyAgent"),
    "MctsAgent": ("meeple.play.bots", "MctsAgent"),
    "evaluator": ("meeple.play.bots", "evaluator"),
    "play": ("meeple.play.session", "play"),
    "replay": ("meeple.play.session", "replay"),
    "MeepleError": ("meeple.core.errors", "MeepleError"),
    "PackInvalid": ("meeple.core.errors", "PackInvalid"),
    "IllegalChoice": ("meeple.core.errors", "IllegalChoice"),
    "RuleError": ("meeple.core.errors", "RuleError"),
}
__all__ = ["__version__", *_PUBLIC]

if TYPE_CHECKING:
    from meeple.core.errors import IllegalChoice, MeepleError, PackInvalid, RuleError
    from meeple.play.agents import RandomAgent, make_agents
    from meeple.play.bots import GreedyAgent, MctsAgent, evaluator
    from meeple.play.session import play, replay
    from meeple.runtime.game import Game
    from meeple.runtime.game import load_game as load
    from meeple.runtime.state import State


def __getattr__(name: str) -> Any:
    """PEP 562: a public name's module is imported when the name is first read."""
    try:
        module, attr = _PUBLIC[name]
    except KeyError:
        raise AttributeError(f"module 'meeple' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
