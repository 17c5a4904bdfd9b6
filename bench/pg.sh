#!/usr/bin/env bash
# The cost of the shared store (docs/multi-node.md, section 6): the same closed-loop load
# against one server on SQLite and one on PostgreSQL, in one sitting, on this machine. The
# PostgreSQL cluster is a throwaway one (scripts/pg-scratch.sh: fsync on, its defaults) beside
# the server and the load client, on the same cores: the figures show what a network store
# costs per action here, not how several machines would scale.
#
# Usage: bench/pg.sh [seconds] [rounds]
#   seconds   measured time per run (default 20)
#   rounds    how many times the pair of stores is run, alternating (default 2)
#
# Each round: SQLite with --sync full (an fsync per commit group, as PostgreSQL's
# synchronous_commit = on), then PostgreSQL on a new database; N = 1 and N = 100 games over TCP
# loopback. The programs are release-pgo's, or BLOCKFOG_LOAD_BIN=DIR's. The JSON lines go to
# DIR/../pg-results.jsonl.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-20}
rounds=${2:-2}
bin=${BLOCKFOG_LOAD_BIN:-build/release-pgo/bin}
if [[ -z ${BLOCKFOG_LOAD_BIN:-} ]]; then
  [[ -x $bin/blockfog-load && -x $bin/blockfog-server ]] || bash scripts/build.sh release-pgo
fi
out=$bin/../pg-results.jsonl
: > "$out"
ulimit -n "$(ulimit -Hn)"

# shellcheck source=bench/load-common.sh
source bench/load-common.sh

export PGOPTIONS="-c client_min_messages=warning"
cluster=$(scripts/pg-scratch.sh start | sed -n 's/^PGSCRATCH_DIR=//p')
base_uri=$(scripts/pg-scratch.sh uri "$cluster")
dir=""
cleanup() {
  [[ -z ${server_pid:-} ]] || kill -KILL "$server_pid" 2>/dev/null || true
  [[ -z $dir ]] || rm -rf "$dir"
  scripts/pg-scratch.sh destroy "$cluster" >/dev/null 2>&1 || true
}
trap cleanup EXIT

run() {  # $1: label; the store is $load_db (empty: SQLite)
  dir=$(mktemp -d)
  start_load_server "$bin/blockfog-server" "$dir" full tcp
  local line
  for games in 1 100; do
    local warmup=()
    ((games == 100)) && warmup=(--warmup 400)
    line=$("$bin/blockfog-load" "${server_target[@]}" --server-pid "$server_pid" \
      --games "$games" --duration "$seconds" "${warmup[@]}" --seed "$games" | tail -n 1)
    echo "$line" >> "$out"
    print_load_run "$1 N=$games" "$line"
  done
  kill -TERM "$server_pid"
  wait "$server_pid" || true
  server_pid=""
  rm -rf "$dir"
  dir=""
}

for round in $(seq "$rounds"); do
  echo "=== round $round"
  load_db="" run "sqlite"
  db="bench_$round"
  psql "$base_uri" -X -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
  load_db="${base_uri%/*}/$db" run "postgres"
done
echo "results: $out"
