#!/usr/bin/env bash
# Usage: scripts/stress-tests.sh [RUNS] [CTEST-ARGS...]
# Runs the browser and server tests of an already built preset RUNS times in a row (default
# 10) under `ctest -j 4`, with a CPU hog busy on every core beside them, and reports how often
# each test failed and one last PASS or FAIL line (exit status 1 on any failure). A test that
# fails one run in twenty is a bug; this makes such a test fail where it can be seen.
#
#   scripts/stress-tests.sh                    # every browser and server suite, 10 runs
#   scripts/stress-tests.sh 20 -R 'web_e2e\.board|server\.ComputerGame'   # a subset, 20 runs
#
# CTEST-ARGS replace the default selection (-R '^(web_unit|web_e2e\.|server\.)'); any ctest
# option may be given (-R, -E, -L, ...). Environment: PRESET (default debug), STRESS_HOGS (busy
# processes, default one per core), STRESS_JOBS (ctest -j, default 4). The output of each
# failing run is kept in build/PRESET/stress/ (its ctest log).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs=10
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  runs=$1
  shift
fi
(( runs > 0 )) || { echo "stress-tests.sh: RUNS must be at least 1" >&2; exit 2; }
preset=${PRESET:-debug}
jobs=${STRESS_JOBS:-4}
hogs=${STRESS_HOGS:-$(nproc)}
selection=("$@")
[[ ${#selection[@]} -gt 0 ]] || selection=(-R '^(web_unit|web_e2e\.|server\.)')

build="build/$preset"
if [[ ! -f $build/CTestTestfile.cmake ]]; then
  echo "stress-tests.sh: $build is not configured; build it first (scripts/build.sh $preset)" >&2
  exit 2
fi
out="$build/stress"
rm -rf "$out"
mkdir -p "$out"

# The hog: busy loops that take every core the tests would have had to themselves. Each is
# ended by its own id when this script exits, however it exits.
hog_pids=()
stop_hogs() {
  local pid
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hog_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  hog_pids=()
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM
for ((k = 0; k < hogs; k++)); do
  yes > /dev/null &
  hog_pids+=($!)
done
echo "stress: $runs runs of ctest --preset $preset -j $jobs ${selection[*]}, $hogs busy processes beside"

declare -A ran failed
failed_runs=0
for ((run = 1; run <= runs; run++)); do
  log="$out/run-$run.log"
  extra=()
  # npm ci (the browser tests' fixture) once is enough: later runs only read node_modules.
  ((run == 1)) || extra=(-FA web_node_modules)
  status=0
  ctest --preset "$preset" -j "$jobs" "${extra[@]}" "${selection[@]}" > "$log" 2>&1 || status=$?
  # " 3/12 Test  #5: web_e2e.board ......   Passed   41.20 sec" (or ***Failed, ***Timeout, ...)
  run_failed=()
  while read -r name result; do
    ran[$name]=$(( ${ran[$name]:-0} + 1 ))
    if [[ $result != Passed ]]; then
      failed[$name]=$(( ${failed[$name]:-0} + 1 ))
      run_failed+=("$name ($result)")
    fi
  done < <(sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) \.*[ *]*([A-Za-z]+).*/\1 \2/p' "$log")
  if ((status != 0 || ${#run_failed[@]} > 0)); then
    failed_runs=$((failed_runs + 1))
    cp "$build/Testing/Temporary/LastTest.log" "$out/run-$run.LastTest.log" 2>/dev/null || true
    echo "run $run/$runs: FAILED ${run_failed[*]:-(ctest exited $status; see $log)}"
  else
    echo "run $run/$runs: passed ($(grep -Eo '[0-9]+ tests? failed out of [0-9]+' "$log" | sed 's/.* out of //') tests)"
  fi
done

stop_hogs
# Per test: the runs it passed of those it ran in (npm ci, a fixture, runs once).
echo "per test, runs passed of runs run:"
mapfile -t names < <(printf '%s\n' "${!ran[@]}" | sort)
tests=0
for name in "${names[@]}"; do
  [[ -n $name ]] || continue
  tests=$((tests + 1))
  bad=${failed[$name]:-0}
  total=${ran[$name]}
  printf '  %-60s %d/%d%s\n' "$name" $((total - bad)) "$total" \
    "$( ((bad == 0)) || echo "  FAILED $bad" )"
done
if ((failed_runs == 0 && tests > 0)); then
  echo "stress: PASS: $tests tests, $runs runs, no failure (logs in $out)"
else
  echo "stress: FAIL: $failed_runs of $runs runs had a failure, $tests tests (logs in $out)"
  exit 1
fi
