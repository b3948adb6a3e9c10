"""The game state: plain data only, so it clones cheaply and round-trips JSON.

Everything is flat lists indexed by numbers the compiled game assigned at
load (resource r of player p is ``res[p * R + r]``; zone slots; card ids),
so the hot path does list indexing, not dictionary look-ups. The running
rules program (frames with program counters and locals) is data too, which
is what lets a game suspend on a decision and be cloned or saved meanwhile.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from meeple.dsl.runtime import NO_ANSWER, Decision, Frame  # noqa: F401  (re-exports: the running program is the language's)
from meeple.dsl.types import STEP_BUDGET

from meeple.core.rng import MASK, next_u64


_new = object.__new__


class OverBudget(Exception):
    """A planning bot's decision went past its budget of steps (``StepMeter``). Not a
    ``MeepleError``: the bots' own handlers of rule errors (a playout a sample cannot
    finish) must not swallow it; the bot turns it into a rule error naming the game."""


class StepMeter:
    """The steps a planning bot's decision may take, all its samples together: the rules
    it plays on them and the evaluations it makes. Every copy of a sample shares the
    meter, and whatever ends a step budget (a choice reached, a finished game, an
    evaluation done: ``refill``) takes what that budget used from it."""

    __slots__ = ("left", "budget")

    def __init__(self, budget: int):
        self.budget = budget
        self.left = budget

    def take(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise OverBudget(self.budget)

    @property
    def used(self) -> int:
        return self.budget - self.left


def refill(st: "State") -> None:
    """A fresh step budget for what runs next on ``st``, the last one's use taken from the
    state's meter, when a planning bot's sample has one."""
    m = st.meter
    if m is not None:
        m.take(STEP_BUDGET - st.budget)
    st.budget = STEP_BUDGET


def copy_frames(frames: list[Frame]) -> list[Frame]:
    """Copies of running frames (each with its own locals), as ``Frame.copy`` makes them but
    without its two Python calls a frame (``copy`` and ``__init__``): a planning bot clones
    thousands of states a decision, most with three or four frames. Four frames took
    10,400 instructions instead of 15,300 (valgrind)."""
    out = []
    for f in frames:
        g = _new(Frame)
        g.code = f.code
        g.pc = f.pc
        g.locals = f.locals[:]
        g.me = f.me
        g.this = f.this
        out.append(g)
    return out


class State:
    __slots__ = ("game", "players", "res", "pvars", "gvars", "zones", "loc", "cvars", "rng",
                 "frames", "pending", "answer", "_log", "round", "over", "scores", "ranking", "events", "track", "opts", "prepare", "checkpoint",
                 "seed", "refused", "own", "budget", "meter", "breakdown", "scored", "played")

    def __init__(self, game: Any, players: int):
        self.game = game
        self.players = players
        self.res: list[int] = []
        self.pvars: list = []
        self.gvars: list = []
        self.zones: list[list[int]] = []
        self.own: list[bool] = []   # True for each zone list this state may write in place (see ``clone``)
        self.loc: list[int] = []
        self.cvars: list = []
        self.rng = 0
        self.frames: list[Frame] = []
        self.pending: Optional[Decision] = None
        self.answer: Any = NO_ANSWER
        self._log: list = []      # see ``log``
        self.round = 0
        self.over = False
        self.scores: list[int] = []
        self.ranking: list[int] = []
        self.events: list = []    # notes written by 'log' for the terminal; not part of equality
        self.track: Optional[set] = None   # statistics only: (zone slot, card) pairs cards moved into
        self.opts: list = []                # the game's options, in declaration order
        self.prepare: Optional[tuple[int, Callable[[State], None]]] = None     # scenarios: (round, changes) applied when that round is to begin (not saved)
        self.checkpoint: Optional[tuple[State, int, Frame]] = None    # the state at the last action choice, for 'require' (not saved)
        self.seed: Optional[int] = None     # the game's seed, named by rule errors (not saved: the log has it)
        self.refused = 0                    # choices undone by refusals (not rolled back, not saved): bounds refusal loops
        self.budget = STEP_BUDGET           # steps left until the next choice (meeple.dsl.types.charge; not saved)
        self.meter: Optional[StepMeter] = None   # a planning bot's decision budget, on its samples only (not saved)
        # the score of each player as the final scoring began and after each of its parts
        # (meeple.runtime.scoring; not saved: a replay makes it again)
        self.breakdown: tuple[tuple[int, ...], ...] = ()
        # what each rule changed the score by for each player, {(rule, player): change}, and
        # that as the final scoring began (``played``): what made the score during play
        # (meeple.runtime.scoring; never changed in place, so a copy shares it safely; not
        # saved: a replay makes it again)
        self.scored: dict = {}
        self.played: Optional[dict] = None

    # ---- the choices made
    @property
    def log(self) -> list:
        """The choices made, as [player, option index, option key].

        A choice is logged with its decision and its key is written the first
        time someone reads the log: a playout that nobody logs never makes a
        key (keys never depend on the state, only on the decision)."""
        log = self._log
        i = len(log)
        while i and log[i - 1][2].__class__ is not str:
            i -= 1
        for e in log[i:]:
            e[2] = e[2].key(e[1])
        return log

    @log.setter
    def log(self, entries: list) -> None:
        self._log = entries

    def choices(self) -> int:
        """How many choices were made (without writing their keys)."""
        return len(self._log)

    # ---- randomness
    def rand_below(self, n: int) -> int:
        self.rng, out = next_u64(self.rng)
        return out % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates with ``rand_below``'s draws, splitmix64 written out (the same
        sequence as ``next_u64``: a 60-card deck is 59 draws, two calls fewer each)."""
        state = self.rng
        for i in range(len(items) - 1, 0, -1):
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.rng = state

    # ---- copying and saving
    def clone(self) -> "State":
        new = State.__new__(State)
        new.game = self.game
        new.players = self.players
        new.res = self.res[:]
        new.pvars = self.pvars[:]
        new.gvars = self.gvars[:]
        # copy-on-write: the two states share every zone list and neither owns one;
        # whoever writes a zone first copies it (meeple.dsl.types.own_zone). A planning bot
        # clones per option tried and its playout writes a few zones of the 50-170.
        new.zones = self.zones[:]
        n = len(self.zones)
        new.own = [False] * n      # a list of bools: its test is half the cost of a bytearray's
        self.own = [False] * n
        new.loc = self.loc[:]
        new.cvars = self.cvars[:]
        new.rng = self.rng
        new.frames = copy_frames(self.frames)
        new.pending = self.pending
        new.answer = NO_ANSWER
        new._log = self._log[:]
        new.round = self.round
        new.over = self.over
        new.scores = self.scores[:]
        new.ranking = self.ranking[:]
        new.events = []
        new.track = None
        new.opts = self.opts
        new.prepare = self.prepare
        new.checkpoint = None
        new.seed = self.seed
        new.refused = self.refused
        new.budget = self.budget
        new.meter = self.meter
        new.breakdown = self.breakdown
        new.scored = self.scored
        new.played = self.played
        return new

    def restore(self, other: "State") -> None:
        """Become ``other`` again (a copy taken by ``clone``). The zone lists are
        shared with ``other`` afterwards, owned by neither (as after a clone)."""
        for name in State.__slots__:
            if name not in ("track", "events", "checkpoint", "refused", "zones", "own"):     # statistics and notes are not rolled back
                setattr(self, name, getattr(other, name))
        self.zones = other.zones[:]
        n = len(self.zones)
        self.own = [False] * n
        other.own = [False] * n

    def to_json(self) -> dict:
        return {
            "players": self.players, "res": self.res[:], "pvars": self.pvars[:], "gvars": self.gvars[:],
            "zones": [z[:] for z in self.zones], "loc": self.loc[:], "cvars": self.cvars[:], "rng": self.rng,
            "frames": [f.to_json() for f in self.frames],
            "pending": self.pending.to_json() if self.pending else None,
            "log": [e[:] for e in self.log], "round": self.round, "over": self.over, "scores": self.scores[:],
            "ranking": self.ranking[:], "options": self.opts[:],
        }

    @staticmethod
    def from_json(game: Any, data: dict) -> "State":
        st = State(game, data["players"])
        st.res = list(data["res"])
        st.pvars = list(data["pvars"])
        st.gvars = list(data["gvars"])
        st.zones = [list(z) for z in data["zones"]]
        st.own = [True] * len(st.zones)
        st.loc = list(data["loc"])
        st.cvars = list(data["cvars"])
        st.rng = data["rng"]
        st.frames = [Frame.from_json(f) for f in data["frames"]]
        st.pending = Decision.from_json(data["pending"]) if data["pending"] else None
        st.log = [list(e) for e in data["log"]]
        st.round = data["round"]
        st.over = data["over"]
        st.scores = list(data["scores"])
        st.ranking = list(data["ranking"])
        st.opts = list(data.get("options", []))
        return st

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
