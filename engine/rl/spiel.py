"""Every meeple game as an OpenSpiel game: importing this module registers ``python_meeple``.

    import pyspiel, meeple.rl.spiel
    game = pyspiel.load_game("python_meeple", {"pack": "PACK", "players": 4, "seed": 7})

Parameters: ``pack`` (a shipped pack's id or a folder), ``players``, ``seed`` (the
game ``meeple play --seed`` starts: the deal and every roll to come; the game is
``SAMPLED_STOCHASTIC``, its chance inside the rules), ``options`` (the pack's
options, ``name=value,name=value``), ``actions`` ("keys", the catalogue, or "index",
menu positions: ``meeple.rl.table``), ``max_decisions`` (the decisions after which an
unfinished game is truncated; 0, the default: the pack's own limit).

A truncated game is terminal, and its returns are an even share for every player
(1/n each): the game is declared constant-sum with a sum of 1, and a game without a
result is scored as a draw among all (``max_game_length`` is the limit).

A player's information state is their view (``game.view``) and the history as they
were told it: each choice by its key when it was theirs, else as the observer tells
it to them (``Observer.told``: ``(hidden)`` where they could not tell it). The
observation is the view alone (string) or its vector (``meeple.rl.observe``).
``resample_from_infostate`` deals again what the player cannot see, as the planning
bots do (``meeple.runtime.redeal.determinize``), so OpenSpiel's ``ISMCTSBot`` plays
from the player's information only. Returns are the shares of the win.

These are Python games: OpenSpiel's tree methods (CFR, exact best responses) would
walk them far too slowly to be of use, and nothing here promises them.
"""
from __future__ import annotations

import json
import random
from typing import Any, Optional

import numpy as np
import pyspiel

from meeple.rl.catalogue import for_game
from meeple.rl.table import Table

SHORT_NAME = "python_meeple"
MAX_PLAYERS = 16
_DEFAULTS = {"pack": "", "players": 2, "seed": 0, "options": "", "actions": "keys",      # a pack must be named
             "max_decisions": 0}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="meeple (a rules-as-data board game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)

_GAMES: dict[str, Any] = {}      # pack -> its compiled game, loaded once a process
_TABLES: dict[str, Table] = {}   # a game's parameters -> its table (a state's copy finds it by them)


