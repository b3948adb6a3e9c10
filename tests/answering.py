"""A human at ``meeple play`` (through click's CliRunner) who answers every menu with
the first number it shows: a turn's action menu keeps its numbers
(meeple.play.agents.MenuNumbers), so that number need not be 1."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator
from unittest import mock

from meeple.cli import games
from meeple.play.agents import MenuNumbers


@contextmanager
def first_shown(answers: tuple[str, ...] = ()) -> Iterator[list[list[int]]]:
    """While it lasts, each prompt of ``meeple play`` is answered with the next of
    ``answers``, then with the first number of the menu shown; yields the numbers of
    every menu shown."""
    shown: list[list[int]] = []
    numbers = MenuNumbers.numbers
    typed = iter(answers)

    def remember(self, dec):
        shown.append(numbers(self, dec))
        return shown[-1]

    def ask(prompt: str) -> str:
        return next(typed, None) or str(min(shown[-1]))
    with mock.patch.object(MenuNumbers, "numbers", remember), mock.patch.object(games, "_ask", ask):
        yield shown
