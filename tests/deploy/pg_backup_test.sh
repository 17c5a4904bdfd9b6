#!/usr/bin/env bash
# Usage: tests/deploy/pg_backup_test.sh STATE_FILE BLOCKFOG_SERVER BLOCKFOG_LOAD
# deploy/pg-backup.sh and deploy/pg-restore.sh against a server on PostgreSQL (ctest's
# deploy.pg_backup_restore, on the cluster of the storage_pg fixture: tests/storage/
# pg_fixture.sh). blockfog-load plays games; while it plays, the actions committed so far are
# listed (every acknowledged action is among them: an action is acknowledged after its COMMIT)
# and a backup is taken at once. Games go on after it (a second load). The backup is restored
# into a new database, where every listed action is found with its state hash, and nothing the
# live server never wrote; a server on the restored database resumes every unfinished game and
# serves them. Also: generations are pruned, a dump of a database that is not Blockfog's is
# refused leaving no file, and a restore into a database that is not empty touches nothing.
set -euo pipefail
state=$1 server=$2 load=$3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
uri=$(sed -n 's/^PGSCRATCH_URI=//p' "$state")
[[ -n $uri ]] || { echo "no PGSCRATCH_URI in $state" >&2; exit 1; }
live_uri=${uri%/*}/blockfog_pg_backup_live
restored_uri=${uri%/*}/blockfog_pg_backup_restored
foreign_uri=${uri%/*}/blockfog_pg_backup_foreign
export PGOPTIONS="-c client_min_messages=warning"
for name in live restored foreign; do
  psql "$uri" -X -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS blockfog_pg_backup_$name" \
    -c "CREATE DATABASE blockfog_pg_backup_$name"
done

dir=$(mktemp -d)
server_pid="" load_pid=""
cleanup() {
  [[ -z $load_pid ]] || kill -KILL "$load_pid" 2>/dev/null || true
  [[ -z $server_pid ]] || kill -KILL "$server_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "pg_backup_test: FAIL: $*" >&2
  exit 1
}

start_server() {  # DB_URI NAME: sets server_pid; the port is in $dir/NAME.port
  rm -f "$dir/$2.port"
  "$server" --listen 127.0.0.1:0 --port-file "$dir/$2.port" --db "$1" \
    --web-root "$root/web-client" --log-level info --ws-rate 100000 --http-rate 0 \
    --games-per-hour 0 --password-cost 10 2>"$dir/$2.log" &
  server_pid=$!
  for _ in $(seq 300); do [[ -s $dir/$2.port ]] && break; sleep 0.1; done
  [[ -s $dir/$2.port ]] || { cat "$dir/$2.log" >&2; fail "the server did not start on $1"; }
}
stop_server() {
  kill -TERM "$server_pid"
  local status=0
  wait "$server_pid" || status=$?
  server_pid=""
  ((status == 0)) || fail "the server exited $status"
}
rows() {  # DB_URI: every logged action as "game seq hash", sorted
  psql "$1" -X -q -t -A -F ' ' -v ON_ERROR_STOP=1 \
    -c 'SELECT game_id, seq, state_hash FROM actions' | LC_ALL=C sort
}
count() { psql "$1" -X -q -t -A -v ON_ERROR_STOP=1 -c "$2"; }
backup() { bash "$root/deploy/pg-backup.sh" --db "$1" --dest "$dir/backups" --keep "${2:-3}"; }

start_server "$live_uri" live
port=$(head -n 1 "$dir/live.port")
# Bounded by actions, not time: on a loaded machine a few seconds may pass before the log is long
# enough for the backup below.
"$load" --port "$port" --games 4 --duration 600 --actions 300 --seed 57 >"$dir/load.out" &
load_pid=$!
# Mid-game: once the games have a log of some length, the committed actions are listed and
# the backup starts straight after.
for _ in $(seq 300); do
  (($(count "$live_uri" 'SELECT count(*) FROM actions') >= 40)) && break
  kill -0 "$load_pid" 2>/dev/null || fail "blockfog-load ended early: $(cat "$dir/load.out")"
  sleep 0.1
done
rows "$live_uri" >"$dir/before.rows"
backup "$live_uri" || fail "the backup failed"
wait "$load_pid" || fail "blockfog-load failed: $(cat "$dir/load.out")"
load_pid=""
# The first load may have ended during the backup (it plays as fast as the machine lets it): a
# second one, started after the backup, shows the server goes on playing.
"$load" --port "$port" --games 2 --duration 600 --actions 20 --seed 58 >"$dir/load2.out" ||
  fail "blockfog-load failed after the backup: $(cat "$dir/load2.out")"
accepted=0
for out in load.out load2.out; do
  result=$(tail -n 1 "$dir/$out")
  n=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["accepted"])' "$result")
  errors=$(python3 -c 'import json,sys; print(sum(json.loads(sys.argv[1])["errors"].values()))' "$result")
  ((errors == 0)) || { cat "$dir/live.log" >&2; fail "blockfog-load saw errors: $result"; }
  accepted=$((accepted + n))
done
stop_server
rows "$live_uri" >"$dir/live.rows"
before=$(wc -l <"$dir/before.rows")
live=$(wc -l <"$dir/live.rows")
((live >= accepted)) || fail "only $live of $accepted acknowledged actions are in the live log"
((live > before)) || fail "the games did not go on after the backup ($before, then $live)"

mapfile -t dumps < <(find "$dir/backups" -maxdepth 1 -type f -printf '%f\n')
((${#dumps[@]} == 1)) || fail "expected one file in the backups, found: ${dumps[*]}"
[[ ${dumps[0]} =~ ^blockfog-[0-9]{8}T[0-9]{6}\.[0-9]{9}Z\.dump$ ]] || fail "named ${dumps[0]}"

# A restore refuses a database that is not empty, and changes nothing in it.
if bash "$root/deploy/pg-restore.sh" --dump "$dir/backups/${dumps[0]}" --db "$live_uri" \
  --server "$server" --web-root "$root/web-client" 2>"$dir/refused.log"; then
  fail "a restore over the live database went ahead"
fi
grep -q 'is not empty' "$dir/refused.log" || { cat "$dir/refused.log" >&2; fail "no reason given"; }
rows "$live_uri" | cmp -s - "$dir/live.rows" || fail "the refused restore changed the live database"

bash "$root/deploy/pg-restore.sh" --dump "$dir/backups/${dumps[0]}" --db "$restored_uri" \
  --server "$server" --web-root "$root/web-client" | tee "$dir/restore.out" ||
  fail "the restore failed"
grep -q '^pg-restore: resumed [0-9]* unfinished games' "$dir/restore.out" ||
  fail "the restore did not report the games its server resumed"
rows "$restored_uri" >"$dir/restored.rows"
restored=$(wc -l <"$dir/restored.rows")
missing=$(LC_ALL=C comm -23 "$dir/before.rows" "$dir/restored.rows" | wc -l)
invented=$(LC_ALL=C comm -23 "$dir/restored.rows" "$dir/live.rows" | wc -l)
echo "pg_backup_test: acknowledged in all $accepted; committed before the backup $before;" \
  "in the backup $restored; in the live log at the end $live"
((missing == 0)) || fail "$missing actions committed before the backup are not in it"
((invented == 0)) || fail "$invented actions of the backup are not the live server's"
gaps=$(count "$restored_uri" \
  'SELECT count(*) FROM (SELECT max(seq) = count(*) AS whole FROM actions GROUP BY game_id) g WHERE NOT whole')
((gaps == 0)) || fail "$gaps games of the backup have a hole in their log"

# A server on the restored database serves the games: it resumed every unfinished one, and
# lists and shows each.
start_server "$restored_uri" restored
port=$(head -n 1 "$dir/restored.port")
active=$(count "$restored_uri" "SELECT count(*) FROM games WHERE status = 'active'")
((active > 0)) || fail "no game was under way in the backup"
grep -q "resumed $active unfinished games" "$dir/restored.log" ||
  { cat "$dir/restored.log" >&2; fail "the restored server did not resume the $active games"; }
curl -fsS "http://127.0.0.1:$port/api/games/live" >"$dir/live.json"
for id in $(count "$restored_uri" "SELECT id FROM games WHERE status = 'active' ORDER BY id"); do
  python3 -c 'import json,sys
games = [g["id"] for g in json.load(open(sys.argv[1]))["games"]]
sys.exit(0 if int(sys.argv[2]) in games else 1)' "$dir/live.json" "$id" ||
    fail "game $id is not among the restored server's games under way"
  curl -fsS "http://127.0.0.1:$port/api/games/$id" | grep -q '"status":"active"' ||
    fail "game $id is not served as active"
done
stop_server

# Generations: three dumps now, of which the newest two are kept; other files are left alone.
touch "$dir/backups/an-operators-file"
for _ in 1 2; do backup "$restored_uri" 2 >/dev/null || fail "a later backup failed"; done
kept=$(find "$dir/backups" -maxdepth 1 -name 'blockfog-*Z.dump' | wc -l)
((kept == 2)) || fail "kept $kept generations, not 2"
[[ -f $dir/backups/an-operators-file ]] || fail "an operator's file was removed"
# A database that is not Blockfog's is refused, and nothing is left behind.
if backup "$foreign_uri" 2>"$dir/foreign.log"; then fail "a database that is not Blockfog's was backed up"; fi
grep -q 'not a Blockfog database' "$dir/foreign.log" || { cat "$dir/foreign.log" >&2; fail "no reason given"; }
kept_now=$(find "$dir/backups" -maxdepth 1 -name '*blockfog-*' | wc -l)
((kept_now == 2)) || fail "a refused backup left a file"
for name in live restored foreign; do
  psql "$uri" -X -q -c "DROP DATABASE IF EXISTS blockfog_pg_backup_$name"
done
echo "pg_backup_test: PASSED"
