#!/usr/bin/env bash
# A game recorded by hots-sim replays to the same final state; a tampered record is refused at
# the first illegal action.
set -euo pipefail
sim="$1"; replay="$2"; dir="$3"
record="$dir/game.json"; tampered="$dir/tampered.json"
expected=$("$sim" --games 1 --seed 21 --record "$record" | head -1 | sed 's/.*final state \([0-9a-f]*\).*/\1/')
out=$("$replay" "$record")
echo "$out"
[[ "$out" == *'"valid":true'* && "$out" == *"\"state_hash\":\"$expected"* && "$out" == *'"finished":true'* ]]
# England acting first in the card phase with a card it does not hold is refused.
python3 - "$record" "$tampered" <<'PY'
import json, sys
record = json.load(open(sys.argv[1]))
record["actions"].insert(0, {"seq": 0, "role": "england", "action": {"kind": "stop"}})
json.dump(record, open(sys.argv[2], "w"))
PY
if "$replay" "$tampered" > "$dir/tampered.out"; then echo "tampered record accepted"; exit 1; fi
cat "$dir/tampered.out"
grep -q '"first_illegal":{"action":{"kind":"stop"}' "$dir/tampered.out"
grep -q '"seq":1' "$dir/tampered.out"
