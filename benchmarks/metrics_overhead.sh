#!/bin/bash
# The game-shape metrics' cost, counted by valgrind (callgrind): instructions per game of simulate
# with them on and off (benchmarks/metrics_overhead.py, the same games), the same however busy the
# machine is.
#   benchmarks/metrics_overhead.sh [PACK] [PLAYERS] [GAMES]      (default: citadels 4 60)
# Each side is counted at 20 games and at 20 + GAMES, and the difference divided by GAMES: what
# loading the pack and the one-off tables cost is left out. Hash seeds are fixed and the parser
# caches are off, so every run does the same work outside the games.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pack=${1:-citadels}; players=${2:-4}; games=${3:-60}
py=$(python -c 'import sys; print(sys.executable)')
count() {
  PYTHONHASHSEED=0 MEEPLE_CACHE_DIR="" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$py" "$here/metrics_overhead.py" "$pack" -p "$players" -n "$2" --side "$1" 2>&1 | awk '/Collected/ {print $4}'
}
per_game() { echo $(( ($(count "$1" $((20 + games))) - $(count "$1" 20)) / games )); }
off=$(per_game off)
on=$(per_game on)
echo "$pack ${players}p, $games games: off $off instructions a game, on $on, on/off $(python -c "print(f'{$on / $off:.3f}')")"
