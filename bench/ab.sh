#!/usr/bin/env bash
# Compares server builds (or load-client settings) under the same closed-loop load, one run
# after the other, again and again: on a shared machine whose speed drifts from hour to hour,
# only runs interleaved like this can be compared (bench/RESULTS.md, sessions 7 and 8).
#
# Usage: bench/ab.sh GAMES SECONDS SYNC 'NAME|SERVER|LOAD|ARGS' ...
#   GAMES, SECONDS   blockfog-load --games and --duration
#   SYNC             the server's --sync (full or normal)
#   NAME|SERVER|LOAD|ARGS
#                    a label, a blockfog-server binary, a blockfog-load binary and extra
#                    blockfog-load arguments (may be empty), e.g.
#                    'patches|build/release/bin/blockfog-server|build/release/bin/blockfog-load|'
# Environment: REPS rounds (default 3), WARMUP blockfog-load --warmup (default 200).
# Prints one line per run: actions/s, server and client CPU per action, p50, p99, errors.
# Copy the binaries aside first (the build directory changes under a rebuild).
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,16p' "$0"; exit 2; }
games=$1 seconds=$2 sync=$3
shift 3
web_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/web-client"
ulimit -n "$(ulimit -Hn)"
for _ in $(seq "${REPS:-3}"); do
  for spec in "$@"; do
    IFS='|' read -r name server load args <<< "$spec"
    dir=$(mktemp -d)
    "$server" --listen 127.0.0.1:0 --port-file "$dir/port" --db "$dir/load.db" \
      --web-root "$web_root" --log-level warn --sync "$sync" --ws-rate 100000 --http-rate 0 \
      --max-connections-per-address 30000 --max-connections 30000 2> "$dir/server.log" &
    pid=$!
    for _ in $(seq 100); do [[ -s $dir/port ]] && break; sleep 0.1; done
    # shellcheck disable=SC2086  # ARGS is a list of arguments
    out=$("$load" --port "$(cat "$dir/port")" --server-pid "$pid" --games "$games" \
      --duration "$seconds" --warmup "${WARMUP:-200}" --seed 2 $args | tail -n 1)
    kill -TERM "$pid" && wait "$pid" || true
    rm -rf "$dir"
    python3 - "$name" "$out" <<'EOF'
import json, sys
name, d = sys.argv[1], json.loads(sys.argv[2])
n = max(d["accepted"], 1)
print("%-16s %7.0f/s  server %5.1f us/action  client %5.1f us/action  p50 %.0f us  p99 %.0f us"
      "  errors %d" % (name, d["actions_per_sec"], d["server"]["cpu_seconds"] * 1e6 / n,
                       d["client"]["cpu_seconds"] * 1e6 / n, d["latency_us"]["p50"],
                       d["latency_us"]["p99"], sum(d["errors"].values())))
EOF
  done
done
