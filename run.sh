#!/usr/bin/env bash
# Usage: ./run.sh [program arguments...]
# Installs what is missing, builds the `release` preset, then runs the main program. Arguments,
# when given, replace the main program's default arguments.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

bash scripts/build.sh release blockfog-server

# >>> MAIN PROGRAM: the server on http://127.0.0.1:8080, its SQLite database in ./var/, serving
# >>> the web client from ./web-client (defaults of blockfog-server; see docs/server.md).
main=(build/release/bin/blockfog-server)

if [[ ! -x ${main[0]} ]]; then
  echo "run.sh: ${main[0]} was not built" >&2
  exit 1
fi
if (($# > 0)); then
  main=("${main[0]}" "$@")
fi
echo "run.sh: ${main[*]}"
exec "${main[@]}"
