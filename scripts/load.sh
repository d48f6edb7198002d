#!/usr/bin/env bash
# load.sh measures errkb side by side with nginx on this machine, on
# loopback only, in bounded time:
#
#   1. generates N records with kbgen (default 100000),
#   2. starts errkb with --index-dir twice: the first start builds and
#      persists the index, the second reuses it; prints the time to /readyz
#      and the peak RSS of each (from /usr/bin/time -v),
#   3. copies one error page and one API record, byte for byte as errkb
#      serves them, into an nginx root (and their gzip -9 forms for
#      gzip_static), starts nginx on 127.0.0.1,
#   4. runs wrk against both, alternating, and prints requests/s and the
#      ratio errkb/nginx for each URL.
#
# Usage: scripts/load.sh   (env: N, DURATION, CONNS, ROUNDS, WORK, PORT_ERRKB, PORT_NGINX)
# Needs go, curl, wrk, nginx and GNU time; installs wrk/nginx/time with
# apt-get when missing. Not part of `make test`: it takes minutes and its
# figures depend on the machine. See BENCHMARKS.md.
set -euo pipefail

N=${N:-100000}
DURATION=${DURATION:-10s}
CONNS=${CONNS:-32}
ROUNDS=${ROUNDS:-2}
PORT_ERRKB=${PORT_ERRKB:-28181}
PORT_NGINX=${PORT_NGINX:-28182}
WORK=${WORK:-$(mktemp -d /tmp/errkb-load.XXXXXX)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

need() {
	command -v "$1" >/dev/null 2>&1 || [ -x "$2" ] || {
		echo "installing $3" >&2
		apt-get update -qq && apt-get install -y -qq "$3" >/dev/null
	}
}
need wrk /usr/bin/wrk wrk
need nginx /usr/sbin/nginx nginx
need /usr/bin/time /usr/bin/time time
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	[ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
}
trap cleanup EXIT

echo "== machine"
echo "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GB RAM; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "go: $(go version | cut -d' ' -f3), nginx: $($NGINX -v 2>&1 | cut -d/ -f2), wrk $(wrk --version 2>&1 | head -1 | cut -d' ' -f2)"

echo "== build and generate $N records in $WORK"
(cd "$ROOT" && go build -o "$WORK/errkb" ./cmd/errkb && go build -o "$WORK/kbgen" ./cmd/kbgen)
[ -d "$WORK/data" ] || "$WORK/kbgen" -n "$N" -out "$WORK/data" 2>&1 | tail -1

# start_errkb LABEL: starts errkb under /usr/bin/time, waits for /readyz
# (at most 300 s) and prints the time it took.
start_errkb() {
	local t0 t1
	t0=$(date +%s.%N)
	/usr/bin/time -v -o "$WORK/time-$1.txt" "$WORK/errkb" serve --addr "127.0.0.1:$PORT_ERRKB" \
		--dataset "$WORK/data" --index-dir "$WORK/index" >"$WORK/errkb-$1.log" 2>&1 &
	errkb_pid=$!
	pids+=("$errkb_pid")
	for _ in $(seq 6000); do
		curl -sf -o /dev/null "http://127.0.0.1:$PORT_ERRKB/readyz" && break
		kill -0 "$errkb_pid" 2>/dev/null || { echo "errkb exited:"; tail "$WORK/errkb-$1.log"; exit 1; }
		sleep 0.05
	done
	t1=$(date +%s.%N)
	printf '%-28s ready after %6.2f s\n' "$1" "$(echo "$t1 - $t0" | bc)"
}

# stop_errkb LABEL: stops errkb and prints its peak RSS.
stop_errkb() {
	local child
	child=$(pgrep -P "$errkb_pid" || true)
	[ -n "$child" ] && echo "$1 RSS now: $(awk '/VmRSS/{print int($2/1024) " MiB"}' /proc/"$child"/status)"
	kill -INT "${child:-$errkb_pid}" 2>/dev/null || true
	wait "$errkb_pid" 2>/dev/null || true
	echo "$1 peak RSS: $(awk -F: '/Maximum resident/{print int($2/1024) " MiB"}' "$WORK/time-$1.txt")"
}

echo "== start-up (index in $WORK/index)"
rm -rf "$WORK/index"
start_errkb first-start
grep -E '"dataset loaded"|"index built"' "$WORK/errkb-first-start.log" | sed 's/^time=[^ ]* //'
stop_errkb first-start
start_errkb restart
grep -E '"dataset loaded"|"index reused"' "$WORK/errkb-restart.log" | sed 's/^time=[^ ]* //'

# One record in the middle of the dataset.
PAGE=$(curl -sf "http://127.0.0.1:$PORT_ERRKB/api/v1/search?q=timeout&limit=1" | grep -o '"url":"[^"]*"' | head -1 | cut -d'"' -f4)
[ -n "$PAGE" ] || { echo "no record found"; exit 1; }
API="/api/v1$PAGE"
echo "page: $PAGE"

echo "== static copies for nginx"
mkdir -p "$WORK/www$(dirname "$PAGE")" "$WORK/www$(dirname "$API")"
curl -sf -o "$WORK/www$PAGE" "http://127.0.0.1:$PORT_ERRKB$PAGE"
curl -sf -o "$WORK/www$API" "http://127.0.0.1:$PORT_ERRKB$API"
gzip -9 -k -f "$WORK/www$PAGE" "$WORK/www$API"
echo "page $(wc -c <"$WORK/www$PAGE") bytes ($(wc -c <"$WORK/www$PAGE.gz") gzipped), API record $(wc -c <"$WORK/www$API") bytes"
cat >"$WORK/nginx.conf" <<EOF
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log $WORK/nginx-access.log;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    etag on;
    gzip_static on;
    server {
        listen 127.0.0.1:$PORT_NGINX;
        root $WORK/www;
        types { }
        location /errors/ { default_type "text/html; charset=utf-8"; add_header Cache-Control "public, max-age=300"; }
        location /api/    { default_type "application/json; charset=utf-8"; add_header Cache-Control "public, max-age=300"; }
    }
}
EOF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK"
sleep 0.3
cmp <(curl -sf "http://127.0.0.1:$PORT_NGINX$PAGE") <(curl -sf "http://127.0.0.1:$PORT_ERRKB$PAGE") && echo "nginx and errkb serve the same page bytes"

