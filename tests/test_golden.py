"""Golden playthroughs: every stored game (tests/golden/, one per shipped pack
and player count, plus a few with options) is played again and must go
exactly the same way.

Why: the engine is being rewritten for speed; a rewrite must not change any
decision, score or final state. (a) Replaying the stored choice indices from
the stored seed must offer, at every decision, the stored chooser and key and
end in the same scores, ranking and state hash; (b) the game the seeded random
chooser plays (shipped_games.played, the game tests/test_conformance.py checks at
every step: played once a session) must have the stored log, which also says that
checking a game does not change it. A failure names the first decision that differs. Regenerate with ``python tools/golden.py --write``
only when the change of behaviour is intended (a rule change).
"""
from __future__ import annotations

import copy

import pytest

import golden_games as G
from shipped_games import played

SPECS = G.all_specs()
IDS = [f"{s.pack}-{s.name}" for s in SPECS]


def fail(spec: G.Spec, what: str) -> None:
    pytest.fail(f"golden game {spec.describe()} differs at {what}\n{G.REGENERATE}", pytrace=False)


def stored(spec: G.Spec) -> dict:
    data = G.stored_games(spec.pack).get(spec.name)
    if data is None:
        fail(spec, f"nothing: no stored game '{spec.name}' in {G.path_of(spec.pack)}")
    return data


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_stored_choices_replay_to_the_same_game(spec: G.Spec) -> None:
    data = stored(spec)
    assert (data["players"], data["seed"], data["options"]) == (spec.players, spec.seed, dict(spec.options))
    assert data["decisions"] == len(data["log"])
    diff, st = G.replay(spec, data)
    if diff is None:
        diff = G.final_difference(data, st)
    if diff:
        fail(spec, diff)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_seeded_random_play_reproduces_the_stored_log(spec: G.Spec) -> None:
    data = stored(spec)
    st = played(spec)
    diff = G.first_log_difference(data["log"], st.log)
    if diff:
        fail(spec, f"{diff} (seeded random chooser)")


def test_every_pack_and_player_count_has_a_golden_game() -> None:
    """A pack or player count added later gets a golden game too (or this fails)."""
    missing = [f"{s.pack} {s.name}" for s in SPECS if s.name not in G.stored_games(s.pack)]
    assert not missing, f"no golden game for {', '.join(missing)}: record them with `python tools/golden.py --write`"
    for pack in {s.pack for s in SPECS}:
        extra = set(G.stored_games(pack)) - {s.name for s in SPECS if s.pack == pack}
        assert not extra, f"{G.path_of(pack)} holds games no longer played ({sorted(extra)}): `python tools/golden.py --write`"


def _tool():
    """tools/golden.py, imported from its path (tools/ is not a package)."""
    import importlib.util
    path = G.GOLDEN_DIR.parent.parent / "tools" / "golden.py"
    spec = importlib.util.spec_from_file_location("golden_tool", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tool_reports_the_first_difference_and_exits_1(monkeypatch, capsys) -> None:
    """`tools/golden.py --check` passes on the stored games and, on a game whose
    stored key at decision 5 is altered, names that decision and exits 1."""
    tool = _tool()
    assert tool.main(["--check", "troyes"]) == 0
    games = copy.deepcopy(G.stored_games("troyes"))
    entry = games["2p"]["log"][4]
    entry[2] = "not-" + entry[2]
    monkeypatch.setattr(G, "stored_games", lambda pack: games)
    assert tool.main(["--check", "troyes"]) == 1
    out = capsys.readouterr().out
    assert "troyes 2p" in out and f"decision 5: expected P{entry[0] + 1} option {entry[1]} 'not-" in out
    assert "python tools/golden.py --write" in out


def test_a_different_final_state_is_reported_even_with_the_same_log() -> None:
    spec = next(s for s in SPECS if s.pack == "signorie")
    data = dict(G.stored_games(spec.pack)[spec.name], state_sha256="0" * 64)
    diff, st = G.replay(spec, data)
    assert diff is None
    assert G.final_difference(data, st).startswith("final state hash: expected 0000")
