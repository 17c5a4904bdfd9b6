#!/usr/bin/env bash
# Usage: scripts/check-format.sh [--fix]
# Checks every *.h/*.cpp of the project's source folders against .clang-format and lists the files
# that differ (with their diffs); exits 1 if any. --fix reformats those files in place instead.
# The clang-format binary can be chosen with CLANG_FORMAT=/path/to/clang-format.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fix=false
case "${1:-}" in
  "") ;;
  --fix) fix=true ;;
  *) echo "usage: scripts/check-format.sh [--fix]" >&2; exit 2 ;;
esac

clang_format="${CLANG_FORMAT:-clang-format}"
if ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check-format: '$clang_format' not found; run scripts/install-deps.sh" >&2
  exit 2
fi

dirs=()
for dir in rules ai games protocol storage server tools bench tests; do
  [[ -d $dir ]] && dirs+=("$dir")
done
files=()
if ((${#dirs[@]} > 0)); then
  # Build trees, vendored code and generated sources are not ours to format.
  while IFS= read -r -d '' file; do
    if head -n 3 -- "$file" | grep -qi 'generated.*do not edit'; then
      continue
    fi
    files+=("$file")
  done < <(find "${dirs[@]}" \
    \( -type d \( -name 'build*' -o -name generated -o -name third_party -o -name node_modules \) -prune \) \
    -o -type f \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z)
fi

# One clang-format per batch of files, two at a time: it names each file that differs in a
# "file:line:col: error: code should be clang-formatted" line. If it fails without naming a
# file (a broken .clang-format, say), that is an error of its own.
bad=()
if ((${#files[@]} > 0)); then
  reports="$(mktemp -d)"
  trap 'rm -rf "$reports"' EXIT
  status=0
  # Each batch writes its own report: two processes' lines would interleave in one file.
  printf '%s\0' "${files[@]}" |
    REPORTS="$reports" xargs -0 -n 40 -P 2 sh -c '"$0" --dry-run -Werror -- "$@" >/dev/null 2>"$(mktemp -p "$REPORTS")"' \
      "$clang_format" || status=$?
  mapfile -t bad < <(cat "$reports"/* |
    sed -n 's/^\([^:]*\.\(h\|cpp\)\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
  if ((status != 0 && ${#bad[@]} == 0)); then
    echo "check-format: $clang_format failed:" >&2
    cat "$reports"/* | head -n 20 >&2
    exit 2
  fi
fi

version="$("$clang_format" --version)"
if ((${#bad[@]} == 0)); then
  echo "check-format: ${#files[@]} files formatted correctly ($version)"
  exit 0
fi

if $fix; then
  "$clang_format" -i -- "${bad[@]}"
  printf 'check-format: reformatted %s\n' "${bad[@]}"
  exit 0
fi

shown=0
for file in "${bad[@]}"; do
  ((shown++ < 10)) || break
  # A clang-format error (e.g. a broken .clang-format) is shown instead of a diff.
  if formatted="$("$clang_format" -- "$file" 2>&1)"; then
    "$clang_format" -- "$file" | diff -u --label "$file" --label "$file (clang-format)" "$file" - |
      head -n 40 || true
  else
    echo "$formatted" | head -n 20
  fi
done
echo "check-format: ${#bad[@]} of ${#files[@]} files differ from .clang-format ($version):"
printf '  %s\n' "${bad[@]}"
echo "check-format: fix with scripts/check-format.sh --fix"
exit 1
