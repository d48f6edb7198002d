#!/usr/bin/env bash
# load.sh measures errkb side by side with nginx on this machine, on
# loopback only, in bounded time:
#
#   1. generates N records with kbgen (default 100000),
#   2. (MODE=all) starts errkb with --index-dir twice: the first start builds
#      and persists the index, the second reuses it; prints the time to
#      /readyz and the peak RSS of each (from /usr/bin/time -v),
#   3. starts errkb built from this tree and, when BASELINE_REV names a git
#      revision (default main), errkb built from that revision, side by side;
#      copies one error page and one API record, byte for byte as errkb
#      serves them, into an nginx root (and their gzip -9 forms for
#      gzip_static), starts nginx on 127.0.0.1 with errkb's headers, one
#      worker per CPU and an access log buffered like errkb's request log,
#   4. runs wrk against nginx and each errkb, alternating, and prints
#      requests/s and the ratio errkb/nginx for each URL, with the CPU
#      time each server spent per request and the ratio nginx/errkb of it,
#   5. for each errkb: page requests/s calm and while a second wrk floods it
#      with a fresh Host on every request (scripts/forged-host.lua), and the
#      cached page's p99 calm and while one client floods search with 8 KiB
#      queries over 300 connections (scripts/search-flood.lua),
#   6. (PROFILE=1) a CPU profile of each errkb while wrk fetches the cached
#      page, with the top of `go tool pprof -top`.
#
# Usage: scripts/load.sh   (env: N, MODE=all|http, BASELINE_REV, PROFILE,
#   PARTS="ratios floods", DURATION, CONNS, ROUNDS, WORK, PORT_ERRKB,
#   PORT_BASE, PORT_NGINX)
# Needs go, git, curl, wrk, nginx and GNU time; installs wrk/nginx/time with
# apt-get when missing. Not part of `make test`: it takes minutes and its
# figures depend on the machine. See BENCHMARKS.md.
set -euo pipefail

