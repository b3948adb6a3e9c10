"""The research adapters against the bare engine: steps a second through the PettingZoo
environment beside the bare random loop's decisions a second, with each pack's observation
size, action count and build time; optionally OpenSpiel's ISMCTS against meeple's mcts.

A script, not a test: ``python benchmarks/rl.py [--games N] [--players smallest|largest] [PACK ...]``,
``python benchmarks/rl.py --floor [--games N] [--players ...] [PACK ...]`` and
``python benchmarks/rl.py --versus [--games N] [--sims N] [PACK ...]``.

- bare: ``game.apply(st, rng.randrange(n))`` until the game ends (no view, no keys);
- env: ``env.last()`` (the observation vector and mask from the seat's view) and
  ``env.step`` of a masked random choice (``random.randrange`` over the mask's legal
  actions, the bare loop's draw), for every decision (the loop a learner runs); the legal
  actions are found as ``mask.view(bool).nonzero()[0]`` (the int8 mask read as bools: numpy
  finds a bool array's nonzero entries in 0.8 us over Troyes' 4,282 actions, an int8
  array's, as ``np.flatnonzero`` does, in 6-7 us);
- the two loops take turns, one game each for each seed, and each is timed by the
  process's own CPU time (``time.process_time``): on a machine shared with other work
  the time spent waiting for a core is not counted, and a change of load between the
  loops falls on both;
- before each pack's loops, what is loaded so far is frozen out of the garbage collector's
  reach (``gc.freeze``): a full collection scanning every pack loaded would otherwise fall in
  whichever loop it happens to, and halve that loop's rate (Signorie's bare loop read 24,646
  decisions a second against about 70,000 alone: a ratio of 0.86 that was not real);
- floor: how quick a step could be, in us a step: the bare loop, the environment, the
  environment with its observation vector free (a copy of a fixed vector handed out, the
  menu, mask, masked draw and PettingZoo's bookkeeping as they are), and with the menu and
  mask free as well (the option drawn by position, as the bare loop draws it, and applied
  without a catalogue); then what each leaves, at half the bare rate, for what it made free
  (``2 * bare - step``: none when the step is slower than that already). The four loops take
  turns game by game in one process;
- build: making the environment of a loaded pack (its catalogue read, its layout and
  each seat's observation reader made);
- versus: OpenSpiel's ISMCTSBot (``--sims`` simulations a decision, leaves judged by a
  12-decision random playout and the pack's evaluation, ``meeple.rl.spiel.PlayoutEvaluator``)
  in seat P1 against meeple's ``mcts:SIMS`` in every other seat (the same budget and the same
  leaf judgement), ``--games`` games of two players; the win shares are reported, and no
  strength is claimed from so few games.
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from checkout import use  # noqa: E402

use(ROOT)          # this checkout's meeple, not an installed one

import numpy as np  # noqa: E402

import meeple.rl as rl  # noqa: E402
from meeple.runtime.game import load_game  # noqa: E402

PACKS = ("citadels", "citadels-2016", "citadels-dark-city", "troyes", "signorie")


def bare_game(game, players: int, seed: int) -> int:
    """One game of the bare random loop; its decisions."""
    n = 0
    st = game.new_state(players, seed)
    rng = random.Random(seed)
    while not st.over:
        game.apply(st, rng.randrange(st.pending.count()))
        n += 1
    return n


def env_game(env, seed: int, by_position: bool = False) -> int:
    """One game through the environment, a masked random policy choosing; its steps.
    ``by_position``: the option drawn by position from the decision's count instead (the
    bare loop's draw), for an environment whose menu and mask are made free (``floor``)."""
    n = 0
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if by_position:
            env.step(rng.randrange(env.state.pending.count()))
        else:
            legal = obs["action_mask"].view(bool).nonzero()[0]     # numpy's quick path: a bool array's nonzero
            env.step(int(legal[rng.randrange(len(legal))]))
        n += 1
    return n


def rates(game, env, players: int, games: int) -> tuple[float, float]:
    """Decisions a second of the bare loop and steps a second through the environment,
    the two taking turns game by game, in process time."""
    clock = time.process_time
    counts, spent = [0, 0], [0.0, 0.0]
    for seed in range(games):
        t = clock()
        counts[0] += bare_game(game, players, seed)
        spent[0] += clock() - t
        t = clock()
        counts[1] += env_game(env, seed)
        spent[1] += clock() - t
    return counts[0] / spent[0], counts[1] / spent[1]


def speeds(packs, games: int, which: str) -> None:
    print(f"{'pack':20} {'players':>7} {'obs size':>8} {'actions':>7} {'build s':>7} {'bare dec/s':>10} {'env steps/s':>11} {'ratio':>5}")
    for name in packs:
        game = load_game(name)
        players = game.min_players if which == "smallest" else game.max_players
        t = time.perf_counter()
        env = rl.env(game, players)
        built = time.perf_counter() - t
        # what was loaded before (every earlier pack, this one's compilation) moved to the
        # collector's permanent generation: a full collection scanning it would land in one
        # loop's few milliseconds or the other's, halving that loop's rate for the last packs
        gc.collect()
        gc.freeze()
        b, e = rates(game, env, players, games)
        print(f"{name:20} {players:>7} {env.table.layout.size:>8} {env.table.num_actions:>7} {built:>7.3f} {b:>10.0f} {e:>11.0f} {e / b:>5.2f}")


