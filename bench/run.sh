#!/usr/bin/env bash
# Builds the release preset and runs the engine benchmarks on one core; writes the raw results
# next to the build (build/release/bench-results.json) and prints a table.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/build.sh release
out=build/release/bench-results.json
# taskset pins the run to one core, so the figures are per core.
taskset -c 0 build/release/bin/hots-bench --benchmark_min_time=2 \
  --benchmark_out="$out" --benchmark_out_format=json "$@"
echo "results: $out"
