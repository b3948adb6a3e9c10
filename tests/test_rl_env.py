"""Every shipped pack as a PettingZoo environment (meeple.rl, issue 26): PettingZoo's own
API and seed tests at each pack's smallest and largest player count, the game reset(seed)
starts, a game driven through the environment replaying as a meeple log, observations
made from the seat's view only, the action catalogue and its errors, refusals."""
from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the rl extra (pip install -e '.[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pip install -e '.[rl]') is not installed")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import meeple.rl as rl  # noqa: E402
from meeple.core.errors import MeepleError  # noqa: E402
from meeple.loading.folders import shipped_packs  # noqa: E402
from meeple.play.session import replay  # noqa: E402
from meeple.rl import catalogue as C  # noqa: E402
from meeple.runtime.redeal import determinize  # noqa: E402
from golden_games import game_of  # noqa: E402

PACKS = sorted(shipped_packs())
USAGE = str(Path(__file__).parent / "packs" / "usage")
COUNTS = [(p, n) for p in PACKS for n in sorted({game_of(p).min_players, game_of(p).max_players})]


def masked_random(env, rng: random.Random, limit: int = 100_000) -> dict:
    """Play the environment to its end with a masked random policy; the rewards each agent got."""
    got = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, _ = env.last()
        got[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return got


@pytest.mark.parametrize("pack, players", COUNTS, ids=[f"{p}-{n}" for p, n in COUNTS])
def test_pettingzoo_api_and_seed_tests(pack, players):
    env = rl.env(game_of(pack), players)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # its notes on a dict observation (the masked form it asks for)
        api_test(env, num_cycles=1000)
    seed_test(lambda: rl.env(game_of(pack), players), num_cycles=200)
    assert env.observation_space("player_0") is env.observation_space("player_0")


def test_reset_starts_the_game_meeple_play_starts_and_a_driven_game_replays():
    game = game_of("citadels")
    env = rl.env(game, 4)
    env.reset(seed=11)
    assert env.state == game.new_state(4, 11)          # `meeple play --seed 11`'s first state
    rewards = masked_random(env, random.Random(3))
    assert env.state.over and all(env.terminations.values()) and not env.agents
    log = env.meeple_log()
    again = replay(game, json.loads(json.dumps(log)))
    assert again == env.state and again.scores == log["scores"]
    winners = game.winners(env.state)
    assert rewards == {f"player_{p}": (1 / len(winners) if p in winners else 0.0) for p in range(4)}


def test_score_reward_and_index_actions():
    game = game_of("signorie")
    env = rl.env(game, 2, reward="score", actions="index")
    env.reset(seed=5)
    assert env.action_space("player_0").n == C.for_game(game).max_options
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, _ = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert list(np.flatnonzero(obs["action_mask"])) == list(range(env.state.pending.count()))
        env.step(0)
    s = env.state.scores
    assert [rewards[a] for a in env.possible_agents] == [s[0] - s[1], s[1] - s[0]]


@pytest.mark.parametrize("pack", PACKS)
def test_a_seat_gets_the_same_observation_of_states_it_cannot_tell_apart(pack):
    """A re-deal of what the deciding seat cannot see (the planning bots' honest re-deal:
    hands, face-down piles, decks) leaves that seat's observation unchanged."""
    game = game_of(pack)
    players = game.min_players + 1 if game.max_players > game.min_players else game.min_players
    table = rl.make_table(game, players)
    st = game.new_state(players, 2)
    rng = random.Random(0)
    for _ in range(12):
        game.apply(st, rng.randrange(st.pending.count()))
    seat = st.pending.player
    dealt = 0
    for k in range(5):
        twin = determinize(game, st, seat, random.Random(k))
        dealt += twin.zones != st.zones
        assert np.array_equal(table.observe(twin, seat), table.observe(st, seat))
    assert dealt         # the samples did differ from the truth


def test_another_seat_may_tell_the_re_dealt_states_apart():
    """Citadels hides hands: a re-deal for P-deciding changes what another seat sees of
    its own hand (so the test above can fail)."""
    game = game_of("citadels")
    table = rl.make_table(game, 4)
    st = game.new_state(4, 2)
    rng = random.Random(0)
    for _ in range(12):
        game.apply(st, rng.randrange(st.pending.count()))
    seat = st.pending.player
    other = (seat + 1) % 4
    twins = [determinize(game, st, seat, random.Random(k)) for k in range(5)]
    assert any(not np.array_equal(table.observe(t, other), table.observe(st, other)) for t in twins)


def test_the_observation_is_read_through_the_seats_sight(monkeypatch):
    """A sight that lists no zone's cards (as the observer's view would then show them:
    sizes only) gives the seat nothing to read of them: the vector is read through the
    sight (and is the view's vector: tests/test_rl_observation.py)."""
    from meeple.runtime.views import Observer, SeenZone, Sight
    game = game_of("citadels")
    st = game.new_state(3, 1)
    before = rl.make_table(game, 3).observe(st, 0)
    real = Observer.sight

    def blind(self, players, seat):
        s = real(self, players, seat)
        return Sight(s.players, s.seat, tuple(SeenZone(z.label, z.slot, False, z.when_held) for z in s.zones), s.player_vars, s.game_vars)
    monkeypatch.setattr(Observer, "sight", blind)
    table = rl.make_table(game, 3)
    after = table.observe(st, 0)
    assert not np.array_equal(before, after) and after.sum() < before.sum()
    assert np.array_equal(after, table.observe_view(st, 0))


@pytest.mark.parametrize("games, seed", [(20, 7), pytest.param(1000, 1, marks=pytest.mark.slow, id="1000-games")])
@pytest.mark.parametrize("pack", PACKS)
def test_the_catalogue_covers_random_games(pack, games, seed):
    """Every key met in random games is in the catalogue: a brief run here, the full 1,000
    games a pack opt-in (slow)."""
    game = game_of(pack)
    cat = C.for_game(game)
    seen, _, longest = C.seen_in_games(game, games, seed=seed)
    assert not [k for k in seen if k not in cat.index] and longest <= cat.max_options
    assert set(C.declared_keys(game)) <= set(cat.keys)        # the declarations as they are now


def test_numbers_met_only_in_games_are_kept_up_to_twice_the_greatest():
    """Troyes' 'activate how many times' met 1 to 6 in the catalogue's 1,000 random games;
    a game choosing among the menu's actions (seed 26) is offered 7 at its 91st decision.
    The catalogue keeps every number up to twice the greatest met, so the menu is actions."""
    game = game_of("troyes")
    table = rl.make_table(game, 2)
    st = game.new_state(2, 26)
    rng = random.Random(26)
    offered = []
    while not st.over and not offered:
        menu = table.menu(st)
        if st.pending.prompt == "activate how many times":
            offered = st.pending.keys()
        table.apply(st, menu, list(menu)[rng.randrange(len(menu))])
    assert offered == ["1", "2", "3", "4", "5", "6", "7"]
    assert [k for k in table.catalogue.keys if k.isdigit()] == [str(n) for n in range(1, 13)]


@pytest.mark.parametrize("pack, players", COUNTS, ids=[f"{p}-{n}" for p, n in COUNTS])
def test_a_menu_read_by_values_is_the_menu_of_the_keys(pack, players):
    """The table maps options to actions by each value's key when alone (``alone_key``,
    made once a value) where the decision's values all have different ones, else by the
    keys (Troyes' dice of one colour): the menu is the one its keys give, and the mask the
    one the menu gives, at every decision of random games; a third or more are read by
    values (else the comparison would hold for want of use), and in Troyes some by keys."""
    game = game_of(pack)
    table = rl.make_table(game, players)
    index = table.catalogue.index
    by_values = decisions = twins = 0
    for seed in range(2):
        st = game.new_state(players, seed)
        rng = random.Random(seed)
        while not st.over:
            dec = st.pending
            alone = table._alone_actions(dec)
            by_values += alone is not None and len(set(alone)) == len(alone)
            twins += alone is not None and len(set(alone)) != len(alone)
            decisions += 1
            menu = table.menu(st)
            assert menu == dict(zip(map(index.get, dec.keys()), range(dec.count())))
            mask = np.zeros(table.num_actions, dtype=np.int8)
            mask[list(menu)] = 1
            got = table.mask(menu)
            assert got.dtype == np.int8 and np.array_equal(got, mask)
            game.apply(st, rng.randrange(dec.count()))
            if st.choices() > 400:
                break
    assert by_values > decisions // 3
    if pack == "troyes":
        assert twins > 0


def without(tmp_path, game, left_out: str, **more) -> str:
    """A file of the game's catalogue less the key ``left_out`` (and with ``more`` fields)."""
    cat = C.for_game(game)
    path = tmp_path / f"{game.id}.json"
    path.write_text(json.dumps({**C.Catalogue(cat.pack_id, cat.pack_version, tuple(k for k in cat.keys if k != left_out),
                                              cat.prompts, cat.max_options, 0).to_json(), **more}))
    return str(path)


def test_a_key_missing_from_the_catalogue_names_the_command(tmp_path):
    """Troyes' 'activate how many times' (choose n from 1..most, most a number built up at
    play) is met in games only: its key left out is an error when a game offers it. A key
    the declarations give left out (Signorie's 'pass', its dowry's numbers) is one when
    the catalogue is read; so is a catalogue of another version of the pack."""
    troyes = game_of("troyes")
    path = without(tmp_path, troyes, "1")
    env = rl.env(troyes, 2, catalogue=path)
    with pytest.raises(MeepleError) as err:
        for seed in range(20):
            env.reset(seed=seed)
            masked_random(env, random.Random(seed))
    assert "option key '1' is not in the action catalogue of troyes" in str(err.value)
    assert err.value.hint == f"make it again: meeple rl catalogue troyes --file {path}"
    game = game_of("signorie")
    for key in ("pass", "1"):
        path = without(tmp_path, game, key)
        with pytest.raises(MeepleError, match=f"lacks 1 key\\(s\\) the declarations of signorie give now \\({key}\\)") as err:
            rl.env(game, 2, catalogue=path)
        assert err.value.hint == f"make it again: meeple rl catalogue signorie --file {path}"
    with pytest.raises(MeepleError, match="made for signorie 0.0.1") as err:
        rl.env(game, 2, catalogue=without(tmp_path, game, "", pack_version="0.0.1"))
    assert err.value.hint == f"make it again: meeple rl catalogue signorie --file {path}"


def test_a_refused_choice_keeps_the_agent_with_the_reason():
    """The usage test pack refuses picking a fruit worth 1 ('too small')."""
    env = rl.env(USAGE, 2)
    table = env.table
    for seed in range(40):
        env.reset(seed=seed)
        for _ in range(200):
            if not env.agents or env.terminations[env.agent_selection]:
                break
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            keys = {table.catalogue.keys[a]: a for a in np.flatnonzero(mask)}
            small = [a for k, a in keys.items() if k.startswith("pick:apple")]      # an apple is worth 1
            if small:
                choices = env.state.choices()
                env.step(small[0])
                assert env.agent_selection == agent and env.state.choices() == choices
                assert env.infos[agent]["refused"] == "too small"
                assert env.observe(agent)["action_mask"][small[0]] == 0
                return
            env.step(int(np.flatnonzero(mask)[0]))
    pytest.fail("no game offered a fruit worth 1")


def python_blocks(doc: str) -> list[str]:
    """The ```python blocks of a document, in order."""
    text = (Path(__file__).parent.parent / doc).read_text(encoding="utf-8")
    return [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]


def test_the_research_page_example_runs(capsys):
    exec(compile(python_blocks("docs/research.md")[0], "docs/research.md", "exec"), {})
    scores, returns = capsys.readouterr().out.strip().split("] ", 1)
    assert scores.startswith("[") and sum(eval(returns).values()) == pytest.approx(1.0)


@pytest.mark.parametrize("reward", ["win", "score"])
def test_a_game_at_its_decision_limit_is_truncated_not_an_error(reward):
    """Citadels ends far beyond 25 decisions: with max_decisions=25 every agent is
    truncated after the 25th, no reward (the game has no result), the scores in info."""
    game = game_of("citadels")
    env = rl.env(game, 3, reward=reward, max_decisions=25)
    env.reset(seed=4)
    rng = random.Random(1)
    rewards = masked_random(env, rng)
    st = env.state
    assert not st.over and st.choices() + st.refused == 25
    assert rewards == {a: 0.0 for a in env.possible_agents} and not env.agents
    env.reset(seed=4)
    for _ in range(25):
        assert not any(env.truncations.values())
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    for agent in env.possible_agents:
        assert env.infos[agent]["scores"] == list(env.state.scores)
        assert "limit of 25 decisions" in env.infos[agent]["truncated"]
        assert not env.observe(agent)["action_mask"].any()         # no one may choose
    with pytest.raises(ValueError, match="max_decisions"):
        rl.env(game, 3, max_decisions=0)


def endless_pack(root: Path, limit: int) -> str:
    """A pack whose game never ends (a turn of 'wait' forever: tests/content/hostile), with
    ``flow: max_decisions`` set to ``limit``."""
    import shutil
    shutil.copytree(Path(__file__).parent / "content" / "hostile" / "run_endless_actions", root / "endless")
    game_yaml = root / "endless" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "  end_when: round >= 3\n", f"  end_when: round >= 3\n  max_decisions: {limit}\n"), encoding="utf-8")
    return str(root / "endless")


