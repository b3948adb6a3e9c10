"""One game played through fixed action numbers: what both adapters (PettingZoo and
OpenSpiel) share.

An action is a catalogue index (``actions="keys"``, the default: the same number
means the same option key in every decision) or a menu position (``actions="index"``,
a quick start: action i is the decision's i-th option, whatever it is). A choice the
rules refuse (a ``require`` failing) puts the state back as it was; the option is then
left out of the mask of that decision, as ``meeple play`` lets the agent choose again
among the others.

A game stops at its decision limit: the pack's (``flow: max_decisions``, 10,000 unless
it sets one), or a lower one given to the table (``max_decisions``). Choices a rule
refused count towards it, as the rules count them. A game that reaches the limit
unfinished is *truncated*: both adapters end it there (``truncated``) instead of
letting the rules raise their error at the next choice.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from meeple.core.errors import IllegalChoice, Refusal
from meeple.runtime.state import State

from meeple.rl.catalogue import Catalogue, CatalogueMissing

MODES = ("keys", "index")


class Table:
    """A game, its catalogue and its observation layout, and the menus of its decisions as actions."""

    def __init__(self, game, players: int, catalogue: Catalogue, actions: str = "keys",
                 max_decisions: Optional[int] = None):
        from meeple.rl.observe import Layout
        from meeple.rl.reading import Readers
        if actions not in MODES:
            raise ValueError(f"actions is one of {', '.join(MODES)}, not {actions!r}")
        if not game.min_players <= players <= game.max_players:
            raise IllegalChoice(f"{game.id} is played by {game.min_players} to {game.max_players} players, not {players}")
        if max_decisions is not None and (max_decisions.__class__ is not int or max_decisions < 1):
            raise ValueError(f"max_decisions is a whole number of at least 1, not {max_decisions!r}")
        self.game = game
        self.players = players
        # the decisions (refused ones too) a game may take: the pack's bound, or a lower one
        self.limit = game.max_decisions if max_decisions is None else min(max_decisions, game.max_decisions)
        self.catalogue = catalogue
        self.mode = actions
        self.layout = Layout(game, players, catalogue)
        self.readers = Readers(self.layout)           # each seat's, made once
        self.num_actions = len(catalogue.keys) if actions == "keys" else catalogue.max_options
        # each describer's options by value: the action of the option's key when no other
        # option of its decision shares it (``alone_key``), made once a value
        self._alone: dict[Any, dict[Any, int]] = {}
        self._no_actions = np.zeros(self.num_actions, dtype=np.int8)

    def menu(self, st: State, refused: frozenset = frozenset()) -> dict[int, int]:
        """The pending decision's options as {action: option index}, less those refused."""
        dec = st.pending
        if dec is None:
            return {}
        if self.mode == "index":
            n = dec.count()
            if n > self.num_actions:
                raise CatalogueMissing(f"a menu of {n} options is longer than the {self.num_actions} actions of "
                                       f"{self.game.id}'s catalogue", hint=f"make it again: {self.catalogue.remake}")
            return {i: i for i in range(n) if i not in refused}
        actions = self._alone_actions(dec)
        if actions is not None:
            menu = dict(zip(actions, range(len(actions))))
            if len(menu) != len(actions):       # options whose values share a key alone: their keys
                actions = None
        if actions is None:
            keys = dec.keys()
            actions = list(map(self.catalogue.index.get, keys))     # type: ignore[attr-defined]
            if None in actions:
                for k in keys:
                    self.catalogue.action(k)        # a key the catalogue lacks: its error
            menu = dict(zip(actions, range(len(actions))))
        if refused:
            return {a: i for a, i in menu.items() if i not in refused}
        return menu

    def truncated(self, st: State) -> bool:
        """Whether ``st`` is unfinished at the decision limit (the next choice would exceed it)."""
        return not st.over and st.choices() + st.refused >= self.limit

    def _alone_actions(self, dec) -> Optional[list[int]]:
        """The decision's options as actions read by their values: each value's
        ``alone_key``, which is its key when all differ (None: a key is not in the
        catalogue, or the decision has no describer: its keys are to be made; ``menu`` makes
        them too where two values share a key alone)."""
        d = dec.describer
        if d is None or dec._options is not None:
            return None
        memo = self._alone.get(d)
        if memo is None:
            memo = self._alone[d] = {}
        values = dec.values
        try:
            actions = list(map(memo.get, values))
        except TypeError:           # a value that cannot be hashed
            return None
        if None in actions:
            index = self.catalogue.index    # type: ignore[attr-defined]
            for i, v in enumerate(values):
                if actions[i] is None:
                    a = index.get(d.alone_key(v))
                    if a is None:
                        return None
                    actions[i] = memo[v] = a
        return actions

    def mask(self, menu: dict[int, int]) -> np.ndarray:
        """The menu's actions as an int8 mask over every action (a new array: a learner
        keeps it)."""
        out = self._no_actions.copy()
        if len(menu) <= 16:         # a few set one by one: quicker than numpy's gather of an index array
            for a in menu:
                out[a] = 1
        else:
            out[np.fromiter(menu, np.intp, len(menu))] = 1     # quicker than from a list
        return out

    def observe(self, st: State, seat: int) -> np.ndarray:
        """The seat's observation vector: its view's (``meeple.rl.observe``), read through
        the seat's sight (``meeple.rl.reading``)."""
        return self.readers.seats[seat].read(st)

    def observe_view(self, st: State, seat: int) -> np.ndarray:
        """The seat's observation vector written from its view (what ``observe`` must equal)."""
        return self.layout.encode(self.game.view(st, seat), seat)

    def apply(self, st: State, menu: dict[int, int], action: int) -> Optional[str]:
        """Apply ``action``: None when it stood, else why it was refused (the state as it
        was, or back at the menu a ``require`` returns to)."""
        index = menu.get(int(action))
        if index is None:
            what = self.catalogue.keys[action] if self.mode == "keys" and 0 <= action < len(self.catalogue.keys) else f"#{action}"
            return f"action {action} ({what}) is not a legal option now"
        try:
            self.game.apply(st, index)
        except Refusal as err:
            return err.message
        return None

    def win_shares(self, st: State) -> list[float]:
        winners = self.game.winners(st)
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(st.players)]
