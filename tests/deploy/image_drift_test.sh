#!/usr/bin/env bash
# Usage: tests/deploy/image_drift_test.sh SERVER_BINARY
# deploy/check-image.sh must refuse a Dockerfile that drifts from what the image promises
# (deploy/README.md): each broken copy below fails its shape check, the unchanged copy passes.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
binary="${1:?usage: image_drift_test.sh SERVER_BINARY}"
work="$(mktemp -d /tmp/blockfog-drift-XXXXXX)"
trap 'rm -rf "$work"' EXIT

check() {
  bash deploy/check-image.sh --skip-build --binary "$binary" --shape-only --dockerfile "$1" \
    >"$work/out" 2>&1
}

cp Dockerfile "$work/Dockerfile"
if ! check "$work/Dockerfile"; then
  cat "$work/out"
  echo "image_drift_test: FAIL: the unchanged Dockerfile is refused"
  exit 1
fi

failed=0
# "description|sed expression" -- each must change the file and be refused.
mutations=(
  "runs as root|s/^USER blockfog$/USER root/"
  "no user at all|/^USER /d"
  "misses a runtime library|s/ libsqlite3-0 / /"
  "ships a -dev package|s/ libssl3 / libssl-dev /"
  "health check on another path|s|/healthz|/health|"
  "health check tool not installed|/apt-get install/s/ curl / /"
  "database off the volume|s|^ENV BLOCKFOG_DB=/data/|ENV BLOCKFOG_DB=/tmp/|"
  "volume elsewhere|s|^VOLUME /data$|VOLUME /srv|"
  "exposes another port|s/^EXPOSE 8080$/EXPOSE 9090/"
  "listens on loopback only|s/^ENV BLOCKFOG_LISTEN=0.0.0.0:/ENV BLOCKFOG_LISTEN=127.0.0.1:/"
  "stops with SIGKILL|s/^STOPSIGNAL SIGTERM$/STOPSIGNAL SIGKILL/"
  "builds without the README's script|s|^RUN bash scripts/build.sh release-pgo$|RUN cmake --workflow release-pgo|"
  "builds the preset without the profile|s|^RUN bash scripts/build.sh release-pgo$|RUN bash scripts/build.sh release|"
  "skips install-deps|/^RUN bash scripts\/install-deps.sh$/d"
  "fat runtime base|s/^FROM debian:12-slim$/FROM debian:12/"
  "web root not where the client is copied|s|^ENV BLOCKFOG_WEB_ROOT=.*|ENV BLOCKFOG_WEB_ROOT=/srv/www|"
  "entrypoint is not the copied binary|s|^ENTRYPOINT .*|ENTRYPOINT [\"/usr/bin/blockfog-server\"]|"
  "an instruction the mirror does not know|s|^EXPOSE 8080$|EXPOSE 8080\nARG VERSION=1|"
)
for mutation in "${mutations[@]}"; do
  description="${mutation%%|*}"
  expression="${mutation#*|}"
  sed -e "$expression" Dockerfile >"$work/Dockerfile.broken"
  if cmp -s Dockerfile "$work/Dockerfile.broken"; then
    echo "image_drift_test: FAIL: '$description' did not change the Dockerfile (update this test)"
    failed=1
  elif check "$work/Dockerfile.broken"; then
    echo "image_drift_test: FAIL: a Dockerfile that $description passed the check"
    failed=1
  else
    echo "image_drift_test: refused ($description): $(grep -m1 'FAIL' "$work/out")"
  fi
done
((failed == 0)) && echo "image_drift_test: PASSED"
exit "$failed"
