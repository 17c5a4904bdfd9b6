#!/usr/bin/env bash
# Runs blockfog-load against a fresh blockfog-server on loopback (issue 5's load goals) and
# prints each run's summary; the JSON lines go to build/release/load-results.jsonl.
#
# Usage: bench/load.sh [full|normal] [seconds]
#   full|normal   the server's --sync (default: both, one after the other)
#   seconds       measured time per run (default 20)
#
# The server runs with limits raised for a load test only: 100,000 WebSocket messages/s per
# connection (default 20) and 30,000 connections per address (default 256), since every client
# here comes from 127.0.0.1. Server and load client share this machine's cores.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
syncs=${1:-"full normal"}
seconds=${2:-20}
bin=build/release/bin
[[ -x $bin/blockfog-load && -x $bin/blockfog-server ]] || bash scripts/build.sh release
out=build/release/load-results.jsonl
: > "$out"
ulimit -n "$(ulimit -Hn)"

run_server() {  # $1: sync; sets server_pid and port
  dir=$(mktemp -d)
  "$bin/blockfog-server" --listen 127.0.0.1:0 --port-file "$dir/port" --db "$dir/load.db" \
    --web-root web-client --log-level warn --sync "$1" --ws-rate 100000 --http-rate 0 \
    --max-connections-per-address 30000 --max-connections 30000 2> "$dir/server.log" &
  server_pid=$!
  for _ in $(seq 100); do [[ -s $dir/port ]] && break; sleep 0.1; done
  port=$(cat "$dir/port")
}

stop_server() {
  kill -TERM "$server_pid" && wait "$server_pid" || true
  rm -rf "$dir"
}

load() {  # $@: blockfog-load arguments
  echo "--- blockfog-load $*"
  "$bin/blockfog-load" --port "$port" --server-pid "$server_pid" "$@" | tee /dev/stderr |
    tail -n 1 >> "$out"
}

for sync in $syncs; do
  echo "=== server --sync $sync"
  run_server "$sync"
  load --games 1 --duration "$seconds" --seed 1
  load --games 100 --duration "$seconds" --warmup 400 --seed 2
  load --games 1000 --duration "$seconds" --warmup 100 --seed 3
  stop_server
done
echo "=== idle connections"
run_server normal
load --idle 10000 --seed 4
stop_server
echo "results: $out"
