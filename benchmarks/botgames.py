"""A planning bot's first decisions of seeded games, as the bot benchmarks play them:
the bot in seat 1, the other seats random, each game (seeds 0..games-1) stopped after
the bot's ``decisions`` decisions. Shared by ``bot_instructions.sh`` (valgrind counts
the whole run) and ``bytecodes.py --bot`` (which traces only the bot's deciding).

    python benchmarks/botgames.py CHECKOUT PACK BOT PLAYERS DECISIONS GAMES

prints the bot's decisions made to standard error.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable


def _call(choose: Callable, *args: Any) -> Any:
    return choose(*args)


def play_bot(root: str, pack: str, bot: str, players: int, games: int, decisions: int,
             deciding: Callable[..., Any] = _call) -> int:
    """Play the games with the engine of the checkout at ``root``; each of the bot's
    decisions is ``deciding(choose, view, options)`` (the bot's own choose, called).
    Returns how many decisions the bot made."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    from checkout import module, use
    use(root)
    make_agents = module(root, "meeple.play.agents").make_agents
    evaluator = module(root, "meeple.play.bots").evaluator
    load_game = module(root, "meeple.runtime.game").load_game
    from meeple.play.session import play
    game = load_game(pack)
    value = evaluator(game)

    class Enough(Exception):
        pass
    made = 0
    for seed in range(games):
        agents = make_agents(",".join([bot] + ["random"] * (players - 1)), players, seed, game, value)
        inner, mine = agents[0].choose, [0]

        def choose(view, options, inner=inner, mine=mine):
            if mine[0] == decisions:
                raise Enough
            mine[0] += 1
            return deciding(inner, view, options)
        agents[0].choose = choose
        try:
            play(game, players, seed, agents)
        except Enough:
            pass
        made += mine[0]
    return made


if __name__ == "__main__":
    root, pack, bot, players, decisions, games = sys.argv[1:7]
    print(play_bot(root, pack, bot, int(players), int(games), int(decisions)), file=sys.stderr)
