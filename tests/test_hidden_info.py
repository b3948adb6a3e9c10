"""Hidden information in play and in the planning bots: another player's choice
is told to a human only as far as their view lets them tell it (Game.told),
the seed of a game with a human is printed at its end, and the samples a
planning bot plans on never hold the true value of a hidden variable.

tests/packs/secrets asks one decision of each kind; its prompts name them."""
import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import doctext
from answering import first_shown
from meeple.play.agents import make_agents
from meeple.play.bots import GreedyAgent, MctsAgent, Perspective, evaluator
from meeple.runtime.redeal import determinize, hidden_variables
from meeple.cli import main
from meeple.runtime.game import load_game
from meeple.play.session import replay
from meeple.runtime.views import HIDDEN_CHOICE
from golden_games import game_of

SECRETS = str(Path(__file__).parent / "packs" / "secrets")
GAME = load_game(SECRETS)
CITADELS = game_of("citadels")

# prompt of tests/packs/secrets -> what the player after the chooser reads, and the one after that
# (3 players; 'give away' hands the card to the next player, who sees it arrive)
TOLD = {
    "take from the pile": ("hidden", "hidden"),       # a face-down card into a hand
    "play openly": ("label", "label"),                # from a hand onto the table: seen after
    "take from the table": ("label", "label"),        # seen before
    "mark secretly": ("hidden", "hidden"),            # a card everyone sees, but only a hidden variable changes
    "mark openly": ("label", "label"),
    "name openly": ("label", "label"),                # a face-down card that an open variable then names
    "stash": ("hidden", "hidden"),                    # from one's hand to one's stash: never seen
    "give away": ("label", "hidden"),                 # the next player sees it arrive, the other does not
    "bid": ("hidden", "hidden"),                      # 'choose one' whose only effect is a hidden variable
    "announce": ("label", "label"),                   # 'choose one' whose effect everyone sees
    "pay a coin to": ("label", "label"),
}


def _walk(game, players, seed, pick=lambda st, rng: 0):
    """Every (state, chosen index) of a game whose choices ``pick`` makes."""
    st = game.new_state(players, seed)
    rng = random.Random(seed)
    while not st.over:
        i = pick(st, rng)
        yield st, i
        game.apply(st, i)


@pytest.mark.parametrize("seed", [1, 2])
def test_each_viewer_is_told_a_choice_only_as_far_as_their_view_allows(seed):
    seen = set()
    for st, i in _walk(GAME, 3, seed, lambda st, rng: rng.randrange(st.pending.count())):
        dec = st.pending
        label = dec.options[i][1]
        before = st.to_json()
        for n, viewer in enumerate(((dec.player + 1) % 3, (dec.player + 2) % 3)):
            want = TOLD[dec.prompt][n]
            got = GAME.observer.told(st, i, [viewer])
            assert got == (label if want == "label" else HIDDEN_CHOICE), (dec.prompt, label, viewer)
            seen.add(dec.prompt)
        assert GAME.observer.told(st, i, []) == label                      # nobody watching: the label
        assert GAME.observer.told(st, i, [(dec.player + 1) % 3, (dec.player + 2) % 3]) == (
            label if TOLD[dec.prompt] == ("label", "label") else HIDDEN_CHOICE)
        assert st.to_json() == before                              # told() tries choices on copies
    assert seen == set(TOLD)


def test_in_citadels_picks_and_kept_cards_are_hidden_builds_and_murders_are_not():
    told: dict[str, set] = {}
    for seed in range(3):
        for st, i in _walk(CITADELS, 4, seed, lambda st, rng: rng.randrange(st.pending.count())):
            dec = st.pending
            text = CITADELS.observer.told(st, i, [(dec.player + 1) % 4])
            kind = dec.options[i][0].split(":")[0] if dec.kind == "action" else dec.prompt
            told.setdefault(kind, set()).add("hidden" if text == HIDDEN_CHOICE else "label")
    assert told["keep a district"] == {"hidden"}
    assert told["build"] == told["murder"] == told["take_gold"] == told["destroy"] == {"label"}
    # a pick is hidden, unless the card is in play at once (the first to act shows it)
    assert "hidden" in told["choose a character"]


