"""The tables a ``meeple serve`` keeps: the one it opened and the games forked from it.

A server plays one pack. It opens a table to play (bots and humans) or to replay a log,
and a fork of any table at any step plays on from there with the bots the fork names
(else the server's). The
number of tables is bounded (``MAX_TABLES``), a fork's bots too (``fork_bots``), and so is what each keeps (its line's
checkpoints, what each seat was told: ``Table.footprint``). A token names one seat of
one table; nothing a browser sends names a file.
"""
from __future__ import annotations

import json
from typing import Any, Optional

from meeple.core.errors import MeepleError
from meeple.runtime.game import Game
from meeple.web.table import Seat, Table
from meeple.web.timeline import Timeline, from_log

MAX_TABLES = 16          # the table opened and its forks
MAX_BOTS_TEXT = 200      # letters of a fork's bots (a name per seat)
MAX_ITERATIONS = 20_000  # a forked table's mcts budget: iterations a choice ...
MAX_MILLIS = 10_000      # ... or milliseconds a choice (a page names them; the starter's --bots is not bounded)


class TooManyTables(MeepleError):
    """A fork past ``MAX_TABLES``."""


class BadBots(MeepleError):
    """A fork's bots that ``meeple play --bots`` would refuse, or past the bounds."""


def fork_bots(spec: str, players: int) -> str:
    """A fork's bots, read as ``meeple play --bots`` reads them (``seat_names``: one name
    for every seat, the missing ones random, 'human' a seat to play), each within the
    bounds a page may ask for; the spec as given, or ``BadBots`` with the reason."""
    from meeple.play.agents import parse_bot, seat_names
    if len(spec) > MAX_BOTS_TEXT:
        raise BadBots(f"at most {MAX_BOTS_TEXT} letters of bots")
    try:
        names = seat_names(spec, players)
    except ValueError as err:
        raise BadBots(str(err)) from None
    for name in dict.fromkeys(names):
        budget = parse_bot(name)[1]
        if budget.get("iterations", 0) > MAX_ITERATIONS or budget.get("millis", 0) > MAX_MILLIS:
            raise BadBots(f"'{name}': a forked table's mcts takes at most {MAX_ITERATIONS} iterations "
                          f"or {MAX_MILLIS}ms a choice")
    return spec


class Server:
    """The tables of one pack, found by their seats' tokens."""

    def __init__(self, game: Game, pack_ref: str, bots: str = "human,random", evaluation: str = "",
                 lang: str = "en", table_view: bool = False, figures: Optional[dict] = None):
        self.game, self.pack_ref, self.bots, self.evaluation = game, pack_ref, bots, evaluation
        self.lang, self.table_view = lang, table_view
        self.figures = figures or {}         # card id -> its figures from a simulate --format json run
        self.tables: list[Table] = []
        self.background = True              # bots choose in a thread (tests: in the request)

    # ------------------------------------------------------------ opening tables
    def agents(self, players: int, seed: int, bots: Optional[str] = None) -> tuple[list, list[str]]:
        """Each seat's agent and its name: ``bots`` (checked), else the server's --bots."""
        from meeple.play.agents import make_agents, seat_names
        from meeple.play.bots import evaluator
        spec = self.bots if bots is None else bots
        names = seat_names(spec, players)
        return make_agents(spec, players, seed, self.game, evaluator(self.game, self.evaluation or None)), names

    def play(self, players: int, seed: int, options: Optional[dict] = None) -> Table:
        """A new game against the server's bots."""
        line = Timeline(self.game, players, seed, options)
        agents, names = self.agents(players, seed)
        return self._add(Table(self.game, line, line.checkpoints[0].clone(), self.pack_ref, agents, self.lang,
                               self.table_view, names))

    def replay(self, log: dict, same_pack: bool = True) -> Table:
        """A logged game, checked by replaying it once (a log that diverges raises)."""
        line, st = from_log(self.game, log, same_pack)
        return self._add(Table(self.game, line, st, self.pack_ref, None, self.lang, self.table_view))

    def fork(self, table: Table, step: int, bots: Optional[str] = None) -> Table:
        """A new game that plays on from ``step`` of ``table``, with ``bots`` (as
        ``fork_bots`` checks them: ``BadBots`` says why not), else the server's."""
        if len(self.tables) >= MAX_TABLES:
            raise TooManyTables(f"this server keeps at most {MAX_TABLES} games; start another to fork more")
        old = table.line
        if bots is not None:
            bots = fork_bots(bots, old.players)
        line = Timeline(self.game, old.players, old.seed, old.options)
        st = line.checkpoints[0].clone()
        for player, index, key in old.choices[:step]:
            self.game.apply(st, index)
        line.checkpoints.update({k: s for k, s in old.checkpoints.items() if 0 < k <= step})
        line.round_at = old.round_at[:step + 1]
        line.extend(st)
        agents, names = self.agents(old.players, old.seed, bots)
        return self._add(Table(self.game, line, st, self.pack_ref, agents, self.lang, self.table_view, names))

    def _add(self, table: Table) -> Table:
        if len(self.tables) >= MAX_TABLES:
            raise TooManyTables(f"this server keeps at most {MAX_TABLES} games")
        self.tables.append(table)
        return table

    # ------------------------------------------------------------ tokens
    def find(self, token: str) -> Optional[tuple[Table, Seat]]:
        for t in self.tables:
            seat = t.seat_of(token)
            if seat is not None:
                return t, seat
        return None

    def hosted(self, token: str) -> Optional[Table]:
        return next((t for t in self.tables if t.host == token), None)


def log_of(table: Table) -> dict:
    """The table's game as a log (``meeple replay`` reads it): holds the seed."""
    from meeple.play.session import make_log
    with table.lock:
        return make_log(table.game, table.st, table.line.seed, table.pack_ref, table.line.options)


def scenario_of(table: Table, step: int) -> str:
    """A ``kind: scenario`` file whose one scenario makes the first ``step`` choices of
    the table's game, each by its player, and finds the game going on (or over, at its
    end): ``meeple test`` runs it, and a designer adds the expectations."""
    line = table.line
    choices = line.choices[:step]
    out = [f"# the game at step {step}: made by meeple serve", "kind: scenario", f"pack: {json.dumps(table.pack_ref)}",
           f"players: {line.players}", f"seed: {line.seed}"]
    if line.options:
        out.append("options: " + json.dumps({k: _option_value(v) for k, v in line.options.items()}))
    out += ["scenarios:", f"  - name: {json.dumps(f'reaches step {step} (round {line.round_at[step]})')}", "    steps:"]
    if choices:
        out.append("      - choose: [" + ", ".join(json.dumps(k) for _, _, k in choices) + "]")
        out.append("        by: [" + ", ".join(str(p + 1) for p, _, _ in choices) + "]")
    over = step == table.steps and table.st.over
    out.append(f"      - game_over: {'true' if over else 'false'}")
    return "\n".join(out) + "\n"


def _option_value(v: Any) -> Any:
    """An option as a scenario writes it: true/false and numbers as such."""
    if isinstance(v, str):
        if v.lower() in ("true", "false"):
            return v.lower() == "true"
        if v.lstrip("-").isdigit():
            return int(v)
    return v