rps() { # rps URL [header]: requests/s reported by wrk
	local args=(-t1 "-c$CONNS" "-d$DURATION" --latency)
	[ $# -gt 1 ] && args+=(-H "$2")
	wrk "${args[@]}" "$1" | awk '/Requests\/sec/{print int($2)}'
}

echo "== wrk -t1 -c$CONNS -d$DURATION, $ROUNDS rounds, alternating servers"
printf '%-22s %12s %12s %7s\n' "what" "nginx rps" "errkb rps" "ratio"
for what in page api page-gzip; do
	case $what in
	page) path=$PAGE hdr="" ;;
	api) path=$API hdr="" ;;
	page-gzip) path=$PAGE hdr="Accept-Encoding: gzip" ;;
	esac
	for r in $(seq "$ROUNDS"); do
		if [ -n "$hdr" ]; then
			n=$(rps "http://127.0.0.1:$PORT_NGINX$path" "$hdr")
			e=$(rps "http://127.0.0.1:$PORT_ERRKB$path" "$hdr")
		else
			n=$(rps "http://127.0.0.1:$PORT_NGINX$path")
			e=$(rps "http://127.0.0.1:$PORT_ERRKB$path")
		fi
		printf '%-22s %12s %12s %7.2f\n' "$what (round $r)" "$n" "$e" "$(echo "scale=3; $e / $n" | bc)"
	done
done

echo "== errkb after load"
stop_errkb restart
