#!/usr/bin/env bash
# Usage: scripts/build.sh [preset]   (preset: release (default) or debug, see CMakePresets.json)
# Installs missing packages, then configures and builds the preset into build/<preset>/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

preset="${1:-release}"

bash scripts/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j 2
