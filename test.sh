#!/usr/bin/env bash
# Usage: ./test.sh [--tsan]
# Installs what is missing, builds the `debug` preset (AddressSanitizer + UBSan) and runs every
# test in it (what CI runs, .ci/run). With --tsan it then builds the `tsan` preset and runs the
# tests of the threaded code (server, storage, load tool) again under ThreadSanitizer. Exits
# non-zero if any build or test fails; the last line says which.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1

presets=(debug)
for arg in "$@"; do
  case $arg in
    --tsan) presets+=(tsan) ;;
    *) echo "usage: ./test.sh [--tsan]" >&2; exit 2 ;;
  esac
done

if ! bash scripts/install-deps.sh; then
  echo "test.sh: FAILED (installing dependencies)"
  exit 1
fi

failed=()
for preset in "${presets[@]}"; do
  echo "=== test.sh: build $preset ($(date -u +%T)) ==="
  if ! { bash scripts/configure.sh "$preset" && cmake --build --preset "$preset" -j 2; }; then
    failed+=("$preset build")
    continue
  fi
  echo "=== test.sh: test $preset ($(date -u +%T)) ==="
  # Three at a time on two cores: the tests wait on their servers, browsers and the disk for a
  # third of their time, so a third keeps both cores busy.
  ctest --preset "$preset" --output-on-failure -j 3 || failed+=("$preset tests")
done

if ((${#failed[@]} > 0)); then
  printf -v list '%s, ' "${failed[@]}"
  echo "test.sh: FAILED (${list%, })"
  exit 1
fi
printf -v list '%s and ' "${presets[@]}"
echo "test.sh: PASSED (${list% and }: builds and tests)"