def free_observation(env) -> None:
    """The environment's observation made free: a copy of a fixed vector (a learner keeps
    what it is handed, so the real one is a copy too)."""
    fixed = np.zeros(env.table.layout.size, dtype=np.float32)
    env.table.observe = lambda st, seat: fixed.copy()


def free_menu(env) -> None:
    """The environment's menu and mask made free: positions for actions, a fixed mask, and
    ``game.apply`` of the position given."""
    table, game = env.table, env.game
    none = np.zeros(table.num_actions, dtype=np.int8)
    table.menu = lambda st, refused=frozenset(): range(st.pending.count())
    table.mask = lambda menu: none

    def apply(st, menu, action):
        game.apply(st, action)
    table.apply = apply


def floor(packs, games: int, which: str) -> None:
    print(f"{'pack':20} {'players':>7} {'bare us':>7} {'env us':>7} {'obs free':>8} {'ratio':>5} {'left':>5}"
          f" {'all free':>8} {'ratio':>5} {'left':>5}")
    clock = time.process_time
    for name in packs:
        game = load_game(name)
        players = game.min_players if which == "smallest" else game.max_players
        env, no_obs, none = (rl.env(game, players) for _ in range(3))
        free_observation(no_obs)
        free_observation(none)
        free_menu(none)
        gc.collect()
        gc.freeze()
        loops = (lambda seed: bare_game(game, players, seed), lambda seed: env_game(env, seed),
                 lambda seed: env_game(no_obs, seed), lambda seed: env_game(none, seed, by_position=True))
        counts, spent = [0] * 4, [0.0] * 4
        for seed in range(games):
            for i, run in enumerate(loops):
                t = clock()
                counts[i] += run(seed)
                spent[i] += clock() - t
        bare, step, obs_free, all_free = (1e6 * s / c for s, c in zip(spent, counts))
        print(f"{name:20} {players:>7} {bare:>7.1f} {step:>7.1f} {obs_free:>8.1f} {bare / obs_free:>5.2f}"
              f" {max(0.0, 2 * bare - obs_free):>5.1f} {all_free:>8.1f} {bare / all_free:>5.2f} {max(0.0, 2 * bare - all_free):>5.1f}")


def versus(packs, games: int, sims: int) -> None:
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    import meeple.rl.spiel as sp
    from meeple.play.bots import MctsAgent, evaluator
    from meeple.runtime.redeal import Perspective
    print(f"{'pack':20} {'games':>5} {'ISMCTS share':>12} {'mcts share':>10} {'s/game':>7}")
    for name in packs:
        shares = [0.0, 0.0]
        t = time.perf_counter()
        for g in range(games):
            game = pyspiel.load_game(sp.SHORT_NAME, {"pack": name, "players": 2, "seed": 1000 + g})
            meeple_game = game.table.game
            bot = ismcts.ISMCTSBot(game, sp.PlayoutEvaluator(12, g), 0.7, sims, random_state=np.random.RandomState(g),
                                   allow_inconsistent_action_sets=True)
            bot.set_resampler(sp.seeded_resampler(g))
            mcts = MctsAgent(g, evaluator(meeple_game), iterations=sims)
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.current_player() == 0:
                    s.apply_action(bot.step(s))
                    continue
                st = s.st
                options = list(range(st.pending.count()))
                index = mcts.choose(Perspective(meeple_game, st, st.pending.player), options)
                menu = {i: a for a, i in game.table.menu(st).items()}
                s.apply_action(menu[index])
            r = s.returns()
            shares[0] += r[0]
            shares[1] += r[1]
        per = (time.perf_counter() - t) / games
        print(f"{name:20} {games:>5} {shares[0] / games:>12.2f} {shares[1] / games:>10.2f} {per:>7.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("packs", nargs="*", default=PACKS)
    ap.add_argument("--games", type=int, default=None, help="games a pack (speeds: 20; versus: 10)")
    ap.add_argument("--players", choices=("smallest", "largest"), default="smallest")
    ap.add_argument("--versus", action="store_true", help="OpenSpiel's ISMCTS against meeple's mcts")
    ap.add_argument("--floor", action="store_true", help="a step's time with its observation, then its menu and mask, free")
    ap.add_argument("--sims", type=int, default=50, help="simulations a decision for both bots (versus)")
    args = ap.parse_args()
    if args.versus:
        versus(args.packs, args.games or 10, args.sims)
    elif args.floor:
        floor(args.packs, args.games or 20, args.players)
    else:
        speeds(args.packs, args.games or 20, args.players)


if __name__ == "__main__":
    main()
