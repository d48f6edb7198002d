package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errkb/errkb/web"
)

func TestBrokenSamples(t *testing.T) {
	got, err := brokenSamples(nil) // the embedded dataset
	if err != nil {
		t.Fatal(err)
	}
	if msgs := got[web.SampleKey("nats-io/nats-server", "js-consumer-offline", "exampleFix")]; len(msgs) == 0 || !strings.Contains(msgs[0], "undefined") {
		t.Errorf("the seed's example fix is not listed as broken: %v", msgs)
	}

	empty := t.TempDir()
	if got, err := brokenSamples([]string{empty}); err != nil || len(got) != 0 {
		t.Errorf("a dataset without the file: %v, %v", got, err)
	}

	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "compile-failures.tsv"), []byte("only\ttwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := brokenSamples([]string{bad}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a malformed file: error %v, want one naming the dataset", err)
	}
}
