#!/usr/bin/env bash
# hostile-load.sh: load errkb on loopback with wrk for DURATION (default
# 60s), 10% of the requests hostile, while a second wrk measures normal
# queries only. Prints the answers by status, the normal-query latency, the
# server's memory every 5 s and its 5xx count from /metrics, and fails on
# any 5xx or a normal-query p99 over 100 ms. Not part of `make test`.
#
# Usage: scripts/hostile-load.sh [--dataset DIR] [--duration 60s] [--records 5000] [--connections 4] [--baseline]
#
# --baseline sends no hostile queries, for comparing the same load without
# them.
#
# wrk is closed-loop: every connection sends its next request when the last
# is answered, so on this 2-core machine more connections mostly add queueing
# time to every request; 4 keep the server busy without measuring the queue.
# Needs wrk (apt-get install wrk) and go.
set -euo pipefail

duration=60s
records=5000
connections=4
mixed_mode=mixed
dataset=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dataset) dataset=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --baseline) mixed_mode=normal; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT

(cd "$here/.." && go build -o "$work/errkb" ./cmd/errkb)

if [ -z "$dataset" ]; then
  # Fictional records of fictional projects, so searches have work to do.
  dataset=$work/dataset
  mkdir -p "$dataset"
  cp -r "$here/../dataset/." "$dataset/"
  words=(stream consumer offline timeout connection refused broker replica lag quota exceeded lease expired shard
    worker leader election snapshot checksum mismatch partition rebalance handshake certificate expired cursor)
  awk -v n="$records" -v words="${words[*]}" 'BEGIN {
    split(words, w, " "); nw = length(w); srand(42)
    for (i = 1; i <= n; i++) {
      a = w[int(rand()*nw)+1]; b = w[int(rand()*nw)+1]; c = w[int(rand()*nw)+1]
      printf("{\"id\":\"fict-%d\",\"repo\":\"example-org/project-%d\",\"slug\":\"e-fict-%d\",\"errorCode\":\"E_FICT_%d\",", i, i % 20, i, i)
      printf("\"errorMessage\":\"%s %s %s in fictional component %d\",\"severity\":\"%s\",", a, b, c, i, (i % 3 ? "error" : "warning"))
      printf("\"documentation\":\"The fictional component reports **%s** when the %s is %s. See [the guide](https://example.com/%d).\",", a, b, c, i)
      printf("\"solutions\":[\"Retry the %s.\",\"Check the %s settings.\"],\"tags\":[\"%s\",\"%s\"]}\n", b, c, a, b)
    }
  }' > "$dataset/fictional.jsonl"
fi

port=$(( 20000 + RANDOM % 20000 ))
addr=127.0.0.1:$port
"$work/errkb" serve --addr "$addr" --dataset "$dataset" --shutdown-delay 0 2>"${ERRKB_LOG:-$work/server.log}" &
server_pid=$!
for _ in $(seq 1 300); do
  if curl -fs "http://$addr/readyz" >/dev/null 2>&1; then break; fi
  sleep 0.1
done
curl -fs "http://$addr/readyz" >/dev/null || { echo "server not ready"; cat "$work/server.log"; exit 1; }
echo "errkb ready on $addr with $(curl -fs "http://$addr/metrics" | awk '/^errkb_index_records /{print $2}') records; load for $duration"

metric() { curl -fs "http://$addr/metrics" | awk -v m="$1" '$1 == m {print $2}'; }
requests() { curl -fs "http://$addr/metrics" | awk '/^errkb_http_requests_total/ {s += $2} END {print s + 0}'; }
cpu0=$(metric process_cpu_seconds_total); req0=$(requests)

rss() { awk '/^VmRSS/{print $2}' "/proc/$server_pid/status"; }
( while kill -0 "$server_pid" 2>/dev/null; do echo "$(date +%s) $(rss)"; sleep 5; done ) > "$work/rss.log" &
sampler=$!

WRK_MODE=$mixed_mode wrk -t1 -c"$connections" -d"$duration" --timeout 5s -s "$here/hostile-load.lua" "http://$addr" > "$work/mixed.txt" 2>&1 &
mixed=$!
WRK_MODE=normal wrk -t1 -c1 -d"$duration" --timeout 5s -s "$here/hostile-load.lua" "http://$addr" > "$work/normal.txt" 2>&1
wait "$mixed"
kill "$sampler" 2>/dev/null || true

echo "== load ($mixed_mode): 1 thread, $connections connections$([ "$mixed_mode" = mixed ] && echo ', 10% hostile')"
cat "$work/mixed.txt"
echo "== normal-query probe: 1 thread, 1 connection, alongside"
cat "$work/normal.txt"
echo "== server RSS (KiB) every 5 s"
awk '{printf "%s ", $2} END {print ""}' "$work/rss.log"
fivexx=$(curl -fs "http://$addr/metrics" | awk '/^errkb_http_requests_total/ && /status="5/ && !/route="\/readyz"/ {s += $2} END {print s + 0}')
echo "== 5xx answers counted by the server (/readyz while the index built excepted): $fivexx"
curl -fs "http://$addr/metrics" | grep -E '^errkb_(queries|request_timeouts|rate_limited)' || true

cpu1=$(metric process_cpu_seconds_total); req1=$(requests)
awk -v c0="$cpu0" -v c1="$cpu1" -v r0="$req0" -v r1="$req1" 'BEGIN {
  printf "== server CPU: %.1f s for %d requests, %.2f ms a request\n", c1 - c0, r1 - r0, 1000 * (c1 - c0) / (r1 - r0) }'
echo "== machine load average: $(cut -d' ' -f1-3 /proc/loadavg) (other processes share the 2 cores)"

kill -TERM "$server_pid"
wait "$server_pid"; code=$?
server_pid=""
echo "== server exit code after SIGTERM: $code"

p99=$(awk '/^latency p50/ {print $9}' "$work/normal.txt")
fail=0
[ "$fivexx" -eq 0 ] || { echo "FAIL: $fivexx answers were 5xx"; fail=1; }
awk -v p="$p99" 'BEGIN { exit !(p < 100) }' || { echo "FAIL: normal-query p99 $p99 ms >= 100 ms"; fail=1; }
[ "$code" -eq 0 ] || { echo "FAIL: exit code $code"; fail=1; }
[ $fail -eq 0 ] && echo "OK: no 5xx, normal-query p99 $p99 ms"
exit $fail
