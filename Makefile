# The README's two commands: `go run ./cmd/errkb` serves, `make test` runs
# every test (CI runs `make test` through .ci/run).

.PHONY: test check vet generate check-generated test-browser test-fuzz bench load dataset extracted prebuilt relevance

# go test's default limit, 10 minutes a package, is near what ./index takes
# on two busy cores (the paste suites build an index per project); the
# limit is there to stop a hung test, not to time a slow machine.
test: check
	go test -timeout 30m ./...
	$(MAKE) test-browser
	$(MAKE) test-fuzz

# Browser tests in headless Chromium (installed by the target itself).
# Debian's chromium is installed with apt-get when missing; in CI (CI=true)
# the tests then fail, never skip, if there is still no browser.
# Screenshots go to artifacts/screenshots (ignored by git), and those of
# browsing at scale to artifacts/browse (committed).
test-browser:
	@if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then \
		echo "test-browser: installing Debian's chromium"; \
		sudo=""; if [ "$$(id -u)" != 0 ]; then sudo=sudo; fi; \
		$$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium \
			|| echo "test-browser: could not install chromium"; \
	fi
	go vet -tags browser ./web/
	go test -tags browser -run '^TestBrowser' -count=1 -timeout 10m ./web/

# Each fuzz target for a bounded time (FUZZTIME each; seeds are in each
# package's testdata/fuzz and also run in plain `go test`). The fuzzer
# prints its executions; grep "execs:" in the output for the figures.
# Go 1.26's fuzzer may report a bare "context deadline exceeded" when
# -fuzztime ends while a worker is busy (go.dev/issue/75804); that alone,
# with no failing input written and the seeds passing, is not a failure.
FUZZTIME ?= 10s
FUZZ_TARGETS = .:FuzzLoad .:FuzzParseEntryFast .:FuzzPathsAgree ./index:FuzzUnderstand ./index/internal/pattern:FuzzPattern ./index:FuzzSearch ./index:FuzzLookup ./web:FuzzRecordPage ./web:FuzzSearchPage ./web:FuzzSnippetHTML ./extract:FuzzVerbs ./extract:FuzzExtract ./index/internal/tables:FuzzReadTables ./web:FuzzRequestChosenValues ./web:FuzzParseHead ./annotate:FuzzStream ./internal/store:FuzzReadSnapshot ./index/internal/bleveshim:FuzzWordTokenizer ./index/internal/tables:FuzzEditAutomaton
test-fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$fn in $$pkg for $(FUZZTIME)"; \
		out=$$(mktemp); \
		if go test -run='^$$' -fuzz="^$$fn\$$" -fuzztime=$(FUZZTIME) $$pkg >$$out 2>&1; then \
			grep 'execs:' $$out | tail -n 1; tail -n 2 $$out; rm -f $$out; \
		elif grep -q 'context deadline exceeded' $$out && ! grep -q 'Failing input written\|panic:' $$out \
			&& go test -run="^$$fn\$$" -count=1 $$pkg >/dev/null 2>&1; then \
			grep 'execs:' $$out | tail -n 1; rm -f $$out; \
			echo "$$fn: the fuzzer's stop at -fuzztime raced a worker (go.dev/issue/75804, fixed in Go 1.27); no failing input, seeds pass"; \
		else cat $$out; rm -f $$out; exit 1; fi; \
	done

check: vet check-generated

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ.go$$')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	go vet ./...

generate:
	go tool templ generate

# Generated templ code is committed; fail when it is stale.
check-generated: generate
	@if [ -n "$$(git status --porcelain -- '*_templ.go')" ]; then \
		echo "templ generate changed these files; run 'make generate' and commit them:"; \
		git status --porcelain -- '*_templ.go'; exit 1; fi

# Benchmarks at 1k, 10k and 100k records (slow; not part of test). Add
# BENCHFLAGS=-short to skip 100k.
bench:
	go test -run XXX -bench 'Load|Hash|Build|Reopen' -benchtime 1x -timeout 60m $(BENCHFLAGS) . ./index
	go test -run XXX -bench Search -benchtime 2000x -timeout 60m $(BENCHFLAGS) ./index
	go test -run XXX -bench Render -timeout 60m $(BENCHFLAGS) ./web
	go test -run XXX -bench Annotate -benchtime 3x -timeout 60m ./annotate

# errkb against nginx on 127.0.0.1 with wrk; see scripts/load.sh and
# BENCHMARKS.md. Not part of test.
load:
	scripts/load.sh

# The per-kind tables of every relevance suite (the fictional fixture, and
# the real records of testdata/realrelevance and testdata/extractrelevance,
# tuning and held-out halves), then the MiniSearch baseline on the real
# suites (installs minisearch with npm ci). Not part of test; the relevance
# tests in `go test` assert the floors.
relevance:
	@go test ./index -run '^(TestRelevance|TestRealRelevance)$$' -count=1 -v | sed -n '/relevance, /p;/ records$$/,/\*\*all\*\*/p;/FAIL\|below/p'
	scripts/minisearch.sh testdata/realrelevance
	node scripts/minisearch/baseline.mjs testdata/extractrelevance

# The shipped knowledge base: the errors of the modules dataset/sources.txt
# lists (nats-server, nats.go, the nats CLI, jsm.go, the Go standard
# library), extracted from the versions the Go module proxy serves (needs
# the network; the records are committed, so nothing else does). Each line
# is one `errkb extract` SOURCE; all are extracted in one run, so that
# faces join across them (a server's err_code and a client's constant). Curated records such as
# dataset/nats-io/nats-server/ win over extracted ones with the same code.
# The older versions dataset/history.txt lists are read for their
# messages only and make each record's history (older wordings, the first
# version, removed errors); HISTORY= (empty) leaves the history out.
# EXTRACTED= writes the records elsewhere (to measure without touching the
# committed ones); `make extracted` extracts only.
SOURCES ?= dataset/sources.txt
HISTORY ?= dataset/history.txt
EXTRACTED ?= dataset/extracted
dataset: extracted
	go run ./cmd/errkb validate dataset
	$(MAKE) prebuilt

extracted:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	go build -o "$$tmp/errkb" ./cmd/errkb; \
	sources=$$(grep -v '^[[:space:]]*\(#\|$$\)' $(SOURCES)); \
	history='$(if $(HISTORY),--history $(HISTORY))'; \
	echo "errkb extract --out $(EXTRACTED) $$history" $$sources; \
	"$$tmp/errkb" extract --out $(EXTRACTED) $$history $$sources

# The index and lookup tables of the embedded dataset, embedded in the
# binary so that serving it copies them instead of building them at every
# start. Rebuild after changing dataset/, the index mapping, document() or
# the lookup tables; TestPrebuiltIndexIsCurrent fails while they are stale.
# The binary embeds prebuilt/records.*: empty ones let it compile when they
# are missing (an empty snapshot is never used).
prebuilt:
	mkdir -p prebuilt && touch prebuilt/records.idx prebuilt/records.bin
	go run ./cmd/prebuild -out prebuilt
