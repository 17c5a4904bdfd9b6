#!/usr/bin/env bash
# Usage: scripts/pg-scratch.sh start [DIR]          a cluster in DIR (default: a new temp folder)
#        scripts/pg-scratch.sh uri [--socket] DIR   its connection URI (TCP, or the Unix socket)
#        scripts/pg-scratch.sh status DIR           exit 0 while it runs, 3 while it does not
#        scripts/pg-scratch.sh stop [--immediate] DIR
#        scripts/pg-scratch.sh destroy DIR          stops it and removes DIR
#
# A throwaway PostgreSQL cluster for tests and benchmarks (docs/multi-node.md): initdb and
# pg_ctl from the newest /usr/lib/postgresql/<version>/bin (or $PG_BINDIR), run as an
# unprivileged user. PostgreSQL refuses to run as root, so when this script runs as root the
# cluster belongs to the system user `blockfog-pg` (made on first use, no login, no home) and
# every PostgreSQL program runs as that user through runuser; DIR is then given to that user,
# and every folder above DIR must let it through.
#
# The cluster listens on a Unix socket in DIR/socket and on a free TCP port of 127.0.0.1 only,
# chosen by the kernel when the cluster is made and kept across stop and start (a restart test
# reconnects to the same URI). Authentication is `trust` for the socket and 127.0.0.1: any
# local user may connect as the superuser `blockfog`, so keep nothing in it that matters. The
# database `blockfog` is made empty; the store's migrations fill it. Durability settings are
# PostgreSQL's defaults (fsync on), so a benchmark measures what production would pay.
#
# `start` prints two lines to stdout, everything else goes to stderr:
#   PGSCRATCH_DIR=/tmp/blockfog-pg.XXXXXX
#   PGSCRATCH_URI=postgresql://blockfog@127.0.0.1:PORT/blockfog
# e.g.  dir=$(scripts/pg-scratch.sh start | sed -n 's/^PGSCRATCH_DIR=//p')
#       psql "$(scripts/pg-scratch.sh uri "$dir")" -c 'select 1'
#       scripts/pg-scratch.sh destroy "$dir"
# Starting a running cluster again only prints its lines. `stop` waits for the server to end
# (fast shutdown: open sessions are ended, nothing committed is lost); --immediate ends it as
# a crash would, for recovery tests. The server's log is DIR/log. A first start that fails
# takes back what it made. Needs python3 (to ask the kernel for a port; scripts/install-deps.sh
# installs it with the test dependencies).
set -euo pipefail

readonly cluster_user=blockfog-pg  # owns the cluster when this script runs as root
readonly db_user=blockfog          # the cluster's superuser, and its one database
readonly marker=.blockfog-pg-scratch

die() {
  echo "pg-scratch: $*" >&2
  exit 1
}

usage() {
  sed -n '2,6s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
  exit 2
}

is_root() { [[ $(id -u) -eq 0 ]]; }

# Runs a command as the owner of the cluster in $dir: this user, or, when we are root, the
# folder's owner (blockfog-pg for clusters root made, else the user who made it).
as_owner() {
  if is_root; then
    runuser -u "$(stat -c %U "$dir")" -- "$@"
  else
    "$@"
  fi
}

ensure_cluster_user() {
  is_root || return 0
  id -u "$cluster_user" >/dev/null 2>&1 && return 0
  useradd --system --user-group --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin --comment "Blockfog's scratch PostgreSQL clusters" "$cluster_user"
}

newest_bindir() {
  if [[ -n ${PG_BINDIR:-} ]]; then
    [[ -x $PG_BINDIR/initdb && -x $PG_BINDIR/pg_ctl ]] ||
      die "no initdb/pg_ctl in PG_BINDIR=$PG_BINDIR"
    echo "$PG_BINDIR"
    return
  fi
  local found
  found=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  [[ -n $found && -x $found/initdb && -x $found/pg_ctl ]] ||
    die "no PostgreSQL server under /usr/lib/postgresql; run scripts/install-deps.sh"
  echo "$found"
}

