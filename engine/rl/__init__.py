"""Research adapters: every meeple game as a PettingZoo environment and an OpenSpiel game.

``meeple.rl.env(pack, players, **options)`` makes a PettingZoo AEC environment
(``meeple[rl]``: pettingzoo, gymnasium, numpy); importing ``meeple.rl.spiel``
registers the OpenSpiel game ``python_meeple`` (``meeple[spiel]``). Both read a
seat's view only (``meeple.rl.observe``: the vector of the view, read through the
seat's sight, ``meeple.rl.reading``) and name options through the pack's action
catalogue (``meeple.rl.catalogue``). The learning libraries are imported here and
nowhere else in meeple (an import-linter contract in pyproject.toml).
"""
from __future__ import annotations

from typing import Any, Optional


def make_table(pack: Any, players: int, actions: str = "keys", catalogue: Optional[str] = None,
               max_decisions: Optional[int] = None):
    """The game (a pack id or folder, or a loaded ``Game``) with its catalogue, observation
    layout and decision limit (``meeple.rl.table``)."""
    from meeple.rl.catalogue import for_game
    from meeple.rl.table import Table
    from meeple.runtime.game import Game, load_game
    game = pack if isinstance(pack, Game) else load_game(pack)
    return Table(game, players, for_game(game, catalogue), actions, max_decisions)


def env(pack: Any, players: int, *, actions: str = "keys", reward: str = "win", catalogue: Optional[str] = None,
        render_mode: Optional[str] = None, max_decisions: Optional[int] = None, **options: Any):
    """A PettingZoo AEC environment of ``pack`` for ``players``; keyword ``options`` are the
    pack's own (``meeple play --option``). ``actions``: "keys" (the catalogue, the default)
    or "index" (menu positions); ``reward``: "win" (the share of the win) or "score" (the
    final score less the best other's); ``catalogue``: a catalogue file for a pack that has
    none stored; ``max_decisions``: the decisions after which an unfinished game is
    truncated (default and most: the pack's own limit)."""
    from meeple.rl.aec import MeepleEnv
    return MeepleEnv(make_table(pack, players, actions, catalogue, max_decisions), options, reward, render_mode)
