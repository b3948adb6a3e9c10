"""Agents choose among the legal options of a decision, seeing only a view.

An agent never receives the state itself: ``choose`` gets the player's view
(hidden things redacted) and the decision's option keys and labels.
"""
from __future__ import annotations

import random as _random
from typing import Any, Callable, Optional, Protocol

from meeple.dsl.runtime import fitting

from meeple.core.catalogue import say


class Agent(Protocol):
    name: str

    def choose(self, view: dict, options: list[list]) -> int:
        """Index of the chosen option."""


class RandomAgent:
    """Uniform over the legal options, with its own seeded generator."""

    name = "random"
    needs_view = False
    needs_labels = False      # it only counts the options

    def __init__(self, seed: int = 0):
        self.rng = _random.Random(seed)
        # the index among n options, the draw ``choose`` makes (a random playout calls it directly)
        self.pick = self.rng.randrange

    def choose(self, view: dict, options: list[list]) -> int:
        return self.rng.randrange(len(options))


UNDONE = -1        # what ``HumanAgent.choose`` returns when 'undo' took the choices since the last action back


class HumanAgent:
    """Terminal prompts: lists the options, reads a number or an option key."""

    name = "human"
    needs_view = True

    def __init__(self, seat: int, ask: Callable[[str], str] | None = None, echo: Callable[[str], None] | None = None,
                 helper: Callable[[str, list], str] | None = None):
        self.seat = seat
        # the terminal (meeple.cli) gives its own prompt and echo; plain input and print otherwise
        self.ask = ask or (lambda prompt: input(f"{prompt}: "))
        self.echo = echo or print
        self.helper = helper      # answers '?...' (the terminal view's help and card texts); the prompt asks again
        # why a key typed is not an option now (an action not offered: the engine's reason,
        # in the table's language), or None: the terminal's (meeple.cli.games)
        self.why: Callable[[str], Optional[str]] | None = None
        self.lang = "en"          # the language of its own words (meeple.core.catalogue): the table's
        # each option's key in brackets after its label: the pack's ids, English words, shown to
        # an English reader; in another language the menu shows numbers only (a typed key is still
        # taken, and '? N' names it), the numbers kept through a turn (MenuNumbers)
        self.keys = True
        # 'undo' typed: the table takes back the choices since this seat's last action (None
        # returned) or says why not (meeple.play.undo); None: no undo offered
        self.undo: Callable[[], Optional[str]] | None = None

    def choose(self, view: dict, options: list[list]) -> int:
        decision = view.get("decision", {})
        # the number of each option: its place, unless the table keeps a turn's numbers (MenuNumbers)
        numbers = decision.get("numbers") or list(range(1, len(options) + 1))
        self.echo(f"\nP{self.seat + 1}, {decision.get('prompt') or say('choose', self.lang)}:")
        for i in sorted(range(len(options)), key=numbers.__getitem__):
            self.echo(f"  {numbers[i]:>2}. {options[i][1]}" + (f"   [{options[i][0]}]" if self.keys else ""))
        keys = [o[0] for o in options]
        while True:
            answer = self.ask(say("your choice", self.lang)).strip()
            if answer.isdigit() and int(answer) in numbers:
                return numbers.index(int(answer))
            if answer in keys:
                return keys.index(answer)
            found = fitting(keys, answer)      # 'white_die@P2' for 'white_die@P2=4'
            if len(found) == 1:
                return found[0]
            if answer.lower() in ("undo", say("undo", self.lang)) and self.undo is not None:
                reason = self.undo()
                if reason is None:
                    return UNDONE
                self.echo(reason)
                continue
            if answer.startswith("?") and self.helper is not None:
                shown = answer[1:].strip()      # '? N' names option N as numbered here; the helper counts places
                if shown.isdigit() and int(shown) in numbers:
                    answer = f"? {numbers.index(int(shown)) + 1}"
                self.echo(self.helper(answer, options))
                continue
            reason = self.why(answer) if self.why is not None and answer else None
            if reason:
                self.echo(reason)
            self.echo(say("'{answer}' is not one of the options: give {numbers} or a key in brackets" if self.keys
                          else "'{answer}' is not one of the options: give {numbers}", self.lang,
                          answer=answer, numbers=_numbers(numbers, self.lang))
                      + (say(", or ? for help", self.lang) if self.helper is not None else ""))


