"""meeple tune: a planted optimum found and confirmed, a parameter no rule reads never
called better, the same spec and seed giving the same trials (resumed or not), a
setting's blocks never played twice, the spec's errors all at once, the patch it
writes, and Optuna kept optional.

The test pack tests/packs/headstart is a planted optimum: the first player starts 2
points up, the second 'head_start' points (0 as written), then both score alike, so the
seats are exactly fair at head_start 2 (and 'unused' is read by no rule). Its games are
tiny (2 players, 2 rounds): a tune here plays a few thousand games in about a second.
"""
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from meeple.cli import ExitCode, main
from meeple.runtime.game import load_game
from meeple.workbench import tune as T
from meeple.workbench.simulate import SimConfig, run as run_games
from meeple.workbench.tunespec import read_spec

PACK = Path(__file__).parent / "packs" / "headstart"


def spec_file(tmp_path: Path, parameters: str, objective: str = "- seats: {}", extra: str = "", name: str = "fair.yaml") -> Path:
    path = tmp_path / name
    path.write_text(f"kind: tune\npack: {PACK}\nplayers: 2\nparameters:\n{parameters}\nobjective:\n  {objective}\n"
                    f"search: {{block: 40, blocks: 5}}\nconfirm: {{candidates: 2, games: 200}}\n{extra}", encoding="utf-8")
    return path


def tuned(path: Path, **kwargs) -> tuple[T.Tuner, dict]:
    spec, game = read_spec(str(path))
    tuner = T.Tuner(spec, game, **kwargs)
    return tuner, T.tune(tuner)


def trials_of(d: dict) -> list:
    return [(r["values"], r["objective"], r["state"], r["blocks"]) for r in d["trials"]]


def test_a_planted_optimum_is_found_and_confirmed(tmp_path):
    tuner, d = tuned(spec_file(tmp_path, "  head_start: [0, 1, 2, 3, 4]"))
    assert d["search"] == "grid" and [r["values"]["head_start"] for r in d["trials"]] == [0, 1, 2, 3, 4]
    best = min((r for r in d["trials"] if r["state"] == "complete"), key=lambda r: r["objective"])
    assert best["values"] == {"head_start": 2}
    assert d["chosen"]["values"] == {"head_start": 2} and d["chosen"]["supported"] and d["chosen"]["ci"][0] > 0
    # the as-written setting is the reference, never a candidate
    assert all(c["values"] != {"head_start": 0} for c in d["confirmations"])
    # a setting far from the best is pruned before its last block (Wilcoxon, on the same blocks)
    assert any(r["state"] == "pruned" and r["blocks"] < 5 for r in d["trials"])
    # the objective against the parameter: one row per value, the planted one best
    rows = d["by_parameter"]["head_start"]
    assert [r["value"] for r in rows] == [0, 1, 2, 3, 4] and min(rows, key=lambda r: r["best"])["value"] == 2


def test_a_parameter_no_rule_reads_gives_no_confirmed_winner(tmp_path):
    _, d = tuned(spec_file(tmp_path, "  unused: [1, 3, 5]"))
    # the same games whatever its value: every setting has the same objective, and the
    # confirmation finds an improvement of exactly 0 (an interval of 0 is not above 0)
    assert len({r["objective"] for r in d["trials"]}) == 1
    assert d["confirmations"] and all(c["improvement"] == 0 and c["ci"] == [0, 0] and not c["supported"]
                                      for c in d["confirmations"])
    assert d["chosen"] is None


TPE = "  head_start: {low: 0, high: 8}\n  unused: {low: 0, high: 9}"     # 90 settings: more than 'trials', so TPE


def test_the_same_spec_and_seed_give_the_same_trials(tmp_path):
    extra = "search: {block: 40, blocks: 3, trials: 8}\n"
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    text = spec_file(a, TPE).read_text().replace("search: {block: 40, blocks: 5}\n", extra)
    (a / "fair.yaml").write_text(text)
    (b / "fair.yaml").write_text(text)
    _, da = tuned(a / "fair.yaml")
    _, db = tuned(b / "fair.yaml")
    assert da["search"] == "tpe" and len(da["trials"]) == 8
    assert trials_of(da) == trials_of(db) and da["confirmations"] == db["confirmations"]
    # another seed, other trials
    spec, game = read_spec(str(b / "fair.yaml"))
    other = T.Tuner(replace(spec, seed=7), game)
    assert [t.values for t in other.search()] != [tuple(r["values"].values()) for r in da["trials"]]


