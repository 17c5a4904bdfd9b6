#!/usr/bin/env bash
# Usage: tests/storage/pg_server_smoke.sh STATE_FILE BLOCKFOG_SERVER BLOCKFOG_LOAD
# The server on PostgreSQL, end to end (ctest's storage.postgres_server, on the cluster of the
# storage_pg fixture: tests/storage/pg_fixture.sh): blockfog-server starts with --db on a new
# database of the cluster (migrating it), blockfog-load plays games on it through WebSockets
# for a few seconds, and every action it had acknowledged is then in the database's log;
# --sync normal with a PostgreSQL URI is refused with a message saying why; --check-db says it
# cannot check without amcheck (exit 2, never "damaged"), and with amcheck checks it (exit 0).
set -euo pipefail
state=$1 server=$2 load=$3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
uri=$(sed -n 's/^PGSCRATCH_URI=//p' "$state")
[[ -n $uri ]] || { echo "no PGSCRATCH_URI in $state" >&2; exit 1; }
db_uri=${uri%/*}/blockfog_server_smoke
export PGOPTIONS="-c client_min_messages=warning"
psql "$uri" -X -q -v ON_ERROR_STOP=1 -c 'DROP DATABASE IF EXISTS blockfog_server_smoke' \
  -c 'CREATE DATABASE blockfog_server_smoke'

dir=$(mktemp -d)
server_pid=""
cleanup() {
  [[ -z $server_pid ]] || kill -KILL "$server_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

if "$server" --db "$db_uri" --sync normal --port-file "$dir/refused" 2>"$dir/refused.log"; then
  echo "the server started with --sync normal on PostgreSQL" >&2
  exit 1
fi
grep -q -- '--sync normal is for an SQLite database only' "$dir/refused.log" ||
  { cat "$dir/refused.log" >&2; exit 1; }

"$server" --listen 127.0.0.1:0 --port-file "$dir/port" --db "$db_uri" \
  --web-root "$root/web-client" --log-level warn --ws-rate 100000 --http-rate 0 \
  --games-per-hour 0 2>"$dir/server.log" &
server_pid=$!
for _ in $(seq 300); do [[ -s $dir/port ]] && break; sleep 0.1; done
[[ -s $dir/port ]] || { cat "$dir/server.log" >&2; echo "the server did not start" >&2; exit 1; }

"$load" --port "$(head -n 1 "$dir/port")" --games 4 --duration 3 --seed 7 | tee "$dir/load.out"
result=$(tail -n 1 "$dir/load.out")
accepted=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["accepted"])' "$result")
errors=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(sum(d["errors"].values()))' \
  "$result")
kill -TERM "$server_pid"
wait "$server_pid"
server_pid=""
stored=$(psql "$db_uri" -X -q -t -A -c 'SELECT count(*) FROM actions')
echo "accepted $accepted, errors $errors, actions stored $stored"
((accepted > 0)) || { echo "no action was accepted" >&2; exit 1; }
((errors == 0)) || { cat "$dir/server.log" >&2; exit 1; }
((stored >= accepted)) || { echo "acknowledged actions are missing from the log" >&2; exit 1; }

set +e
"$server" --db "$db_uri" --check-db >"$dir/check.out" 2>&1
status=$?
set -e
cat "$dir/check.out"
if ((status != 2)) || ! grep -q 'CREATE EXTENSION amcheck' "$dir/check.out"; then
  echo "--check-db without amcheck: exit $status" >&2
  exit 1
fi
psql "$db_uri" -X -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION amcheck'
"$server" --db "$db_uri" --check-db | tee "$dir/check.out"
grep -q ': ok$' "$dir/check.out" || { echo "--check-db did not say ok" >&2; exit 1; }
