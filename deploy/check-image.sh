#!/usr/bin/env bash
# Usage: deploy/check-image.sh [--skip-build --binary FILE] [--dockerfile FILE] [--shape-only]
#
# There is no Docker engine on the CI machines, so this script keeps the Dockerfile correct by
# reading it and doing what it says on this machine (ctest: deploy.image):
#   1. checks the Dockerfile's shape: debian:12 build stage running the README's scripts, a
#      debian:12-slim runtime stage whose apt packages provide every library the server links,
#      a non-root USER, the database on the /data VOLUME, EXPOSE = the listen port, a
#      HEALTHCHECK on /healthz, STOPSIGNAL SIGTERM, an ENTRYPOINT that is the copied binary;
#   2. runs the build stage's RUN commands in the repository (the build stage's /src);
#   3. assembles the runtime stage's COPY layout in a staging directory;
#   4. starts the staged server with the image's ENV (paths under the staging directory, and a
#      free loopback port instead of 0.0.0.0:8080) as a non-root user (nobody when run as root),
#      runs the HEALTHCHECK command against it, fetches the web client, sends the STOPSIGNAL
#      and expects exit status 0.
# Any Dockerfile instruction this script does not understand fails the check, so the two cannot
# drift apart silently. --skip-build uses FILE as the server instead of running the build stage
# (the debug preset's test, whose sanitizer libraries are then not required of the image).
# --shape-only stops after the checks of step 1 and the libraries (tests/deploy feed it broken
# copies of the Dockerfile to see them refused).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

skip_build=false
shape_only=false
binary_override=""
dockerfile=Dockerfile
while (($# > 0)); do
  case "$1" in
    --skip-build) skip_build=true; shift ;;
    --binary) binary_override="${2:?--binary needs a file}"; shift 2 ;;
    --dockerfile) dockerfile="${2:?--dockerfile needs a file}"; shift 2 ;;
    --shape-only) shape_only=true; shift ;;
    *) echo "check-image: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if $skip_build && [[ -z $binary_override ]]; then
  echo "check-image: --skip-build needs --binary" >&2
  exit 2
fi

failures=0
fail() {
  echo "check-image: FAIL: $*" >&2
  failures=$((failures + 1))
}
die() {
  echo "check-image: FAIL: $*" >&2
  exit 1
}

# --- 1. read the Dockerfile ------------------------------------------------------------------
# Instructions with continuation lines joined, comments dropped, one per array element.
instructions=()
current=""
while IFS= read -r line || [[ -n $line ]]; do
  [[ -z $current && ($line =~ ^[[:space:]]*# || $line =~ ^[[:space:]]*$) ]] && continue
  if [[ $line =~ \\$ ]]; then
    current+="${line%\\} "
    continue
  fi
  instructions+=("$current$line")
  current=""
done <"$dockerfile"

stage=-1
build_from="" runtime_from=""
build_runs=() build_copies=()
runtime_runs=() runtime_copies=() runtime_env_names=() runtime_env_values=()
user="" volume="" expose="" healthcheck="" stopsignal="" entrypoint="" workdir=""
for instruction in "${instructions[@]}"; do
  keyword="${instruction%% *}"
  args="${instruction#* }"
  case "$keyword" in
    FROM)
      stage=$((stage + 1))
      if ((stage == 0)); then build_from="$args"; else runtime_from="$args"; fi
      ;;
    RUN)
      if ((stage == 0)); then build_runs+=("$args"); else runtime_runs+=("$args"); fi
      ;;
    COPY)
      if ((stage == 0)); then build_copies+=("$args"); else runtime_copies+=("$args"); fi
      ;;
    WORKDIR)
      if ((stage == 0)); then
        [[ $args == /src ]] || fail "the build stage's WORKDIR must be /src (the repository)"
      else
        workdir="$args"
      fi
      ;;
    ENV)
      ((stage == 1)) || fail "ENV in the build stage would not reach the README's build"
      [[ $args =~ ^([A-Z_]+)=([^[:space:]]*)$ ]] || fail "ENV must be NAME=value: $args"
      runtime_env_names+=("${BASH_REMATCH[1]}")
      runtime_env_values+=("${BASH_REMATCH[2]}")
      ;;
    VOLUME) volume="$args" ;;
    USER) user="$args" ;;
    EXPOSE) expose="$args" ;;
    HEALTHCHECK) healthcheck="$args" ;;
    STOPSIGNAL) stopsignal="$args" ;;
    ENTRYPOINT) entrypoint="$args" ;;
    *) fail "instruction '$keyword' is unknown to deploy/check-image.sh: teach it first" ;;
  esac
