#!/usr/bin/env bash
# Runs blockfog-load against a fresh blockfog-server on loopback (the load goals: bench/RESULTS.md) and
# prints each run's summary; the JSON lines go to build/release-pgo/load-results.jsonl. The
# programs are the release-pgo preset's (the Docker image's build).
#
# Usage: bench/load.sh [full|normal] [seconds] [tcp|unix]
#   full|normal   the server's --sync (default: both, one after the other)
#   seconds       measured time per run (default 20)
#   tcp|unix      how the load client reaches the server: TCP loopback (default), or the
#                 server's Unix-domain socket (--listen unix:PATH, as a proxy on the same
#                 machine reaches it); "tcp unix" runs both
#
# BLOCKFOG_LOAD_BIN=DIR takes blockfog-server and blockfog-load from DIR instead (another build,
# e.g. an older commit's, to compare two builds in one sitting); the JSON lines then go beside it.
#
# The server runs with limits raised for a load test only (bench/load-common.sh). Server and
# load client share this machine's cores.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
syncs=${1:-"full normal"}
seconds=${2:-20}
transports=${3:-tcp}
bin=${BLOCKFOG_LOAD_BIN:-build/release-pgo/bin}
if [[ -z ${BLOCKFOG_LOAD_BIN:-} ]]; then
  [[ -x $bin/blockfog-load && -x $bin/blockfog-server ]] || bash scripts/build.sh release-pgo
fi
out=$bin/../load-results.jsonl
: > "$out"
ulimit -n "$(ulimit -Hn)"

# shellcheck source=bench/load-common.sh
source bench/load-common.sh

run_server() {  # $1: sync, $2: transport; sets server_pid and server_target
  dir=$(mktemp -d)
  start_load_server "$bin/blockfog-server" "$dir" "$1" "$2"
}

stop_server() {
  kill -TERM "$server_pid" && wait "$server_pid" || true
  rm -rf "$dir"
}

load() {  # $@: blockfog-load arguments
  echo "--- blockfog-load $*"
  "$bin/blockfog-load" "${server_target[@]}" --server-pid "$server_pid" "$@" | tee /dev/stderr |
    tail -n 1 >> "$out"
}

for transport in $transports; do
  for sync in $syncs; do
    echo "=== server --sync $sync, over $transport"
    run_server "$sync" "$transport"
    load --games 1 --duration "$seconds" --seed 1
    load --games 100 --duration "$seconds" --warmup 400 --seed 2
    load --games 1000 --duration "$seconds" --warmup 100 --seed 3
    stop_server
  done
  echo "=== idle connections, over $transport"
  run_server normal "$transport"
  load --idle 10000 --seed 4
  stop_server
done
echo "results: $out"