N=${N:-100000}
DURATION=${DURATION:-10s}
CONNS=${CONNS:-32}
ROUNDS=${ROUNDS:-2}
PORT_ERRKB=${PORT_ERRKB:-28181}
PORT_NGINX=${PORT_NGINX:-28182}
PORT_BASE=${PORT_BASE:-28183}
MODE=${MODE:-all}
BASELINE_REV=${BASELINE_REV-main}
PROFILE=${PROFILE:-0}
PARTS=${PARTS:-ratios floods}
WORK=${WORK:-$(mktemp -d /tmp/errkb-load.XXXXXX)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK"

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
	# Each pid is /usr/bin/time's; errkb is its child.
	for p in "${pids[@]}"; do
		pkill -INT -P "$p" 2>/dev/null || true
		kill "$p" 2>/dev/null || true
	done
	[ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
}
trap cleanup EXIT

echo "== machine"
echo "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GB RAM; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "go: $(go version | cut -d' ' -f3), nginx: $($NGINX -v 2>&1 | cut -d/ -f2), wrk $(wrk --version 2>&1 | head -1 | cut -d' ' -f2)"

# build DIR OUT: builds DIR's errkb with scripts/cpuprofile_hook.go added
# through an overlay (the hook does nothing unless ERRKB_CPUPROFILE is set).
build() {
	sed 1d "$ROOT/scripts/cpuprofile_hook.go" >"$WORK/hook.go"
	printf '{"Replace":{"%s/cmd/errkb/zz_cpuprofile_hook.go":"%s/hook.go"}}' "$1" "$WORK" >"$WORK/overlay.json"
	(cd "$1" && go build -overlay "$WORK/overlay.json" -o "$2" ./cmd/errkb)
}

echo "== build and generate $N records in $WORK"
build "$ROOT" "$WORK/errkb"
(cd "$ROOT" && go build -o "$WORK/kbgen" ./cmd/kbgen)
if [ -n "$BASELINE_REV" ]; then
	rm -rf "$WORK/src-base" && mkdir -p "$WORK/src-base"
	git -C "$ROOT" archive "$BASELINE_REV" | tar -x -C "$WORK/src-base"
	build "$WORK/src-base" "$WORK/errkb-base"
	echo "baseline: $BASELINE_REV ($(git -C "$ROOT" rev-parse --short "$BASELINE_REV")), this tree: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet || echo +changes)"
fi
[ -d "$WORK/data" ] || "$WORK/kbgen" -n "$N" -out "$WORK/data" 2>&1 | tail -1

# start_errkb LABEL [BIN PORT INDEX_DIR]: starts errkb under /usr/bin/time,
# waits for /readyz (at most 300 s) and prints the time it took.
start_errkb() {
	local t0 t1 bin=${2:-$WORK/errkb} port=${3:-$PORT_ERRKB} dir=${4:-$WORK/index}
	if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
		echo "port $port is in use: stop what runs there first" >&2
		exit 1
	fi
	t0=$(date +%s.%N)
	ERRKB_CPUPROFILE=${PROF_OUT:-} ERRKB_PROF_DELAY=${PROF_DELAY:-0} ERRKB_PROF_SECONDS=${PROF_SECONDS:-0} \
		/usr/bin/time -v -o "$WORK/time-$1.txt" "$bin" serve --addr "127.0.0.1:$port" \
		--dataset "$WORK/data" --index-dir "$dir" >"$WORK/errkb-$1.log" 2>&1 &
	errkb_pid=$!
	pids+=("$errkb_pid")
	for _ in $(seq 6000); do
		curl -sf -o /dev/null "http://127.0.0.1:$port/readyz" && break
		kill -0 "$errkb_pid" 2>/dev/null || { echo "errkb exited:"; tail "$WORK/errkb-$1.log"; exit 1; }
		sleep 0.05
	done
	t1=$(date +%s.%N)
	printf '%-28s ready after %6.2f s\n' "$1" "$(echo "$t1 - $t0" | bc)"
}

# stop_errkb LABEL [PID]: stops errkb and prints its peak RSS.
stop_errkb() {
	local child pid=${2:-$errkb_pid}
	child=$(pgrep -P "$pid" || true)
	[ -n "$child" ] && echo "$1 RSS now: $(awk '/VmRSS/{print int($2/1024) " MiB"}' /proc/"$child"/status)"
	kill -INT "${child:-$pid}" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	echo "$1 peak RSS: $(awk -F: '/Maximum resident/{print int($2/1024) " MiB"}' "$WORK/time-$1.txt")"
}

if [ "$MODE" = all ]; then
	echo "== start-up (index in $WORK/index)"
	rm -rf "$WORK/index"
	start_errkb first-start
	grep -E '"dataset loaded"|"index built"' "$WORK/errkb-first-start.log" | sed 's/^time=[^ ]* //'
	stop_errkb first-start
	start_errkb restart
	grep -E '"dataset loaded"|"index reused"' "$WORK/errkb-restart.log" | sed 's/^time=[^ ]* //'
else
	start_errkb this-tree
fi
new_pid=$errkb_pid
servers=("tree:$PORT_ERRKB")
if [ -n "$BASELINE_REV" ]; then
	start_errkb baseline "$WORK/errkb-base" "$PORT_BASE" "$WORK/index-base"
	base_pid=$errkb_pid
	servers=("$BASELINE_REV:$PORT_BASE" "${servers[@]}")
fi

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
# nginx as a peer of errkb: as many workers as errkb has CPUs (GOMAXPROCS),
# the same headers (security headers, a request id, Vary, Cache-Control,
# ETag), keep-alive, and its access log buffered as errkb buffers its
# request log (64 KiB, written at least every 100 ms; cmd/errkb/logbuf.go).
HDRS='add_header Cache-Control "public, max-age=300"; add_header Content-Security-Policy "default-src '"'self'"'; object-src '"'none'"'; base-uri '"'none'"'; frame-ancestors '"'none'"'"; add_header Cross-Origin-Opener-Policy same-origin; add_header Referrer-Policy no-referrer; add_header X-Content-Type-Options nosniff; add_header X-Frame-Options DENY; add_header X-Xss-Protection 0; add_header X-Request-Id $request_id;'
cat >"$WORK/nginx.conf" <<EOF
worker_processes $(nproc);
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log $WORK/nginx-access.log combined buffer=64k flush=100ms;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    etag on;
    gzip_static on;
    server_tokens off;
    server {
        listen 127.0.0.1:$PORT_NGINX;
        root $WORK/www;
        types { }
        location /errors/ { default_type "text/html; charset=utf-8"; $HDRS add_header Vary "Accept, Accept-Encoding"; }
        location /api/    { default_type "application/json; charset=utf-8"; $HDRS add_header Vary Accept-Encoding; }
    }
}
EOF
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK"
sleep 0.3
cmp <(curl -sf "http://127.0.0.1:$PORT_NGINX$PAGE") <(curl -sf "http://127.0.0.1:$PORT_ERRKB$PAGE") && echo "nginx and errkb serve the same page bytes"
for u in "$PAGE" "$API"; do
	echo "$u headers: nginx $(curl -sf -o /dev/null -D - "http://127.0.0.1:$PORT_NGINX$u" | wc -c) bytes, errkb $(curl -sf -o /dev/null -D - "http://127.0.0.1:$PORT_ERRKB$u" | wc -c) bytes"
