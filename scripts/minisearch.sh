#!/bin/sh
# MiniSearch baseline on the real-record relevance suite: installs
# minisearch from the npm registry (pinned by package-lock.json) into
# scripts/minisearch/node_modules and prints top-1 per half and kind.
set -e
dir=$(dirname "$0")/minisearch
(cd "$dir" && npm ci --no-audit --no-fund --silent)
node "$dir/baseline.mjs" "${1:-$(dirname "$0")/../testdata/realrelevance}"
