"""The observation vector read through a seat's sight (meeple.rl.reading) is the vector of
the seat's view (Layout.encode of game.view), bit for bit: at every step of random games
of every shipped pack at its smallest and largest player counts, for every seat; and the
vectors the PettingZoo environment hands out in a game (each read from what changed since
that seat's last one) are the view's and the first reader's (``read_old``, all read at
once) alike. The comparison is shown able to fail: readers with a mistake planted (a hidden
hand counted, the dice's values ignored, the variables read once and kept, the cards'
moves missed) are caught by it."""
from __future__ import annotations

import random
from typing import Optional

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install -e '.[rl]') is not installed")

import meeple.rl as rl  # noqa: E402
from meeple.loading.folders import shipped_packs  # noqa: E402
from golden_games import game_of  # noqa: E402

PACKS = sorted(shipped_packs())
COUNTS = [(p, n) for p in PACKS for n in sorted({game_of(p).min_players, game_of(p).max_players})]


def first_difference(table, seeds) -> Optional[str]:
    """Where the read vector first differs from the view's (None: nowhere), every seat at
    every step of a random game for each seed."""
    game = table.game
    for seed in seeds:
        st = game.new_state(table.players, seed)
        rng = random.Random(seed)
        step = 0
        while True:
            for seat in range(table.players):
                read, seen = table.observe(st, seat), table.observe_view(st, seat)
                if read.dtype != seen.dtype or not np.array_equal(read, seen):
                    at = np.flatnonzero(read != seen)
                    return f"seed {seed} step {step} seat P{seat + 1}: places {list(at[:8])} read {read[at[:8]]} view {seen[at[:8]]}"
            if st.over:
                break
            game.apply(st, rng.randrange(st.pending.count()))
            step += 1
    return None


@pytest.mark.parametrize("pack, players", COUNTS, ids=[f"{p}-{n}" for p, n in COUNTS])
def test_the_read_vector_is_the_views(pack, players):
    assert first_difference(rl.make_table(game_of(pack), players), range(2)) is None


@pytest.mark.slow
@pytest.mark.parametrize("pack, players", COUNTS, ids=[f"{p}-{n}" for p, n in COUNTS])
def test_the_read_vector_is_the_views_in_many_games(pack, players):
    assert first_difference(rl.make_table(game_of(pack), players), range(2, 32)) is None


def test_the_read_vector_is_the_views_past_256_zone_slots():
    """A game of more zone slots than a byte numbers reads its cards' moves another way
    (``SeatReader._moved_far``); no shipped pack has one (Troyes: 173), so the readers of
    one are told to read as if it had."""
    table = rl.make_table(game_of("citadels"), 3)
    for reader in table.readers.seats:
        reader.nslots = 300
    assert first_difference(table, range(2)) is None


def hand_counted(table) -> None:
    """Seat P1's reader counts P2's hand, which P1 does not see."""
    readers = table.readers.seats
    slot = next(z.slot for z in readers[1].sight.zones if z.label == "hand/P2")
    mine, theirs = (r.placed.reshape(-1, r.ncards) for r in readers[:2])
    mine[slot] = theirs[slot]
    readers[0].placed_at = readers[0].placed.tolist()


def dice_unread(table) -> None:
    for reader in table.readers.seats:
        reader.dice = []


def variables_kept(table) -> None:
    """The variables read from the first state and never again."""
    table.readers.seats[0].scalars.patch = lambda st, read, out: None


def moves_missed(table) -> None:
    """The cards counted where they lay at the first read, whatever moved since."""
    for reader in table.readers.seats:
        reader._moved = lambda st: []


@pytest.mark.parametrize("pack, players, mistake", [("citadels", 3, hand_counted), ("troyes", 2, dice_unread),
                                                    ("signorie", 2, variables_kept), ("citadels", 2, moves_missed)],
                         ids=["a-hidden-hand-counted", "dice-values-ignored", "variables-kept", "moves-missed"])
def test_the_comparison_catches_a_reader_gone_wrong(pack, players, mistake):
    table = rl.make_table(game_of(pack), players)
    assert first_difference(table, [0]) is None
    mistake(table)
    assert first_difference(table, range(2)) is not None


def env_difference(pack: str, players: int, seed: int) -> Optional[str]:
    """Where an observation the environment hands out in a masked random game first differs
    from the view's vector or the first reader's (None: nowhere). Only the seat deciding is
    observed, as a learner's loop does: each seat's vector is read from what changed over
    the other seats' turns since its last."""
    env = rl.env(game_of(pack), players)
    env.reset(seed=seed)
    table, rng = env.table, random.Random(seed)
    for step, agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        seat = env.possible_agents.index(agent)
        got, view, old = obs["observation"], table.observe_view(env.state, seat), table.readers.seats[seat].read_old(env.state)
        for name, want in (("view", view), ("read_old", old)):
            if got.dtype != want.dtype or not np.array_equal(got, want):
                at = np.flatnonzero(got != want)
                return f"step {step} {agent}: places {list(at[:8])} env {got[at[:8]]} {name} {want[at[:8]]}"
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return None


@pytest.mark.parametrize("pack, players", COUNTS, ids=[f"{p}-{n}" for p, n in COUNTS])
def test_the_environments_observations_are_the_views(pack, players):
    assert env_difference(pack, players, 5) is None
