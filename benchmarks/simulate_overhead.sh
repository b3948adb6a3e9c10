#!/bin/bash
# simulate against the bare random loop, counted by valgrind (callgrind): instructions per game of
# each side of benchmarks/simulate_overhead.py (the same games), the same however busy the machine is.
#   benchmarks/simulate_overhead.sh [PACK] [PLAYERS] [GAMES]      (default: citadels 4 60)
# Each side is counted at 20 games and at 20 + GAMES, and the difference divided by GAMES: what
# loading the pack and the one-off tables cost is left out. Hash seeds are fixed and the parser
# caches are off, so every run does the same work outside the games.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pack=${1:-citadels}; players=${2:-4}; games=${3:-60}
py=$(python -c 'import sys; print(sys.executable)')
count() {
  PYTHONHASHSEED=0 MEEPLE_CACHE_DIR="" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$py" "$here/simulate_overhead.py" "$pack" -p "$players" -n "$2" --side "$1" 2>&1 | awk '/Collected/ {print $4}'
}
per_game() { echo $(( ($(count "$1" $((20 + games))) - $(count "$1" 20)) / games )); }
bare=$(per_game bare)
sim=$(per_game simulate)
echo "$pack ${players}p, $games games: bare $bare instructions a game, simulate $sim, simulate/bare $(python -c "print(f'{$bare / $sim:.3f}')") (speed ratio)"