def _human_game(*args, answers=None):
    """A game with a human who types ``answers`` and then its input ends, or (None) who answers
    every menu with the first number shown."""
    if answers is not None:
        return CliRunner().invoke(main, ["play", "citadels", *map(str, args)], input=answers, catch_exceptions=False)
    with first_shown():
        return CliRunner().invoke(main, ["play", "citadels", *map(str, args)], catch_exceptions=False)


def test_a_human_never_reads_what_a_bot_picked_face_down(tmp_path):
    log = tmp_path / "game.json"
    r = _human_game("-p", 4, "--seed", 7, "--bots", "human,random,greedy,mcts:10", "--log", log)
    assert r.exit_code == 0, r.output[-2000:]
    # what the bots really picked and kept, from the log
    picks = []
    game_log = json.loads(log.read_text())
    replay(CITADELS, game_log, lambda st, option: picks.append((st.pending.player, st.pending.prompt, option, st.round)))
    first_round = [(p, option) for p, prompt, option, rnd in picks if rnd == 1 and p != 0 and prompt == "choose a character"]
    assert len(first_round) == 3
    lines = r.output.splitlines()
    pick_lines = [line for line in lines if re.match(r"  P[234] \(\w+\) choose a character: ", line)]
    kept = [line for line in lines if re.match(r"  P[234] \(\w+\) keep a district: ", line)]
    assert pick_lines[:3] == [f"  P{p + 1} ({b}) choose a character: (hidden)" for (p, _), b in zip(first_round, ("random", "greedy", "mcts"))]
    assert kept and all(line.endswith(": (hidden)") for line in kept)
    # nothing on the human's screen names a bot's first pick until the first turn begins
    start = next(i for i, line in enumerate(lines) if line.startswith("  P1 (you) choose a character: "))
    end = next(i for i, line in enumerate(lines) if "choose an action" in line)
    between = "\n".join(lines[start + 1:end])
    for _, (key, name, _) in first_round:
        assert key not in between and name not in between
    # what everyone sees is still told
    assert re.search(r"  P[234] \(\w+\) choose an action: Build: \w+", r.output)
    assert re.search(r"  P[234] \(\w+\) choose an action: (Take 2 gold|Draw districts)", r.output)


def test_at_a_hot_seat_game_one_human_does_not_read_the_others_picks():
    r = _human_game("-p", 3, "--seed", 5, "--bots", "human,human,random")
    assert r.exit_code == 0, r.output[-2000:]
    assert re.search(r"  P[12] \(you\) choose a character: \(hidden\)", r.output)
    assert re.search(r"  P3 \(random\) choose a character: \(hidden\)", r.output)
    assert re.search(r"  P[123] \(\w+\) choose an action: Build: \w+", r.output)


def test_a_human_board_shows_only_their_view():
    r = _human_game("-p", 3, "--seed", 3, "--bots", "human,random,random")
    board = r.output.split("── round 1 ")[1].split("\n\n")[0]
    assert "P1 (you)  gold 2  score 0\n        hand: Castle (yellow, cost 4), " in board
    assert re.search(r"P2  gold.*\n\s+hand: 4 hidden", board)
    assert not re.search(r"P1 \(you\)  gold.*\n\s+hand: \d+ hidden", board)     # P1's own hand, by name


def test_the_documented_example_of_a_game_with_a_human():
    shown = doctext.output_of("docs/play.md", "meeple play citadels -p 4 --seed 7 --bots human,random")
    r = _human_game("-p", 4, "--seed", 7, "--bots", "human,random")
    assert r.exit_code == 0
    at = 0
    for line in shown.splitlines():
        if line.strip() != "...":
            at = r.output.index(line + "\n", at) + len(line)       # each line, in order
    assert r.output.startswith("Citadels with 4 players\n") and r.output.endswith("seed 7\n")


def test_bots_only_games_print_every_label_and_the_seed_first():
    r = CliRunner().invoke(main, ["play", "citadels", "-p", "4", "--seed", "7", "--bots", "random"])
    assert r.exit_code == 0
    assert r.output.startswith("Citadels with 4 players, seed 7\n")
    assert "(hidden)" not in r.output
    assert re.search(r"  P\d \(random\) choose a character: [A-Z]\w+", r.output)
    assert not r.output.rstrip().endswith("seed 7")


