"""A line of play kept so that any step of it can be shown again quickly.

A game is its pack, player count, seed, options and choices: replaying the choices
from the seed gives every state on the way (``meeple.play.session.replay`` says so for
a whole log). Replaying from the start for every look back would cost a 300-choice
game 300 choices a look, so the line keeps a copy of the state every ``EVERY``
choices (a checkpoint) and a jump replays from the nearest one before it: at most
``EVERY - 1`` choices. The checkpoints are copies (``State.clone``, copy-on-write
zones), so they cost a fraction of a state each, and their number is bounded by the
game's length (reported by ``footprint``).
"""
from __future__ import annotations

from typing import Optional

from meeple.runtime.game import Game
from meeple.runtime.state import State

EVERY = 16       # choices between two checkpoints: a jump replays at most 15


class Timeline:
    """The choices of one game from its seed, and states kept along them."""

    def __init__(self, game: Game, players: int, seed: int, options: Optional[dict] = None,
                 choices: Optional[list] = None):
        self.game, self.players, self.seed = game, players, seed
        self.options = dict(options or {})
        self.choices: list[list] = [list(c) for c in (choices or [])]     # [player, index, key] as logged
        self.checkpoints: dict[int, State] = {0: game.new_state(players, seed, options=self.options)}
        self.round_at: list[int] = [self.checkpoints[0].round]      # the round each step is in
        self._recent: Optional[tuple[int, State]] = None     # the last state asked for: a walk forward goes on from it

    def __len__(self) -> int:
        return len(self.choices)

    def state_at(self, step: int) -> State:
        """A state of its own after ``step`` choices (0: the first decision), made from
        the nearest checkpoint before it; checkpoints passed on the way are kept."""
        if not 0 <= step <= len(self.choices):
            raise IndexError(f"step {step} is not in 0-{len(self.choices)}")
        start = max(k for k in self.checkpoints if k <= step)
        recent = self._recent
        if recent is not None and start <= recent[0] <= step:     # walking forward: from the last state made
            start, st = recent[0], recent[1].clone()
        else:
            st = self.checkpoints[start].clone()
        for k in range(start, step):
            self.game.apply(st, self.choices[k][1])
            if (k + 1) % EVERY == 0 and k + 1 not in self.checkpoints:
                self.checkpoints[k + 1] = st.clone()
        self._recent = (step, st.clone())
        return st

    def follow(self, st: State) -> int:
        """Make the line ``st``'s choices: a refusal may have undone the last few (the
        rules roll back to the turn's last action), so the line is cut where the two
        part, then extended. The step it was cut at (its length if not cut)."""
        made = st.log
        keep = 0
        for mine, theirs in zip(self.choices, made):
            if list(mine) != list(theirs):
                break
            keep += 1
        if keep < len(self.choices):
            del self.choices[keep:]
            del self.round_at[keep + 1:]
            for k in [k for k in self.checkpoints if k > keep]:
                del self.checkpoints[k]
            self._recent = None
        self.extend(st)
        return keep

    def extend(self, st: State) -> None:
        """Take the choices ``st`` made past this line's end (the live game moved on),
        keeping a checkpoint where one falls due and the round ``st`` is in."""
        made = st.log
        for k in range(len(self.choices), len(made)):
            self.choices.append(list(made[k]))
        n = len(self.choices)
        self._recent = None
        del self.round_at[n:]
        while len(self.round_at) < n:       # steps passed without being seen: the round as it is now
            self.round_at.append(st.round)
        self.round_at.append(st.round)
        if n % EVERY == 0 and n not in self.checkpoints:
            self.checkpoints[n] = st.clone()

    def round_starts(self) -> dict[int, int]:
        """The first step of each round: {round: step}."""
        out: dict[int, int] = {}
        for k, r in enumerate(self.round_at):
            out.setdefault(r, k)
        return out

    def footprint(self) -> int:
        """How many states the line keeps (its checkpoints)."""
        return len(self.checkpoints)


def from_log(game: Game, log: dict, same_pack: bool = True) -> tuple[Timeline, State]:
    """A logged game's line, replayed once (``meeple.play.session.replay``: a log that
    diverges or is malformed raises as it does there), with its checkpoints and rounds;
    and its last state."""
    from meeple.play.session import replay
    line = Timeline(game, log["players"], log["seed"], log.get("options") or {})
    line.round_at = []

    def seen(st: State, _option) -> None:
        k = len(line.round_at)
        line.round_at.append(st.round)
        if k % EVERY == 0 and k:
            line.checkpoints[k] = st.clone()
    st = replay(game, log, seen, same_pack=same_pack)
    line.choices = [list(c) for c in log["choices"]]
    line.round_at.append(st.round)
    return line, st
