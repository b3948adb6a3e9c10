"""Per-player pieces (with an owner), a zone on each card of a kind, game
options, and majority awards, on the engine test pack tests/packs/flags:
players put cubes on event cards; a full event pays its majority."""
import json
import shutil
from pathlib import Path

import pytest

from meeple.core.errors import IllegalChoice, PackInvalid
from meeple.runtime.game import load_game
from meeple.runtime.state import State
from golden_games import game_of

PACK = Path(__file__).parent / "packs" / "flags"
GAME = load_game(str(PACK))


def edited(tmp_path, *edits):
    """A copy of the flags pack with (file, old text, new text) edits; each old text must be there."""
    copy = tmp_path / "flags"
    shutil.copytree(PACK, copy)
    for file, old, new in edits:
        text = (copy / file).read_text()
        assert old in text, f"{file} has no {old!r}"
        (copy / file).write_text(text.replace(old, new))
    return copy


def play(keys, players=2, **options):
    st = GAME.new_state(players, 1, options=options)
    for k in keys:
        GAME.apply(st, k)
    return st


def test_pieces_are_made_per_seat_and_start_in_their_owners_supply():
    assert len(GAME.vocab.kind_cards["cube"]) == 5 * 4 + 2      # 5 per seat of the largest game, 2 neutral
    st = GAME.new_state(3, 1)
    owner = GAME.vocab.cvar_index["owner"]
    supply = GAME.vocab.zone_base[GAME.vocab.zone_index["supply"]]
    for p in range(3):
        cubes = st.zones[supply + p]
        assert len(cubes) == 5 and {st.cvars[c * GAME.vocab.ncvars + owner] for c in cubes} == {p}
    spent = st.zones[GAME.vocab.zone_base[GAME.vocab.zone_index["spent"]]]
    assert [GAME.vocab.card_def_ids[c] for c in spent] == ["neutral_cube"] * 2     # a card's own starts_in
    assert {st.cvars[c * GAME.vocab.ncvars + owner] for c in spent} == {None}


def test_a_full_event_pays_its_majority():
    st = play(["raid", "raid", "raid"])       # P1 two cubes, P2 one: raid pays 4 / 2
    assert st.res == [4, 2]
    view = GAME.view(st, None)["zones"]
    assert view["done"] == ["raid"] and len(view["spent"]) == 2 + 3 and "flags/raid" not in view


def test_cubes_lie_on_their_card_and_show_in_the_view():
    st = play(["war", "raid"])
    zones = GAME.view(st, 0)["zones"]
    assert zones["flags/war"] == ["cube@P1"] and zones["flags/raid"] == ["cube@P2"]


def test_option_changes_the_rules_and_is_saved():
    st = play(["raid", "raid", "raid"], double=True)
    assert st.res == [8, 4]
    again = State.from_json(GAME, json.loads(json.dumps(st.to_json())))
    assert again == st and again.opts == [True] and st.clone().opts == [True]


