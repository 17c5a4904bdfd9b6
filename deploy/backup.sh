#!/usr/bin/env bash
# Usage: deploy/backup.sh --db PATH --dest DIR [--keep N]
# Takes a consistent copy of the live Blockfog database while the server runs (SQLite's
# VACUUM INTO: one read transaction, so every committed action up to that moment and nothing
# half-written), checks it, and keeps the newest N copies (default 7) in DIR as
# blockfog-<UTC time>.db. Exits non-zero, leaving no partial file behind, if anything fails.
# Restoring is in deploy/README.md ("Backup and restore").
set -euo pipefail

usage() {
  sed -n '2p' "$0" | sed 's/^# //' >&2
  exit 2
}

db=""
dest=""
keep=7
while (($# > 0)); do
  case "$1" in
    --db) db="${2:-}"; shift 2 || usage ;;
    --dest) dest="${2:-}"; shift 2 || usage ;;
    --keep) keep="${2:-}"; shift 2 || usage ;;
    -h | --help) usage ;;
    *) echo "backup: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ -n $db && -n $dest ]] || usage
[[ $keep =~ ^[1-9][0-9]*$ ]] || { echo "backup: --keep needs a positive number" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "backup: the sqlite3 command is missing (apt install sqlite3)" >&2; exit 1; }
[[ -f $db ]] || { echo "backup: no database at $db" >&2; exit 1; }

mkdir -p "$dest"
# Nanoseconds keep two backups within one second apart; the names sort by time.
name="blockfog-$(date -u +%Y%m%dT%H%M%S.%NZ).db"
final="$dest/$name"
partial="$dest/.$name.partial"
trap 'rm -f "$partial"' EXIT

sql_quote() { printf "'%s'" "${1//\'/\'\'}"; }

# A read transaction never blocks the server's writer (WAL); the busy timeout covers the
# moment a checkpoint holds the lock. With no -wal beside it no server has the file open (a
# server keeps one while it runs), so it is read as immutable: a plain read-only connection
# would make a -wal and a -shm beside a stopped server's database and leave them there.
source="$db"
if [[ ! -e $db-wal ]]; then
  absolute="$(realpath -- "$db")"
  absolute="${absolute//%/%25}"
  absolute="${absolute//\?/%3F}"
  absolute="${absolute//#/%23}"
  source="file:$absolute?mode=ro&immutable=1"
fi
sqlite3 -batch -bail -readonly "$source" \
  ".timeout 10000" \
  "VACUUM INTO $(sql_quote "$partial");" >/dev/null
check="$(sqlite3 -batch -bail "$partial" "PRAGMA integrity_check;")"
if [[ $check != ok ]]; then
  echo "backup: the copy fails its integrity check: $check" >&2
  exit 1
fi
sync -f "$partial" 2>/dev/null || sync
mv -n "$partial" "$final"
[[ -f $final && ! -e $partial ]] || { echo "backup: $final already exists" >&2; exit 1; }

# Keep the newest $keep generations; only files this script names are ever removed.
mapfile -t generations < <(find "$dest" -maxdepth 1 -type f -name 'blockfog-*Z.db' -printf '%f\n' | sort)
excess=$((${#generations[@]} - keep))
for ((i = 0; i < excess; i++)); do
  rm -f -- "$dest/${generations[i]}"
done
echo "backup: $final ($(stat -c %s "$final") bytes; keeping $keep)"
