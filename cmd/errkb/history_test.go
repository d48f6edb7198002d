package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtractHistory runs `errkb extract --history` on the two versions
// of the fold fixture: the removed error is written with its removal,
// the reworded one with its older wording, and the output validates.
func TestExtractHistory(t *testing.T) {
	out := t.TempDir()
	list := filepath.Join(t.TempDir(), "history.txt")
	if err := os.WriteFile(list, []byte("# older\n../../extract/testdata/history/v1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"extract", "--out", out, "--repo", "acme-labs/lever", "--ref", "v1.1.0", "--history", list, "../../extract/testdata/history/v1.1.0"}
	if code := run(context.Background(), args, &stdout, &stderr, epochEnv); code != 0 {
		t.Fatalf("extract: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "history of 1 older versions: 2 records reworded, 3 removed") {
		t.Errorf("stderr lacks the history summary:\n%s", stderr.String())
	}
	dir := filepath.Join(out, "acme-labs", "lever")
	for file, want := range map[string]string{
		"err-bent.json":  `"removedIn":"v1.1.0"`,
		"err-stuck.json": `"messages":[{"message":"lever stuck","versions":["../../extract/testdata/history/v1.0.0"]}]`,
	} {
		rec, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || !bytes.Contains(rec, []byte(want)) {
			t.Errorf("%s lacks %s (%v)", file, want, err)
		}
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"validate", out}, &stdout, &stderr, epochEnv); code != 0 || !strings.Contains(stdout.String(), "0 problems") {
		t.Errorf("validate of the output: exit %d\n%s", code, stdout.String())
	}
}
