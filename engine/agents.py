"""Agents choose among the legal options of a decision, seeing only a view.

An agent never receives the state itself: ``choose`` gets the player's view
(hidden things redacted) and the decision's option keys and labels.
"""
from __future__ import annotations

import random as _random
from typing import Callable, Protocol

import click


class Agent(Protocol):
    name: str

    def choose(self, view: dict, options: list[list]) -> int:
        """Index of the chosen option."""


class RandomAgent:
    """Uniform over the legal options, with its own seeded generator."""

    name = "random"
    needs_view = False

    def __init__(self, seed: int = 0):
        self.rng = _random.Random(seed)

    def choose(self, view: dict, options: list[list]) -> int:
        return self.rng.randrange(len(options))


class HumanAgent:
    """Terminal prompts: lists the options, reads a number or an option key."""

    name = "human"
    needs_view = True

    def __init__(self, seat: int, ask: Callable[[str], str] | None = None, echo: Callable[[str], None] | None = None):
        self.seat = seat
        self.ask = ask or (lambda prompt: click.prompt(prompt, type=str))
        self.echo = echo or click.echo

    def choose(self, view: dict, options: list[list]) -> int:
        decision = view.get("decision", {})
        self.echo(f"\nP{self.seat + 1}, {decision.get('prompt', 'choose')}:")
        for i, opt in enumerate(options):
            self.echo(f"  {i + 1:>2}. {opt[1]}   [{opt[0]}]")
        keys = [o[0] for o in options]
        while True:
            answer = self.ask("your choice").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return int(answer) - 1
            if answer in keys:
                return keys.index(answer)
            self.echo(f"'{answer}' is not one of the options: give a number 1-{len(options)} or a key in brackets")


AGENTS = {"random": RandomAgent, "human": HumanAgent}


def make_agents(spec: str, players: int, seed: int) -> list:
    """``random,human`` → one agent per seat; a single name applies to every seat."""
    names = [s.strip() for s in spec.split(",") if s.strip()] or ["random"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--bots lists {len(names)} agents for {players} players")
    out = []
    for seat, name in enumerate(names):
        if name == "random":
            out.append(RandomAgent(seed * 7919 + seat))
        elif name == "human":
            out.append(HumanAgent(seat))
        else:
            raise ValueError(f"unknown agent '{name}' (known: {', '.join(AGENTS)})")
    return out
