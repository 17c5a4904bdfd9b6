#!/usr/bin/env bash
# Usage: deploy/pg-backup.sh --db POSTGRES_URI --dest DIR [--keep N]
# A logical backup of a Blockfog database on PostgreSQL while the nodes run: pg_dump in its
# custom format (-Fc, compressed, what deploy/pg-restore.sh reads). pg_dump reads everything
# in one snapshot, so the dump holds exactly the transactions committed when it began: every
# action acknowledged by then (an action is acknowledged only after its COMMIT), nothing
# half-written, and it never blocks the servers' writes. The dump is checked (pg_restore
# --list reads its table of contents), named blockfog-<UTC time>Z.dump, moved into place only
# when complete, and the newest N (default 7) are kept. Exits non-zero, leaving no partial
# file behind, if anything fails.
#
# A dump restores the database as it was at one moment. For point-in-time recovery (any
# moment up to the last archived WAL) take a physical base backup instead and archive the WAL:
# deploy/README.md, "Several nodes on PostgreSQL".
# The password, if the URI needs one, belongs in ~/.pgpass (or PGPASSFILE), not in the URI.
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
    *) echo "pg-backup: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ -n $db && -n $dest ]] || usage
[[ $db =~ ^postgres(ql)?:// ]] || { echo "pg-backup: --db must be a postgresql:// URI" >&2; exit 2; }
[[ $keep =~ ^[1-9][0-9]*$ ]] || { echo "pg-backup: --keep needs a positive number" >&2; exit 2; }
for tool in pg_dump pg_restore; do
  command -v "$tool" >/dev/null ||
    { echo "pg-backup: the $tool command is missing (apt install postgresql-client)" >&2; exit 1; }
done

mkdir -p "$dest"
# Nanoseconds keep two backups within one second apart; the names sort by time.
name="blockfog-$(date -u +%Y%m%dT%H%M%S.%NZ).dump"
final="$dest/$name"
partial="$dest/.$name.partial"
trap 'rm -f "$partial"' EXIT

# No owners or grants in the dump: the restore makes every object belong to the role that
# restores it, which on a new machine is the role the servers connect as.
pg_dump --format=custom --no-owner --no-privileges --dbname="$db" --file="$partial"
# Blockfog's own table must be in it: a dump of the wrong (or an empty) database is no backup.
contents=$(pg_restore --list "$partial")
if ! grep -Eq ' TABLE public schema_migrations( |$)' <<<"$contents"; then
  echo "pg-backup: $db is not a Blockfog database (no schema_migrations in the dump)" >&2
  exit 1
fi
sync -f "$partial" 2>/dev/null || sync
mv -n "$partial" "$final"
[[ -f $final && ! -e $partial ]] || { echo "pg-backup: $final already exists" >&2; exit 1; }

# Keep the newest $keep generations; only files this script names are ever removed.
mapfile -t generations < <(find "$dest" -maxdepth 1 -type f -name 'blockfog-*Z.dump' -printf '%f\n' | sort)
excess=$((${#generations[@]} - keep))
for ((i = 0; i < excess; i++)); do
  rm -f -- "$dest/${generations[i]}"
done
echo "pg-backup: $final ($(stat -c %s "$final") bytes; keeping $keep)"
