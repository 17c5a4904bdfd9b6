#!/usr/bin/env bash
# Compares two server builds under the same closed-loop load *at the same time*: both servers
# run side by side, each driven by its own blockfog-load, so both see the same machine. On a
# shared machine whose speed drifts by 10-20% within minutes, runs one after the other
# (bench/ab.sh) need many rounds to show a change of a few percent; two servers measured over
# the same seconds differ by what their builds do. Each round runs twice, the builds' places
# swapped, and prints each server's CPU per action.
#
# Usage: bench/ab-together.sh GAMES SECONDS SERVER_A SERVER_B [LOAD]
#   GAMES, SECONDS   blockfog-load --games and --duration, for each of the two
#   SERVER_A/B       blockfog-server binaries (copy them aside first)
#   LOAD             the blockfog-load binary (default build/release/bin/blockfog-load)
# Environment: REPS rounds (default 3), WARMUP blockfog-load --warmup (default 200),
# TRANSPORT tcp (default) or unix (both servers on Unix-domain sockets).
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,14p' "$0"; exit 2; }
games=$1 seconds=$2 server_a=$3 server_b=$4
load=${5:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/release/bin/blockfog-load}
# shellcheck source=bench/load-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/load-common.sh"
ulimit -n "$(ulimit -Hn)"

round() {  # $1, $2: labels; $3, $4: binaries
  local dir1 dir2 pid1 pid2 load1 load2 target1 target2
  dir1=$(mktemp -d) dir2=$(mktemp -d)
  start_load_server "$3" "$dir1" normal "${TRANSPORT:-tcp}"
  pid1=$server_pid target1=("${server_target[@]}")
  start_load_server "$4" "$dir2" normal "${TRANSPORT:-tcp}"
  pid2=$server_pid target2=("${server_target[@]}")
  "$load" "${target1[@]}" --server-pid "$pid1" --games "$games" \
    --duration "$seconds" --warmup "${WARMUP:-200}" --seed 2 > "$dir1/out" &
  load1=$!
  "$load" "${target2[@]}" --server-pid "$pid2" --games "$games" \
    --duration "$seconds" --warmup "${WARMUP:-200}" --seed 2 > "$dir2/out" &
  load2=$!
  wait "$load1" "$load2"
  print_load_run "$1" "$(tail -n 1 "$dir1/out")"
  print_load_run "$2" "$(tail -n 1 "$dir2/out")"
  kill -TERM "$pid1" "$pid2" && wait "$pid1" "$pid2" || true
  rm -rf "$dir1" "$dir2"
}

for _ in $(seq "${REPS:-3}"); do
  round A B "$server_a" "$server_b"
  round B A "$server_b" "$server_a"
done
