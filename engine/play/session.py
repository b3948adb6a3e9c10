"""Playing, logging and replaying whole games.

A log records the pack, its version, the player count, the seed, the options
and every choice (deciding player, option index, option key): enough to
replay the game exactly, and to notice when a pack change makes it diverge.
It ends with the game's end (rounds, scores, ranking and a sha256 of the
final state), which a replay must reach; the log of a game left before its
end is marked ``unfinished`` and holds where it stopped instead. Its shape is checked before it is
used (``meeple.runtime.logs``, ``schemas/log.schema.json``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Optional

from meeple.core.errors import ContentError, IllegalChoice, MeepleError, Refusal, RuleError, Span
from meeple.runtime.flow import in_game
from meeple.runtime.game import Game
from meeple.runtime.logs import LOG_FORMAT, LogInvalid, check_log, state_sha256
from meeple.runtime.state import State


class ReplayDiverged(MeepleError):
    """A logged game no longer replays the same way."""


def observation(game: Game, st: State, agent, player: int):
    """What an agent gets to decide with: a planning bot a Perspective (samples
    of what its player knows, never the state), others the player's view."""
    if getattr(agent, "needs_state", False):
        from meeple.runtime.redeal import Perspective
        return Perspective(game, st, player)
    return game.view(st, player) if getattr(agent, "needs_view", True) else {}


def _by_count(agent) -> bool:
    """Whether an agent chooses from the number of options alone (no view, no state, no labels)."""
    return not getattr(agent, "needs_state", False) and not getattr(agent, "needs_view", True) \
        and not getattr(agent, "needs_labels", True)


def play(game: Game, players: int, seed: int, agents: list, on_decision: Optional[Callable[[State], None]] = None,
         track: bool = False, options: Optional[dict] = None,
         on_choice: Optional[Callable[[State, object, int], None]] = None,
         on_round: Optional[Callable[[State], None]] = None) -> State:
    """Play a whole game with ``agents``. ``on_choice(st, decision, index)`` is told of
    every choice that stood (not refused), just after it was applied: choice number
    ``len(st.log) - 1``; a later refusal may undo choices already told of, and the
    choice made anew at that number is told of in turn. When every agent chooses
    from the number of options alone (random), the game is played by
    ``Game.play_out`` and ``on_choice`` is told as each choice is taken (counted in
    ``st.choices()``), before its effects run.

    ``on_round(st)`` is told once a round, at the state where the round's first
    decision is asked (before anyone chooses), whichever way the game is played; the
    setup (round 0) is not a round. It costs a random playout one comparison a
    decision, where a hook told of every choice would cost a call (the game-shape
    metrics judge positions so: ``meeple.workbench.metrics``)."""
    st = game.new_state(players, seed, track=track, options=options)
    if on_decision is None and not game.compiled.can_refuse and all(_by_count(a) for a in agents):
        # agents that need neither a view nor labels (random): the rules go on where each
        # decision is asked (Game.play_out), the same game as choice by choice below
        # each seat's ``pick(n)`` (the index among n options) where the agent has one (random:
        # its generator's randrange, no call of ours between), else its ``choose`` of n numbers
        empty: dict = {}
        picks = [getattr(a, "pick", None) or (lambda n, a=a: a.choose(empty, range(n))) for a in agents]

        if on_round is None:
            def choose(dec) -> int:
                return picks[dec.player](len(dec.values))
        else:
            told = [0]          # the last round told of

            def choose(dec) -> int:
                if st.round > told[0]:
                    told[0] = st.round
                    on_round(st)
                return picks[dec.player](len(dec.values))
        game.play_out(st, choose, on_choice)
        return st
    told_round = 0
    while not st.over:
        if on_decision is not None:
            on_decision(st)
        if on_round is not None and st.round > told_round:
            told_round = st.round
            try:
                on_round(st)
            except RuleError as err:        # an evaluation it made broke: told the game's seed and choice
                raise in_game(err, st) from None
        dec = st.pending
        agent = agents[dec.player]
        view = observation(game, st, agent, dec.player)
        allowed = list(range(dec.count()))
        labels = getattr(agent, "needs_labels", True)
        while True:
            # an agent that only counts the options (random) gets their numbers: no keys or labels are made
            try:
                pick = agent.choose(view, [dec.options[i] for i in allowed] if labels else allowed)
            except RuleError as err:        # a bot's evaluation broke: told the game's seed and choice
                raise in_game(err, st) from None
            try:
                game.apply(st, allowed[pick])
                if on_choice is not None:
                    on_choice(st, dec, allowed[pick])
                break
            except Refusal:
                if st.pending is not dec:
                    break            # sent back to the action menu: the agent chooses anew there
                # refused here: choose again among the others
                del allowed[pick]
                if not allowed:
                    raise
    return st


