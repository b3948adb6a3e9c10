"""A price shown before choosing is what choosing costs (meeple.runtime.prices).

Over random games of every shipped pack, at every decision each option's price is
worked out as ``meeple play`` shows it; when the option taken has a price, the first
change the rules then make to that resource of the chooser must be the payment of
exactly that price (a price of nothing: no change, or a payment of nothing), before
anyone is asked anything. A price must read only what the chooser may see: it is worked
out again on re-deals of what they cannot see, and must not change.

An action's floor (``then_at_least``: what the choices it goes on to ask cost at least,
Troyes' dice fees) must be no more than what the action then takes from that resource of
the chooser, over and above its price, by the next turn's menu.

The terminal's lines with prices are in tests/test_terminal.py; here, what they claim.
"""
from __future__ import annotations

import random

import pytest

from golden_games import game_of
from meeple.loading.folders import shipped_packs
from meeple.dsl.runtime import ActionDescriber
from meeple.runtime.prices import decision_floors, decision_prices, option_price
from meeple.runtime.redeal import determinize

SEEDS = (1, 2)


class Ledger(list):
    """A resource table that records every write: (index, before, after)."""

    def __init__(self, values, writes):
        super().__init__(values)
        self.writes = writes

    def __setitem__(self, i, v):
        self.writes.append((i, self[i], v))
        super().__setitem__(i, v)


def first_payment(writes: list, index: int):
    """What the first write to ``index`` took (before - after), or None without one."""
    return next((before - after for i, before, after in writes if i == index), None)


def taken(writes: list, index: int) -> int:
    """All that the writes to ``index`` took from it (what they gave back not subtracted)."""
    return sum(max(0, before - after) for i, before, after in writes if i == index)


def check_floors(floors: list, pack: str) -> None:
    """Each floor (index, floor, price, taken so far, label) was reached by what was taken."""
    for _index, floor, price, took, label in floors:
        assert took - price >= floor, f"{pack}: '{label}' showed then at least {floor} but then took {took - price}"
    floors.clear()


def play_checking_prices(pack: str, players: int, seed: int, game=None) -> dict:
    """One random game, every shown price checked; what was checked, counted."""
    game = game or game_of(pack)
    st = game.new_state(players=players, seed=seed)
    rng, samples = random.Random(seed), random.Random(seed + 1000)
    counts = {"priced": 0, "paid": 0, "resampled": 0, "floors": 0, "floors above 0": 0}
    nres = game.vocab.nres
    floors: list = []       # the floors of the action under way, checked at the next turn's menu
    while not st.over:
        dec = st.pending
        if isinstance(dec.describer, ActionDescriber):
            check_floors(floors, pack)
        prices = decision_prices(game, st)
        floor = decision_floors(game, st)
        i = rng.randrange(len(dec.values))
        if any(prices) and counts["resampled"] < 40 and rng.random() < 0.3:
            # what only others see does not change a price: the same on a re-deal
            s = determinize(game, st, dec.player, samples)
            if s.pending is not None and s.pending.values == dec.values:
                assert decision_prices(game, s) == prices, \
                    f"{pack}: a price reads what P{dec.player + 1} cannot see at '{dec.prompt}'"
                assert decision_floors(game, s) == floor, \
                    f"{pack}: a floor reads what P{dec.player + 1} cannot see at '{dec.prompt}'"
                counts["resampled"] += 1
        price = prices[i]
        for res, amount in floor[i] or ():
            index = dec.player * nres + game.vocab.res_index[res]
            floors.append([index, amount, dict(price or ()).get(res, 0), 0, dec.options[i][1]])
            counts["floors"] += 1
            counts["floors above 0"] += amount > 0
        writes: list = []
        st.res = Ledger(st.res, writes)
        game.apply(st, i)
        st.res = list(st.res)
        for f in floors:
            f[3] += taken(writes, f[0])
        if not price:
            continue
        counts["priced"] += 1
        for res, amount in price:
            paid = first_payment(writes, dec.player * nres + game.vocab.res_index[res])
            label = dec.options[i][1]
            if amount == 0:
                assert paid in (None, 0), f"{pack}: '{label}' showed pay 0 {res} but took {paid}"
            else:
                assert paid == amount, f"{pack}: '{label}' showed pay {amount} {res} but took {paid}"
                counts["paid"] += 1
    check_floors(floors, pack)
    return counts


@pytest.mark.parametrize("pack", shipped_packs())
def test_every_shown_price_is_what_the_choice_takes(pack):
    game = game_of(pack)
    totals = {"priced": 0, "paid": 0, "resampled": 0, "floors": 0, "floors above 0": 0}
    for players in (game.min_players, min(4, game.max_players)):
        for seed in SEEDS:
            for k, v in play_checking_prices(pack, players, seed).items():
                totals[k] += v
    assert totals["priced"] > 20 and totals["paid"] > 5, totals      # prices were shown, and paid
    assert totals["resampled"] > 0, totals
    if pack == "troyes":        # its dice's fees: floors were shown, and some were not nothing
        assert totals["floors"] > 20 and totals["floors above 0"] > 5, totals


