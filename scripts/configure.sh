#!/usr/bin/env bash
# Usage: scripts/configure.sh PRESET
# Configures build/PRESET from CMakePresets.json. When a tree was configured with another
# compiler than the preset's (the debug preset builds with Clang), CMake deletes its cache and
# configures again without the preset's variables (no build type, no sanitizers); a second
# run sets them again, so such a tree is configured twice.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

preset="$1"
cmake --preset "$preset"
if grep -q '^CMAKE_BUILD_TYPE:STRING=$' "build/$preset/CMakeCache.txt" 2>/dev/null; then
  echo "configure.sh: the compiler of build/$preset changed; configuring again" >&2
  cmake --preset "$preset"
fi
