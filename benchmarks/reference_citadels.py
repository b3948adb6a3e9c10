"""A hand-written Citadels game loop: the speed yardstick for meeple's benchmark.

What it is for: ``benchmarks/bench.py`` times random playouts of meeple's
packs. Absolute games per second on a shared machine vary from run to run,
so every bench run also times this module - Citadels as a careful programmer
would write it by hand for speed, in plain Python with no meeple imports -
and prints meeple's speed as a ratio against it, measured in the same run.

How faithful it is: it plays the rules as ``content/citadels`` plays them
(the Board Game Arena help, plus the pack's own decisions, see
docs/provenance.md, "Decisions where the rules are silent"), with the same menu of
choices at each point, so a game makes about as many random decisions as
meeple's does (each ``rng.randrange`` over the legal options counts as one
decision, as ``len(st.log)`` counts them in meeple; a forced choice with one
option counts too, as meeple asks it too):

- 66 districts (the pack's 54 coloured + 12 purple), 2-7 players, 2 gold and
  4 cards each, a random player holds the crown;
- the draft: 1 character face down, face up by player count (4: 2, 5: 1; a
  face-up King is passed over); 2-3 players take 2 characters each; with 2,
  every pick after the first also discards one face down; with 7, the last
  picker also gets the face-down card;
- a turn is a menu, as in the pack: take 2 gold or draw 2 (keep 1; the
  Observatory draws 3, the Library keeps one more), then build (one card per
  option, no duplicates; the Architect up to 3), income (any time, once),
  the character's ability (any time, once), purple actions, end turn;
- Assassin (7 targets), Thief (rank 3+, not the murdered; all gold at the
  victim's call), Magician (exchange with a player, or discard any number one
  by one then redraw as many), King (crown, also when murdered), Bishop
  (shield once revealed), Merchant (+1), Architect (+2 cards), Warlord
  (destroy any district, his own too, for cost - 1, + 1 per Great Wall; not
  the Keep, not in a city of 8, not in the revealed Bishop's city);
- purple districts: Haunted City, Keep, Observatory, Laboratory, Smithy,
  Graveyard (its owner may take a destroyed district back for 1 gold),
  School of Magic, Library, Great Wall, University, Dragon Gate;
- a 7th district ends the game after the round (at most 60 rounds);
  scoring: district points, +3 for 5 colours (Haunted City wild unless built
  in the last round), +4 first complete city, +2 other complete cities.

What it simplifies: it keeps no log, no views, no tie-break (``play``
returns scores only), no events or rule texts; the deck is a Python list
(top = end, bottom = front, as meeple's zones), and its random stream is not
meeple's, so games differ choice for choice while matching in rules and in
the shape and number of decisions.
"""
from __future__ import annotations

import random
import time

YELLOW, BLUE, GREEN, RED, PURPLE = range(5)

# (id, colour, cost, points, copies), as content/citadels/districts.yaml and purple.yaml
KINDS = [
    ("manor", YELLOW, 3, 3, 5), ("castle", YELLOW, 4, 4, 4), ("palace", YELLOW, 5, 5, 3),
    ("temple", BLUE, 1, 1, 3), ("church", BLUE, 2, 2, 3), ("monastery", BLUE, 3, 3, 3),
    ("cathedral", BLUE, 5, 5, 2),
    ("tavern", GREEN, 1, 1, 5), ("market", GREEN, 2, 2, 4), ("trading_post", GREEN, 2, 2, 3),
    ("docks", GREEN, 3, 3, 3), ("harbor", GREEN, 4, 4, 3), ("town_hall", GREEN, 5, 5, 2),
    ("watchtower", RED, 1, 1, 3), ("prison", RED, 2, 2, 3), ("battlefield", RED, 3, 3, 3),
    ("fortress", RED, 5, 5, 2),
    ("haunted_city", PURPLE, 2, 2, 1), ("keep", PURPLE, 3, 3, 2), ("observatory", PURPLE, 5, 5, 1),
    ("laboratory", PURPLE, 5, 5, 1), ("smithy", PURPLE, 5, 5, 1), ("graveyard", PURPLE, 5, 5, 1),
    ("school_of_magic", PURPLE, 6, 6, 1), ("library", PURPLE, 6, 6, 1), ("great_wall", PURPLE, 6, 6, 1),
    ("university", PURPLE, 6, 8, 1), ("dragon_gate", PURPLE, 6, 8, 1),
]
_IDS = [k[0] for k in KINDS]
HAUNTED, KEEP, OBSERVATORY, LABORATORY, SMITHY, GRAVEYARD, SCHOOL, LIBRARY, GREAT_WALL = (
    _IDS.index(x) for x in ("haunted_city", "keep", "observatory", "laboratory", "smithy", "graveyard",
                            "school_of_magic", "library", "great_wall"))

