"""Troyes characters score for every player with seed 000's thresholds.

Table-driven: for each character, the quantity it counts is set directly in
a state (citizens on building spaces, cubes in the cathedral, deniers,
influence, craftsmen on activity cards, event cards taken), then the
character's `score` hook runs; the VP of both players is checked, at every
threshold boundary, with the 2-player thresholds where the seed has them.
"""
import pytest

from meeple.runtime.state import Frame
from golden_games import game_of

GAME = game_of("troyes")
G = GAME


def zone(name, owner=0):
    z = G.vocab.zone_defs[G.vocab.zone_index[name]]
    return G.vocab.zone_base[G.vocab.zone_index[name]] + (owner if z.per_player else 0)


def card_zone(name, host):
    zi = G.vocab.zone_index[name]
    return G.vocab.zone_base[zi] + G.vocab.kind_pos[host]


def move(st, c, slot):
    st.zones[st.loc[c]].remove(c)
    st.zones[slot].append(c)
    st.loc[c] = slot


def pieces(kind_id, seat):
    di = G.vocab.card_index[kind_id]
    return [c for c, d in enumerate(G.card_def_index) if d == di and G.vocab.card_seat[c] == seat]


def hosts(kind):
    return list(G.vocab.kind_cards[kind])


def set_count(st, character, seat, n):
    """Make player `seat` have n of what `character` counts."""
    if character == "chretien":                    # own citizens standing on building spaces
        spaces = [s for s in hosts("space") if not st.zones[card_zone("occupant", s)]]
        for c, s in zip(pieces("citizen", seat)[:n], spaces):
            move(st, c, card_zone("occupant", s))
    elif character == "urbain":                    # own cubes in the cathedral
        naves = [s for s in hosts("nave") if not st.zones[card_zone("stones", s)]]
        for c, s in zip(pieces("cube", seat)[:n], naves):
            move(st, c, card_zone("stones", s))
    elif character == "thibaut":
        st.res[seat * G.vocab.nres + G.vocab.res_index["deniers"]] = n
    elif character == "hugues":
        st.res[seat * G.vocab.nres + G.vocab.res_index["influence"]] = n
    elif character == "florentine":                # own craftsmen on activity cards
        cards = hosts("activity")
        for c, a in zip(pieces("citizen", seat)[:n], cards):
            move(st, c, card_zone("craftsmen", a))
    elif character == "henri":                     # event cards taken
        taken = {c for p in range(st.players) for c in st.zones[zone("events_taken", p)]}
        events = [e for e in hosts("event") if st.loc[e] != zone("event_row") and e not in taken][:n]
        for e in events:
            move(st, e, zone("events_taken", seat))


def score(players, character, counts):
    st = GAME.new_state(players, 1)                # paused at the initial placement
    for zname in ("occupant",):                    # clear the buildings, to count from zero
        for s in hosts("space"):
            for c in list(st.zones[card_zone(zname, s)]):
                move(st, c, G.layout.card_home[c])
    for seat, n in enumerate(counts):
        set_count(st, character, seat, n)
    vp = G.vocab.res_index["vp"]
    for p in range(players):
        st.res[p * G.vocab.nres + vp] = 0
    code = G.hook_code[(G.vocab.card_index[character], "score")]
    st.frames.append(Frame(code, 0, [None] * G.codes[code].nlocals, -1, G.card_def_index.index(G.vocab.card_index[character])))
    G.rules.run(st)
    return [st.res[p * G.vocab.nres + vp] for p in range(players)]


# character, players, (count for P1, count for P2), expected VP (P1, P2)
CASES = [
    ("chretien", 3, (2, 3), (0, 1)), ("chretien", 3, (4, 5), (1, 3)), ("chretien", 3, (6, 7), (3, 6)),
    ("chretien", 2, (3, 4), (0, 1)), ("chretien", 2, (5, 6), (1, 3)), ("chretien", 2, (7, 8), (3, 6)),
    ("urbain", 3, (2, 3), (0, 1)), ("urbain", 3, (4, 5), (1, 3)), ("urbain", 3, (6, 7), (3, 6)),
    ("urbain", 2, (3, 4), (0, 1)), ("urbain", 2, (5, 6), (1, 3)), ("urbain", 2, (7, 8), (3, 6)),
    ("thibaut", 2, (5, 6), (0, 1)), ("thibaut", 2, (11, 12), (1, 3)), ("thibaut", 2, (17, 18), (3, 6)),
    ("hugues", 2, (4, 5), (0, 1)), ("hugues", 2, (9, 10), (1, 3)), ("hugues", 2, (14, 15), (3, 6)),
    ("florentine", 2, (1, 2), (0, 1)), ("florentine", 2, (3, 4), (1, 3)), ("florentine", 2, (5, 6), (3, 6)),
    ("henri", 2, (0, 1), (0, 1)), ("henri", 2, (2, 3), (1, 3)), ("henri", 2, (4, 5), (3, 6)),
]


@pytest.mark.parametrize("character, players, counts, expected", CASES,
                         ids=[f"{c}-{p}p-{a}-{b}" for c, p, (a, b), _ in CASES])
def test_character_thresholds(character, players, counts, expected):
    counts = list(counts) + [0] * (players - 2)
    assert score(players, character, counts)[:2] == list(expected)
