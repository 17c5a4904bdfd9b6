#!/usr/bin/env bash
# The action round trip of one game between two clients (blockfog-load, N = 1) on a fresh
# blockfog-server started as for the latency goal (bench/load-common.sh: --sync normal), alone,
# and then while the computer thinks (its worker thread must not slow the network
# threads). bench/computer_opponents.py plays the human side of GAMES games against the computer
# at hard level (default 100), answering each view a second later as a person would: the
# computer, awaited in one game while it thinks in another, keeps its worker thread busy for the
# whole run (its decisions during the run are printed), and the human side adds ~80 actions/s.
# Usage: bench/computer_latency.sh [SECONDS] [unix|tcp]   (default 5 s, over unix as the goal's
# command, bench/load.sh normal 20 unix)
# BLOCKFOG_LOAD_BIN=DIR takes blockfog-server and blockfog-load from DIR (default build/release/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/load-common.sh
bin=${BLOCKFOG_LOAD_BIN:-build/release/bin}
seconds=${1:-5}
transport=${2:-unix}
games=${GAMES:-100}
[[ -x $bin/blockfog-load && -x $bin/blockfog-server ]] || { echo "build $bin first" >&2; exit 1; }

decisions() {  # the computer's decisions so far, from the operator's metrics port
  curl -s "$1" | sed -n 's/^blockfog_computer_decisions_total //p'
}

run() {  # $1: how many games against the computer think meanwhile
  local dir
  dir=$(mktemp -d)
  start_load_server "$bin/blockfog-server" "$dir" normal "$transport" --metrics-listen 127.0.0.1:0
  until grep -q '^metrics ' "$dir/port"; do sleep 0.1; done
  local metrics=http://127.0.0.1:$(sed -n 's/^metrics //p' "$dir/port")/metrics
  local opponents=
  if (($1 > 0)); then
    local where=(--unix "$dir/blockfog.sock")
    [[ $transport == unix ]] || where=(--port "$(head -n 1 "$dir/port")")
    python3 bench/computer_opponents.py "${where[@]}" --games "$1" --think 1 --seconds $((seconds + 4)) \
      > "$dir/opponents.json" &
    opponents=$!
    sleep 2  # the games created and the computer thinking
  fi
  local before
  before=$(decisions "$metrics")
  echo "=== $1 games against the computer (hard) thinking, over $transport"
  "$bin/blockfog-load" "${server_target[@]}" --server-pid "$server_pid" --games 1 \
    --duration "$seconds" --seed 1 | tail -n 1
  echo "the computer's decisions during the run: $(($(decisions "$metrics") - ${before:-0}))"
  if [[ -n $opponents ]]; then
    wait "$opponents"
    echo "its opponents: $(cat "$dir/opponents.json")"
  fi
  kill "$server_pid"
  wait "$server_pid" || true
  rm -rf "$dir"
}

run 0
run "$games"