def test_the_packs_own_limit_truncates_too(tmp_path):
    """A game that never ends stops at the pack's flow: max_decisions: the rules' error
    ('the game reached 40 choices') never escapes the environment, nor the making of
    its catalogue; a higher max_decisions given is the pack's."""
    env = rl.env(endless_pack(tmp_path, 40), 2, max_decisions=1000)
    assert env.table.limit == 40
    env.reset(seed=2)
    assert masked_random(env, random.Random(0)) == {"player_0": 0.0, "player_1": 0.0}
    assert env.state.choices() == 40 and not env.state.over
    assert all(env.truncations.values()) and not env.agents


def test_the_floor_benchmark_times_the_same_games_in_every_loop():
    """benchmarks/rl.py --floor: the environment with its observation free plays the
    environment's games, and with its menu and mask free as well it plays the bare loop's
    (the same decisions, one for one), so each loop's time a step is the same games' work
    less what it made free; the free vectors and masks are the layout's and catalogue's sizes."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("rl_bench", Path(__file__).resolve().parent.parent / "benchmarks" / "rl.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    game = rl.make_table("citadels", 3).game
    env, no_obs, none = (rl.env(game, 3) for _ in range(3))
    bench.free_observation(no_obs)
    bench.free_observation(none)
    bench.free_menu(none)
    for seed in (4, 5):
        steps = bench.env_game(env, seed)
        assert bench.env_game(no_obs, seed) == steps and no_obs.state.log == env.state.log
        assert bench.env_game(none, seed, by_position=True) == bench.bare_game(game, 3, seed)
        bare = game.new_state(3, seed)
        rng = random.Random(seed)
        while not bare.over:
            game.apply(bare, rng.randrange(bare.pending.count()))
        assert none.state.log == bare.log and none.state.scores == bare.scores
    obs = none.observe(none.agent_selection)
    assert obs["observation"].shape == (env.table.layout.size,) and not obs["observation"].any()
    assert obs["action_mask"].shape == (env.table.num_actions,) and not obs["action_mask"].any()
