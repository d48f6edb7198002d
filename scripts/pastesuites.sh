#!/bin/sh
# Regenerates the paste suites (testdata/pastesuites): extracts grpc-go,
# pgx, go-redis and the local Go's standard library with this tree's
# errkb extract (modules through the Go module proxy), then writes each
# project's compact records and the queries of every project, the
# embedded NATS dataset among them (scripts/pastesuite).
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
go build -o "$tmp/errkb" ./cmd/errkb
"$tmp/errkb" extract --out "$tmp/grpc" --repo grpc/grpc-go google.golang.org/grpc@v1.85.0
"$tmp/errkb" extract --out "$tmp/pgx" github.com/jackc/pgx/v5@v5.13.0
"$tmp/errkb" extract --out "$tmp/redis" github.com/redis/go-redis/v9@v9.24.0
"$tmp/errkb" extract --out "$tmp/std" std
go run ./scripts/pastesuite -out testdata/pastesuites \
	grpc="$tmp/grpc" pgx="$tmp/pgx" redis="$tmp/redis" std="$tmp/std"
