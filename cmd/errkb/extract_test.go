package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtractCommand runs `errkb extract` on the fictional module of the
// extract tests, then `errkb validate` on what it wrote.
func TestExtractCommand(t *testing.T) {
	out := t.TempDir()
	noEnv := func(string) string { return "" }
	var stdout, stderr bytes.Buffer
	args := []string{"extract", "--out", out, "--repo", "acme-labs/widget", "--ref", "v1.2.0", "../../extract/testdata/widget"}
	if code := run(context.Background(), args, &stdout, &stderr, noEnv); code != 0 {
		t.Fatalf("extract: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "records") || !strings.Contains(stderr.String(), filepath.Join(out, "acme-labs", "widget")) {
		t.Errorf("progress on stderr lacks the count or the folder:\n%s", stderr.String())
	}
	for _, f := range []string{"_source.json", "LICENSE", "err-no-widget.json"} {
		if _, err := os.Stat(filepath.Join(out, "acme-labs", "widget", f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"validate", out}, &stdout, &stderr, noEnv); code != 0 || !strings.Contains(stdout.String(), "0 problems") {
		t.Errorf("validate of the output: exit %d\n%s", code, stdout.String())
	}
}

func TestExtractBadInput(t *testing.T) {
	noEnv := func(string) string { return "" }
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no source", []string{"extract"}, 2, "usage: errkb extract"},
		{"missing folder", []string{"extract", "--out", t.TempDir(), "./no-such-module"}, 1, "no such folder"},
		{"repo with two sources", []string{"extract", "--repo", "a/b", "x", "y"}, 2, "one SOURCE"},
		{"module path without a GitHub repo", []string{"extract", "--out", t.TempDir(), "../../extract/testdata/widget"}, 1, "pass --repo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tt.args, &stdout, &stderr, noEnv); code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s", code, tt.code, tt.want, stderr.String())
			}
		})
	}
}
