#!/usr/bin/env bash
# startup.sh measures errkb's start-up and memory at N records, the code
# of this tree against a baseline binary, in one run, interleaved, so the
# figures compare under the same load on this shared machine:
#
#   1. builds errkb from this tree (and the baseline from git ref BASE,
#      default main, unless BASE_BIN names a binary), generates N records,
#   2. first start of each into an empty --index-dir, then a restart of
#      each on the unchanged dataset: time to /readyz, peak RSS sampled
#      from /proc every 0.2 s (anonymous and file-backed apart),
#   3. after each restart, traffic (searches of every kind, pages, API
#      records) and the RSS while serving,
#   4. prints every figure with the ratio new/baseline.
#
# Usage: scripts/startup.sh   (env: N, BASE, BASE_BIN, WORK, PORT)
# Loopback only; bounded in time (each start waits at most 600 s). Not
# part of `make test`. See BENCHMARKS.md.
set -euo pipefail

N=${N:-100000}
BASE=${BASE:-main}
PORT=${PORT:-28281}
WORK=${WORK:-$(mktemp -d /tmp/errkb-startup.XXXXXX)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

echo "== machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== build and generate $N records in $WORK"
(cd "$ROOT" && go build -o "$WORK/errkb-new" ./cmd/errkb && go build -o "$WORK/kbgen" ./cmd/kbgen)
if [ -n "${BASE_BIN:-}" ]; then
	cp "$BASE_BIN" "$WORK/errkb-base"
else
	rm -rf "$WORK/base-src"
	git -C "$ROOT" worktree add --detach "$WORK/base-src" "$BASE" >/dev/null
	(cd "$WORK/base-src" && go build -o "$WORK/errkb-base" ./cmd/errkb)
	git -C "$ROOT" worktree remove --force "$WORK/base-src"
fi
[ -d "$WORK/data" ] || "$WORK/kbgen" -n "$N" -seed 1 -out "$WORK/data" 2>&1 | tail -1

mem() { # mem PID: RSS, anonymous and file-backed RSS in KiB
	awk '/^VmRSS/{r=$2} /^RssAnon/{a=$2} /^RssFile/{f=$2} END{print r+0, a+0, f+0}' "/proc/$1/status" 2>/dev/null || echo "0 0 0"
}

# start WHICH LABEL: starts $WORK/errkb-WHICH on its own index dir, waits
# for /readyz sampling RSS, and leaves it running as $pid.
start() {
	local which=$1 label=$2 t0 t1 r a f pr=0 pa=0 pf=0
	t0=$(date +%s.%N)
	"$WORK/errkb-$which" serve --addr "127.0.0.1:$PORT" --dataset "$WORK/data" \
		--index-dir "$WORK/index-$which" >"$WORK/$label.log" 2>&1 &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 3000); do
		curl -sf -o /dev/null "http://127.0.0.1:$PORT/readyz" && break
		kill -0 "$pid" 2>/dev/null || { echo "$label exited:"; tail "$WORK/$label.log"; exit 1; }
		read -r r a f < <(mem "$pid")
		((r > pr)) && pr=$r
		((a > pa)) && pa=$a
		((f > pf)) && pf=$f
		sleep 0.2
	done
	t1=$(date +%s.%N)
	read -r r a f < <(mem "$pid")
	printf '%-14s ready %7.2f s  peak RSS %5d MiB (anon %5d, file %5d)  ready RSS %5d MiB (anon %5d, file %5d)\n' \
		"$label" "$(echo "$t1 - $t0" | bc)" $((pr / 1024)) $((pa / 1024)) $((pf / 1024)) $((r / 1024)) $((a / 1024)) $((f / 1024)) | tee -a "$WORK/figures.txt"
}

stop() {
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# traffic LABEL: 400 requests of every kind, then the RSS while serving:
# 1 s after the traffic, and the largest sampled every 0.1 s during it
# (queries map file pages, which the server releases as they add up).
traffic() {
	local base="http://127.0.0.1:$PORT" r a f sampler
	(
		mr=0 ma=0 mf=0
		trap 'echo "$mr $ma $mf" >"$WORK/traffic-max"; exit 0' TERM
		while :; do
			read -r r a f < <(mem "$pid")
			((r > mr)) && mr=$r && ma=$a && mf=$f
			sleep 0.1
		done
	) &
	sampler=$!
	mapfile -t recs < <(curl -sf "$base/api/v1/search?q=timeout&limit=50" | grep -o '"url":"[^"]*"' | cut -d'"' -f4)
	for i in $(seq 0 49); do
		p=${recs[$((i % ${#recs[@]}))]}
		curl -sf -o /dev/null "$base$p" || true
		curl -sf -o /dev/null "$base/api/v1$p" || true
		for q in "connection refused" "timout exceeded" "E$((2000 + i * 37))" "Error: stream not found for consumer $i" "invalid offset $i" "lock held"; do
			curl -sf -o /dev/null -G "$base/search" --data-urlencode "q=$q" || true
		done
	done
	kill -TERM "$sampler"
	wait "$sampler" || true
	sleep 1
	read -r r a f < <(mem "$pid")
	read -r mr ma mf <"$WORK/traffic-max"
	printf '%-14s serving after 400 requests: RSS %5d MiB (anon %5d, file %5d); during them at most %5d MiB (anon %5d, file %5d)\n' \
		"$1" $((r / 1024)) $((a / 1024)) $((f / 1024)) $((mr / 1024)) $((ma / 1024)) $((mf / 1024)) | tee -a "$WORK/figures.txt"
}

: >"$WORK/figures.txt"
rm -rf "$WORK/index-base" "$WORK/index-new"
echo "== first starts (empty --index-dir), interleaved"
start base base-first
stop
start new new-first
stop
echo "== restarts on the unchanged dataset, then traffic"
start base base-restart
traffic base-serving
stop
start new new-restart
traffic new-serving
stop

echo "== snapshot and index sizes"
for which in base new; do
	printf '%-5s snapshot %s, index %s\n' "$which" \
		"$(du -ch "$WORK/index-$which"/records-* | tail -1 | cut -f1)" \
		"$(du -sh --exclude='records-*' "$WORK/index-$which" | cut -f1)"
done
echo "JSON: $(du -sh "$WORK/data" | cut -f1)"

echo "== ratios new/base"
awk '
/ready/ { split($1, l, "-"); ready[l[1], l[2]] = $3; peak[l[1], l[2]] = $7; rss[l[1], l[2]] = $15 }
/serving/ { split($1, l, "-"); serving[l[1]] = $7; during[l[1]] = $17 }
END {
	for (k in ready) { split(k, p, SUBSEP); if (p[1] == "new") {
		printf "%-8s ready %.2fx  peak RSS %.2fx\n", p[2], ready["new", p[2]] / ready["base", p[2]], peak["new", p[2]] / peak["base", p[2]] } }
	if (serving["base"]) printf "serving  RSS %.2fx, during traffic %.2fx\n", serving["new"] / serving["base"], during["new"] / during["base"]
}' "$WORK/figures.txt"
grep -h -E '"index built"|"lookup tables built"|"dataset loaded"|"index reused"|msg=ready' "$WORK"/*-first.log "$WORK"/*-restart.log | sed 's/^time=[^ ]* //' >"$WORK/phases.txt"
echo "phases of each start: $WORK/phases.txt"
