# shellcheck shell=bash
# Sourced by the load scripts of bench/ (load.sh, ab.sh, ab-together.sh): the server as every
# load test starts it, and one line per blockfog-load run.

# Starts blockfog-server binary $1 with its database in directory $2 and --sync $3 (default
# normal), on a free loopback port, or with $4 = unix on a Unix-domain socket in $2 (as behind
# a proxy on the same machine), and waits until it listens: sets server_pid and server_target
# (blockfog-load's arguments to reach it: --port N or --unix PATH); fails if it never said where
# it listens. Limits are raised for a load test only: 100,000 WebSocket messages/s per
# connection (default 20), 30,000 connections per address (default 256), since every client
# comes from the same address, and no limit on the games one account creates (one account pair
# plays them all). Arguments after $4 go to the server as they are. With $load_db set to a
# postgresql:// URI, the server's store is that database instead ($3 is then ignored: PostgreSQL
# always commits durably).
# shellcheck disable=SC2034  # server_pid and server_target are for the caller
start_load_server() {
  local root listen=127.0.0.1:0 store
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  [[ ${4:-tcp} == unix ]] && listen="unix:$2/blockfog.sock"
  store=(--db "$2/load.db" --sync "${3:-normal}")
  [[ ${load_db:-} == postgresql://* ]] && store=(--db "$load_db")
  "$1" --listen "$listen" --port-file "$2/port" "${store[@]}" \
    --web-root "$root/web-client" --log-level warn --ws-rate 100000 \
    --http-rate 0 --games-per-hour 0 --max-connections-per-address 30000 --max-connections 30000 \
    "${@:5}" 2> "$2/server.log" &
  server_pid=$!
  for _ in $(seq 100); do [[ -s $2/port ]] && break; sleep 0.1; done
  local listening
  listening=$(head -n 1 "$2/port")
  if [[ $listening == unix:* ]]; then
    server_target=(--unix "${listening#unix:}")
  else
    server_target=(--port "$listening")
  fi
  [[ -n $listening ]]
}

# Prints one line for a run: label $1, blockfog-load's last (JSON) line $2.
print_load_run() {
  python3 - "$1" "$2" <<'PY'
import json, sys
name, d = sys.argv[1], json.loads(sys.argv[2])
n = max(d["accepted"], 1)
print("%-16s %7.0f/s  server %5.1f us/action  client %5.1f us/action  p50 %.0f us  p99 %.0f us"
      "  errors %d" % (name, d["actions_per_sec"], d["server"]["cpu_seconds"] * 1e6 / n,
                       d["client"]["cpu_seconds"] * 1e6 / n, d["latency_us"]["p50"],
                       d["latency_us"]["p99"], sum(d["errors"].values())))
PY
}
