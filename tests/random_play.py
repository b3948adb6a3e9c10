"""Random games with checks after every few steps, shared by the packs' tests."""
import json
import random
from typing import Callable, Optional

from engine.state import State


def play_checked(game, players: int, seed: int, check: Callable[[State], None], options: Optional[dict] = None,
                 every: int = 1, limit: int = 8000) -> State:
    """Play random choices to the end; every ``every`` steps and at the end run
    ``check`` and compare clone() and the JSON round-trip with the state."""
    st = game.new_state(players, seed, options=options)
    rng = random.Random(seed)
    step = 0
    while not st.over:
        if step % every == 0:
            check(st)
            assert st.clone() == st
            assert State.from_json(game, json.loads(json.dumps(st.to_json()))) == st
        game.apply(st, rng.randrange(len(st.pending.options)))
        step += 1
        assert step < limit, "game does not end"
    check(st)
    return st
