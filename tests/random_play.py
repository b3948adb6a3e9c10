"""Random games with checks along the way, shared by the conformance test and
the packs' own random-game tests.

Why one module: the invariants every game must keep whatever its rules (each
card in exactly one place, resources within their declared bounds, clone and
JSON round-trip faithful, a finished game with one score per player) are
written here once; a pack's test file adds only what is true of that game
(66 districts, one crown holder, 12 citizens a player, ...).
"""
from __future__ import annotations

import json
import random
from typing import Any, Callable, Optional

from meeple.runtime.game import Game
from meeple.runtime.state import State

Check = Callable[[State], None]
Chooser = Callable[[State], int]      # the index of the option to take in st.pending


def generic_invariants(game: Game, st: State) -> None:
    """What is true of every state of every game: each card id is in exactly
    one zone slot, exactly once, and ``st.loc`` names that slot; every player's
    resources are within the bounds the pack declares; a game not over waits
    on a decision with options for one of its players."""
    seen = sorted(c for zone in st.zones for c in zone)
    assert seen == list(range(game.ncards)), "every card is in exactly one zone, exactly once"
    for slot, zone in enumerate(st.zones):
        for c in zone:
            assert st.loc[c] == slot, f"card {game.vocab.card_def_ids[c]} is in slot {slot} but loc says {st.loc[c]}"
    assert len(st.res) == st.players * game.vocab.nres
    for p in range(st.players):
        for r in range(game.vocab.nres):
            v, lo, hi = st.res[p * game.vocab.nres + r], game.vocab.res_min[r], game.vocab.res_max[r]
            assert (lo is None or v >= lo) and (hi is None or v <= hi), \
                f"P{p + 1} has {v} {game.vocab.res_names[r]}, outside [{lo}, {hi}]"
    if not st.over:
        assert st.pending is not None and st.pending.options, "a game not over waits on a decision with options"
        assert 0 <= st.pending.player < st.players, f"decision for P{st.pending.player + 1} in a {st.players}-player game"


def difference(a: State, b: State) -> str:
    """The parts of two states' JSON that differ (for a readable failure)."""
    ja, jb = a.to_json(), b.to_json()
    return ", ".join(k for k in ja if ja[k] != jb.get(k)) or "nothing"


def round_trips(game: Game, st: State) -> None:
    """clone() and the JSON round-trip give states equal to ``st``."""
    clone = st.clone()
    assert clone == st, f"clone() differs from the state in: {difference(st, clone)}"
    thawed = State.from_json(game, json.loads(json.dumps(st.to_json())))
    assert thawed == st, f"the JSON round-trip differs from the state in: {difference(st, thawed)}"


def finished(st: State) -> None:
    """A finished game has one score per player and ranks every player once."""
    assert st.over and st.pending is None
    assert len(st.scores) == st.players, "one score per player"
    assert sorted(st.ranking) == list(range(st.players)), "the ranking holds every player once"


def seeded(seed: int) -> Chooser:
    """The random chooser every stored and benchmarked game uses."""
    rng = random.Random(seed)
    return lambda st: rng.randrange(len(st.pending.options))


def play_checked(game: Game, players: int, seed: int, check: Optional[Check] = None, options: Optional[dict[str, Any]] = None,
                 every: int = 1, limit: int = 8000, choose: Optional[Chooser] = None,
                 round_trip_every: Optional[int] = None) -> State:
    """Play a game to its end (random choices seeded by ``seed`` unless
    ``choose`` is given). The generic invariants are checked after every step
    (they cost ~0.1 ms); ``check`` (the game's own, ~0.05 ms) every ``every``
    steps, and the clone and JSON round-trips (~1.5 ms on a big Citadels state)
    every ``round_trip_every`` steps (``every`` unless given); all of them at the
    end. Fails if the game takes ``limit`` decisions or more."""
    st = game.new_state(players, seed, options=options)
    choose = choose or seeded(seed)
    trips = round_trip_every or every
    step = 0
    while not st.over:
        generic_invariants(game, st)
        if check and step % every == 0:
            check(st)
        if step % trips == 0:
            round_trips(game, st)
        game.apply(st, choose(st))
        step += 1
        assert step < limit, f"the game does not end within {limit} decisions"
    generic_invariants(game, st)
    if check:
        check(st)
    round_trips(game, st)
    finished(st)
    return st


def play_plain(game: Game, players: int, seed: int, options: Optional[dict[str, Any]] = None, limit: int = 20000) -> State:
    """A seeded random game with no checks (for comparing logs)."""
    st = game.new_state(players, seed, options=options)
    choose = seeded(seed)
    while not st.over:
        game.apply(st, choose(st))
        assert len(st.log) < limit, f"the game does not end within {limit} decisions"
    return st