done

((stage == 1)) || fail "two stages expected (build, runtime), found $((stage + 1))"
[[ $build_from == "debian:12 AS build" ]] || fail "build stage must be 'FROM debian:12 AS build'"
[[ $runtime_from == "debian:12-slim" ]] || fail "runtime stage must be 'FROM debian:12-slim'"

# The build stage runs the README's scripts: ./run.sh is `scripts/build.sh release`; the image
# takes the profile-optimised preset of the same script (`release-pgo`), which itself runs
# scripts/install-deps.sh and scripts/pgo-train.sh.
grep -q 'bash scripts/build.sh release' run.sh || fail "run.sh no longer runs scripts/build.sh release"
grep -q '"name": "release-pgo"' CMakePresets.json || fail "CMakePresets.json has no release-pgo preset"
[[ ${build_runs[*]} == "bash scripts/install-deps.sh bash scripts/build.sh release-pgo" ]] ||
  fail "build stage RUNs must be 'bash scripts/install-deps.sh' then 'bash scripts/build.sh release-pgo', got: ${build_runs[*]}"
for copy in "${build_copies[@]}"; do
  read -r -a parts <<<"$copy"
  ((${#parts[@]} == 2)) || { fail "build COPY with options: $copy"; continue; }
  [[ ${parts[0]} == "${parts[1]}" && (-e ${parts[0]} || ${parts[0]} == .) ]] ||
    fail "build COPY must copy a repository path to the same place under /src: $copy"
done

env_value() {
  local i
  for i in "${!runtime_env_names[@]}"; do
    [[ ${runtime_env_names[i]} == "$1" ]] && { echo "${runtime_env_values[i]}"; return; }
  done
  echo ""
}

[[ -n $user && $user != root && $user != 0 && ! $user =~ ^0: ]] || fail "USER must be a non-root user, got '$user'"
runtime_text="${runtime_runs[*]}"
[[ $runtime_text =~ useradd[^\&]*[[:space:]]$user([[:space:]]|$) ]] || fail "no RUN creates the user '$user'"
[[ $volume == /data ]] || fail "VOLUME must be /data, got '$volume'"
[[ $workdir == /data ]] || fail "runtime WORKDIR must be the volume /data, got '$workdir'"
[[ $runtime_text =~ chown[[:space:]]+$user(:$user)?[[:space:]]+/data ]] || fail "/data must be chowned to $user"
db="$(env_value BLOCKFOG_DB)"
[[ $db == /data/* ]] || fail "BLOCKFOG_DB must be on the /data volume, got '$db'"
listen="$(env_value BLOCKFOG_LISTEN)"
[[ $listen == "0.0.0.0:$expose" && $expose =~ ^[0-9]+$ ]] ||
  fail "BLOCKFOG_LISTEN ($listen) must be 0.0.0.0:<the EXPOSEd port ($expose)>"
health_url="http://127.0.0.1:$expose/healthz"
[[ $healthcheck =~ ^(--[a-z-]+=[0-9a-z]+[[:space:]]+)*CMD[[:space:]]+(.*)$ ]] ||
  fail "HEALTHCHECK must be '[--options] CMD command', got '$healthcheck'"
health_command="${BASH_REMATCH[2]:-}"
[[ $health_command == *"$health_url"* ]] || fail "HEALTHCHECK must request $health_url"
health_tool="${health_command%% *}"
[[ $stopsignal == SIGTERM ]] || fail "STOPSIGNAL must be SIGTERM (the server drains on it)"
[[ $entrypoint =~ ^\[\"([^\"]+)\"\]$ ]] || fail "ENTRYPOINT must be the exec form [\"/path/to/blockfog-server\"]"
entry_binary="${BASH_REMATCH[1]:-}"

# The runtime stage's apt packages: one `apt-get install ... <packages>` RUN.
apt_packages=()
for run in "${runtime_runs[@]}"; do
  if [[ $run =~ apt-get\ install\ -y\ --no-install-recommends\ ([a-z0-9.+\ -]+)(\&\&|$) ]]; then
    read -r -a apt_packages <<<"${BASH_REMATCH[1]}"
  fi
done
((${#apt_packages[@]} > 0)) || fail "no 'apt-get install -y --no-install-recommends ...' in the runtime stage"
for package in "${apt_packages[@]}"; do
  [[ $package == *-dev ]] && fail "the runtime stage installs a -dev package: $package"
done
has_package() {
  local p
  for p in "${apt_packages[@]}"; do [[ $p == "$1" ]] && return 0; done
  return 1
}
# What apt installs in the runtime stage: the listed packages and, recursively, what they depend
# on (libpq5 brings Kerberos and LDAP, for example). Read from this machine's dpkg database, which
# is the image's Debian release; of alternatives ("a | b") the first, as apt chooses.
declare -A installed=()
pending=("${apt_packages[@]}")
while ((${#pending[@]} > 0)); do
  package="${pending[-1]}"
  unset 'pending[-1]'
  [[ -n ${installed[$package]:-} ]] && continue
  installed[$package]=1
  depends="$(dpkg-query -W -f='${Depends},${Pre-Depends}' "$package" 2>/dev/null)" || continue
  while read -r dependency; do
    [[ -n $dependency ]] && pending+=("$dependency")
  done < <(tr ',' '\n' <<<"$depends" | sed -E 's/\|.*//; s/\(.*\)//; s/:any//; s/^ +//; s/ +$//')
done
is_installed() { [[ -n ${installed[$1]:-} ]]; }
# debian:12-slim has neither curl nor wget: the tool must come from the apt line.
if [[ $health_tool == curl || $health_tool == wget ]]; then
  has_package "$health_tool" || fail "the HEALTHCHECK uses $health_tool, which the runtime stage does not install"
else
  fail "the HEALTHCHECK must run curl or wget, got '$health_tool'"
fi

# The runtime COPY layout: source in the build stage (/src/...) and destination.
copy_sources=() copy_destinations=()
for copy in "${runtime_copies[@]}"; do
  read -r -a parts <<<"$copy"
  if ((${#parts[@]} != 3)) || [[ ${parts[0]} != --from=build || ${parts[1]} != /src/* ]]; then
    fail "runtime COPY must be 'COPY --from=build /src/<path> <destination>': $copy"
    continue
  fi
  copy_sources+=("${parts[1]#/src/}")
  copy_destinations+=("${parts[2]}")
done
server_source="" web_destination=""
for i in "${!copy_sources[@]}"; do
  [[ ${copy_destinations[i]} == "$entry_binary" ]] && server_source="${copy_sources[i]}"
  [[ ${copy_sources[i]} == web-client ]] && web_destination="${copy_destinations[i]}"
done
[[ $server_source == build/release-pgo/bin/blockfog-server ]] ||
  fail "the ENTRYPOINT ($entry_binary) must be the copy of build/release-pgo/bin/blockfog-server"
[[ -n $web_destination && $(env_value BLOCKFOG_WEB_ROOT) == "$web_destination" ]] ||
  fail "BLOCKFOG_WEB_ROOT must be where web-client/ is copied ($web_destination)"
((failures == 0)) || die "$failures problem(s) in the Dockerfile"
echo "check-image: Dockerfile shape ok (user $user, volume $volume, port $expose)"

# --- 2. the build stage ----------------------------------------------------------------------
if $skip_build || $shape_only; then
  echo "check-image: build stage skipped; using $binary_override"
else
  for run in "${build_runs[@]}"; do
    echo "check-image: RUN $run"
    bash -c "$run" || die "build stage step failed: $run"
  done
fi

# Every library the server links must come from a runtime package (libc6 is in every image).
binary="${binary_override:-$server_source}"
[[ -x $binary ]] || die "no server binary at $binary"
while read -r library; do
  package=""
  for candidate in "$library" "/usr$library" "$(readlink -f "$library")"; do
    package="$(dpkg -S "$candidate" 2>/dev/null | head -n1 | cut -d: -f1)" && [[ -n $package ]] && break
  done
  [[ -n $package ]] || { fail "no Debian package owns $library"; continue; }
  [[ $package == libc6 ]] && continue
  $skip_build && [[ $package =~ ^lib(asan|ubsan|lsan|tsan)[0-9]*$ ]] && continue
  is_installed "$package" || fail "blockfog-server links $library from $package, which the runtime stage does not install"
done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
((failures == 0)) || die "$failures runtime librar(y/ies) missing from the Dockerfile"
echo "check-image: runtime packages cover every library: ${apt_packages[*]}"
if $shape_only; then
  echo "check-image: PASSED (shape only)"
  exit 0
fi

# --- 3. the runtime file layout --------------------------------------------------------------
root="$(mktemp -d /tmp/blockfog-image-XXXXXX)"
server_pid=""
cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$root"
}
trap cleanup EXIT
chmod 755 "$root"
for i in "${!copy_sources[@]}"; do
  source="${copy_sources[i]}"
  [[ $source == "$server_source" ]] && source="$binary"
  [[ -e $source ]] || die "COPY source $source does not exist"
  mkdir -p "$(dirname "$root${copy_destinations[i]}")"
  cp -a "$source" "$root${copy_destinations[i]}"
done
chmod -R a+rX "$root"  # what COPY gives: files readable by the image's user
mkdir -p "$root$volume"

# --- 4. start it as the image would ----------------------------------------------------------
# The port file goes to a folder of the test's own, writable by the server's user.
mkdir -p "$root/run"
if (($(id -u) == 0)); then
  run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  chown nobody:nogroup "$root$volume" "$root/run"
else
  run_as=()
fi
environment=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
for i in "${!runtime_env_names[@]}"; do
  name="${runtime_env_names[i]}" value="${runtime_env_values[i]}"
  if [[ $name == BLOCKFOG_LISTEN ]]; then
    value=127.0.0.1:0  # a free loopback port; the image's 0.0.0.0:$expose was checked above
  elif [[ $value == /* ]]; then
    value="$root$value"
  fi
  environment+=("$name=$value")
done
# Sanitizer options of the debug preset's binary, if the caller has any.
for name in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS; do
  [[ -n ${!name:-} ]] && environment+=("$name=${!name}")
done
port_file="$root/run/port"
(cd "$root$workdir" && exec "${run_as[@]}" env -i "${environment[@]}" "$root$entry_binary" \
  --port-file "$port_file") >"$root/server.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 300); do
  port="$(cat "$port_file" 2>/dev/null || true)"
  [[ -n $port ]] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$root/server.log" >&2; die "the staged server exited at start"; }
  sleep 0.1
done
[[ -n $port ]] || { cat "$root/server.log" >&2; die "the staged server did not start"; }
uid="$(awk '/^Uid:/ { print $3 }' "/proc/$server_pid/status" 2>/dev/null || echo 0)"
[[ $uid != 0 ]] || fail "the staged server runs as root"
[[ -f $root$db ]] || fail "the database was not created at the image's $db"

health="${health_command//127.0.0.1:$expose/127.0.0.1:$port}"
echo "check-image: HEALTHCHECK $health"
answer="$(bash -c "$health")" || fail "the HEALTHCHECK command failed"
[[ $answer == *'"ok"'* ]] || fail "the health check answered '$answer'"
index="$(curl -fsS "http://127.0.0.1:$port/")" || fail "GET / failed"
[[ $index == *"<html"* || $index == *"<!DOCTYPE"* || $index == *"<!doctype"* ]] ||
  fail "GET / is not the web client"

echo "check-image: STOPSIGNAL $stopsignal"
kill -s "${stopsignal#SIG}" "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
((status == 0)) || { cat "$root/server.log" >&2; fail "the server exited $status after $stopsignal"; }

((failures == 0)) || die "$failures problem(s) running the image's layout"
echo "check-image: PASSED"
