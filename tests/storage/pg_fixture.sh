#!/usr/bin/env bash
# Usage: tests/storage/pg_fixture.sh start STATE_FILE | stop STATE_FILE
# CTest's fixture for the storage suite's PostgreSQL run (tests/storage/CMakeLists.txt): start
# makes a throwaway cluster with scripts/pg-scratch.sh (as the user blockfog-pg when run as
# root) and writes its PGSCRATCH_DIR and PGSCRATCH_URI lines to STATE_FILE, which the tests
# read (tests/storage/test_store.h); stop destroys the cluster named there and the file.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scratch=$root/scripts/pg-scratch.sh
state=${2:?usage: pg_fixture.sh start|stop STATE_FILE}

case ${1:-} in
  start)
    # A cluster left by an interrupted run is taken back first.
    if [[ -f $state ]]; then "$0" stop "$state" || true; fi
    "$scratch" start >"$state.new"
    mv "$state.new" "$state"
    cat "$state"
    ;;
  stop)
    [[ -f $state ]] || exit 0
    dir=$(sed -n 's/^PGSCRATCH_DIR=//p' "$state")
    [[ -z $dir || ! -d $dir ]] || "$scratch" destroy "$dir"
    rm -f "$state"
    ;;
  *)
    echo "usage: pg_fixture.sh start|stop STATE_FILE" >&2
    exit 2
    ;;
esac
