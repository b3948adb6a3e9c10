"""One behaviour everywhere (issue 24, item 8): ``--bots`` read alike by play,
simulate and compare; a game at a prompt ended by Ctrl-C or the end of input."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from meeple.cli import ExitCode, main
from meeple.play.agents import seat_names


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


# ---------------------------------------------------------------- --bots
COMMANDS = {
    "play": ("play", "citadels", "--quiet", "--seed", 1),
    "simulate": ("simulate", "citadels", "-n", 2, "--workers", 1),
    "compare": ("compare", "citadels", "--set", "keep.cost=4", "-n", 2, "--workers", 1),
}

# (--bots, players, what every command says: exit code and a piece of its error)
BAD_BOTS = [
    ("smart,random", 4, "unknown agent 'smart' (known: random, human, greedy, mcts"),
    ("smart", 4, "unknown agent 'smart'"),
    ("random,smart,random,random,random", 4, "unknown agent 'smart'"),      # the name before the count
    ("grredy,random", 2, "unknown agent 'grredy': did you mean 'greedy'?"),
    ("random,random,random", 2, "3 agents named for 2 players"),
]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("bots, players, message", BAD_BOTS)
def test_every_command_reads_bots_alike_an_unknown_name_first(command, bots, players, message):
    r = run(*COMMANDS[command], "-p", players, "--bots", bots)
    assert r.exit_code == ExitCode.USAGE, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --bots: {message}"), r.output


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_runs_of_bots_refuse_a_human(command):
    r = run(*COMMANDS[command], "-p", 2, "--bots", "greedy,human")
    assert r.exit_code == ExitCode.USAGE
    assert "error: --bots: only bots play here: 'human' is for meeple play" in r.output


@pytest.mark.parametrize("spec, players, seats", [
    ("greedy", 3, ["greedy"] * 3),                       # one name plays every seat
    ("greedy,mcts:5", 4, ["greedy", "mcts:5", "random", "random"]),     # the seats after the names: random
    ("", 2, ["random", "random"]),
    (" greedy , random ", 2, ["greedy", "random"]),
])
def test_one_name_plays_every_seat_and_missing_seats_are_random(spec, players, seats):
    assert seat_names(spec, players) == seats


@pytest.mark.parametrize("command", COMMANDS)
def test_fewer_names_than_seats_play_in_every_command(command):
    r = run(*COMMANDS[command], "-p", 3, "--bots", "greedy,random", *(() if command == "play" else ("--format", "json")))
    assert r.exit_code == ExitCode.OK, r.output
    if command != "play":       # a run records the bot of every seat
        assert json.loads(r.output[r.output.index("{"):])["bots"] == "greedy,random,random"
