#!/usr/bin/env bash
# Compares two server builds under the same closed-loop load *at the same time*: both servers
# run side by side, each driven by its own blockfog-load, so both see the same machine. On a
# shared machine whose speed drifts by 10-20% within minutes, runs one after the other
# (bench/ab.sh) need many rounds to show a change of a few percent; two servers measured over
# the same seconds differ by what their builds do (bench/RESULTS.md, session 11). Each round
# runs twice, the builds' places swapped, and prints each server's CPU per action.
#
# Usage: bench/ab-together.sh GAMES SECONDS SERVER_A SERVER_B [LOAD]
#   GAMES, SECONDS   blockfog-load --games and --duration, for each of the two
#   SERVER_A/B       blockfog-server binaries (copy them aside first)
#   LOAD             the blockfog-load binary (default build/release/bin/blockfog-load)
# Environment: REPS rounds (default 3), WARMUP blockfog-load --warmup (default 200).
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,14p' "$0"; exit 2; }
games=$1 seconds=$2 server_a=$3 server_b=$4
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
load=${5:-$root/build/release/bin/blockfog-load}
ulimit -n "$(ulimit -Hn)"

start_server() {  # $1: binary, $2: directory; sets server_pid
  "$1" --listen 127.0.0.1:0 --port-file "$2/port" --db "$2/load.db" \
    --web-root "$root/web-client" --log-level warn --sync normal --ws-rate 100000 --http-rate 0 \
    --max-connections-per-address 30000 --max-connections 30000 2> "$2/server.log" &
  server_pid=$!
}

summary() {  # $1: label, $2: blockfog-load's last line
  python3 - "$1" "$2" <<'PY'
import json, sys
name, d = sys.argv[1], json.loads(sys.argv[2])
n = max(d["accepted"], 1)
print("%-10s %7.0f/s  server %5.1f us/action  client %5.1f us/action  errors %d"
      % (name, d["actions_per_sec"], d["server"]["cpu_seconds"] * 1e6 / n,
         d["client"]["cpu_seconds"] * 1e6 / n, sum(d["errors"].values())))
PY
}

round() {  # $1, $2: labels; $3, $4: binaries
  local dir1 dir2 pid1 pid2 load1 load2
  dir1=$(mktemp -d) dir2=$(mktemp -d)
  start_server "$3" "$dir1"
  pid1=$server_pid
  start_server "$4" "$dir2"
  pid2=$server_pid
  for _ in $(seq 100); do [[ -s $dir1/port && -s $dir2/port ]] && break; sleep 0.1; done
  "$load" --port "$(cat "$dir1/port")" --server-pid "$pid1" --games "$games" \
    --duration "$seconds" --warmup "${WARMUP:-200}" --seed 2 > "$dir1/out" &
  load1=$!
  "$load" --port "$(cat "$dir2/port")" --server-pid "$pid2" --games "$games" \
    --duration "$seconds" --warmup "${WARMUP:-200}" --seed 2 > "$dir2/out" &
  load2=$!
  wait "$load1" "$load2"
  summary "$1" "$(tail -n 1 "$dir1/out")"
  summary "$2" "$(tail -n 1 "$dir2/out")"
  kill -TERM "$pid1" "$pid2" && wait "$pid1" "$pid2" || true
  rm -rf "$dir1" "$dir2"
}

for _ in $(seq "${REPS:-3}"); do
  round A B "$server_a" "$server_b"
  round B A "$server_b" "$server_a"
done