done

for sv in "${servers[@]}"; do # cache the page and the record
	curl -sf -o /dev/null "http://127.0.0.1:${sv##*:}$PAGE"
	curl -sf -o /dev/null "http://127.0.0.1:${sv##*:}$API"
done

rps() { # rps URL [header]: requests/s reported by wrk
	local args=(-t1 "-c$CONNS" "-d$DURATION" --latency)
	[ $# -gt 1 ] && [ -n "$2" ] && args+=(-H "$2")
	wrk "${args[@]}" "$1" | awk '/Requests\/sec/{print int($2)}'
}

# pids_of PORT: the processes serving PORT: nginx's workers, or errkb.
pids_of() {
	case $1 in
	"$PORT_NGINX") pgrep -P "$(cat "$WORK/nginx.pid")" ;;
	"$PORT_ERRKB") pgrep -P "$new_pid" ;;
	"$PORT_BASE") pgrep -P "$base_pid" ;;
	esac
}

# cpu_ticks PID...: user plus system CPU time they used, in clock ticks.
cpu_ticks() { for p in "$@"; do cut -d')' -f2 /proc/"$p"/stat; done | awk '{t += $12 + $13} END {print t + 0}'; }

# measure PORT URL [header]: "req/s CPU-µs-per-request" of the server on
# PORT while wrk fetches URL. CPU per request depends less than req/s on
# what else runs on the machine: compare both.
measure() {
	local pids t0 t1 n
	pids=$(pids_of "$1")
	# shellcheck disable=SC2086
	t0=$(cpu_ticks $pids)
	n=$(rps "$2" "${3:-}")
	# shellcheck disable=SC2086
	t1=$(cpu_ticks $pids)
	echo "$n $(echo "($t1 - $t0) * 1000000 / $(getconf CLK_TCK) / ($n * ${DURATION%s})" | bc)"
}

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

ratios() {
echo "== wrk -t1 -c$CONNS -d$DURATION, $ROUNDS rounds, alternating servers; medians last"
echo "req/s, and CPU µs per request (cpu) with its ratio nginx/errkb: what the req/s ratio would be on equal CPU"
printf '%-22s %10s %5s' "what" "nginx" "cpu"
for sv in "${servers[@]}"; do printf ' %14s %7s %5s %7s' "${sv%:*}" "ratio" "cpu" "ratio"; done
echo
for what in page api page-gzip; do
	case $what in
	page) path=$PAGE hdr="" ;;
	api) path=$API hdr="" ;;
	page-gzip) path=$PAGE hdr="Accept-Encoding: gzip" ;;
	esac
	declare -A got=()
	for r in $(seq "$ROUNDS"); do
		read -r n nc < <(measure "$PORT_NGINX" "http://127.0.0.1:$PORT_NGINX$path" "$hdr")
		got[nginx]+=" $n" got[cnginx]+=" $nc"
		printf '%-22s %10s %5s' "$what (round $r)" "$n" "$nc"
		for sv in "${servers[@]}"; do
			read -r e ec < <(measure "${sv##*:}" "http://127.0.0.1:${sv##*:}$path" "$hdr")
			ratio=$(echo "scale=3; $e / $n" | bc)
			cratio=$(echo "scale=3; $nc / $ec" | bc)
			got[$sv]+=" $e" got[r$sv]+=" $ratio" got[c$sv]+=" $ec" got[cr$sv]+=" $cratio"
			printf ' %14s %7.2f %5s %7.2f' "$e" "$ratio" "$ec" "$cratio"
		done
		echo
	done
	printf '%-22s %10s %5s' "$what (median)" "$(echo "${got[nginx]}" | median)" "$(echo "${got[cnginx]}" | median)"
	for sv in "${servers[@]}"; do
		printf ' %14s %7.2f %5s %7.2f' "$(echo "${got[$sv]}" | median)" "$(echo "${got[r$sv]}" | median)" \
			"$(echo "${got[c$sv]}" | median)" "$(echo "${got[cr$sv]}" | median)"
	done
	echo
	unset got
