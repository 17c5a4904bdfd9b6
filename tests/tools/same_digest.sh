#!/usr/bin/env bash
# Two runs with the same seed must end in the same digest; another seed in another one.
set -euo pipefail
sim="$1"
digest() { "$sim" --scenario all --games 3 --seed "$1" | tail -1 | sed 's/.*"digest":"\([0-9a-f]*\)".*/\1/'; }
a=$(digest 3); b=$(digest 3); c=$(digest 4)
echo "seed 3: $a / $b; seed 4: $c"
[[ ${#a} -eq 64 && "$a" == "$b" && "$a" != "$c" ]]
