#!/bin/bash
# Instructions per planning-bot decision, counted by valgrind (callgrind): the same total
# for the same code and inputs however busy the machine is, unlike milliseconds.
#   benchmarks/bot_instructions.sh CHECKOUT PACK BOTS [PLAYERS] [DECISIONS] [GAMES]
# e.g. benchmarks/bot_instructions.sh /tmp/at-filing citadels greedy,mcts:100
#      benchmarks/bot_instructions.sh . troyes mcts:100 2 10 1
# BOTS is one bot or several, comma-separated (one line each, the load run shared).
# Seat 1 plays the bot, the other seats random (as bench.py --bots); each game (seeds 0..GAMES-1)
# stops after DECISIONS decisions of the bot. The count is of the whole run, less a run with
# no game (loading the pack), divided by the bot's decisions: it includes the random seats'
# few moves, which are a small part beside a planning bot's. Hash seeds are fixed and the
# parser caches are off, so both runs do the same work outside the games.
set -euo pipefail
root=$(cd "$1" && pwd); pack=$2; bots=$3; players=${4:-2}; decisions=${5:-40}; games=${6:-2}
py=$(python -c 'import sys; print(sys.executable)')
here=$(cd "$(dirname "$0")" && pwd)      # botgames.py plays the games (the same for bytecodes.py --bot)
count() {   # BOT GAMES
  PYTHONHASHSEED=0 MEEPLE_CACHE_DIR="" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$py" "$here/botgames.py" "$root" "$pack" "$1" "$players" "$decisions" "$2" 2>&1 | awk '/Collected/ {c=$4} /^[0-9]+$/ {d=$1} END {print c, d}'
}
read -r c0 _ < <(count random 0)
for bot in ${bots//,/ }; do
  read -r c1 d1 < <(count "$bot" "$games")
  echo "$pack ${players}p $bot $root: $(( (c1 - c0) / d1 )) instructions a decision ($d1 decisions)"
done