@pytest.mark.parametrize("options, message", [
    ({"doubel": True}, "flags has no option 'doubel' (options: double)"),
    ({"double": "perhaps"}, "option 'double' is true or false, not 'perhaps'"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(IllegalChoice) as info:
        GAME.new_state(2, 1, options=options)
    assert info.value.message == message


@pytest.mark.parametrize("edit, message", [
    (("events.yaml", "{id: raid, name: Raid,", "{id: raid, name: Raid, per_player: 2,"),
     "card 'raid' has per_player copies, so its kind 'event' needs a variable 'owner: player?'"),
    (("game.yaml", "flags: {per: card, of: event,", "flags: {per: card,"),
     "zone 'flags': 'per: card' and 'of: KIND' go together"),
    (("game.yaml", "move top(supply) to flags of e", "move top(supply) to flags of p"),
     "expected a card, found a player"),
    (("cards.yaml", "copies: 2, starts_in: spent}", "copies: 2, starts_in: supply}"),
     "card 'neutral_cube' cannot start in 'supply': only per_player pieces start in a zone each player has"),
])
def test_misuse_is_a_located_error(tmp_path, edit, message):
    copy = edited(tmp_path, edit)
    with pytest.raises(PackInvalid) as info:
        load_game(str(copy))
    assert [e.message for e in info.value.problems.errors][0] == message


def test_cli_options_reach_the_game_and_the_log(tmp_path):
    from click.testing import CliRunner
    from meeple.cli import main
    runner = CliRunner()
    log = tmp_path / "log.json"
    r = runner.invoke(main, ["play", str(PACK), "-p", "2", "--seed", "1", "--bots", "random", "--quiet",
                             "--option", "double=true", "--log", str(log)])
    assert r.exit_code == 0, r.output
    assert json.loads(log.read_text())["options"] == {"double": "true"}
    assert runner.invoke(main, ["replay", str(log), "--pack", str(PACK)]).exit_code == 0
    bad = runner.invoke(main, ["simulate", str(PACK), "-n", "2", "-p", "2", "--option", "tripple=1"])
    assert bad.exit_code == 2 and "flags has no option 'tripple'" in bad.output
    sim = runner.invoke(main, ["simulate", str(PACK), "-n", "3", "-p", "2", "--option", "double=on", "--format", "json"])
    assert json.loads(sim.output)["options"] == {"double": "on"}


def test_membership_in_a_zone_of_any_card():
    st = play(["war"])               # P1's cube lies on the war card

    def ev(text):
        return GAME.evaluate(st, text, 0)
    assert ev("count(c in cube where c in flags of all) == 1")
    assert ev("count(c in cube where c not in flags of all) == 5 * 4 + 2 - 1")
    assert ev("every(c in flags of all where host(c) is war)")
    assert ev("size(cube of player(2)) == 5 and every(c in cube of player(2) where c.owner == player(2))")


def test_rules_level_provisional_values_are_listed():
    from click.testing import CliRunner
    from meeple.cli import main
    out = CliRunner().invoke(main, ["cards", str(PACK), "--provisional"]).output
    assert "game.majority: an example of a rules-level guess" in out and out.strip().endswith("1 provisional value(s)")


def test_a_card_typed_field_holds_that_card(tmp_path):
    copy = edited(tmp_path,
                  ("game.yaml", "fields: {first: int, second: int, size: int}",
                   'fields: {first: int, second: int, size: int, next: {type: "event?", default: null}}'),
                  ("events.yaml", "{id: raid, name: Raid,", "{id: raid, name: Raid, next: war,"))
    g = load_game(str(copy))
    st = g.new_state(2, 1)
    assert g.evaluate(st, "first(e in row where e is raid).next is war and first(e in row where e is war).next is none") is True


def test_require_refuses_the_choice_and_restores_the_state(tmp_path):
    from meeple.core.errors import Refusal
    copy = edited(tmp_path, ("game.yaml", "            if e is not none:\n                move top(supply) to flags of e\n",
                             "            if e is not none:\n                move top(supply) to flags of e\n"
                             "                require not (e is war) \"the war is not open yet\"\n"))
    g = load_game(str(copy))
    st = g.new_state(2, 1)
    before = st.to_json()
    with pytest.raises(Refusal) as info:
        g.apply(st, "war")
    assert info.value.message == "the war is not open yet"
    assert st.to_json() == before           # the cube moved before the require is back
    g.apply(st, "raid")                      # and the game goes on
    assert st.pending.player == 1


def test_play_prints_log_notes(tmp_path):
    from click.testing import CliRunner
    from meeple.cli import main
    copy = edited(tmp_path, ("game.yaml", "                move top(supply) to flags of e\n",
                             "                move top(supply) to flags of e\n                log \"a cube goes on an event\"\n"))
    out = CliRunner().invoke(main, ["play", str(copy), "-p", "2", "--seed", "1", "--bots", "random"]).output
    assert "    a cube goes on an event" in out


def test_require_in_an_action_sends_the_player_back_to_the_action_menu(tmp_path):
    from meeple.core.errors import Refusal
    copy = tmp_path / "flags"
    shutil.copytree(PACK, copy)
    game = copy / "game.yaml"
    text = game.read_text()
    text = text.replace("procedures:\n", '''variables:
  placed: bool
actions:
  turn:
    - id: place_two
      effect: |
        choose e from row "first event"
        move top(supply) to flags of e
        choose f from row "second event"
        require f != e "two different events"
        move top(supply) to flags of f
        set placed = true
    - id: rest
      effect: |
        set placed = true
procedures:
''', 1)
    text = text.replace('''            choose e from row where size(flags of e) < e.size and size(supply) > 0 "place a cube on"''',
                        '''            set placed = false
            play actions turn until placed
            let e = first(x in row where size(flags of x) > 99)''')
    game.write_text(text)
    g = load_game(str(copy))
    st = g.new_state(2, 1)
    menu = st.to_json()
    g.apply(st, "place_two")
    g.apply(st, "raid")
    with pytest.raises(Refusal) as info:
        g.apply(st, "raid")
    assert info.value.message == "two different events"
    assert st.to_json() == menu and st.pending.keys() == ["place_two", "rest"]   # back at the menu, nothing moved
    g.apply(st, "place_two")
    g.apply(st, "raid")
    g.apply(st, "war")                      # and the game goes on
    assert st.pending.player == 1


def test_a_hidden_variable_is_kept_out_of_views():
    """'visibility: nobody' on a variable (a face-down marker) keeps it out of every
    player's view, while the rules read it as usual."""
    game = game_of("citadels-2016")
    st = game.new_state(4, 1)
    st.gvars[game.vocab.gvar_index["signed_warrant"]] = 0
    for viewer in (None, 0, 1):
        view = game.view(st, viewer)
        assert "signed_warrant" not in view["variables"] and "flower" not in view["variables"]
        assert "magistrate" in view["variables"]
    assert game.evaluate(st, "signed_warrant is not none", 0) is True


def _stock_labels(game, seeds=(1, 2)) -> tuple[set, set]:
    """The labels of Troyes' dice in its dice stock, and of the dice in P1's square,
    over random 2-player games, as P1's view writes them."""
    import random
    stock, square = set(), set()
    for seed in seeds:
        st = game.new_state(2, seed)
        rng = random.Random(seed)
        while not st.over:
            zones = game.view(st, 0)["zones"]
            stock.update(zones["dice_stock"])
            square.update(zones.get("section/P1", ()))
            game.apply(st, rng.randrange(st.pending.count()))
    return stock, square


def test_a_zone_that_shows_no_values_lists_its_dice_without_their_faces(tmp_path):
    """``show_values: false`` (Troyes' dice stock, where a die's last roll means nothing):
    the view lists a die there by its id, the terminal names it without a value ('Red die
    x6'); the same die in a player's square shows its value. Without the declaration the
    stock shows each die's last face (what the declaration is for)."""
    from meeple.play.terminal import TerminalView
    from small_packs import shipped_with
    game = game_of("troyes")
    stock, square = _stock_labels(game)
    assert stock == {"red_die", "white_die", "yellow_die", "black_die"}, stock
    assert square and all("=" in label for label in square), square
    st = game.new_state(2, 1)
    assert "dice stock: Red die x6, White die x6, Yellow die x6, Black die x6" in TerminalView(game, width=200).board(st, 0)
    pack, _ = shipped_with(tmp_path, "troyes", "show_values: false, ", "")
    stock, _ = _stock_labels(load_game(str(pack)), seeds=(1,))
    assert {label.split("=")[0] for label in stock} == {"red_die", "white_die", "yellow_die", "black_die"}
    assert all("=" in label for label in stock), stock
