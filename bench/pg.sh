#!/usr/bin/env bash
# The cost of the shared store (docs/multi-node.md, section 6): the same closed-loop load
# against one server on SQLite, one on PostgreSQL, and three nodes sharing one PostgreSQL
# database, in one sitting, on this machine. The PostgreSQL cluster is a throwaway one
# (scripts/pg-scratch.sh: fsync on, its defaults) beside the servers and the load clients, on
# the same two cores: the figures show what a network store costs per action here, not how
# several machines would scale (three nodes on two cores share the cores).
#
# Usage: bench/pg.sh [seconds] [rounds]
#   seconds   measured time per run (default 20)
#   rounds    how many times the three set-ups are run, alternating (default 2)
#
# Each round: SQLite with --sync full (an fsync per commit group, as PostgreSQL's
# synchronous_commit = on), then PostgreSQL on a new database, N = 1 and N = 100 games over TCP
# loopback; then three nodes on a new database, one load client per node playing its own games
# (a node holds the games opened at it, so no request is redirected), N = 3 (one game per node)
# and N = 99 (33 per node): actions/s is the sum of the three clients, p50 and p99 the worst of
# the three. The programs are release-pgo's, or BLOCKFOG_LOAD_BIN=DIR's. The JSON lines go to
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
node_pids=()
cleanup() {
  [[ -z ${server_pid:-} ]] || kill -KILL "$server_pid" 2>/dev/null || true
  for pid in "${node_pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
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

# Three nodes on the database $load_db: each with its own load client, at once.
run_three() {
  local nodes=(n1 n2 n3) targets=() dirs=() i
  node_pids=()
  for i in 0 1 2; do
    dirs[i]=$(mktemp -d)
    start_load_server "$bin/blockfog-server" "${dirs[i]}" full tcp --node-name "${nodes[i]}"
    node_pids[i]=$server_pid
    targets[i]="${server_target[*]}"
  done
  server_pid=""
  for games in 1 33; do
    local warmup=() lines=()
    ((games == 33)) && warmup=(--warmup 400)
    for i in 0 1 2; do
      # shellcheck disable=SC2086  # the target is two words: --port N
      "$bin/blockfog-load" ${targets[i]} --server-pid "${node_pids[i]}" --games "$games" \
        --duration "$seconds" "${warmup[@]}" --seed "$((games * 10 + i))" \
        > "${dirs[i]}/load.out" &
      lines[i]=$!
    done
    for i in 0 1 2; do wait "${lines[i]}"; done
    local all=()
    for i in 0 1 2; do
      all+=("$(tail -n 1 "${dirs[i]}/load.out")")
      echo "${all[i]}" >> "$out"
    done
    python3 - "three nodes N=$((games * 3))" "${all[@]}" <<'PY'
import json, sys
name, runs = sys.argv[1], [json.loads(a) for a in sys.argv[2:]]
print("%-16s %7.0f/s  p50 %.0f us  p99 %.0f us  errors %d  (per node: %s)" % (
    name, sum(r["actions_per_sec"] for r in runs),
    max(r["latency_us"]["p50"] for r in runs), max(r["latency_us"]["p99"] for r in runs),
    sum(sum(r["errors"].values()) for r in runs),
    ", ".join("%.0f/s" % r["actions_per_sec"] for r in runs)))
PY
  done
  for i in 0 1 2; do kill -TERM "${node_pids[i]}"; done
  for i in 0 1 2; do wait "${node_pids[i]}" || true; done
  node_pids=()
  rm -rf "${dirs[@]}"
}

for round in $(seq "$rounds"); do
  echo "=== round $round"
  load_db="" run "sqlite"
  db="bench_$round"
  psql "$base_uri" -X -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
  load_db="${base_uri%/*}/$db" run "postgres"
  db="bench_three_$round"
  psql "$base_uri" -X -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
  load_db="${base_uri%/*}/$db" run_three
done
echo "results: $out"
