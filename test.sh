#!/usr/bin/env bash
# Usage: ./test.sh
# Installs what is missing, builds the `debug` (ASan+UBSan) and `tsan` presets and runs their
# tests: every test in debug, and in tsan the tests of the threaded code (server, storage, load
# tool) under ThreadSanitizer. Exits non-zero if any build or test fails; the last line says
# which.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1

if ! bash scripts/install-deps.sh; then
  echo "test.sh: FAILED (installing dependencies)"
  exit 1
fi

failed=()
for preset in debug tsan; do
  echo "=== test.sh: build $preset ($(date -u +%T)) ==="
  if ! { cmake --preset "$preset" && cmake --build --preset "$preset" -j 2; }; then
    failed+=("$preset build")
    continue
  fi
  echo "=== test.sh: test $preset ($(date -u +%T)) ==="
  ctest --preset "$preset" --output-on-failure -j 2 || failed+=("$preset tests")
done

if ((${#failed[@]} > 0)); then
  printf -v list '%s, ' "${failed[@]}"
  echo "test.sh: FAILED (${list%, })"
  exit 1
fi
echo "test.sh: PASSED (debug and tsan: builds and tests)"
