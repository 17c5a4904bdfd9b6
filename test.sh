#!/usr/bin/env bash
# Usage: ./test.sh
# Installs what is missing, builds the `debug` (ASan+UBSan) and `release` presets, and runs every
# test of both. Exits non-zero if any build or test fails; the last line says which.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1

if ! bash scripts/install-deps.sh; then
  echo "test.sh: FAILED (installing dependencies)"
  exit 1
fi

failed=()
for preset in debug release; do
  echo "=== test.sh: build $preset ==="
  # The release build is optimised with a profile the instrumented programs record first.
  if [[ $preset == release ]] && ! bash scripts/pgo-train.sh; then
    failed+=("$preset profile training")
    continue
  fi
  if ! { cmake --preset "$preset" && cmake --build --preset "$preset" -j 2; }; then
    failed+=("$preset build")
    continue
  fi
  echo "=== test.sh: test $preset ==="
  ctest --preset "$preset" --output-on-failure -j 2 || failed+=("$preset tests")
done

if ((${#failed[@]} > 0)); then
  printf -v list '%s, ' "${failed[@]}"
  echo "test.sh: FAILED (${list%, })"
  exit 1
fi
echo "test.sh: PASSED (debug and release: build and all tests)"