def test_a_study_stopped_and_resumed_gives_the_same_trials_and_replays_no_block(tmp_path, monkeypatch):
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    whole.mkdir()
    stopped.mkdir()
    text = spec_file(whole, TPE).read_text().replace("blocks: 5}", "blocks: 4, trials: 6}")
    (whole / "fair.yaml").write_text(text)
    (stopped / "fair.yaml").write_text(text)
    uninterrupted, d = tuned(whole / "fair.yaml")

    blocks = {"n": 0}
    play = T.Tuner._play_block

    def stop_at_the_tenth(self, values, b):
        blocks["n"] += 1
        if blocks["n"] == 10:
            raise KeyboardInterrupt
        return play(self, values, b)
    monkeypatch.setattr(T.Tuner, "_play_block", stop_at_the_tenth)
    spec, game = read_spec(str(stopped / "fair.yaml"))
    first = T.Tuner(spec, game)
    with pytest.raises(KeyboardInterrupt):
        first.search()
    monkeypatch.setattr(T.Tuner, "_play_block", play)
    done = len(first.trials())
    assert 0 < done < 6
    second = T.Tuner(spec, game)
    resumed = T.tune(second)
    assert trials_of(resumed) == trials_of(d)
    # the trial Ctrl-C stopped took its finished blocks from the study, not from new games
    assert any(r["cached_blocks"] > 0 for r in resumed["trials"])
    assert first.played + second.played == uninterrupted.played


def test_spec_errors_are_all_reported_at_their_place(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(f"kind: tune\npack: {PACK}\nplayers: 5\nparameters:\n  head_strat: [1, 2]\n  marker.copies: [-1]\n"
                    "objective:\n  - cards: {zone: marker in nowhere}\n  - length: {weight: 2}\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["tune", str(path)], catch_exceptions=False)
    assert r.exit_code == ExitCode.CONTENT_INVALID
    out = r.output
    assert f"{path}:3:10: error: headstart is for 2-2 players, not 5" in out
    assert f"{path}:5:" in out and "head_strat" in out and "did you mean 'head_start'?" in out
    assert f"{path}:6:" in out and "copies" in out
    assert f"{path}:8:" in out and "no zone kind 'marker in nowhere'" in out
    assert f"{path}:9:" in out
    assert "Traceback" not in out
    schema_broken = tmp_path / "schema.yaml"
    schema_broken.write_text("kind: tune\npack: citadels\nplayers: two\nobjective: []\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["tune", str(schema_broken)], catch_exceptions=False)
    assert r.exit_code == ExitCode.CONTENT_INVALID
    assert f"{schema_broken}:3:10" in r.output and "parameters" in r.output and f"{schema_broken}:4:" in r.output


def test_the_command_reports_and_writes_the_patch_that_plays_as_the_set_does(tmp_path):
    path = spec_file(tmp_path, "  head_start: [0, 2, 4]")
    patch = tmp_path / "patch"
    r = CliRunner().invoke(main, ["tune", str(path), "--workers", "2", "--write-patch", str(patch)], catch_exceptions=False)
    assert r.exit_code == ExitCode.OK, r.output
    assert r.output.startswith("better: head_start=2: ")
    assert "confirmation: each against the pack as written" in r.output and (tmp_path / "fair.tune-journal").is_file()
    # the patch extends the pack and gives the very games --set head_start=2 gives
    assert sorted(p.name for p in patch.iterdir()) == ["pack.yaml", "rules.yaml"]
    cfg = SimConfig(str(PACK), 20, 2, 3)
    with_set = [o.scores for o in run_games(cfg, game=load_game(str(PACK), ("head_start=2",)))]
    assert [o.scores for o in run_games(cfg, game=load_game(str(patch)))] == with_set
    # run again: the study is finished, nothing of the search is played again
    again = CliRunner().invoke(main, ["tune", str(path), "--format", "json"], catch_exceptions=False)
    d = json.loads(again.output)
    assert d["games_played"] == 2 * 200 * len(d["confirmations"]) and d["chosen"]["values"] == {"head_start": 2}


def test_without_optuna_tune_says_how_to_install_it_and_nothing_else_imports_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)           # import optuna now fails
    r = CliRunner().invoke(main, ["tune", str(spec_file(tmp_path, "  head_start: [0, 2]"))], catch_exceptions=False)
    assert r.exit_code == ExitCode.USAGE and "pip install 'meeple[tune]'" in r.output
    code = ("import sys, meeple, meeple.cli, meeple.workbench.compare, meeple.workbench.simulate\n"
            "from click.testing import CliRunner\n"
            "CliRunner().invoke(meeple.cli.main, ['--help'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('optuna', 'scipy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