@pytest.mark.parametrize("show_seed", [False, True])
def test_with_a_human_the_seed_is_printed_at_the_end_or_with_show_seed(show_seed):
    r = _human_game("-p", 2, "--seed", 12345, "--bots", "human,random", *(["--show-seed"] if show_seed else []))
    assert r.exit_code == 0, r.output[-2000:]
    first = r.output.splitlines()[0]
    assert first == ("Citadels with 2 players, seed 12345" if show_seed else "Citadels with 2 players")
    assert ("12345" in r.output[:-20]) == show_seed            # nowhere before the end, unless asked
    assert r.output.rstrip().endswith("seed 12345") != show_seed


def test_an_abandoned_game_with_a_human_names_its_seed():
    r = _human_game("-p", 2, "--seed", 4242, "--bots", "human,random", answers="1\n1\n")
    assert r.exit_code == 130       # the end of input, as Ctrl-C (tests/test_one_behaviour.py)
    assert r.output.splitlines()[0] == "Citadels with 2 players"
    assert "game abandoned (seed 4242)" in r.output


# ---------------------------------------------------------------- planning bots and hidden variables
def _differing_only_in_hidden_variables(game, st):
    """A copy of ``st`` whose hidden variables hold other values."""
    other = st.clone()
    gvars, pvars = hidden_variables(game, st.players)
    for i, values in gvars:
        other.gvars[i] = next(v for v in values if v != st.gvars[i])
    for p in range(st.players):
        for i, values in pvars:
            other.pvars[p * game.vocab.npvars + i] = next(v for v in values if v != st.pvars[p * game.vocab.npvars + i])
    return other


def test_hidden_variables_may_take_every_value_of_their_type():
    gvars, pvars = hidden_variables(GAME, 3)
    names = {GAME.defn.variables[i].name: values for i, values in gvars}
    assert names["bid"] == (False, True)
    assert len(names["secret"]) == 24 + 1 and names["secret"][-1] is None        # every token, or none
    assert [(GAME.defn.player_variables[i].name, len(v)) for i, v in pvars] == [("hunch", 25)]
    assert hidden_variables(CITADELS, 4) == ([], [])


@pytest.mark.parametrize("pack, players, prompt", [(SECRETS, 2, "mark openly"), ("citadels-2016", 4, "choose an action")])
def test_a_sample_never_depends_on_a_hidden_variable(pack, players, prompt):
    game = GAME if pack == SECRETS else game_of(pack)
    st = next(st for st, _ in _walk(game, players, 3) if st.pending.prompt == prompt and st.round >= 1)
    me = st.pending.player
    other = _differing_only_in_hidden_variables(game, st)
    assert game.observer.hidden_values(other) != game.observer.hidden_values(st)
    values = set()
    for seed in range(12):
        a = determinize(game, st, me, random.Random(seed))
        b = determinize(game, other, me, random.Random(seed))
        assert a.to_json() == b.to_json()                     # the same sample from either
        values.add(game.observer.hidden_values(a))
    assert len(values) > 1                                     # drawn again each time


def test_a_planning_bot_decides_the_same_whatever_a_hidden_variable_holds():
    """The pack's evaluation counts a player's hidden 'hunch' 20 in their hand: a
    bot that read it would never stash that token (the old samples kept it, and
    these picks differed)."""
    hunch = GAME.vocab.pvar_index["hunch"]
    hand = GAME.vocab.zone_base[GAME.vocab.zone_index["hand"]]
    value = evaluator(GAME)
    for seed in range(3):
        st = next(st for st, _ in _walk(GAME, 2, seed) if st.pending.prompt == "stash")
        me, options = st.pending.player, st.pending.options
        states = []
        for c in st.zones[hand + me][:3]:
            s = st.clone()
            s.pvars[me * GAME.vocab.npvars + hunch] = c
            states.append(s)
        for make in (lambda: GreedyAgent(seed, value), lambda: MctsAgent(seed, value, iterations=30)):
            picks = {make().choose(Perspective(GAME, s, me), options) for s in states}
            assert len(picks) == 1, (seed, [options[i][1] for i in picks])


def test_a_whole_game_of_the_2016_pack_with_planning_bots_still_plays():
    game = game_of("citadels-2016")
    from meeple.play.session import play
    st = play(game, 4, 1, make_agents("greedy,mcts:10,random,greedy", 4, 1, game, evaluator(game)),
              options={"rank1": 2, "rank2": 2})
    assert st.over and len(st.scores) == 4
