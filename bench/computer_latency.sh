#!/usr/bin/env bash
# The action round trip of one game between two clients (blockfog-load, N = 1), on a fresh
# blockfog-server with nothing else to do, and then while four games against the computer at
# hard level think (issue 38: the computer's thread must not slow the network threads).
# Usage: bench/computer_latency.sh [SECONDS]   (default 5; four hard decisions take ~8 s)
# BLOCKFOG_LOAD_BIN=DIR takes blockfog-server and blockfog-load from DIR (default build/release/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BLOCKFOG_LOAD_BIN:-build/release/bin}
seconds=${1:-5}
[[ -x $bin/blockfog-load && -x $bin/blockfog-server ]] || { echo "build $bin first" >&2; exit 1; }

run() {  # $1: how many computer games to start first
  local dir
  dir=$(mktemp -d)
  "$bin/blockfog-server" --listen 127.0.0.1:0 --port-file "$dir/port" --db "$dir/b.db" \
    --log-level warn --password-cost 10 --ws-rate 100000 --http-rate 0 --games-per-hour 0 &
  local pid=$!
  while [[ ! -s $dir/port ]]; do sleep 0.1; done
  local port
  port=$(cat "$dir/port")
  local url=http://127.0.0.1:$port
  curl -s -c "$dir/jar" -H 'Content-Type: application/json' \
    -d '{"username":"solo","password":"correct horse battery"}' "$url/api/register" >/dev/null
  for ((i = 0; i < $1; ++i)); do
    curl -s -b "$dir/jar" -H 'Content-Type: application/json' \
      -d '{"scenario":"braveheart","side":"scotland","computer":"hard"}' "$url/api/games" >/dev/null
  done
  echo "=== $1 computer games (hard) thinking"
  "$bin/blockfog-load" --port "$port" --server-pid "$pid" --games 1 --duration "$seconds" --seed 1 |
    tail -n 1
  kill "$pid"
  wait "$pid" || true
  rm -rf "$dir"
}

run 0
run 4
