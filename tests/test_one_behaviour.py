"""One behaviour everywhere (issue 24, item 8): ``--bots`` read alike by play,
simulate and compare; a game at a prompt ended by Ctrl-C or the end of input."""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

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


# ---------------------------------------------------------------- leaving a game at a prompt
ROOT = Path(__file__).resolve().parent.parent
GAME = ["play", "citadels", "-p", "2", "--seed", "4242", "--bots", "human,random"]


def _left_log(path: Path, choices: int) -> None:
    """The log of the game so far: unfinished, and ``meeple replay`` replays it."""
    log = json.loads(path.read_text())
    assert log["unfinished"] is True and len(log["choices"]) == choices and "state_sha256" not in log
    r = run("replay", path)
    assert r.exit_code == ExitCode.OK, r.output
    said = f"{choices} choice" + ("" if choices == 1 else "s")
    assert r.output.strip() == (f"replayed {said} of citadels (2 players, seed 4242): identical "
                                "(an unfinished game, left in round 1)")


def test_the_end_of_input_at_a_prompt_exits_130_and_writes_the_game_so_far(tmp_path):
    log = tmp_path / "game.json"
    proc = subprocess.run([sys.executable, "-m", "meeple", *GAME, "--log", str(log)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == ExitCode.INTERRUPTED == 130, proc.stderr
    assert proc.stderr.strip().splitlines() == ["game abandoned (seed 4242)",
                                                f"the game so far (1 choice, unfinished) written to {log}"]
    _left_log(log, 1)


def _own_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is the pseudo-terminal
    on its standard input, so the terminal's Ctrl-C sends it SIGINT; and SIGINT's default
    action, as a shell gives the command it runs in the foreground (a suite started in the
    background, ``pytest &``, leaves SIGINT ignored for its children, and Python keeps an
    ignored SIGINT ignored: the Ctrl-C would never arrive)."""
    import fcntl
    import signal
    import termios
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def test_ctrl_c_at_a_prompt_exits_130_and_writes_the_game_so_far(tmp_path):
    """Through a pseudo-terminal, as a person presses Ctrl-C at the second prompt."""
    log = tmp_path / "game.json"
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "meeple", *GAME, "--log", str(log)], stdin=slave, stdout=slave,
                            stderr=slave, cwd=ROOT, env=dict(os.environ, COLUMNS="100"), preexec_fn=_own_terminal)
    os.close(slave)
    screen, typed, idle = b"", 0, 0
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 2)
            if not ready:
                idle += 1
                assert idle < 30, screen.decode()[-2000:]
                if typed == 2:
                    # Python's readline can miss a SIGINT that lands between the prompt being
                    # written and its wait for a key starting (the signal's flag is checked only
                    # when that wait is interrupted); a loaded machine widens that gap. A person
                    # whose Ctrl-C did nothing presses it again, and so does this test.
                    os.write(master, b"\x03")
                continue
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            screen += data
            if screen.count(b"your choice:") > typed:
                typed += 1
                os.write(master, b"1\n" if typed == 1 else b"\x03")       # the terminal's Ctrl-C: SIGINT
    finally:
        proc.wait(60)
        os.close(master)
    text = screen.decode().replace("\r\n", "\n")
    assert proc.returncode == 130, text[-2000:]
    assert text.rstrip().splitlines()[-2:] == ["game abandoned (seed 4242)",
                                               f"the game so far (2 choices, unfinished) written to {log}"]
    _left_log(log, 2)


def test_a_log_that_ends_unfinished_must_not_reach_the_end():
    """An unfinished log whose choices end the game is not the game it says it is."""
    from meeple.play.session import ReplayDiverged, make_log, replay
    from meeple.play.agents import make_agents
    from meeple.play.session import play
    from meeple.runtime.game import load_game
    game = load_game("citadels")
    st = play(game, 2, 4242, make_agents("random", 2, 4242))
    log = dict(make_log(game, st, 4242, "citadels"), unfinished=True)
    del log["state_sha256"]
    with pytest.raises(ReplayDiverged, match="unfinished game ends after .* but here the game ended"):
        replay(game, log)


# ---------------------------------------------------------------- a turn's menu keeps its numbers
class _Menu:
    """What MenuNumbers reads of a decision."""

    def __init__(self, player, kind, used, keys, prompt="choose an action", values=None):
        self.player, self.kind, self.used, self._keys, self.prompt = player, kind, used, keys, prompt
        if values is not None:
            self.values = values

    def keys(self):
        return self._keys


# (player, kind, actions used so far this turn, the options' keys) -> the numbers shown
MERCHANT_TURN = [
    (0, "action", [], ["take_gold", "draw_cards", "income", "merchant_gold"], [1, 2, 3, 4]),
    (0, "action", [1, 1], ["build:tavern", "income", "merchant_gold", "end_turn"], [5, 3, 4, 6]),
    (0, "choose_one", None, ["tavern", "market"], [1, 2]),             # another decision: its own places
    (0, "action", [1, 1, 5, 1], ["merchant_gold", "end_turn"], [4, 6]),  # Take 1 gold is 4 all the turn
    (1, "action", [], ["take_gold", "draw_cards", "end_turn"], [1, 2, 3]),     # the next turn numbers anew
    (1, "action", [], ["end_turn", "take_gold"], [1, 2]),                      # a menu with nothing used: a new turn
]


def test_a_turns_menu_keeps_each_options_number_and_leaves_a_gone_ones_out():
    from meeple.play.agents import MenuNumbers
    menus = MenuNumbers()
    for player, kind, used, keys, numbers in MERCHANT_TURN:
        assert menus.numbers(_Menu(player, kind, used, keys)) == numbers, keys


# a choice asked again of the same player: (player, prompt, keys, values (the dice's card
# indices), the numbers shown). A die keeps its number though its key grows shorter once its
# twin is taken (red_die@P1=2 -> red_die), another prompt or a choice sharing no option
# with the last asking is numbered anew
GROUP_OF_DICE = [
    (0, "add a die to the group", ["red_die@P1=6", "red_die@P1=2", "skip"], [17, 18, "\x00skip"], [1, 2, 3]),
    (0, "add a die to the group", ["skip", "red_die"], ["\x00skip", 18], [3, 2]),
    (0, "where the citizen comes from", ["from hand", "from a building"], ["from hand", "from a building"], [1, 2]),
    (0, "add a die to the group", ["white_die", "skip"], [21, "\x00skip"], [1, 2]),   # a new group: one option again
    (0, "add a die to the group", ["yellow_die", "skip"], [5, "\x00skip"], [3, 2]),   # the group goes on
    (1, "add a die to the group", ["yellow_die", "skip"], [5, "\x00skip"], [1, 2]),   # another player's
]


def test_a_choice_asked_again_keeps_each_options_number():
    from meeple.play.agents import MenuNumbers
    menus = MenuNumbers()
    for player, prompt, keys, values, numbers in GROUP_OF_DICE:
        assert menus.numbers(_Menu(player, "choose", None, keys, prompt, values)) == numbers, keys


def test_a_human_reads_the_turns_numbers_and_answers_by_them():
    from meeple.play.agents import HumanAgent
    options = [["build:tavern", "Build: Tavern"], ["income", "Collect income"], ["end_turn", "End turn"]]
    view = {"decision": {"prompt": "choose an action", "numbers": [5, 3, 6]}}
    for typed, index in (("3", 1), ("5", 0), ("end_turn", 2)):
        said: list[str] = []
        answers = iter(["1", typed])
        assert HumanAgent(0, ask=lambda _: next(answers), echo=said.append).choose(view, options) == index
        assert said[1:] == ["   3. Collect income   [income]", "   5. Build: Tavern   [build:tavern]",
                            "   6. End turn   [end_turn]",
                            "'1' is not one of the options: give one of the numbers shown (3, 5-6) or a key in brackets"]
    helped: list[str] = []
    answers = iter(["? 6", "6"])
    HumanAgent(0, ask=lambda _: next(answers), echo=lambda _: None,
               helper=lambda answer, opts: helped.append(answer) or "").choose(view, options)
    assert helped == ["? 3"]            # '? 6' is the option numbered 6, the third in the menu


def test_a_menu_without_keys_shows_numbers_only_and_still_takes_a_key():
    """Another language than English (the table sets ``keys``): no key in brackets, the
    wrong-answer line asks for a number, and a typed key is still the option it names."""
    from meeple.play.agents import HumanAgent
    options = [["hire", "雇う、支払い フロリン 1"], ["administration", "業務"]]
    said: list[str] = []
    answers = iter(["zz", "administration"])
    human = HumanAgent(0, ask=lambda _: next(answers), echo=said.append)
    human.keys, human.lang = False, "ja"
    assert human.choose({"decision": {"prompt": "ダイスの使い道"}}, options) == 1
    assert said == ["\nP1, ダイスの使い道:", "   1. 雇う、支払い フロリン 1", "   2. 業務",
                    "'zz' は選択肢にありません: 1-2の番号を入力してください"]


# ---------------------------------------------------------------- resources by their names
@pytest.mark.parametrize("pack, lang, names", [
    ("troyes", "en", ["deniers", "influence", "victory points", "deniers in the square"]),     # not 'vp', 'square'
    ("signorie", "en", ["florins", "victory points", "brides on board", "dice taken total"]),     # and a zone's total (view: totals)
    ("citadels", "en", ["gold", "score"]),
    ("citadels", "ja", ["金貨", "得点"]),
])
def test_the_standing_and_the_board_name_resources_as_the_pack_does(pack, lang, names):
    from meeple.play.terminal import TerminalView
    from meeple.runtime.game import load_game
    game = load_game(pack)
    st = game.new_state(2, 1)
    view = TerminalView(game, width=200, lang=lang)
    first = view.standing(st).split(" | ")[0]
    assert first.startswith("  -- P1 ")
    if pack == "signorie":      # the total with the bound it is read against, then the names alone
        assert first.endswith("dice taken total 0 (the reward: at most 13)")
        first = first[:-len(" (the reward: at most 13)")]
    assert [part.rsplit(" ", 1)[0] for part in first[len("  -- P1 "):].split(", ")] == names
    board = view.board(st, 0)
    for line in view.own:
        if line.what == "resource":
            assert f"  {view.zone_name(line.name)} " in board, board


# ---------------------------------------------------------------- events carry what a modder needs
def test_a_mod_can_say_when_another_of_your_districts_is_destroyed():
    """tests/packs/memorial: 'when the Warlord destroys another of your districts, take 1
    gold', written with the event's ``owner`` (the district has left the city when the
    event is heard, so ``holder(district)`` no longer says whose it was)."""
    mod = ROOT / "tests" / "packs" / "memorial"
    r = run("test", mod / "tests")
    assert r.exit_code == ExitCode.OK, r.output
    assert r.output.strip().endswith("3 passed, 0 failed")
    from meeple.runtime.game import load_game
    events = {e.name: [p.name for p in e.params] for e in load_game(str(mod)).defn.events}
    assert events["destroyed"] == ["district", "by", "owner"]


def test_dark_citys_crown_passed_names_who_held_the_crown():
    from meeple.runtime.game import load_game
    events = {e.name: [p.name for p in e.params] for e in load_game("citadels-dark-city").defn.events}
    assert events["crown_passed"] == ["to", "previous"]


# ---------------------------------------------------------------- a fresh mod
@pytest.mark.parametrize("base", ["citadels", "troyes"])
def test_a_fresh_mod_suggests_only_mine_and_its_examples_are_in_no_figure(base, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = run("new-pack", "mymod", "--extends", base)
    assert made.output.strip().splitlines()[-1] == "next: meeple validate mymod --only-mine; meeple test mymod/tests"
    assert "`meeple validate mymod --only-mine`" in (tmp_path / "mymod" / "README.md").read_text()
    checked = run("validate", "mymod", "--only-mine")
    assert checked.exit_code == 0 and "warning" not in checked.output, checked.output
    assert len(checked.output.strip().splitlines()) == 2          # the load order and the mod's own line
    ran = run("simulate", "mymod", "-n", 3, "-p", 2, "--workers", 1, "--format", "json", "--no-metrics")
    assert ran.exit_code == 0 and "example_" not in ran.output
    assert "example_" in (tmp_path / "mymod" / f"{'district' if base == 'citadels' else 'event'}.yaml").read_text()
    diffed = run("diff", base, "mymod")
    assert diffed.exit_code == 0 and "example_" not in diffed.output and diffed.output.strip().endswith("no differences")
    compared = run("compare", base, "mymod", "-n", 2, "-p", 2, "--workers", 1, "--no-metrics", "--full")
    assert compared.exit_code == 0 and "example_" not in compared.output


def test_a_card_whose_copies_go_to_0_is_a_change_diff_lists(tmp_path):
    from meeple.authoring.diff import diff_packs
    from meeple.runtime.game import load_game
    base = load_game("citadels", generate=False)
    variant = load_game("citadels", ("keep.copies=0",), generate=False)
    changed = diff_packs(base.pack, variant.pack)["cards"]["changed"]
    assert [(c["id"], [(x["key"], x["from"], x["to"]) for x in c["changes"]]) for c in changed] == [("keep", [("copies", 2, 0)])]
