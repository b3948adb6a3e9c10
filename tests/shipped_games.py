"""The random games of the shipped packs: each played once a session, checked as it is
played, and shared by every test that needs it.

Why one place: the same seeded random games used to be played again by nine modules
(the conformance test and a copy per game, the golden games, the two back ends, the
fast playout...), about a fifth of the suite's time. Here a game is named by a
``golden_games.Spec`` (pack, players, seed, options) and played at most once a process
by ``played(spec)``, with the invariants of every game (``random_play``) and the game's
own (below, by pack) checked after every step, and the clone and JSON round-trips (a
millisecond each, twenty times the rest) every ``ROUND_TRIP_EVERY`` steps and at the end:
about 4,000 states of every phase of every game, round-tripped. A test reads the finished state: the golden test
compares its log with the stored one, the back-end and playout tests play the same
seed another way and compare, the per-game modules assert what ends a game of theirs.

The games: at every player count of every pack, seeds 0 and 1 and the golden seed (the
player count: ``golden_games.specs``), the golden games' option variants, and the
variants below that reach other branches of a game's rules.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from golden_games import VARIANTS as GOLDEN_VARIANTS
from golden_games import Spec, game_of
from meeple.loading.folders import shipped_packs
from meeple.runtime.game import Game
from meeple.runtime.state import State
from random_play import Check, play_checked

SEEDS = (0, 1)              # at every count, besides the golden seed
ROUND_TRIP_EVERY = 10       # the clone and JSON round-trips, every this many steps
STEP_LIMIT = 20_000

# Option sets besides the golden games' (golden_games.VARIANTS), for the branches of the
# rules they reach: (players, seed, options) per pack.
DARK_CITY_SET = {f"rank{r}": 1 for r in range(1, 10)}
NEW_SET = {**{f"rank{r}": 2 for r in range(1, 9)}, "rank9": 3}
RANDOM_SET = {"random_characters": True, "random_uniques": True}
VARIANTS: dict[str, list[tuple[int, int, dict[str, Any]]]] = {
    "citadels-2016": [(3, 3, DARK_CITY_SET), (4, 4, DARK_CITY_SET), (5, 5, DARK_CITY_SET),    # rank 9: at 3, not 4, at 5+
                      (2, 2, NEW_SET), (8, 8, NEW_SET), (3, 3, RANDOM_SET), (7, 7, RANDOM_SET)],
    "citadels-dark-city": [(4, 5, {"rank9": 1}), (7, 5, {"rank9": 2}), (8, 5, {"rank9": 1}), (8, 6, {"rank9": 2}),
                           (5, 2, {"use_witch": False, "use_emperor": False, "use_diplomat": False})],
}


def _spec(pack: str, players: int, seed: int, options: Optional[dict] = None) -> Spec:
    return Spec(pack, players, seed, tuple(sorted((options or {}).items())))


def all_specs() -> list[Spec]:
    """Every game played: the counts with their seeds, then the option variants."""
    out: list[Spec] = []
    for pack in shipped_packs():
        game = game_of(pack)
        for n in range(game.min_players, game.max_players + 1):
            out += [_spec(pack, n, seed) for seed in dict.fromkeys(SEEDS + (n,))]
        out += [_spec(pack, n, seed, opts) for n, seed, opts in GOLDEN_VARIANTS.get(pack, []) + VARIANTS.get(pack, [])]
    return out


def spec_id(spec: Spec) -> str:
    return f"{spec.pack}-{spec.name}-seed{spec.seed}"


@functools.lru_cache(maxsize=None)
def played(spec: Spec) -> State:
    """The game of ``spec`` played to its end by the seeded random chooser (as
    ``golden_games.play_random`` plays it), every invariant checked along the way."""
    game = game_of(spec.pack)
    options = dict(spec.options)
    own = OWN_CHECKS.get(spec.pack)
    return play_checked(game, spec.players, spec.seed, own(game, spec.players, options) if own else None, options,
                        limit=STEP_LIMIT, round_trip_every=ROUND_TRIP_EVERY)


def seed_game(pack: str, players: int, seed: int, options: Optional[dict] = None) -> State:
    """``played`` of a game named by its parts."""
    return played(_spec(pack, players, seed, options))


# ---------------------------------------------------------------- each game's own invariants
def _kinds(game: Game) -> list[str]:
    return [game.vocab.card_defs[game.card_def_index[c]].kind for c in range(game.ncards)]


def _kinds_in_zones(st: State, kinds: list[str], kind: str) -> int:
    return sum(1 for zone in st.zones for c in zone if kinds[c] == kind)


def _one_crown_holder(game: Game, st: State) -> None:
    crown = st.gvars[game.vocab.gvar_index["crown"]]
    assert isinstance(crown, int) and 0 <= crown < st.players, f"exactly one crown holder, not {crown!r}"


def _one_character_per_rank(game: Game, st: State, kinds: list[str], ranks: int) -> None:
    unused, rank = game.vocab.zone_base[game.vocab.zone_index["unused"]], game.vocab.field_index["rank"]
    playing = sorted(game.vocab.card_fields[c][rank] for c in range(game.ncards) if kinds[c] == "character" and st.loc[c] != unused)
    assert playing == list(range(1, ranks + 1)), f"one character per rank 1-{ranks}, not {playing}"


def citadels(game: Game, players: int, options: dict) -> Check:
    """The 66 districts are all there; exactly one player holds the crown."""
    kinds = _kinds(game)

    def check(st: State) -> None:
        assert _kinds_in_zones(st, kinds, "district") == 66, "the 66 districts"
        _one_crown_holder(game, st)
    return check


def citadels_2016(game: Game, players: int, options: dict) -> Check:
    """The 84 districts and 27 characters are all there; one crown holder; one character
    per rank (9 with a rank-9 one: always at 3 and 8 players, with a rank-9 set by the
    options, at 5+ players with the Dark City set); 14 unique districts in play and 16
    left in the box."""
    kinds = _kinds(game)
    unique_box = game.vocab.zone_base[game.vocab.zone_index["unique_box"]]
    ranks = 9 if players in (3, 8) or options.get("rank9") == 3 or (options.get("rank9") == 1 and players >= 5) else 8
    if options.get("random_characters"):
        ranks = 9 if players in (3, 8) else 8

    def check(st: State) -> None:
        assert _kinds_in_zones(st, kinds, "district") == 84, "the 84 districts"
        assert _kinds_in_zones(st, kinds, "character") == 27, "the 27 characters"
        _one_crown_holder(game, st)
        _one_character_per_rank(game, st, kinds, ranks)
        assert len(st.zones[unique_box]) == 16, "14 of the 30 unique districts in play"
    return check


def citadels_dark_city(game: Game, players: int, options: dict) -> Check:
    """The 80 districts and 18 characters are all there; one crown holder; one character
    per rank (9 with a rank-9 character: at 8 players, or chosen by rank9)."""
    kinds = _kinds(game)
    ranks = 9 if players == 8 or options.get("rank9") in (1, 2) else 8

    def check(st: State) -> None:
        assert _kinds_in_zones(st, kinds, "district") == 80, "the 80 districts"
        assert _kinds_in_zones(st, kinds, "character") == 18, "the 18 characters"
        _one_crown_holder(game, st)
        _one_character_per_rank(game, st, kinds, ranks)
    return check


def signorie(game: Game, players: int, options: dict) -> Check:
    """Brides 1-5; at most 4 dice taken a round and never two of one colour; every city
    track at most 4; the 54 alliance tiles all there."""
    brides = game.vocab.res_index["brides"]
    taken = game.vocab.zone_base[game.vocab.zone_index["taken"]]
    alliance = frozenset(c for c, d in enumerate(game.card_def_index) if game.vocab.card_defs[d].kind == "alliance")
    colour = game.vocab.field_index["colour"]
    cities = [(game.vocab.zone_base[game.vocab.zone_index[z]], len(game.vocab.kind_cards["city"])) for z in ("married", "envoys")]

    def check(st: State) -> None:
        for p in range(st.players):
            assert st.res[p * game.vocab.nres + brides] in range(1, 6), "1 to 5 brides"
            dice = st.zones[taken + p]
            assert len(dice) <= 4, "at most 4 dice a round"
            colours = [game.vocab.card_fields[d][colour] for d in dice]
            assert len(set(colours)) == len(colours), "never two dice of one colour"
        for base, n in cities:
            assert all(len(st.zones[base + i]) <= 4 for i in range(n)), "at most 4 on a city track"
        assert sum(1 for z in st.zones for c in z if c in alliance) == 54, "the 54 alliance tiles"
    return check


def troyes(game: Game, players: int, options: dict) -> Check:
    """A player's citizens are in their own stock or hand, or on the board (on a space, lying
    on a building, a craftsman on an activity), never in another's or the neutral stock;
    the neutral citizens are in theirs or on the board; a space holds one citizen at most."""
    zone_of = [game.vocab.zone_defs[zi].name for zi in game.layout.slot_zone]
    board = {"occupant", "lying", "craftsmen"}
    citizen, neutral = game.vocab.card_index["citizen"], game.vocab.card_index["neutral_citizen"]
    own = [[c for c, d in enumerate(game.card_def_index) if d == citizen and game.vocab.card_seat[c] == p] for p in range(players)]
    neutrals = [c for c, d in enumerate(game.card_def_index) if d == neutral]
    base, spaces = game.vocab.zone_base[game.vocab.zone_index["occupant"]], len(game.vocab.kind_cards["space"])

    def check(st: State) -> None:
        for p, citizens in enumerate(own):
            for c in citizens:
                slot = st.loc[c]
                assert zone_of[slot] in board or (zone_of[slot] in ("reserve", "hand") and game.slot_owner[slot] == p), \
                    f"a citizen of P{p + 1} in {zone_of[slot]} of P{game.slot_owner[slot] + 1}"
        for c in neutrals:
            assert zone_of[st.loc[c]] in board | {"neutral_reserve"}, f"a neutral citizen in {zone_of[st.loc[c]]}"
        assert all(len(st.zones[base + i]) <= 1 for i in range(spaces)), "one citizen a space"
    return check


OWN_CHECKS: dict[str, Callable[[Game, int, dict], Check]] = {
    "citadels": citadels, "citadels-2016": citadels_2016, "citadels-dark-city": citadels_dark_city,
    "signorie": signorie, "troyes": troyes,
}
