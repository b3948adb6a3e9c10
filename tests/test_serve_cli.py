"""The ``meeple serve`` command: a plain install without the extra says how to get it;
the command prints a link per seat and listens on 127.0.0.1 unless told otherwise;
bad arguments are usage errors."""
from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from meeple.cli import main


def test_without_the_extra_it_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "starlette", None)       # import starlette now fails
    result = CliRunner().invoke(main, ["serve", "citadels", "--players", "3"])
    assert result.exit_code == 2
    assert "pip install 'meeple[web]'" in result.output and "Traceback" not in result.output


def test_it_needs_a_game_or_a_log():
    pytest.importorskip("starlette", reason="meeple serve needs the extra meeple[web]")
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2 and "--log FILE" in result.output


def _served(monkeypatch, args):
    uvicorn = pytest.importorskip("uvicorn", reason="meeple serve needs the extra meeple[web]")
    pytest.importorskip("starlette", reason="meeple serve needs the extra meeple[web]")
    from meeple.web import app as web_app
    ran = {}

    def serve(server, host, port):
        ran.update(app=web_app.make_app(server), host=host, port=port)
    monkeypatch.setattr(web_app, "serve", serve)
    result = CliRunner().invoke(main, ["serve", *args])
    return result, ran


def test_a_link_per_seat_on_127_0_0_1(monkeypatch):
    result, ran = _served(monkeypatch, ["citadels", "--players", "3", "--bots", "human,human,random", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert ran["host"] == "127.0.0.1" and ran["port"] == 8000
    links = [ln for ln in result.output.splitlines() if "/s/" in ln]
    assert [ln.split(":")[0].strip() for ln in links] == ["P1 (human)", "P2 (human)", "P3 (random)", "spectator"]
    assert "seed" not in result.output.lower().replace("--seed", "")


def test_a_log_replayed_and_bad_ones_refused(monkeypatch, tmp_path):
    from meeple.play.session import make_log
    from meeple.runtime.game import load_game
    game = load_game("signorie")
    st = game.new_state(2, 9)
    while not st.over:
        game.apply(st, 0)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(make_log(game, st, 9, "signorie")))
    result, ran = _served(monkeypatch, ["--log", str(path), "--table-view"])
    assert result.exit_code == 0 and "table view" in result.output, result.output
    path.write_text("{\"meeple_log\": 1}")
    result, _ = _served(monkeypatch, ["--log", str(path)])
    assert result.exit_code == 1 and "error" in result.output and "Traceback" not in result.output
    result, _ = _served(monkeypatch, ["citadels", "--players", "9"])
    assert result.exit_code == 2


def test_a_game_of_a_records_run(monkeypatch, tmp_path):
    """Game 1 of a simulate --records run, played again with its bots, is replayed; a
    records file whose scores the game does not reach is refused, saying why."""
    records = tmp_path / "records.csv"
    run = CliRunner().invoke(main, ["simulate", "signorie", "--players", "2", "--games", "2", "--seed", "3", "--workers", "1",
                                    "--bots", "random", "--records", str(records)])
    assert run.exit_code == 0, run.output
    result, ran = _served(monkeypatch, ["signorie", "--records", str(records), "--game", "1"])
    assert result.exit_code == 0 and "P1 (replay)" in result.output, result.output
    server = ran["app"].app.state.server
    assert server.tables[0].st.over and server.tables[0].line.seed == 3 * 1_000_003 + 1
    import csv
    rows = list(csv.reader(records.read_text().splitlines()))
    rows[1][4] = str(int(rows[1][4]) + 1)        # game 0, P1's score
    with records.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    result, _ = _served(monkeypatch, ["signorie", "--records", str(records), "--game", "0"])
    assert result.exit_code == 1 and "the records" in result.output
