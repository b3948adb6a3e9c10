#!/bin/bash
# Instructions per decision of random playouts, counted by valgrind (callgrind): the same
# total for the same code and inputs however busy the machine is, unlike seconds.
#   benchmarks/instructions.sh CHECKOUT PACK PLAYERS GAMES
# e.g. `git worktree add /tmp/before ffa2752` then
#   benchmarks/instructions.sh /tmp/before citadels 4 5; benchmarks/instructions.sh . citadels 4 5
# A run with no game is subtracted (loading the pack); hash seeds are fixed and the parser
# caches are off, so both runs do the same work outside the games.
set -euo pipefail
root=$(cd "$1" && pwd); pack=$2; players=$3; games=$4
tools=$(cd "$(dirname "$0")/../tools" && pwd)      # tools/checkout.py imports that checkout's meeple
py=$(python -c 'import sys; print(sys.executable)')
play='
import random, sys
root, pack, players, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.path.insert(0, sys.argv[5])
from checkout import module, use
use(root)
load_game = module(root, "meeple.runtime.game").load_game
g = load_game(pack)
made = 0
for seed in range(games):
    st = g.new_state(players, seed)
    rng = random.Random(seed)
    if hasattr(g, "play_out"):     # as `meeple simulate` plays random agents
        rr = rng.randrange
        g.play_out(st, lambda dec: rr(len(dec.values)))
    while not st.over:         # trees before play_out (and before Decision.count(), options listed)
        dec = st.pending
        g.apply(st, rng.randrange(dec.count() if hasattr(dec, "count") else len(dec.options)))
    made += st.choices() if hasattr(st, "choices") else len(st.log)
print(made, file=sys.stderr)
'
count() {
  PYTHONHASHSEED=0 MEEPLE_CACHE_DIR="" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$py" -c "$play" "$root" "$pack" "$players" "$1" "$tools" 2>&1 | awk '/Collected/ {c=$4} /^[0-9]+$/ {d=$1} END {print c, d}'
}
read -r c0 _ < <(count 0)
read -r c1 d1 < <(count "$games")
echo "$pack ${players}p $root: $(( (c1 - c0) / d1 )) instructions a decision ($d1 decisions)"
