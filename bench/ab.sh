#!/usr/bin/env bash
# Compares server builds (or load-client settings) under the same closed-loop load, one run
# after the other, again and again: on a shared machine whose speed drifts from hour to hour,
# only runs interleaved like this can be compared.
#
# Usage: bench/ab.sh GAMES SECONDS SYNC 'NAME|SERVER|LOAD|ARGS' ...
#   GAMES, SECONDS   blockfog-load --games and --duration
#   SYNC             the server's --sync (full or normal)
#   NAME|SERVER|LOAD|ARGS[|TRANSPORT]
#                    a label, a blockfog-server binary, a blockfog-load binary, extra
#                    blockfog-load arguments (may be empty) and tcp (default) or unix (the
#                    server on a Unix-domain socket), e.g.
#                    'patches|build/release/bin/blockfog-server|build/release/bin/blockfog-load|'
# Environment: REPS rounds (default 3), WARMUP blockfog-load --warmup (default 200).
# Prints one line per run: actions/s, server and client CPU per action, p50, p99, errors.
# Copy the binaries aside first (the build directory changes under a rebuild).
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n '2,16p' "$0"; exit 2; }
games=$1 seconds=$2 sync=$3
shift 3
# shellcheck source=bench/load-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/load-common.sh"
ulimit -n "$(ulimit -Hn)"
for _ in $(seq "${REPS:-3}"); do
  for spec in "$@"; do
    IFS='|' read -r name server load args transport <<< "$spec"
    dir=$(mktemp -d)
    start_load_server "$server" "$dir" "$sync" "${transport:-tcp}"
    # shellcheck disable=SC2086  # ARGS is a list of arguments
    out=$("$load" "${server_target[@]}" --server-pid "$server_pid" --games "$games" \
      --duration "$seconds" --warmup "${WARMUP:-200}" --seed 2 $args | tail -n 1)
    kill -TERM "$server_pid" && wait "$server_pid" || true
    rm -rf "$dir"
    print_load_run "$name" "$out"
  done
done