@pytest.mark.parametrize("old, new", [
    ('then_at_least: {deniers: "least_fee(e.deal, e.deal, e.divisor, deniers)"}',
     'then_at_least: {deniers: "least_fee(e.deal, e.deal, e.divisor, deniers) + 2"}'),
    ("if group_free or cube_bonus(cubes, 1) > 0 then 0", "if group_free then 0"),
])
def test_the_check_fails_on_a_floor_above_what_the_dice_cost(tmp_path, old, new):
    """A Troyes whose deal shows 2 deniers more than the cheapest dice cost, or whose
    floor forgets that a delayed cube may change the dice, is caught: the check can fail."""
    import shutil
    from pathlib import Path
    from meeple.runtime.game import load_game
    pack = tmp_path / "troyes"
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / "troyes", pack)
    text = (pack / "game.yaml").read_text()
    assert old in text
    (pack / "game.yaml").write_text(text.replace(old, new))
    game = load_game(str(pack))
    with pytest.raises(AssertionError, match=r"showed then at least \d+ but then took \d+"):
        for players in (2, 4):
            for seed in range(1, 12):
                play_checking_prices("troyes", players, seed, game)


@pytest.mark.parametrize("old, new, caught", [
    ("      price: {florins: fee(d)}", "      price: {florins: fee(d) + 1}", r"Take a die: .* showed pay \d+ florins but took \d+"),
    ('"dowry (florins)" price n florins', '"dowry (florins)" price 2 florins', r"'[13-9]' showed pay 2 florins but took"),
])
def test_the_check_fails_on_a_price_that_is_not_what_is_paid(tmp_path, old, new, caught):
    """A Signorie whose take price says one florin more than is paid, or whose dowry price is
    fixed, is caught: the check can fail."""
    import shutil
    from pathlib import Path
    from meeple.runtime.game import load_game
    pack = tmp_path / "signorie"
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / "signorie", pack)
    text = (pack / "game.yaml").read_text()
    assert old in text
    (pack / "game.yaml").write_text(text.replace(old, new))
    with pytest.raises(AssertionError, match=caught):
        for seed in SEEDS + (3, 4):
            play_checking_prices("signorie", 2, seed, load_game(str(pack)))


@pytest.mark.parametrize("pack, prompt, expected", [
    ("troyes", "choose a die", "deniers"),
    ("signorie", "choose an action", "florins"),
    ("citadels", "choose an action", "gold"),
])
def test_each_game_shows_a_price_somewhere(pack, prompt, expected):
    """The declarations reach the menus: a decision of each game offers a priced option."""
    game = game_of(pack)
    for seed in range(1, 30):
        st = game.new_state(players=2 if pack != "citadels" else 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if st.over:
                break
            if st.pending.prompt == prompt:
                found = [option_price(game, st, i) for i in range(len(st.pending.values))]
                if any(p and p[0][0] == expected and p[0][1] > 0 for p in found):
                    return
            game.apply(st, rng.randrange(len(st.pending.values)))
    pytest.fail(f"no {expected} price shown at '{prompt}' in {pack}")


@pytest.mark.parametrize("old, new, message", [
    ('"choose a die" price added_fee(d) deniers', '"choose a die" price added_fee(d) denirs',
     "error: price: unknown resource 'denirs'; did you mean 'deniers'?"),
    ('"choose a die" price added_fee(d) deniers', '"choose a die" price d deniers',
     "error: expected a number, found"),
])
def test_a_wrong_choose_price_is_an_error_at_its_place(tmp_path, old, new, message):
    import shutil
    from pathlib import Path
    from click.testing import CliRunner
    from meeple.cli import main
    pack = tmp_path / "troyes"
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / "troyes", pack)
    text = (pack / "game.yaml").read_text()
    assert old in text
    line = text[:text.index(old)].count("\n") + 1
    col = len(text[:text.index(old)].rsplit("\n", 1)[1]) + 1 + new.index("price") + len("price ")
    if "denirs" in new:
        col += len("added_fee(d) ")
    (pack / "game.yaml").write_text(text.replace(old, new, 1))
    r = CliRunner().invoke(main, ["validate", str(pack)])
    assert r.exit_code == 1, r.output
    assert f"game.yaml:{line}:{col}: {message}" in r.output, r.output


