#!/usr/bin/env bash
# Usage: deploy/pg-restore.sh --dump FILE --db POSTGRES_URI [--server BIN] [--web-root DIR]
# Restores a dump of deploy/pg-backup.sh into an EMPTY PostgreSQL database (made with
# `createdb`), then proves that the server opens it: blockfog-server starts on it on a port of
# its own on loopback, migrates it if the dump is from an older version, replays every
# unfinished game's log checking each stored state hash, answers /healthz, and drains on
# SIGTERM. Its log line "resumed N unfinished games" is printed. Exits non-zero if the
# database is not empty (nothing is touched), if pg_restore fails (nothing is kept: one
# transaction), or if the server does not start on the result. Run it with the nodes stopped
# or pointed elsewhere; deploy/README.md, "Several nodes on PostgreSQL", says when.
# --server defaults to /opt/blockfog/bin/blockfog-server, --web-root to /opt/blockfog/web-client.
set -euo pipefail

usage() {
  sed -n '2p' "$0" | sed 's/^# //' >&2
  exit 2
}

dump=""
db=""
server=/opt/blockfog/bin/blockfog-server
web_root=/opt/blockfog/web-client
while (($# > 0)); do
  case "$1" in
    --dump) dump="${2:-}"; shift 2 || usage ;;
    --db) db="${2:-}"; shift 2 || usage ;;
    --server) server="${2:-}"; shift 2 || usage ;;
    --web-root) web_root="${2:-}"; shift 2 || usage ;;
    -h | --help) usage ;;
    *) echo "pg-restore: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ -n $dump && -n $db ]] || usage
[[ $db =~ ^postgres(ql)?:// ]] || { echo "pg-restore: --db must be a postgresql:// URI" >&2; exit 2; }
[[ -f $dump ]] || { echo "pg-restore: no dump at $dump" >&2; exit 1; }
[[ -x $server ]] || { echo "pg-restore: no server program at $server (--server)" >&2; exit 1; }
for tool in psql pg_restore curl; do
  command -v "$tool" >/dev/null || { echo "pg-restore: the $tool command is missing" >&2; exit 1; }
done

export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning"
# Only into an empty database: restoring over a live one would mix two histories.
objects=$(psql "$db" -X -q -t -A -v ON_ERROR_STOP=1 -c \
  "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'")
if [[ $objects != 0 ]]; then
  echo "pg-restore: $db is not empty ($objects tables, sequences or indexes); restore into a new database (createdb)" >&2
  exit 1
fi

pg_restore --exit-on-error --single-transaction --no-owner --no-privileges --dbname="$db" "$dump"
# Fresh statistics, so the first queries of the restored nodes are planned well.
psql "$db" -X -q -v ON_ERROR_STOP=1 -c 'ANALYZE'
echo "pg-restore: restored $dump into the database; starting the server on it" >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/blockfog-pg-restore.XXXXXX")
pid=""
cleanup() {
  [[ -z $pid ]] || kill -KILL "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The operator's settings for the nodes must not move this check onto their ports.
env -u BLOCKFOG_LISTEN -u BLOCKFOG_METRICS_LISTEN "$server" --db "$db" \
  --listen 127.0.0.1:0 --port-file "$work/port" --web-root "$web_root" --log-level info \
  2>"$work/server.log" &
pid=$!
for _ in $(seq 600); do
  [[ -s $work/port ]] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if [[ ! -s $work/port ]]; then
  cat "$work/server.log" >&2
  echo "pg-restore: the server did not start on the restored database" >&2
  exit 1
fi
if ! curl -fsS "http://127.0.0.1:$(head -n 1 "$work/port")/healthz" >/dev/null; then
  cat "$work/server.log" >&2
  echo "pg-restore: the server on the restored database is not healthy" >&2
  exit 1
fi
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=""
if ((status != 0)); then
  cat "$work/server.log" >&2
  echo "pg-restore: the server on the restored database exited $status" >&2
  exit 1
fi
grep -o 'resumed [0-9]* unfinished games[^"]*' "$work/server.log" | head -n 1 | sed 's/^/pg-restore: /'
echo "pg-restore: done; the database opens"
