#!/usr/bin/env bash
# Usage: scripts/build.sh [preset [target...]]   (preset: release (default), release-pgo, debug
# or tsan; see CMakePresets.json)
# Installs missing packages, then configures and builds the preset into build/<preset>/: the
# given targets only, or all of the preset's. The
# release-pgo preset (the Docker image, bench/load.sh) is optimised with a profile recorded first
# by scripts/pgo-train.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

preset="${1:-release}"
targets=("${@:2}")

bash scripts/install-deps.sh
# A machine where the training cannot run still gets a server, built without the profile.
if [[ $preset == release-pgo ]] && ! bash scripts/pgo-train.sh; then
  echo "build.sh: warning: the profile training failed; building release-pgo without it" >&2
fi
bash scripts/configure.sh "$preset"
if ((${#targets[@]} > 0)); then
  cmake --build --preset "$preset" -j 2 --target "${targets[@]}"
else
  cmake --build --preset "$preset" -j 2
fi