# ---------------------------------------------------------------- an option's 'about'
def test_what_a_choose_one_option_is_about_is_the_card_it_acts_on():
    """Signorie's 'hire' names the assistant slot the hire takes (the first free one of
    the column to the die's left) and 'reward' the round's reward tile: over random games,
    the slot 'hire' named is the one that leaves the chooser's free slots, and the tile
    'reward' named lies on the round track at this round's space."""
    import random
    from meeple.runtime.prices import option_about
    game = game_of("signorie")
    v = game.vocab
    free = v.zone_index["helper_slots"]
    hires = rewards = 0
    for seed in range(4):
        st, rng = game.new_state(2, seed), random.Random(seed)
        while not st.over:
            dec = st.pending
            keys = dec.keys()
            if keys[0] in ("hire", "reward") and dec.prompt in ("what to do with the die", "the round's reward"):
                key, i = keys[0], 0
                named = option_about(game, st, i, dec.player)
                assert named is not None, (dec.prompt, key)
                assert all(option_about(game, st, j, dec.player) is None for j in range(1, dec.count()))
                if key == "hire":
                    before = st.loc[named]
                    game.apply(st, i)
                    assert st.loc[named] != before, "the hire left the named slot where it was"
                    assert game.layout.slot_zone[before] == free
                    hires += 1
                    continue
                if key == "reward":
                    assert game.vocab.zone_defs[game.layout.slot_zone[st.loc[named]]].name == "round_track"
                    rewards += 1
            game.apply(st, rng.randrange(dec.count()))
    assert hires >= 5 and rewards >= 2, (hires, rewards)


def test_an_about_that_is_not_a_card_is_an_error_at_its_place(tmp_path):
    import shutil
    from pathlib import Path
    from click.testing import CliRunner
    from meeple.cli import main
    pack = tmp_path / "signorie"
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / "signorie", pack)
    text = (pack / "game.yaml").read_text()
    old = '"reward" about r:'
    assert old in text
    line = text[:text.index(old)].count("\n") + 1
    col = len(text[:text.index(old)].rsplit("\n", 1)[1]) + 1 + len('"reward" about ')
    (pack / "game.yaml").write_text(text.replace(old, '"reward" about slot_now():', 1))
    r = CliRunner().invoke(main, ["validate", str(pack)])
    assert r.exit_code == 1, r.output
    assert f"game.yaml:{line}:{col}: error: expected a card, found a number" in r.output, r.output


def _black_dice_named(game) -> int:
    """Random Troyes games: the card 'Intercept the highest black die' and 'Cannot intercept'
    name (their ``about:``) is a black die of the highest value in the pool, and the
    action then takes it out of the pool (the BGA Troyes help, 「軍事イベント」: the highest
    black die first). How many were named."""
    from meeple.runtime.prices import option_about
    v = game.vocab
    pool = v.zone_index["black_pool"]
    value = v.cvar_index["value"]
    named = 0
    for seed in range(1, 5):
        st, rng = game.new_state(players=3, seed=seed), random.Random(seed)
        taken = None        # the die named by the action under way: out of the pool by the next menu
        while not st.over:
            dec = st.pending
            if taken is not None and isinstance(dec.describer, ActionDescriber):
                assert taken[0] not in st.zones[v.zone_base[pool]], f"'{taken[1]}' left the black die it named in the pool"
                taken = None
            keys = dec.keys()
            for i, key in enumerate(keys):
                if key in ("intercept", "cannot_intercept"):
                    die = option_about(game, st, i, dec.player)
                    in_pool = st.zones[v.zone_base[pool]]
                    highest = max(st.cvars[c * v.ncvars + value] for c in in_pool)
                    assert die in in_pool and st.cvars[die * v.ncvars + value] == highest, \
                        f"'{key}' names a black die of {st.cvars[die * v.ncvars + value]}, the highest is {highest}"
                    named += 1
                    i_took = i
                    break
            else:
                game.apply(st, rng.randrange(dec.count()))
                continue
            game.apply(st, i_took)
            taken = (die, key)
    return named


def test_the_black_die_to_beat_is_named_beside_the_interception(tmp_path):
    """Troyes' combat menu names the black die a player must beat, the highest of the pool,
    with its value ('Intercept the highest black die: Black die=5'); an 'about' that names
    the lowest instead is caught."""
    import shutil
    from pathlib import Path
    from meeple.runtime.game import load_game
    assert _black_dice_named(game_of("troyes")) > 10
    pack = tmp_path / "troyes"
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / "troyes", pack)
    text = (pack / "game.yaml").read_text()
    old = "about: first(b in black_pool where b.value == max(x.value for x in black_pool))"
    assert text.count(old) == 2
    (pack / "game.yaml").write_text(text.replace(old, old.replace("max(", "min(")))
    with pytest.raises(AssertionError, match=r"names a black die of \d, the highest is \d"):
        _black_dice_named(load_game(str(pack)))
    (pack / "game.yaml").write_text(text.replace(old, "about: size(black_pool)", 1))
    from click.testing import CliRunner
    from meeple.cli import main
    r = CliRunner().invoke(main, ["validate", str(pack)])
    line = text[:text.index(old)].count("\n") + 1
    assert r.exit_code == 1 and f"game.yaml:{line}:14: error: expected a card here, found a number" in r.output, r.output
