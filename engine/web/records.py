"""A game of a ``meeple simulate --records`` run, played again to be looked at.

A records file has a row per player per game: the game's number, its seed and each
seat's bot (``meeple.workbench.simulate.RecordWriter``). A run's game ``i`` is the game
those bots play from that seed (the same seed gives the same bots and choices), so it
is played again here and its log made; its scores must be the ones recorded, else the
run had other options or another evaluation, and that is said.
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Optional

from meeple.core.errors import MeepleError
from meeple.runtime.game import Game

MAX_BYTES = 256 * 1024 * 1024       # a records file read to find one game


class RecordsMismatch(MeepleError):
    """The records do not name that game, or the game played again scores otherwise."""


def recorded_game(path: str | Path, index: int) -> tuple[int, list[str], list[int]]:
    """Game ``index`` of a records file: its seed, each seat's bot and each seat's score."""
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if not {"game", "game_seed", "seat", "bot", "score"} <= set(reader.fieldnames or ()):
            raise RecordsMismatch(f"{path} is not the records of 'meeple simulate --records' (no game, game_seed, seat, bot, score)")
        for row in reader:
            if row["game"] == str(index):
                rows.append(row)
            elif rows:
                break
    if not rows:
        raise RecordsMismatch(f"{path} has no game {index}")
    rows.sort(key=lambda r: int(r["seat"].lstrip("P")))
    return int(rows[0]["game_seed"]), [r["bot"] for r in rows], [int(r["score"]) for r in rows]


def replayed_log(game: Game, pack_ref: str, path: str | Path, index: int, options: Optional[dict] = None,
                 evaluation: str = "") -> dict:
    """The log of game ``index`` of the records at ``path``, played again with its bots."""
    from meeple.play.agents import make_agents
    from meeple.play.bots import evaluator
    from meeple.play.session import make_log, play
    seed, bots, scores = recorded_game(path, index)
    players = len(bots)
    if not game.min_players <= players <= game.max_players:
        raise RecordsMismatch(f"game {index} of {path} has {players} players; {game.id} is for "
                              f"{game.min_players}-{game.max_players}")
    agents = make_agents(",".join(bots), players, seed, game, evaluator(game, evaluation or None))
    st = play(game, players, seed, agents, options=dict(options or {}))
    if st.scores != scores:
        raise RecordsMismatch(f"game {index} of {path} played again scores {st.scores}, the records {scores}",
                              hint="give the run's --option and --eval, and the pack it was run with")
    return make_log(game, st, seed, pack_ref, options)
