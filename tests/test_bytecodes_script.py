"""benchmarks/bytecodes.py: a decision's work by function, counted. The count is the
same for the same code, seed and choices (what makes two checkouts comparable)."""
import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bytecodes.py"
spec = importlib.util.spec_from_file_location("bytecodes_script", SCRIPT)
bytecodes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bytecodes)


def test_the_count_is_the_same_twice_and_led_by_the_run_loop(capsys):
    assert bytecodes.main(["citadels", "--players", "2", "--games", "1", "--top", "3"]) == 0
    first = capsys.readouterr().out.splitlines()
    bytecodes.main(["citadels", "--players", "2", "--games", "1", "--top", "3"])
    assert capsys.readouterr().out.splitlines() == first
    assert first[0].startswith("citadels 2p, 1 games, random, ") and first[0].endswith(" bytecodes a decision")
    assert len(first) == 4 and any("flow.py" in line and ":run" in line for line in first[1:])


def test_bad_counts_are_refused(capsys):
    with pytest.raises(SystemExit):
        bytecodes.main(["citadels", "--games", "0"])
    assert "--games, --players and --decisions must be at least 1" in capsys.readouterr().err


def test_a_bots_decisions_are_counted_alone(capsys):
    """Only the bot's own deciding is traced: a greedy decision plays every option on a
    copy, so it counts many times a random decision's work, and its own loop is in it."""
    assert bytecodes.main(["citadels", "--players", "2", "--games", "1", "--bot", "greedy", "--decisions", "3",
                           "--top", "40"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("citadels 2p, 1 games, greedy in seat 1, 3 decisions: ")
    per_decision = int(out[0].rsplit(": ", 1)[1].split()[0].replace(",", ""))
    bytecodes.main(["citadels", "--players", "2", "--games", "1", "--top", "0"])
    random_one = int(capsys.readouterr().out.splitlines()[0].rsplit(": ", 1)[1].split()[0].replace(",", ""))
    assert per_decision > 5 * random_one
    assert any("bots.py" in line and ":choose" in line for line in out[1:])
