#!/usr/bin/env bash
# Usage: tests/deploy/multi_node_routing_test.sh BLOCKFOG_SERVER
# deploy/multi-node/blockfog-nodes.conf in front of three real servers (ctest's
# deploy.multi_node_routing). Each server has a database and a web root of its own, whose
# node.txt names it, so an answer says which node gave it. The site runs as shipped, with only
# its listen ports, certificate and node addresses replaced. Checked: nginx -t accepts it;
# /n/<name>/... reaches that node every time, with the prefix stripped (the servers know no
# /n/ path), WebSocket upgrades included; plain requests go round robin, each node getting
# its equal share; /metrics is refused by name too.
set -euo pipefail
server=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
nginx=/usr/sbin/nginx
[[ -x $nginx ]] || nginx=$(command -v nginx) ||
  { echo "nginx is missing: scripts/install-deps.sh installs it" >&2; exit 1; }
dir=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "multi_node_routing_test: FAIL: $*" >&2
  for log in "$dir"/*.log "$dir"/nginx/error.log; do
    [[ -f $log ]] && { echo "--- $log" >&2; tail -n 20 "$log" >&2; }
  done
  exit 1
}
free_port() {
  python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

declare -A port
for name in a b c; do
  mkdir -p "$dir/$name/www"
  echo "$name" >"$dir/$name/www/node.txt"
  "$server" --listen 127.0.0.1:0 --port-file "$dir/$name/port" --db "$dir/$name/blockfog.db" \
    --node-name "$name" --web-root "$dir/$name/www" --trusted-proxy 127.0.0.1 --http-rate 0 \
    --log-level warn \
    2>"$dir/$name.log" &
  pids+=($!)
done
for name in a b c; do
  for _ in $(seq 300); do [[ -s $dir/$name/port ]] && break; sleep 0.1; done
  [[ -s $dir/$name/port ]] || fail "server $name did not start"
  port[$name]=$(head -n 1 "$dir/$name/port")
done

# The site as shipped, with this machine's ports, a self-signed certificate and the three
# servers' addresses; each replaced text must be there exactly as often as expected.
mkdir -p "$dir/nginx/temp"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -keyout "$dir/nginx/key.pem" -out "$dir/nginx/cert.pem" 2>/dev/null
http_port=$(free_port)
https_port=$(free_port)
site=$(<"$root/deploy/multi-node/blockfog-nodes.conf")
replace() {  # FROM TO TIMES
  local times
  times=$(grep -cF -- "$1" <<<"$site" || true)
  [[ $times == "$3" ]] || fail "blockfog-nodes.conf has '$1' $times times, not $3 (update the test)"
  site=${site//"$1"/"$2"}
}
replace "    listen 80;" "    listen 127.0.0.1:$http_port;" 1
replace "    listen [::]:80;" "" 1
replace "    listen 443 ssl http2;" "    listen 127.0.0.1:$https_port ssl http2;" 1
replace "    listen [::]:443 ssl http2;" "" 1
replace /etc/letsencrypt/live/blockfog.example.org/fullchain.pem "$dir/nginx/cert.pem" 1
replace /etc/letsencrypt/live/blockfog.example.org/privkey.pem "$dir/nginx/key.pem" 1
replace "server 127.0.0.1:8081;" "server 127.0.0.1:${port[a]};" 2
replace "server 127.0.0.1:8082;" "server 127.0.0.1:${port[b]};" 2
replace "server 127.0.0.1:8083;" "server 127.0.0.1:${port[c]};" 2
printf '%s\n' "$site" >"$dir/nginx/site.conf"
n=$dir/nginx
# One process as whoever runs the test (nothing here needs root).
cat >"$n/nginx.conf" <<CONF
daemon off;
master_process off;
pid $n/nginx.pid;
error_log $n/error.log notice;
events { worker_connections 512; }
http {
  access_log $n/access.log;
  client_body_temp_path $n/temp/body;
  proxy_temp_path $n/temp/proxy;
  fastcgi_temp_path $n/temp/fastcgi;
  uwsgi_temp_path $n/temp/uwsgi;
  scgi_temp_path $n/temp/scgi;
  include $n/site.conf;
}
CONF
"$nginx" -t -p "$n/" -c "$n/nginx.conf" -e "$n/error.log" >"$dir/nginx-t.log" 2>&1 ||
  { cat "$dir/nginx-t.log" >&2; fail "nginx -t refuses the site"; }
"$nginx" -p "$n/" -c "$n/nginx.conf" -e "$n/error.log" >"$dir/nginx.log" 2>&1 &
pids+=($!)
for _ in $(seq 200); do
  curl -ks -o /dev/null "https://127.0.0.1:$https_port/" && break
  sleep 0.05
done

get() { curl -ksS --max-time 10 "https://127.0.0.1:$https_port$1"; }
status() { curl -ks -o /dev/null -w '%{http_code}' --max-time 10 "https://127.0.0.1:$https_port$1"; }

# By name: always that node, the prefix gone.
for name in a b c; do
  for _ in 1 2 3 4; do
    got=$(get "/n/$name/node.txt") || fail "/n/$name/node.txt failed"
    [[ $got == "$name" ]] || fail "/n/$name/node.txt reached node '$got'"
  done
  health=$(get "/n/$name/healthz") || fail "/n/$name/healthz failed"
  [[ $health == *'"status":"ok"'* && $health == *"\"node\":\"$name\""* ]] ||
    fail "/n/$name/healthz is not node $name's: $health"
done
[[ $(status /n/d/node.txt) == 404 ]] || fail "an unknown node's path was served"
# A WebSocket upgrade by name reaches that node: a public game made on node b (through
# /n/b/) is watched there, and is unknown to node a.
origin="https://127.0.0.1:$https_port"
post() {  # PATH BODY
  curl -ksS --max-time 10 -b "$dir/cookies" -c "$dir/cookies" -H "Origin: $origin" \
    -H 'Content-Type: application/json' --data "$2" "$origin$1"
}
post /n/b/api/register '{"username":"bruce","password":"pw-123456"}' >/dev/null ||
  fail "no account made on node b"
game=$(post /n/b/api/games '{"scenario":"braveheart","side":"scotland","visibility":"public"}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["game"]["id"])') ||
  fail "no game made on node b"
ws_status() {
  curl -ks -o /dev/null -w '%{http_code}' --max-time 2 --http1.1 \
    -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Version: 13' \
    -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' -H "Origin: $origin" "$origin$1" || true
}
ws=$(ws_status "/n/b/ws/games/$game")
[[ $ws == 101* ]] || fail "a WebSocket upgrade for node b's game through /n/b/ was answered $ws"
ws=$(ws_status "/n/a/ws/games/$game")
[[ $ws == 404* ]] || fail "node a answered $ws for node b's game: /n/a/ did not reach node a"
# Plain requests: round robin, every node its equal share.
declare -A seen=([a]=0 [b]=0 [c]=0)
for _ in $(seq 9); do
  got=$(get /node.txt) || fail "/node.txt failed"
  [[ -n ${seen[$got]+x} ]] || fail "/node.txt answered '$got'"
  seen[$got]=$((seen[$got] + 1))
done
echo "multi_node_routing_test: 9 plain requests reached a ${seen[a]}, b ${seen[b]}, c ${seen[c]} times"
for name in a b c; do
  ((seen[$name] == 3)) || fail "node $name got ${seen[$name]} of 9 plain requests, not 3"
done

for path in /metrics /n/a/metrics /n/b/metrics /n/c/metrics; do
  [[ $(status "$path") == 403 ]] || fail "$path is not refused"
done
# Everything stops cleanly: nginx gracefully (SIGQUIT), each server by draining (SIGTERM).
kill -QUIT "${pids[3]}"
for i in 3 0 1 2; do
  code=0
  ((i == 3)) || kill -TERM "${pids[i]}"
  wait "${pids[i]}" || code=$?
  ((code == 0)) || fail "process $i (nginx is 3) exited $code"
done
pids=()
echo "multi_node_routing_test: PASSED"
