"""Every public fact on the board (view: declarations, engine/play/facts.py): what each
game's rules make public is shown by meeple play, read from the state as it changes."""
from __future__ import annotations

import random
import re

from golden_games import game_of
from meeple.play.terminal import TerminalView


def _played(pack: str, players: int, seed: int, until) -> object:
    g = game_of(pack)
    st = g.new_state(players, seed)
    rng = random.Random(seed)
    while not st.over and not until(st):
        g.apply(st, rng.randrange(len(st.pending.options)))
    return st


def _careers(st) -> int:
    v = st.game.vocab
    base = v.zone_base[v.zone_index["careers"]]
    return sum(len(st.zones[base + p]) for p in range(st.players))


def test_signorie_shows_each_mans_track_and_rank_and_every_initiative_space():
    g = game_of("signorie")
    st = next(st for seed in range(1, 20) for st in [_played("signorie", 2, seed, lambda st: _careers(st) > 1)] if not st.over)
    board = TerminalView(g, width=1000).board(st, 0)
    v = g.vocab
    for p in range(2):
        space = st.pvars[p * v.npvars + v.pvar_index["initiative_space"]]
        assert re.search(rf"\n  P{p + 1}( \(you\))?  .*initiative space {space}\b", board), board
    men = re.findall(r"Son \((?:military|clerical|political), rank \d\)(?: x(\d+))?", board)
    assert men and sum(int(n or 1) for n in men) == _careers(st), board
    # the same man read from the state: his track and rank, the facts the pack lists for members
    m = next(c for c in range(g.ncards) if v.card_defs[g.card_def_index[c]].kind == "member"
             and st.cvars[c * v.ncvars + v.cvar_index["rank"]] > 0)
    view = TerminalView(g)
    track = st.cvars[m * v.ncvars + v.cvar_index["track"]]
    assert view.fact_values(m, st) == [track, f"rank {st.cvars[m * v.ncvars + v.cvar_index['rank']]}"]
    assert view.fact_values(m) == []        # no state, no variable: a card's text shows only what is printed


def test_troyes_shows_whose_cubes_are_on_the_cathedral_and_who_was_pushed_out():
    g = game_of("troyes")
    v = g.vocab
    stones = v.zone_base[v.zone_index["stones"]]

    def built(st):
        return any(st.zones[stones + k] for k in range(len(v.kind_cards["nave"])))
    st = _played("troyes", 2, 3, built)
    board = TerminalView(g, width=400).board(st, None)
    assert re.search(r"cathedral cubes: Cathedral level \d value \d: Cube P\d", board), board
    lying = v.zone_base[v.zone_index["lying"]]
    st = _played("troyes", 2, 3, lambda st: any(st.zones[lying + k] for k in range(len(v.kind_cards["building"]))))
    assert "citizens pushed out: " in TerminalView(g, width=400).board(st, None)


def test_citadels_shows_the_first_complete_city():
    g = game_of("citadels")
    fc = g.vocab.gvar_index["first_complete"]
    st = _played("citadels", 4, 1, lambda st: st.gvars[fc] is not None)
    assert f"the first to complete a city: P{st.gvars[fc] + 1}" in TerminalView(g).board(st, None)   # its declared name