# A TCP port of 127.0.0.1 free now (the kernel's choice). Another program may take it before
# the server binds it; start then tries another.
free_port() {
  python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# Sets $dir to the absolute path of a folder this script made (it holds the marker).
open_dir() {
  [[ -n ${1:-} ]] || usage
  [[ -d $1 ]] || die "$1: no such folder"
  dir=$(cd "$1" && pwd)
  [[ -f $dir/$marker ]] || die "$dir is not a folder of pg-scratch.sh (no $marker)"
  is_root || [[ $(stat -c %u "$dir") -eq $(id -u) ]] ||
    die "$dir belongs to $(stat -c %U "$dir"); run this as that user or as root"
}

bindir_of() { cat "$dir/bindir"; }
port_of() { cat "$dir/port"; }

tcp_uri() { echo "postgresql://$db_user@127.0.0.1:$(port_of)/$db_user"; }

socket_uri() {
  local host
  host=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' \
    "$dir/socket")
  echo "postgresql://$db_user@$host:$(port_of)/$db_user"
}

is_running() {
  as_owner "$(bindir_of)/pg_ctl" status -D "$dir/data" >/dev/null 2>&1
}

# Writes the settings this script owns (included from postgresql.conf) when the cluster is
# made; the port may change between the attempts of a first start, never after.
write_settings() {
  local port=$1
  as_owner tee "$dir/data/scratch.conf" >/dev/null <<EOF
# Written by scripts/pg-scratch.sh when it made this cluster; edit postgresql.conf instead.
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/socket'
unix_socket_permissions = 0777
max_connections = 200
EOF
  as_owner tee "$dir/port" >/dev/null <<<"$port"
}

make_cluster() {
  local bindir=$1
  as_owner tee "$dir/bindir" >/dev/null <<<"$bindir"
  as_owner mkdir -p "$dir/socket"
  echo "pg-scratch: initdb in $dir/data ($("$bindir/postgres" --version))" >&2
  # --no-sync: a cluster lost to a crash of the machine while initdb runs is simply made again;
  # the running server keeps fsync on.
  # shellcheck disable=SC2016 # expanded by that shell
  as_owner sh -c 'log=$1; shift; exec "$@" >"$log" 2>&1' sh "$dir/initdb.log" \
    "$bindir/initdb" --pgdata="$dir/data" --username="$db_user" --auth=trust \
    --encoding=UTF8 --locale=C.UTF-8 --no-instructions --no-sync ||
    { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  # Trust for the socket and 127.0.0.1 only; nothing else may connect.
  as_owner tee "$dir/data/pg_hba.conf" >/dev/null <<'EOF'
# Written by scripts/pg-scratch.sh: a throwaway cluster, open to local users only.
local all         all                trust
host  all         all   127.0.0.1/32 trust
local replication all                trust
host  replication all   127.0.0.1/32 trust
EOF
  as_owner sh -c "echo \"include_if_exists = 'scratch.conf'\" >>'$dir/data/postgresql.conf'"
}

pg_start() {
  as_owner "$(bindir_of)/pg_ctl" start -D "$dir/data" -l "$dir/log" -w -t 60 >/dev/null
}

# A cluster whose making failed is taken back (by the EXIT trap), so that a folder holds
# either a working cluster or nothing of this script's.
undo_dir=""
undo_keep_folder=0
undo_unfinished() {
  [[ -n $undo_dir ]] || return 0
  if [[ -f $undo_dir/data/postmaster.pid ]]; then
    as_owner "$(bindir_of)/pg_ctl" stop -D "$undo_dir/data" -m immediate -w >/dev/null 2>&1 || true
  fi
  if ((undo_keep_folder)); then
    find "$undo_dir" -mindepth 1 -delete
  else
    rm -rf -- "$undo_dir"
  fi
  echo "pg-scratch: took back the unfinished cluster in $undo_dir" >&2
}
trap undo_unfinished EXIT

start() {
  local made=0
  if [[ -n ${1:-} ]]; then
    [[ -d $1 ]] && undo_keep_folder=1
    mkdir -p "$1"
    dir=$(cd "$1" && pwd)
    if [[ ! -f $dir/$marker ]]; then
      [[ -z $(ls -A "$dir") ]] || die "$dir is neither empty nor a folder of pg-scratch.sh"
      made=1
    fi
  else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/blockfog-pg.XXXXXX")
    made=1
  fi
  ((made)) && undo_dir=$dir
  # A Unix socket's path has at most 107 bytes.
  local socket_tail=/socket/.s.PGSQL.65535
  ((${#dir} + ${#socket_tail} <= 107)) ||
    die "$dir is too long a path for the Unix socket; pick a shorter one"

  if ((made)); then
    ensure_cluster_user
    chmod 0755 "$dir"
    if is_root; then
      chown "$cluster_user:$cluster_user" "$dir"
      runuser -u "$cluster_user" -- test -w "$dir" ||
        die "$cluster_user cannot write $dir (a folder above it keeps it out); pick another"
    fi
    as_owner touch "$dir/$marker"
    local bindir
    bindir=$(newest_bindir)
    make_cluster "$bindir"
    local attempt
    for attempt in 1 2 3 4 5; do
      write_settings "$(free_port)"
      if pg_start; then break; fi
      if ((attempt == 5)) || ! grep -q 'could not bind\|Address already in use' "$dir/log"; then
        tail -n 20 "$dir/log" >&2 || true
        die "the server did not start"
      fi
      echo "pg-scratch: port $(port_of) was taken meanwhile; trying another" >&2
    done
    as_owner "$(bindir_of)/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir/socket" -p "$(port_of)" \
      -U "$db_user" -d postgres -c "CREATE DATABASE $db_user" >/dev/null
    undo_dir=""
  elif is_running; then
    echo "pg-scratch: already running" >&2
  else
    # The same port again: a restart must keep the URI its clients hold.
    if ! pg_start; then
      tail -n 20 "$dir/log" >&2 || true
      die "the server did not start (log: $dir/log)"
    fi
  fi
  echo "pg-scratch: running on $(tcp_uri) and the socket in $dir/socket" >&2
  echo "PGSCRATCH_DIR=$dir"
  echo "PGSCRATCH_URI=$(tcp_uri)"
}

stop() {
  local mode=fast
  if [[ ${1:-} == --immediate ]]; then
    mode=immediate
    shift
  fi
  open_dir "${1:-}"
  if ! is_running; then
    echo "pg-scratch: not running ($dir)" >&2
    return 0
  fi
  as_owner "$(bindir_of)/pg_ctl" stop -D "$dir/data" -m "$mode" -w -t 60 >/dev/null
  echo "pg-scratch: stopped ($dir)" >&2
}

destroy() {
  open_dir "${1:-}"
  stop "$dir"
  rm -rf -- "$dir"
  echo "pg-scratch: removed $dir" >&2
}

case ${1:-} in
  start) shift; (($# <= 1)) || usage; start "$@" ;;
  stop) shift; (($# >= 1 && $# <= 2)) || usage; stop "$@" ;;
  destroy) shift; (($# == 1)) || usage; destroy "$1" ;;
  status)
    shift; (($# == 1)) || usage; open_dir "$1"
    if is_running; then echo "running: $(tcp_uri)"; else echo "stopped"; exit 3; fi
    ;;
  uri)
    shift
    socket=0
    if [[ ${1:-} == --socket ]]; then socket=1; shift; fi
    (($# == 1)) || usage
    open_dir "$1"
    if ((socket)); then socket_uri; else tcp_uri; fi
    ;;
  *) usage ;;
esac
