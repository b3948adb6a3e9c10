"""Every meeple game as a PettingZoo AEC environment (``meeple.rl.env``).

Agents are ``player_0`` .. ``player_{n-1}`` (seat P1 is ``player_0``); the agent
selected is the one whose decision is pending. An observation is a dict
``{"observation": float32 vector, "action_mask": int8 vector}`` built from that
agent's view only (``meeple.rl.observe``, read through the seat's sight:
``meeple.rl.reading``), made only when asked for; the mask is all zeros for an
agent not deciding. ``reset(seed=S)`` starts the game ``meeple play --seed S`` starts
(the same deal, the same game for the same choices). A choice the rules refuse
keeps the agent selected, its reason in ``infos[agent]["refused"]`` and the
option out of its mask. Rewards come at the end: each player's share of the win
(1 to a lone winner, 1/k to each of k tied; ``reward="score"``: each player's final
score less the best other player's).

A game that reaches its decision limit unfinished (``env(..., max_decisions=N)``, else
the pack's own, ``flow: max_decisions``) is truncated: every agent's ``truncations``
flag is set, each gets reward 0 whatever ``reward`` is (the game has no result; a
learner bootstraps from its own estimate, as Gymnasium's truncation means), and
``infos[agent]`` holds ``{"scores": [...], "truncated": "..."}``.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from meeple.runtime.state import State

from meeple.rl.table import Table

REWARDS = ("win", "score")


class MeepleEnv(AECEnv):
    """A meeple game as an AEC environment (see the module's docstring)."""

    metadata = {"name": "meeple_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, table: Table, options: Optional[dict] = None, reward: str = "win",
                 render_mode: Optional[str] = None):
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        self.table = table
        self.game = table.game
        self.options = dict(options or {})
        self.game.rules.resolve_options(self.options)     # an unknown option is refused now
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(table.players)]
        self.metadata = {**self.metadata, "name": f"meeple_{self.game.id}_v0"}
        n = table.layout.size
        obs = spaces.Dict({"observation": spaces.Box(-1.0, 1.0, (n,), np.float32),
                           "action_mask": spaces.Box(0, 1, (table.num_actions,), np.int8)})
        act = spaces.Discrete(table.num_actions)
        self._obs_spaces = {a: obs for a in self.possible_agents}
        self._seats = {a: p for p, a in enumerate(self.possible_agents)}
        self._act_spaces = {a: act for a in self.possible_agents}
        self.state: Optional[State] = None
        self.seed_used: Optional[int] = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    # ------------------------------------------------------------ the game
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**31 - 1))
        self.seed_used = seed
        self.state = self.game.new_state(self.table.players, seed, options=self.options)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._refused: tuple[Any, frozenset] = (None, frozenset())
        self._menu_for: Any = None
        self._menu: dict[int, int] = {}
        self._seen: dict[str, tuple] = {}       # each agent's last observation, with when it was made
        self._cut = False                       # truncated at the decision limit: no agent may choose
        self._select()

    def _select(self) -> None:
        st = self.state
        if st.over:
            self._finish()
            return
        if self.table.truncated(st):
            self._truncate()
            return
        self.agent_selection = self.possible_agents[st.pending.player]

    def _current_menu(self) -> dict[int, int]:
        st = self.state
        if st.pending is not self._menu_for:
            dec, refused = self._refused
            self._menu = self.table.menu(st, refused if dec is st.pending else frozenset())
            self._menu_for = st.pending
        return self._menu

    def _finish(self) -> None:
        st = self.state
        if self.reward_kind == "win":
            got = self.table.win_shares(st)
        else:
            got = [float(s - max(st.scores[:p] + st.scores[p + 1:], default=0)) for p, s in enumerate(st.scores)]
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] = got[p]
            self.terminations[a] = True
            self.infos[a] = {"scores": list(st.scores)}

    def _truncate(self) -> None:
        """The game stopped unfinished at its decision limit: no rewards, every agent truncated."""
        st = self.state
        why = f"the game reached its limit of {self.table.limit} decisions unfinished"
        self._cut = True
        for a in self.possible_agents:
            self.rewards[a] = 0.0
            self.truncations[a] = True
            self.infos[a] = {"scores": list(st.scores), "truncated": why}

    def observe(self, agent: str) -> dict:
        st = self.state
        key = (st.choices(), st.pending, self._refused[1], self._cut)
        cached = self._seen.get(agent)
        if cached is not None and cached[0] == key:
            return cached[1]
        seat = self._seats[agent]
        if st.pending is not None and st.pending.player == seat and not self._cut:
            mask = self.table.mask(self._current_menu())
        else:
            mask = np.zeros(self.table.num_actions, dtype=np.int8)
        obs = {"observation": self.table.observe(st, seat), "action_mask": mask}
        self._seen[agent] = (key, obs)
        return obs

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        dec = st.pending
        menu = self._current_menu()
        self._cumulative_rewards[agent] = 0.0
        # every reward is 0 here: rewards are only given at the end (``_finish``,
        # ``_truncate``), after which every step is a dead step, and reset clears them
        reason = self.table.apply(st, menu, int(action)) if action is not None else "no action given"
        if reason is not None:
            if st.pending is dec and int(action if action is not None else -1) in menu:
                prev, refused = self._refused
                self._refused = (dec, (refused if prev is dec else frozenset()) | {menu[int(action)]})
                self._menu_for = None
            self.infos[agent] = {"refused": reason}
        elif self.infos[agent]:
            self.infos[agent] = {}
        if st.over:
            self._finish()
        elif self.table.truncated(st):
            self._truncate()
        else:
            self.agent_selection = self.possible_agents[st.pending.player]
            return          # rewards come at the end: nothing to add up before
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi" or self.state is None:
            return None
        import json
        return json.dumps(self.game.view(self.state, None), indent=1, ensure_ascii=False)     # what a spectator sees

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ what a log needs
    def meeple_log(self, pack_ref: Optional[str] = None) -> dict:
        """The game so far as a meeple log (``meeple replay`` replays it)."""
        from meeple.play.session import make_log
        return make_log(self.game, self.state, self.seed_used, pack_ref or self.game.id, self.options)
