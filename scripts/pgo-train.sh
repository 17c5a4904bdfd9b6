#!/usr/bin/env bash
# Usage: scripts/pgo-train.sh
# Records the profile that the `release-pgo` preset optimises with (cmake/BlockfogPgo.cmake): builds
# blockfog-server and blockfog-load with counters (the `pgo-train` preset, build/pgo-train/),
# plays games through them on loopback, and leaves the counts in build/pgo-profile/. Trains
# again only when either program was rebuilt since the last training. BLOCKFOG_PGO=0 skips
# all of it (the release-pgo build then has no profile feedback, or the one trained before).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ${BLOCKFOG_PGO:-1} == 0 ]]; then
  echo "pgo-train.sh: skipped (BLOCKFOG_PGO=0)"
  exit 0
fi

cmake --preset pgo-train > /dev/null
cmake --build --preset pgo-train -j 2

bin=build/pgo-train/bin
profile=build/pgo-profile
stamp=$profile/trained
if [[ -f $stamp && ! $bin/blockfog-server -nt $stamp && ! $bin/blockfog-load -nt $stamp ]]; then
  echo "pgo-train.sh: the profile in $profile is up to date"
  exit 0
fi
rm -rf "$profile"
mkdir -p "$profile"

# What the server does when games are played: every phase of the rules, views and patches for
# both seats, the storage thread's commits, HTTP sign-up and game creation, at one game, at a
# hundred (group commits) and at a thousand (timers, many rooms). Counters are written when the
# programs exit normally, so the server is stopped with SIGTERM (it drains and exits 0).
work=$(mktemp -d)
server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then kill -KILL "$server_pid" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=bench/load-common.sh
source bench/load-common.sh
ulimit -n "$(ulimit -Hn)"
# Tested as a condition: a server that never writes its port file fails the function's last
# step, which would otherwise end the script before it could say why.
if ! start_load_server "$bin/blockfog-server" "$work" normal; then
  echo "pgo-train.sh: the instrumented server did not start:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
runs=("1 3 0" "100 12 300")
# A thousand games hold 2,000 sockets in each program.
if (($(ulimit -n) >= 2500)); then
  runs+=("1000 6 100")
else
  echo "pgo-train.sh: open files limited to $(ulimit -n); training without the 1,000 games"
fi
play() {  # $1: transport; then each run as "GAMES SECONDS WARMUP"
  local transport=$1 run games seconds warmup
  shift
  for run in "$@"; do
    read -r games seconds warmup <<< "$run"
    echo "pgo-train.sh: $games games for $seconds s over $transport"
    "$bin/blockfog-load" "${server_target[@]}" --server-pid "$server_pid" --games "$games" \
      --duration "$seconds" --warmup "$warmup" --seed 2 > /dev/null
  done
}
stop_server() {  # $1: its directory
  kill -TERM "$server_pid"
  if ! wait "$server_pid"; then
    echo "pgo-train.sh: the instrumented server did not exit cleanly:" >&2
    cat "$1/server.log" >&2
    exit 1
  fi
  server_pid=
}
play tcp "${runs[@]}"
stop_server "$work"
# The same server code on a Unix-domain socket (--listen unix:PATH) is its own instantiation of
# the network templates: a shorter run gives it a profile of its own (counts add up over runs).
# A database of its own: the first one's unfinished games would be replayed at start.
mkdir "$work/unix"
if ! start_load_server "$bin/blockfog-server" "$work/unix" normal unix; then
  echo "pgo-train.sh: the instrumented server did not start on a Unix socket:" >&2
  cat "$work/unix/server.log" >&2
  exit 1
fi
play unix "100 6 300"
stop_server "$work/unix"
if ! compgen -G "$profile/*.gcda" > /dev/null; then
  echo "pgo-train.sh: the training wrote no profile into $profile" >&2
  exit 1
fi
touch "$stamp"
echo "pgo-train.sh: profile written to $profile"