def parse_options(text: str) -> dict:
    """``name=value,name=value`` -> {name: value} (the pack checks each)."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        if not sep:
            raise ValueError(f"an option is name=value, not {part!r}")
        out[name.strip()] = value.strip()
    return out


class MeepleGame(pyspiel.Game):
    """A pack, a player count and a seed as an OpenSpiel game."""

    def __init__(self, params: Optional[dict] = None):
        p = {**_DEFAULTS, **(params or {})}
        from meeple.runtime.game import load_game
        pack = str(p["pack"])
        if not pack:
            raise ValueError(f"{SHORT_NAME} needs a pack: pyspiel.load_game('{SHORT_NAME}', {{'pack': ID or FOLDER, 'players': N}})")
        if pack not in _GAMES:
            _GAMES[pack] = load_game(pack)
        game = _GAMES[pack]
        self.meeple = game
        self.key = json.dumps(p, sort_keys=True)
        if self.key not in _TABLES:
            _TABLES[self.key] = Table(game, int(p["players"]), for_game(game), str(p["actions"]),
                                      int(p["max_decisions"]) or None)
        self.table = _TABLES[self.key]
        self.seed = int(p["seed"])
        self.options = parse_options(str(p["options"]))
        game.rules.resolve_options(self.options)
        info = pyspiel.GameInfo(num_distinct_actions=self.table.num_actions, max_chance_outcomes=0,
                                num_players=self.table.players, min_utility=0.0, max_utility=1.0,
                                utility_sum=1.0, max_game_length=self.table.limit)
        super().__init__(GAME_TYPE, info, p)
        self.params = p

    def new_initial_state(self) -> "MeepleState":
        return MeepleState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "MeepleObserver":
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return MeepleObserver(self, recall)

    def __reduce__(self):
        """Pickled as its parameters (OpenSpiel's own pickling asks for the random state of a
        sampled-stochastic game, which a Python game cannot give: see ``MeepleState.__reduce__``)."""
        return (_load, (self.params,))


def _load(params: dict) -> MeepleGame:
    return pyspiel.load_game(SHORT_NAME, params)


def _deserialize(params: dict, text: str) -> "MeepleState":
    return _load(params).deserialize_state(text)


class Seat:
    """What a ``MeepleState`` holds beside OpenSpiel's own history: the meeple state, the
    choices each seat was told, the options refused at the decision pending, and every
    choice applied by its option key (refused ones too).

    OpenSpiel copies a Python state with ``copy.deepcopy`` of its attributes: a ``Seat``
    copies itself (``__deepcopy__``: the meeple state's own clone). It serializes a state
    (``state.serialize()``, ``game.deserialize_state``, ``pickle``) by pickling them: a
    ``Seat`` pickles as its game's parameters (pack, players, seed, options) and its
    choices' keys, and is rebuilt by replaying them (``_replay``), in any process, the
    same game as ``meeple replay`` of its log. A state ``resample_from_infostate`` dealt
    again is not a game its seed starts, and is not serialized (``moves`` is None)."""

    __slots__ = ("st", "told", "refused", "moves", "key")

    def __init__(self, st, told: list, refused: tuple = (None, frozenset()), moves: Optional[list] = None, key: str = ""):
        self.st, self.told, self.refused, self.moves, self.key = st, told, refused, moves, key

    def copy(self) -> "Seat":
        return Seat(self.st.clone(), [t[:] for t in self.told], self.refused,
                    None if self.moves is None else self.moves[:], self.key)

    def __deepcopy__(self, memo: dict) -> "Seat":
        return self.copy()

    def __reduce__(self):
        if self.moves is None:
            raise ValueError("a state dealt again by resample_from_infostate is not the game its seed starts: "
                             "it cannot be serialized (serialize the state it was sampled from)")
        dec, refused = self.refused
        pending = sorted(refused) if dec is not None and dec is self.st.pending else []
        return (_replay, (self.key, list(self.moves), self.told, pending))


def _replay(key: str, moves: list, told: list, pending_refused: list) -> Seat:
    """A pickled ``Seat`` rebuilt: the game its parameters (``key``) start, its choices
    applied again by key (a refused one refused again, as it was)."""
    from meeple.core.errors import Refusal
    if key not in _TABLES:
        MeepleGame(json.loads(key))          # a fresh process: the pack loaded, its table made
    table = _TABLES[key]
    params = json.loads(key)
    game = table.game
    st = game.new_state(table.players, int(params["seed"]), options=parse_options(str(params["options"])))
    for move in moves:
        try:
            game.apply(st, move)
        except Refusal:
            pass
    refused = (st.pending, frozenset(pending_refused)) if pending_refused else (None, frozenset())
    return Seat(st, told, refused, moves, key)


class MeepleState(pyspiel.State):
    """A meeple game in progress, as OpenSpiel sees it (its ``Seat`` holds the meeple side)."""

    def __init__(self, game: MeepleGame, seat: Optional[Seat] = None):
        super().__init__(game)
        if seat is None:
            st = game.meeple.new_state(game.table.players, game.seed, options=game.options)
            seat = Seat(st, [[] for _ in range(game.table.players)], moves=[], key=game.key)
        self._seat = seat
        self._key = game.key       # the game's table, found again by a copy (``_TABLES``)

    @property
    def st(self):
        return self._seat.st

    @property
    def _tables(self) -> Table:
        return _TABLES[self._key]

    @property
    def table(self) -> Table:
        return _TABLES[self._key]

    # ------------------------------------------------------------ the game
    def current_player(self) -> int:
        st = self._seat.st
        if st.over or self._tables.truncated(st):
            return pyspiel.PlayerId.TERMINAL
        return st.pending.player

    def _menu(self) -> dict[int, int]:
        dec, refused = self._seat.refused
        st = self._seat.st
        return self._tables.menu(st, refused if dec is st.pending else frozenset())

    def _legal_actions(self, player: int) -> list[int]:
        st = self._seat.st
        if st.over or player != st.pending.player or self._tables.truncated(st):
            return []
        return sorted(self._menu())

    def _apply_action(self, action: int) -> None:
        seat = self._seat
        st = seat.st
        dec = st.pending
        menu = self._menu()
        index = menu[action]
        observer = self._tables.game.observer
        key = dec.key(index)
        heard = [key if v == dec.player else observer.told(st, index, [v]) for v in range(st.players)]
        if seat.moves is not None:
            seat.moves.append(key)
        reason = self._tables.apply(st, menu, action)
        if reason is not None:
            heard = [f"{h} (refused)" for h in heard]
            if st.pending is dec:
                prev, refused = seat.refused
                seat.refused = (dec, (refused if prev is dec else frozenset()) | {index})
        for v in range(st.players):
            seat.told[v].append(f"P{dec.player + 1}: {heard[v]}")

    def _action_to_string(self, player: int, action: int) -> str:
        if self._tables.mode == "keys":
            return self._tables.catalogue.keys[action]
        dec = self._seat.st.pending
        return dec.key(action) if dec is not None and action < dec.count() else f"#{action}"

    def is_terminal(self) -> bool:
        st = self._seat.st
        return st.over or self._tables.truncated(st)

    def returns(self) -> list[float]:
        """The shares of the win; an even share each in a game truncated at its limit."""
        st = self._seat.st
        if st.over:
            return self._tables.win_shares(st)
        if self._tables.truncated(st):
            return [1.0 / st.players] * st.players
        return [0.0] * st.players

    def __str__(self) -> str:
        return json.dumps(self._tables.game.view(self._seat.st, None), sort_keys=True, ensure_ascii=False)

    def __reduce__(self):
        """Pickled as its game's parameters and ``serialize()`` (OpenSpiel's history and the
        ``Seat``: the choices' keys, replayed when it is read). OpenSpiel's own pickling of a
        state goes through ``serialize_game_and_state``, which a sampled-stochastic Python
        game cannot pass (it asks for the game's random state: ``GetRNGState``)."""
        return (_deserialize, (json.loads(self._key), self.serialize()))

    # ------------------------------------------------------------ samples
    def resample_from_infostate(self, player_id: int, probability_sampler) -> "MeepleState":
        """A state ``player_id`` cannot tell from this one: what they cannot see dealt again
        (``resample``, the planning bots' re-deal), drawn by ``probability_sampler``.
        OpenSpiel's history is kept (its length and the seats that chose)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        seat = self._seat
        sample = resample(self._tables.game, seat.st, player_id, rng)
        new = self.clone()
        refused = (sample.pending, seat.refused[1]) if seat.refused[0] is seat.st.pending else (None, frozenset())
        new._seat = Seat(sample, [t[:] for t in seat.told], refused, None, seat.key)      # not serialized
        return new


def seeded_resampler(seed: int):
    """A resampler for ``ISMCTSBot.set_resampler`` drawing from its own seeded generator
    (the bot's own draws from a generator seeded anew each time: not reproducible)."""
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    return lambda state, player: state.resample_from_infostate(player, sampler)


RESAMPLES = 8       # deals tried for one sample the seat cannot tell from the truth


def resample(game, st, player: int, rng: random.Random):
    """A state ``player`` cannot tell from ``st`` (the same view): the planning bots' re-deal
    (``meeple.runtime.redeal.determinize``). A planning bot takes a deal whose pending
    decision offers other options than the seat sees (it maps its options by key); an
    information-set search needs the same information state, so a deal that changes the
    seat's view is drawn again, then with the cards the seat's options name kept where they
    lie (the seat sees them offered). After ``RESAMPLES`` deals the last one is taken."""
    from meeple.runtime.redeal import Redeal, determinize, option_cards
    seen = game.view(st, player)
    deal = Redeal(game, st, player)
    sample = st
    for attempt in range(RESAMPLES):
        if attempt == 1 and not deal.pinned:
            options = option_cards(game, st, player)
            if options:
                deal = Redeal(game, st, player)
                deal.pinned = frozenset(options)
                deal._plan(st, player, deal.pinned)
        sample = determinize(game, st, player, rng, deal)
        if game.view(sample, player) == seen:
            return sample
    return sample


class MeepleObserver:
    """The OpenSpiel observer: a seat's view as a vector and a string; with perfect recall
    (the information state), the string adds the history as the seat was told it."""

    def __init__(self, game: MeepleGame, recall: bool):
        self.table = game.table
        self.recall = recall
        self.tensor = np.zeros(self.table.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MeepleState, player: int) -> None:
        self.tensor[:] = self.table.observe(state.st, player)

    def string_from(self, state: MeepleState, player: int) -> str:
        seat = state._seat
        st = seat.st
        view = json.dumps(self.table.game.view(st, player), sort_keys=True, ensure_ascii=False)
        refused = seat.refused[1] if seat.refused[0] is st.pending and st.pending is not None \
            and st.pending.player == player else frozenset()
        head = f"P{player + 1} {view}" + (f" refused {sorted(refused)}" if refused else "")
        if not self.recall:
            return head
        return head + "\n" + "\n".join(seat.told[player])


pyspiel.register_game(GAME_TYPE, MeepleGame)


class PlayoutEvaluator:
    """How OpenSpiel's MCTS and ISMCTS bots judge a leaf as meeple's ``mcts`` does: a random
    playout of at most ``depth`` decisions, then the result of a finished game (the win
    shares; even shares at the decision limit) or each player's standing by the pack's evaluation (``meeple.play.bots``).
    Priors are uniform. It conforms to ``open_spiel.python.algorithms.mcts.Evaluator``."""

    def __init__(self, depth: int = 12, seed: int = 0, evaluation: Optional[str] = None):
        self.depth = depth
        self.rng = random.Random(seed)
        self.evaluation = evaluation
        self._values: dict[int, Any] = {}

    def _values_of(self, game):
        got = self._values.get(id(game))
        if got is None:
            from meeple.play.bots import evaluator, values_of
            got = self._values[id(game)] = values_of(evaluator(game, self.evaluation))
        return got

    def evaluate(self, state: MeepleState) -> np.ndarray:
        from meeple.core.errors import Refusal
        from meeple.play.bots import standings
        table = state.table
        game = table.game
        st = state.st.clone()
        for _ in range(self.depth):
            if st.over or table.truncated(st):
                break
            try:
                game.apply(st, self.rng.randrange(st.pending.count()))
            except Refusal:
                pass
        if st.over:
            return np.array(table.win_shares(st))
        if table.truncated(st):         # the game's returns there: an even share each
            return np.full(st.players, 1.0 / st.players)
        return np.array(standings(self._values_of(game)(st)))

    def prior(self, state: MeepleState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]