def make_log(game: Game, st: State, seed: int, pack_ref: str, options: Optional[dict] = None) -> dict:
    return {
        "meeple_log": LOG_FORMAT,
        "pack": pack_ref,
        "pack_id": game.id,
        "pack_version": game.pack.info.version,
        "players": st.players,
        "seed": seed,
        "options": dict(options or {}),
        "choices": st.log,
        "rounds": st.round,
        "scores": st.scores,
        "ranking": [r + 1 for r in st.ranking],
        **({"state_sha256": state_sha256(st)} if st.over else {"unfinished": True}),
    }


def write_log(path: str | Path, log: dict) -> None:
    """The log, written whole, or the file as it was (engine/core/outputs.py)."""
    from meeple.core.outputs import write_text
    write_text(path, json.dumps(log, indent=1, ensure_ascii=False) + "\n")


def replay(game: Game, log: dict, on_step: Optional[Callable[[State, list], None]] = None,
           checked: bool = False, same_pack: bool = False) -> State:
    """Re-run a log; raise ReplayDiverged at the first difference.

    The log's shape is checked first (LogInvalid), unless ``checked`` says the
    caller did (``meeple.runtime.logs.read_log``). ``same_pack``: the log must also
    name this pack's id and version (a replay without ``--pack``).
    """
    if not checked:
        check_log(log)
    if same_pack:
        for field, have in (("pack_id", game.id), ("pack_version", game.pack.info.version)):
            if field in log and log[field] != have:
                raise ReplayDiverged(f"the log was made with {log.get('pack_id', '?')} {log.get('pack_version', '?')}, "
                                     f"this is {game.id} {game.pack.info.version}",
                                     hint="replay against another pack with --pack PACK")
    players = log["players"]
    if not game.min_players <= players <= game.max_players:
        raise _invalid(f"/players: {game.id} is for {game.min_players}-{game.max_players} players, not {players}")
    try:
        game.rules.resolve_options(log.get("options") or {})
    except IllegalChoice as err:
        raise _invalid(f"/options: {err.message}", err.hint) from None
    st = game.new_state(players, log["seed"], options=log.get("options") or {})
    for n, (player, index, key) in enumerate(log["choices"], 1):
        dec = st.pending
        if dec is None:
            raise ReplayDiverged(f"choice {n}: the game ended before this choice ({key!r} by P{player + 1})")
        if dec.player != player:
            raise ReplayDiverged(f"choice {n}: the log has P{player + 1} choosing {key!r}, but P{dec.player + 1} is to choose ({dec.prompt})")
        # a log written before keys were stable holds the option's positional key ('white_die#3')
        if index >= dec.count() or (dec.key(index) != key and dec.positional_key(index) != key):
            raise ReplayDiverged(f"choice {n}: option {index} is not {key!r} any more; legal: {', '.join(dec.keys())}")
        if on_step is not None:
            on_step(st, dec.options[index])
        game.apply(st, index)
    unfinished = bool(log.get("unfinished"))       # a game left before its end: replayed as far as it went
    if unfinished and st.over:
        raise ReplayDiverged(f"the log of an unfinished game ends after {len(log['choices'])} choices, but here the game ended")
    if not unfinished and not st.over:
        raise ReplayDiverged(f"the log ends after {len(log['choices'])} choices but the game goes on ({st.pending.prompt} by P{st.pending.player + 1})")
    # a game left before its end is not held to where it stopped: a Ctrl-C amid a bot's
    # choice may have stopped it partway through the last one
    ends = () if unfinished else (("scores", "final scores", st.scores), ("rounds", "rounds played", st.round),
                                  ("ranking", "ranking", [r + 1 for r in st.ranking]))
    for field, what, got in ends:
        if field in log and log[field] != got:
            raise ReplayDiverged(f"{what} differ: log {log[field]}, replay {got}")
    if "state_sha256" in log:
        # hashed with the log's own keys in the state's log: a log written before keys were
        # stable (positional keys) hashed those, and the choices are the same
        made, st.log = st.log, [list(c) for c in log["choices"]]
        try:
            sha = state_sha256(st)
        finally:
            st.log = made
        if log["state_sha256"] != sha:
            raise ReplayDiverged("the final state differs from the logged one (same choices, rounds, scores and ranking): "
                                 f"log {log['state_sha256'][:16]}..., replay {sha[:16]}...")
    return st


def _invalid(message: str, hint: Optional[str] = None) -> LogInvalid:
    return LogInvalid([ContentError(f"invalid log: {message}", Span("<log>", 0, 0), hint)])