done
}

# flood SCRIPT CONNS PORT: runs wrk with SCRIPT against PORT for longer than
# one measurement, in the background; its report goes to $WORK/SCRIPT.txt.
flood() {
	wrk -t1 "-c$2" -d"$((${DURATION%s} + 4))s" -s "$ROOT/scripts/$1" "http://127.0.0.1:$3$PAGE" >"$WORK/$1.txt" 2>&1 &
	flood_pid=$!
	sleep 2
}

p99() { # p99 URL: the 99th percentile latency wrk reports, 8 connections, and req/s
	wrk -t1 -c8 "-d$DURATION" --latency "$1" | awk '$1 == "99%" {p = $2} /Requests\/sec/ {r = int($2)}
		/Socket errors/ {t = $NF} END {printf "%s (%s/s%s)", p, r, t + 0 ? ", " t " timeouts" : ""}'
}

floods() {
echo "== cached page under floods (wrk -t1 -c$CONNS for req/s, -c8 for p99, -d$DURATION)"
echo "forged rps: the page's req/s while a second wrk (-c8) sends it with a fresh Host each time;"
echo "both: that plus the flood's own req/s, what the server answered in all"
printf '%-10s %9s %9s %6s %9s %6s %22s %22s %s\n' "server" "calm rps" "forged" "ratio" "both" "ratio" "calm p99" "search-flood p99" "search flood"
for sv in "${servers[@]}"; do
	port=${sv##*:}
	calm=$(rps "http://127.0.0.1:$port$PAGE")
	flood forged-host.lua 8 "$port"
	forged=$(rps "http://127.0.0.1:$port$PAGE")
	wait "$flood_pid" || true
	both=$(awk -v f="$forged" '/Requests\/sec/{print int(f + $2)}' "$WORK/forged-host.lua.txt")
	curl -sf -o /dev/null "http://127.0.0.1:$port$PAGE" # re-cache if the flood evicted it
	calm99=$(p99 "http://127.0.0.1:$port$PAGE")
	flood search-flood.lua 300 "$port"
	flood99=$(p99 "http://127.0.0.1:$port$PAGE")
	wait "$flood_pid" || true
	answers=$(awk '/requests in/{r=$1} /Non-2xx/{n=$NF} END{printf "%s searches, %s non-2xx", r, n+0}' "$WORK/search-flood.lua.txt")
	printf '%-10s %9s %9s %6.2f %9s %6.2f %22s %22s %s\n' "${sv%:*}" "$calm" "$forged" "$(echo "scale=3; $forged / $calm" | bc)" \
		"$both" "$(echo "scale=3; $both / $calm" | bc)" "$calm99" "$flood99" "$answers"
done
}

for part in $PARTS; do "$part"; done

if [ "$MODE" = all ]; then
	echo "== errkb after load"
	stop_errkb restart "$new_pid"
fi

if [ "$PROFILE" = 1 ]; then
	echo "== CPU profiles of the cached page under wrk -c$CONNS ($WORK/*.pprof)"
	for sv in "${servers[@]}"; do
		port=${sv##*:}
		label=$(echo "${sv%:*}" | tr -c 'a-zA-Z0-9\n' -)
		[ "$port" = "$PORT_ERRKB" ] && { stop_errkb this-tree "$new_pid" >/dev/null 2>&1; bin=$WORK/errkb; dir=$WORK/index; }
		[ "$port" = "$PORT_BASE" ] && { stop_errkb baseline "$base_pid" >/dev/null 2>&1; bin=$WORK/errkb-base; dir=$WORK/index-base; }
		PROF_OUT=$WORK/$label.pprof PROF_DELAY=2 PROF_SECONDS=8 start_errkb "profile-$label" "$bin" "$port" "$dir" >/dev/null
		curl -sf -o /dev/null "http://127.0.0.1:$port$PAGE"
		wrk -t1 "-c$CONNS" -d12s "http://127.0.0.1:$port$PAGE" >/dev/null
		echo "-- $label"
		go tool pprof -top -nodecount=25 "$WORK/$label.pprof" 2>/dev/null | sed -n '4,32p'
	done
fi
echo "== done; logs and profiles in $WORK"
