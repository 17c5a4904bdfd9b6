#!/usr/bin/env bash
# Usage: ./run.sh [program arguments...]
# Installs what is missing, builds the `release` preset, then runs the main program. Arguments,
# when given, replace the main program's default arguments.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

bash scripts/build.sh release

# >>> MAIN PROGRAM: the program and its default arguments. Swap this one line for
# >>> blockfog-server once the server exists.
main=(build/release/bin/hots-sim --scenario braveheart --seed 1 --games 1)

if [[ ! -x ${main[0]} ]]; then
  echo "run.sh: ${main[0]} was not built" >&2
  exit 1
fi
if (($# > 0)); then
  main=("${main[0]}" "$@")
fi
echo "run.sh: ${main[*]}"
exec "${main[@]}"
