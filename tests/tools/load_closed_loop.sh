#!/usr/bin/env bash
# blockfog-load against a real server: a few games in the closed loop until 100 actions were
# accepted (the time that takes is the machine's business: bench/ measures speed), then idle
# connections. In the loop every action sent is answered without an error, and almost none is
# stale: a seat whose new view may be on its way waits for it instead of acting on the view
# before (load_client.cpp, kViewGrace; before that wait about a tenth of all actions sent were
# stale).
# With a fourth argument "unix" the server listens on a Unix-domain socket (--listen unix:PATH)
# and every connection, HTTP and WebSocket, goes through it; the socket is gone after SIGTERM.
set -euo pipefail
server="$1" load="$2" web_root="$3" transport="${4:-tcp}"
dir=$(mktemp -d)
cleanup() { [[ -n "${pid:-}" ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
listen=127.0.0.1:0
[[ "$transport" == unix ]] && listen="unix:$dir/blockfog.sock"
"$server" --listen "$listen" --port-file "$dir/port" --db "$dir/load.db" --web-root "$web_root" \
  --log-level warn --ws-rate 100000 --http-rate 0 --password-cost 10 2> "$dir/server.log" &
pid=$!
for _ in $(seq 100); do [[ -s "$dir/port" ]] && break; sleep 0.1; done
[[ -s "$dir/port" ]] || { echo "the server did not start"; cat "$dir/server.log"; exit 1; }
if [[ "$transport" == unix ]]; then
  [[ "$(cat "$dir/port")" == "unix:$dir/blockfog.sock" ]] ||
    { echo "the port file says $(cat "$dir/port")"; exit 1; }
  target=(--unix "$dir/blockfog.sock")
else
  target=(--port "$(cat "$dir/port")")
fi
report=$("$load" "${target[@]}" --server-pid "$pid" --games 3 --duration 300 --actions 100 \
  --warmup 30 --seed 5 | tail -1)
echo "$report"
number() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" <<< "$report"; }
accepted=$(number accepted) stale=$(number stale)
[[ "$report" == *'"errors":{}'* ]] || { echo "errors reported"; exit 1; }
# Enough actions for the stale share to mean something: fewer only if five minutes passed.
(( accepted >= 100 )) || { echo "only $accepted actions accepted"; exit 1; }
(( stale * 50 <= accepted )) || { echo "$stale stale actions of $accepted"; exit 1; }

# Idle mode (bench/load.sh's memory goal): every connection opened gets its view and is held.
idle=$("$load" "${target[@]}" --server-pid "$pid" --idle 40 --seed 6 | tail -1)
echo "$idle"
[[ "$idle" == *'"errors":{}'* && "$idle" == *'"idle_connections":40'* ]] ||
  { echo "idle connections not all held"; exit 1; }

kill -TERM "$pid"
wait "$pid" || { echo "the server did not exit cleanly on SIGTERM"; exit 1; }
pid=
if [[ "$transport" == unix && -e "$dir/blockfog.sock" ]]; then
  echo "the socket file outlived the server"
  exit 1
fi
