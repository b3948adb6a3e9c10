"""The meeple CLI, through click's CliRunner: exit codes and outputs."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import ExitCode, main


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
    return invoke


def test_validate_shipped_pack(run):
    r = run("validate", "citadels")
    assert r.exit_code == ExitCode.OK
    assert "citadels: valid (citadels 1.0.0: 8 character, 66 district;" in r.output
    assert "18 provisional value(s)" in r.output


def test_validate_json(run):
    r = run("validate", "citadels", "--format", "json")
    data = json.loads(r.output)
    assert data["valid"] is True and data["errors"] == [] and len(data["warnings"]) == 18


def test_validate_unknown_pack_is_a_usage_error(run):
    r = run("validate", "citadles")
    assert r.exit_code == ExitCode.USAGE
    assert "did you mean 'citadels'?" in r.output


def test_play_log_replay(run, tmp_path):
    log = tmp_path / "game.json"
    r = run("play", "citadels", "--players", 3, "--seed", 5, "--bots", "random", "--quiet", "--log", log)
    assert r.exit_code == 0, r.output
    assert "final scores after" in r.output and "winner" in r.output
    r2 = run("replay", log)
    assert r2.exit_code == 0, r2.output
    assert "identical" in r2.output
    data = json.loads(log.read_text())
    data["choices"][3][1] = (data["choices"][3][1] + 1) % 2
    log.write_text(json.dumps(data))
    r3 = run("replay", log)
    assert r3.exit_code == ExitCode.CONTENT_INVALID
    assert "replay diverged: choice 4" in r3.output


def test_play_refuses_a_player_count_outside_the_rules(run):
    r = run("play", "citadels", "--players", 9, "--bots", "random")
    assert r.exit_code == ExitCode.USAGE
    assert "2-7 players" in r.output


def test_human_play_through_prompts(run):
    from answering import first_shown
    with first_shown() as shown:
        r = CliRunner().invoke(main, ["play", "citadels", "-p", "2", "--seed", "1", "--bots", "human,random"])
    assert r.exit_code == 0, r.output[-2000:]
    assert any(min(numbers) > 1 for numbers in shown)      # a turn's menu kept its numbers as options went
    assert "P1, choose a character:" in r.output and "final scores" in r.output


def test_simulate_json_is_independent_of_workers(run):
    one = json.loads(run("simulate", "citadels", "-n", 40, "-p", 4, "--seed", 3, "--workers", 1, "--format", "json").output)
    two = json.loads(run("simulate", "citadels", "-n", 40, "-p", 4, "--seed", 3, "--workers", 2, "--format", "json").output)
    assert one["games_per_second"] > 0
    for key in ("seats", "cards", "mean_rounds", "mean_decisions", "score_spread", "first_player"):
        assert one[key] == two[key]
    assert len(one["seats"]) == 4
    assert {r["card"] for r in one["cards"]["character in picked"]} == {
        "assassin", "thief", "magician", "king", "bishop", "merchant", "architect", "warlord"}
    seat = one["seats"][0]
    assert 0 <= seat["win_ci"][0] <= seat["win_rate"] <= seat["win_ci"][1] <= 1


def test_simulate_text(run):
    r = run("simulate", "citadels", "-n", 10, "-p", 5)
    assert r.exit_code == 0
    assert "10 games of citadels with 5 players" in r.output and "win rate" in r.output
    assert "character in acting" in r.output and "district in city" in r.output


def test_cards_list_show_and_provisional(run):
    assert "warlord" in run("cards", "citadels").output
    shown = run("cards", "citadels", "keep", "--lang", "ja").output
    assert "見張り台  [keep]" in shown and "indestructible: True" in shown
    prov = run("cards", "citadels", "--provisional").output
    assert "observatory.cost:" in prov and prov.strip().endswith("18 provisional value(s)")


def test_cards_keeps_the_designers_notes_for_who_asks(run):
    """A player reading `meeple cards` sees a mark and one footer, not a note on every
    card; --provisional (of every card, or of one) keeps the designer's view."""
    listed = run("cards", "troyes").output.splitlines()
    assert "  priest             Priest           x1  colour white, level 1, cost 4, divisor 4, slot1 2, slot2 1, fewer False, " \
           "delayed True, modifies yellow  *" in listed
    assert [line for line in listed if "provisional" in line] == [
            "* 59 cards with provisional values (not settled by the sources): meeple cards troyes --provisional"]
    shown = run("cards", "troyes", "priest").output.splitlines()
    assert [line for line in shown if "provisional" in line] == [
        "  8 provisional values (name.ja, cost, divisor, slot1, slot2, slot3, level, delayed): "
        "meeple cards troyes priest --provisional"]
    one = run("cards", "troyes", "priest", "--provisional").output.splitlines()
    assert one[-1] == "8 provisional value(s)" and all(line.startswith("priest.") for line in one[:-1])
    assert "priest.cost: not in the public sources: a plausible value  (content/troyes/activities.yaml:" in "\n".join(one)
    assert run("cards", "citadels", "kep").exit_code == ExitCode.USAGE


def test_schema(run):
    r = run("schema", "cards")
    assert json.loads(r.output)["$id"].endswith("cards.schema.json")
    assert run("schema", "nope").exit_code == ExitCode.USAGE


def test_test_command(run, tmp_path):
    ok = run("test", "tests/scenarios/readme/example.yaml")
    assert ok.exit_code == 0 and "1 passed, 0 failed" in ok.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "kind: scenario\npack: citadels\nplayers: 4\nseed: 1\nscenarios:\n"
        "  - name: wrong expectation\n    steps:\n      - expect: gold of player(1) == 3\n")
    r = run("test", bad)
    assert r.exit_code == ExitCode.CONTENT_INVALID
    assert f"FAIL {bad}:8:17: wrong expectation: expectation failed: gold of player(1) == 3 (left side is 2, right side is 3)" in r.output


def test_planning_bots_give_the_same_results_with_any_number_of_workers(run):
    args = ("simulate", "citadels", "-n", 12, "-p", 3, "--seed", 5, "--bots", "greedy,mcts:5,random", "--format", "json")
    one = json.loads(run(*args, "--workers", 1).output)
    two = json.loads(run(*args, "--workers", 2).output)
    for key in ("seats", "cards", "mean_rounds", "mean_decisions"):
        assert one[key] == two[key]


def test_play_with_planning_bots(run):
    r = run("play", "citadels", "-p", 2, "--seed", 1, "--bots", "mcts:10,greedy", "--quiet")
    assert r.exit_code == 0 and "final scores" in r.output, r.output


def test_play_asks_again_after_a_refusal(run, tmp_path):
    """A 'require' that fails during 'meeple play' is printed, and the game goes on."""
    import shutil
    pack = tmp_path / "pack"
    shutil.copytree(Path(__file__).parent / "content" / "valid" / "minimal", pack)
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace("        move c to hand\n", "        require c.cost < 3 \"the crown is too dear\"\n        move c to hand\n"))
    r = run("play", str(pack), "-p", 2, "--seed", 3, "--bots", "random,random")
    assert r.exit_code == 0, r.output
    assert "refused: the crown is too dear" in r.output and "final scores" in r.output
