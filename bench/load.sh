#!/usr/bin/env bash
# Runs blockfog-load against a fresh blockfog-server on loopback (issue 5's load goals) and
# prints each run's summary; the JSON lines go to build/release/load-results.jsonl.
#
# Usage: bench/load.sh [full|normal] [seconds]
#   full|normal   the server's --sync (default: both, one after the other)
#   seconds       measured time per run (default 20)
#
# The server runs with limits raised for a load test only (bench/load-common.sh). Server and
# load client share this machine's cores.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
syncs=${1:-"full normal"}
seconds=${2:-20}
bin=build/release/bin
[[ -x $bin/blockfog-load && -x $bin/blockfog-server ]] || bash scripts/build.sh release
out=build/release/load-results.jsonl
: > "$out"
ulimit -n "$(ulimit -Hn)"

# shellcheck source=bench/load-common.sh
source bench/load-common.sh

run_server() {  # $1: sync; sets server_pid and server_port
  dir=$(mktemp -d)
  start_load_server "$bin/blockfog-server" "$dir" "$1"
}

stop_server() {
  kill -TERM "$server_pid" && wait "$server_pid" || true
  rm -rf "$dir"
}

load() {  # $@: blockfog-load arguments
  echo "--- blockfog-load $*"
  "$bin/blockfog-load" --port "$server_port" --server-pid "$server_pid" "$@" | tee /dev/stderr |
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
