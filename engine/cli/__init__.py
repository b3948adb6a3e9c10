"""The ``meeple`` command line: thin wrappers over library calls.

One module per group of commands, each adding its commands to the one group:

    group       the group ``main``, the exit codes (``ExitCode``), and how an error
                ends a command (whatever a command lets escape gets its code here)
    arguments   what a command line names: packs loaded, options, seeds, players, bots, workers
    files       output files: checked before a command starts, written whole or not at all
    check       validate, schema, diff
    cards       cards, rules (how to play)
    games       play, replay
    runs        simulate, compare
    author      test, new-pack, new-game
    tune        tune (needs the extra meeple[tune])
    serve       serve (the table in a browser; needs the extra meeple[web])
    rl          rl catalogue, rl info (the research adapters; rl info needs the extra meeple[rl])

``from meeple.cli import main`` is the console script ``meeple``.
"""
from __future__ import annotations

from meeple.cli.group import ExitCode, main
from meeple.cli import author, cards, check, games, rl, runs, serve, tune  # noqa: F401  (each adds its commands to main)

__all__ = ["ExitCode", "main"]