def _numbers(numbers: list[int], lang: str = "en") -> str:
    """How to say the numbers a menu shows: 'a number 1-4', else 'one of the numbers shown (3-8, 10)'."""
    low, high = min(numbers), max(numbers)
    if low == 1 and high == len(numbers):
        return say("a number 1-{n}", lang, n=high)
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return say("one of the numbers shown ({runs})", lang, runs=", ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs))


class MenuNumbers:
    """A player's menus numbered the same while they choose on: an option keeps the number
    it was first shown with (by its key), an option no longer offered leaves its number
    out, and a new one takes the next number. For an action menu this lasts the player's
    turn: a turn starts at an action menu where no action has been used yet (the
    decision's ``used`` is empty) or where another player's menu was last. Any other
    decision asked again of the same player with the same prompt (the next die of a
    group, the next piece placed) keeps the numbers its last asking showed, unless none
    of its options was there (a new choice: numbered from 1). Only what a human reads
    changes: the option chosen, the log and the keys are the same."""

    def __init__(self) -> None:
        self.player: Optional[int] = None
        self.by_key: dict[str, int] = {}
        self.asked: Optional[tuple] = None        # the last other decision's (player, prompt)
        self.asked_keys: dict[str, int] = {}

    def numbers(self, dec: Any) -> list[int]:
        """The number shown for each of ``dec``'s options, in their order."""
        keys = _identities(dec)
        if dec.kind != "action":
            asked = (dec.player, dec.prompt)
            if asked != self.asked or not any(k in self.asked_keys for k in keys):
                self.asked, self.asked_keys = asked, {}
            return _kept(self.asked_keys, keys)
        self.asked = None        # an action menu between two askings: the second is a new choice
        if not dec.used or dec.player != self.player:
            self.player, self.by_key = dec.player, {}
        return _kept(self.by_key, keys)


def _identities(dec: Any) -> list[str]:
    """What tells ``dec``'s options apart from one asking to the next: each option's value
    (a card's index: the same die even when its key grows shorter as its twin is taken,
    'red_die@P1=2' to 'red_die'), else its key."""
    values = getattr(dec, "values", None)
    return [repr(v) for v in values] if values is not None else dec.keys()


def _kept(by_key: dict[str, int], keys: list[str]) -> list[int]:
    """The numbers of ``keys``: each its number in ``by_key``, a new one the next number
    (``by_key`` learns it)."""
    for key in keys:
        if key not in by_key:
            by_key[key] = max(by_key.values(), default=0) + 1
    return [by_key[key] for key in keys]


AGENTS = ("random", "human", "greedy", "mcts")
BUDGETS = "mcts takes a budget: mcts:200 or mcts:50ms"


def parse_bot(name: str) -> tuple[str, dict]:
    """'mcts:200' (iterations), 'mcts:50ms' (time per decision), 'mcts:200:40'
    (and playouts of at most 40 decisions) -> ('mcts', {...})."""
    kind, _, rest = name.partition(":")
    if kind not in AGENTS:
        from meeple.core.errors import printable, suggest
        hint = suggest(kind, AGENTS)
        raise ValueError(f"unknown agent {printable(kind)!r}" + (f": {hint}" if hint else "")
                         + f" (known: {', '.join(AGENTS)}; {BUDGETS})")
    if not rest:
        return kind, {}
    if kind != "mcts":
        raise ValueError(f"'{name}': only mcts takes a budget")
    budget, _, depth = rest.partition(":")
    out: dict = {}
    if depth:
        if not depth.isdigit() or int(depth) < 1:
            raise ValueError(f"'{name}': the playout depth is a number of decisions (mcts:200:40)")
        out["depth"] = int(depth)
    if budget.endswith("ms") and budget[:-2].isdigit():
        return kind, {**out, "millis": float(budget[:-2])}
    if budget.isdigit() and int(budget) > 0:
        return kind, {**out, "iterations": int(budget)}
    raise ValueError(f"'{name}': the budget is iterations (mcts:200) or milliseconds (mcts:50ms)")


def seat_names(spec: str, players: int, humans: bool = True) -> list[str]:
    """The one reading of ``--bots`` (play, simulate, compare, a tune spec): a name per
    seat. Every name is checked first, so an unknown one is what is reported; one
    name plays every seat; fewer names than seats leave the seats after them to
    ``random``; more names than seats is an error, as is ``human`` where only bots
    play (``humans=False``). ValueError says which."""
    names = [s.strip() for s in spec.split(",") if s.strip()] or ["random"]
    for name in names:
        parse_bot(name)
    if not humans and "human" in names:
        raise ValueError("only bots play here: 'human' is for meeple play")
    if len(names) > players:
        raise ValueError(f"{len(names)} agents named for {players} players")
    return names * players if len(names) == 1 else names + ["random"] * (players - len(names))


def make_agents(spec: str, players: int, seed: int, game=None, evaluate=None) -> list:
    """``random,greedy,mcts:100`` → one agent per seat, as ``seat_names`` reads it
    (one name for every seat; missing seats random). Planning bots need the game
    and an evaluation (meeple.play.bots)."""
    names = seat_names(spec, players)
    out = []
    for seat, name in enumerate(names):
        kind, budget = parse_bot(name)
        bot_seed = seed * 7919 + seat
        if kind == "random":
            out.append(RandomAgent(bot_seed))
        elif kind == "human":
            out.append(HumanAgent(seat))
        else:
            from meeple.play.bots import GreedyAgent, MctsAgent, evaluator
            value = evaluate or evaluator(game)
            out.append(GreedyAgent(bot_seed, value) if kind == "greedy" else MctsAgent(bot_seed, value, **budget))
    return out
