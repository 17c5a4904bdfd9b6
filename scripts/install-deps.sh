#!/usr/bin/env bash
# Installs the Debian packages Blockfog needs, and only those that are missing: on a machine
# that has them all this runs no apt command. Safe to run any number of times.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  nlohmann-json3-dev libgtest-dev libgmock-dev googletest libbenchmark-dev
  libsqlite3-dev sqlite3 libssl-dev openssl libboost-dev clang-format
  clang     # the debug preset's compiler: ASan builds in half GCC's time (CMakePresets.json)
  lld       # its linker (CMakeLists.txt): the sanitizer build's test binaries link 4x faster
  libgoogle-perftools-dev  # tcmalloc_minimal, the server's allocator (CMakeLists.txt)
  chromium  # headless browser for the web client's end-to-end tests (tests/web)
  nodejs    # runs those tests; the machines' nodejs package (v20) brings npm with it
  nginx     # the TLS reverse proxy of deploy/nginx/, started by its test (tests/deploy)
  curl      # the container's HEALTHCHECK command, run on the host by deploy/check-image.sh
  python3-aiosmtpd  # the real SMTP server the turn notice tests send to (tests/server)
  postgresql  # the shared store of several nodes (docs/multi-node.md): initdb, pg_ctl, psql
  libpq-dev   # PostgreSQL's C client library and headers, which that store links
)

if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: not a Debian-like system (no dpkg/apt-get); make sure these are" \
    "installed: ${packages[*]}" >&2
  exit 0
fi

is_installed() {
  dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok installed$'
}

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: missing ${missing[*]}; run as root or install sudo" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
# The lock timeout waits out a concurrent apt (e.g. unattended-upgrades on a fresh machine).
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
"${apt[@]}" update
"${apt[@]}" install -y --no-install-recommends "${missing[@]}" </dev/null

still_missing=()
for package in "${missing[@]}"; do
  is_installed "$package" || still_missing+=("$package")
done
if ((${#still_missing[@]} > 0)); then
  echo "install-deps: still missing after apt-get: ${still_missing[*]}" >&2
  exit 1
fi
echo "install-deps: done"
