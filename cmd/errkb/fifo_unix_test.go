//go:build unix

package main

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/errkb/errkb"
)

// TestDatasetFIFO checks that a FIFO named like a dataset file is reported,
// not opened: opening it would block the loader for ever.
func TestDatasetFIFO(t *testing.T) {
	dir := t.TempDir()
	must(t, syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o644))
	dirs, err := folders([]string{dir})
	must(t, err)
	done := make(chan error, 1)
	go func() { _, err := errkb.Load(dirs...); done <- err }()
	select {
	case err := <-done:
		var probs errkb.Problems
		if !errors.As(err, &probs) || !strings.Contains(probs.Error(), "pipe.json: is not a regular file") {
			t.Errorf("Load: %v, want the FIFO reported", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Load blocked on a FIFO")
	}
}
