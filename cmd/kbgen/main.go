// Command kbgen generates a deterministic, clearly fictional dataset of
// errkb records for benchmarks and tests:
//
//	go run ./cmd/kbgen -n N -out DIR [-seed S] [-per-file K] [-format jsonl|json] [-force]
//
// The same flags always produce byte-identical output. The generator lives
// in internal/kbgen so benchmarks can call it directly.
package main

import (
	"os"

	"github.com/errkb/errkb/internal/kbgen"
)

func main() { os.Exit(kbgen.Main(os.Args[1:], os.Stderr)) }
