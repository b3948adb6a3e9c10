"""A human at ``meeple play`` (through click's CliRunner) who answers every menu with
the first number it shows: a turn's action menu keeps its numbers
(meeple.play.agents.MenuNumbers), so that number need not be 1."""
from __future__ import annotations

import os
import select
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator
from unittest import mock

from meeple.cli import games
from meeple.core.catalogue import LANGUAGES, say
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


ROOT = Path(__file__).resolve().parent.parent
# what a human is asked, in every language (--lang): where the driver types
PROMPTS = tuple((say("your choice", lang) + ":").encode() for lang in LANGUAGES)


def menu_above(text: str) -> str:
    """The menu above the last prompt on the screen (in any language), from the blank line before it."""
    at = max(text.rfind(p.decode()) for p in PROMPTS)
    return text[text.rindex("\n\n", 0, at):at]


def on_a_terminal(args: list[str], answer: Callable[[bytes, int], str], columns: int = 100, timeout: float = 300,
                  refusals: int = 0) -> str:
    """Runs ``meeple play ARGS`` on a pseudo-terminal, typing at each prompt what
    ``answer(screen so far, prompts answered)`` gives; returns the screen as text. With
    ``refusals``, fails once that many answers were refused (an answer refused for ever
    would otherwise loop until the timeout)."""
    master, slave = os.openpty()
    env = dict(os.environ, COLUMNS=str(columns), LINES="40")
    proc = subprocess.Popen([sys.executable, "-m", "meeple", "play", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    screen, typed = b"", 0
    try:
        while True:
            ready, _, _ = select.select([master], [], [], timeout)
            if not ready:
                raise AssertionError("meeple play stopped answering:\n" + screen.decode()[-2000:])
            try:
                data = os.read(master, 65536)
            except OSError:        # the child closed the terminal
                break
            if not data:
                break
            screen += data
            assert not refusals or screen.count(b"is not one of the options") + screen.count("は選択肢にありません".encode()) < refusals, \
                screen.decode()[-2000:]
            while sum(screen.count(p) for p in PROMPTS) > typed:
                os.write(master, (answer(screen, typed) + "\n").encode())
                typed += 1
    except BaseException:
        proc.kill()         # the driver failed: not waiting out the timeout for a game no one answers
        raise
    finally:
        proc.wait(timeout)
        os.close(master)
    assert proc.returncode == 0, screen.decode()[-2000:]
    return screen.decode().replace("\r\n", "\n")