# one entry per physical card (66)
KIND: list[int] = []
for _k, (_id, _colour, _cost, _points, _copies) in enumerate(KINDS):
    KIND += [_k] * _copies
COLOUR = [KINDS[k][1] for k in KIND]
COST = [KINDS[k][2] for k in KIND]
POINTS = [KINDS[k][3] for k in KIND]
NCARDS = len(KIND)
assert NCARDS == 66

ASSASSIN, THIEF, MAGICIAN, KING, BISHOP, MERCHANT, ARCHITECT, WARLORD = range(1, 9)
INCOME = [-1, -1, -1, -1, YELLOW, BLUE, GREEN, -1, RED]       # by rank
FACE_UP = {2: 0, 3: 0, 4: 2, 5: 1, 6: 0, 7: 0}
PICKS_EACH = {2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1}
CITY_SIZE = 7
PROTECTED_CITY_SIZE = 8
MAX_ROUNDS = 60

# turn menu option codes: op in the low 4 bits, the argument above them
TAKE, DRAW, BUILD, INCOME_OP, END, MURDER, ROB, MAGIC, MERCHANT_GOLD, ARCH_DRAW, DESTROY, LAB, SMITH = range(13)


def play(players: int, seed: int) -> tuple[list[int], int]:
    """One game with uniformly random choices; returns (scores, decisions)."""
    if not 2 <= players <= 7:
        raise ValueError("Citadels takes 2-7 players")
    n = players
    rng = random.Random(seed)
    rr = rng.randrange
    dec = 0

    deck = list(range(NCARDS))
    rng.shuffle(deck)
    gold = [2] * n
    hands = [[deck.pop() for _ in range(4)] for _ in range(n)]
    cities: list[list[int]] = [[] for _ in range(n)]
    kinds: list[set[int]] = [set() for _ in range(n)]     # district kinds in each city
    built_round = [0] * NCARDS
    crown = rr(n)
    first_complete = -1
    face_up_count = FACE_UP[n]
    pick_limit = PICKS_EACH[n] * n
    rnd = 0

    while rnd < MAX_ROUNDS and first_complete < 0:
        rnd += 1
        # ---- character selection
        offered = [1, 2, 3, 4, 5, 6, 7, 8]
        rng.shuffle(offered)
        face_down = [offered.pop()]
        for _ in range(face_up_count):
            for i, c in enumerate(offered):
                if c != KING:
                    del offered[i]
                    break
        holder = [-1] * 9
        picker = crown
        picks = 0
        while offered and picks < pick_limit:
            if n == 7 and picks == 6:
                offered += face_down
                face_down = []
            dec += 1
            holder[offered.pop(rr(len(offered)))] = picker
            if n == 2 and picks and offered:
                dec += 1
                offered.pop(rr(len(offered)))
            picks += 1
            picker = picker + 1 if picker + 1 < n else 0

        # ---- turns in rank order
        murdered = robbed = 0
        robber = shielded = -1
        for ch in range(1, 9):
            me = holder[ch]
            if me < 0 or ch == murdered:
                continue
            if ch == robbed and robber != me:
                gold[robber] += gold[me]
                gold[me] = 0
            if ch == KING:
                crown = me
            hand, city, mine = hands[me], cities[me], kinds[me]
            income = INCOME[ch]
            gathered = income_taken = ability_used = lab_used = smithy_used = False
            builds_left = 3 if ch == ARCHITECT else 1
            while True:
                g = gold[me]
                opts = []
                if not gathered:
                    opts.append(TAKE)
                    opts.append(DRAW)
                else:
                    if builds_left:
                        for d in hand:
                            if COST[d] <= g and KIND[d] not in mine:
                                opts.append(BUILD | d << 4)
                    opts.append(END)
                if income >= 0 and not income_taken:
                    opts.append(INCOME_OP)
                if not ability_used:
                    if ch == ASSASSIN:
                        opts += [MURDER | c << 4 for c in range(2, 9)]
                    elif ch == THIEF:
                        opts += [ROB | c << 4 for c in range(3, 9) if c != murdered]
                    elif ch == MAGICIAN:
                        opts.append(MAGIC)
                    elif ch == MERCHANT:
                        opts.append(MERCHANT_GOLD)
                    elif ch == ARCHITECT:
                        opts.append(ARCH_DRAW)
                    elif ch == WARLORD:
                        for q in range(n):
                            qc = cities[q]
                            if q == shielded or len(qc) >= PROTECTED_CITY_SIZE:
                                continue
                            walls = 1 if GREAT_WALL in kinds[q] else 0
                            for d in qc:
                                k = KIND[d]
                                if k != KEEP and COST[d] - 1 + (walls if k != GREAT_WALL else 0) <= g:
                                    opts.append(DESTROY | (d << 3 | q) << 4)
                if not lab_used and LABORATORY in mine:
                    opts += [LAB | d << 4 for d in hand]
                if not smithy_used and g >= 2 and SMITHY in mine:
                    opts.append(SMITH)

                dec += 1
                code = opts[rr(len(opts))]
                op = code & 15
                if op == END:
                    break
                if op == BUILD:
                    d = code >> 4
                    hand.remove(d)
                    gold[me] = g - COST[d]
                    city.append(d)
                    mine.add(KIND[d])
                    built_round[d] = rnd
                    builds_left -= 1
                    if first_complete < 0 and len(city) >= CITY_SIZE:
                        first_complete = me
                elif op == TAKE:
                    gold[me] = g + 2
                    gathered = True
                elif op == DRAW:
                    gathered = True
                    count = 3 if OBSERVATORY in mine else 2
                    drawn = [deck.pop() for _ in range(min(count, len(deck)))]
                    for _ in range(2 if LIBRARY in mine else 1):
                        if drawn:
                            dec += 1
                            hand.append(drawn.pop(rr(len(drawn))))
                    if drawn:
                        deck[:0] = drawn
                elif op == INCOME_OP:
                    gold[me] = g + sum(1 for d in city if COLOUR[d] == income or KIND[d] == SCHOOL)
                    income_taken = True
                elif op == MURDER:
                    ability_used = True
                    murdered = code >> 4
                elif op == ROB:
                    ability_used = True
                    robbed = code >> 4
                    robber = me
                elif op == MAGIC:
                    ability_used = True
                    dec += 1
                    if rr(2) == 0:                       # exchange hands with another player
                        dec += 1
                        other = rr(n - 1)
                        if other >= me:
                            other += 1
                        hands[me], hands[other] = hands[other], hand
                        hand = hands[me]
                    else:                                # discard any number, one by one, and redraw
                        discarded = []
                        while hand:
                            dec += 1
                            i = rr(len(hand) + 1)        # the last option is 'done'
                            if i == len(hand):
                                break
                            discarded.append(hand.pop(i))
                        if discarded:
                            deck[:0] = discarded
                            for _ in range(min(len(discarded), len(deck))):
                                hand.append(deck.pop())
                elif op == MERCHANT_GOLD:
                    ability_used = True
                    gold[me] = g + 1
                elif op == ARCH_DRAW:
                    ability_used = True
                    for _ in range(min(2, len(deck))):
                        hand.append(deck.pop())
                elif op == DESTROY:
                    ability_used = True
                    arg = code >> 4
                    d, victim = arg >> 3, arg & 7
                    k = KIND[d]
                    vc = cities[victim]
                    gold[me] = g - (COST[d] - 1 + (1 if k != GREAT_WALL and GREAT_WALL in kinds[victim] else 0))
                    vc.remove(d)
                    kinds[victim].discard(k)
                    deck.insert(0, d)
                    if k != GRAVEYARD:
                        for q in range(n):
                            if q != me and GRAVEYARD in kinds[q] and gold[q] >= 1:
                                dec += 1
                                if rr(2) == 0:           # take it / skip
                                    gold[q] -= 1
                                    deck.remove(d)
                                    hands[q].append(d)
                                break
                elif op == LAB:
                    lab_used = True
                    d = code >> 4
                    hand.remove(d)
                    deck.insert(0, d)
                    gold[me] = g + 2
                else:                                    # SMITH
                    smithy_used = True
                    gold[me] = g - 2
                    for _ in range(min(3, len(deck))):
                        hand.append(deck.pop())
            if ch == BISHOP:
                shielded = me
        if murdered == KING and holder[KING] >= 0:
            crown = holder[KING]

    # ---- scoring
    scores = []
    for p in range(n):
        city = cities[p]
        wild = any(KIND[d] == HAUNTED and built_round[d] < rnd for d in city)
        colours = len({COLOUR[d] for d in city if not (wild and KIND[d] == HAUNTED)})
        s = sum(POINTS[d] for d in city)
        if colours + wild >= 5:
            s += 3
        if p == first_complete:
            s += 4
        elif len(city) >= CITY_SIZE:
            s += 2
        scores.append(s)
    return scores, dec


def games_per_second(players: int, games: int, first_seed: int = 0) -> float:
    """Random games per second, seeds first_seed.. first_seed + games - 1 (as bench.py's meeple playouts)."""
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        play(players, seed)
    return games / (time.perf_counter() - start)


def decisions_per_game(players: int, games: int) -> float:
    return sum(play(players, seed)[1] for seed in range(games)) / games


if __name__ == "__main__":
    for n in range(2, 8):
        print(f"reference citadels {n} players: {games_per_second(n, 300):8.1f} games/s, "
              f"{decisions_per_game(n, 300):.1f} decisions per game")
