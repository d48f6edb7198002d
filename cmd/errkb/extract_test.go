package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// epochEnv is an environment with SOURCE_DATE_EPOCH alone: 2026-01-01.
func epochEnv(k string) string {
	if k == "SOURCE_DATE_EPOCH" {
		return "1767225600"
	}
	return ""
}

// TestExtractCommand runs `errkb extract` on the fictional module of the
// extract tests, then `errkb validate` on what it wrote.
func TestExtractCommand(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"extract", "--out", out, "--repo", "acme-labs/widget", "--ref", "v1.2.0", "../../extract/testdata/widget"}
	if code := run(context.Background(), args, &stdout, &stderr, epochEnv); code != 0 {
		t.Fatalf("extract: exit %d\n%s", code, stderr.String())
	}
	for _, want := range []string{"records", filepath.Join(out, "acme-labs", "widget"), "1 file excluded by build constraints",
		"left out 2 packages", "example.com/acme/widget/examples/hello (examples)"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("progress on stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	for _, f := range []string{"_source.json", "LICENSE", "err-no-widget.json"} {
		if _, err := os.Stat(filepath.Join(out, "acme-labs", "widget", f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	rec, _ := os.ReadFile(filepath.Join(out, "acme-labs", "widget", "err-no-widget.json"))
	if !bytes.Contains(rec, []byte(`"analyzedAt":"2026-01-01T00:00:00Z"`)) || !bytes.Contains(rec, []byte(`"datasetVersion":"2026-01-01T00:00:00Z"`)) {
		t.Errorf("a folder without a version's time takes SOURCE_DATE_EPOCH for analyzedAt and datasetVersion:\n%s", rec)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"validate", out}, &stdout, &stderr, epochEnv); code != 0 || !strings.Contains(stdout.String(), "0 problems") {
		t.Errorf("validate of the output: exit %d\n%s", code, stdout.String())
	}
}

// TestExtractTagsAndTests: --tags brings in a file the default build
// excludes, --include-tests the tests and test helpers.
func TestExtractTagsAndTests(t *testing.T) {
	tests := []struct {
		flag, file string
	}{
		{"--tags=widget_experimental", "widget-experimental-gearbox-has-no-gear.json"},
		{"--include-tests", "err-fake.json"},
	}
	for _, tt := range tests {
		t.Run(tt.flag, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			args := []string{"extract", "--out", out, "--repo", "acme-labs/widget", tt.flag, "../../extract/testdata/widget"}
			if code := run(context.Background(), args, &stdout, &stderr, epochEnv); code != 0 {
				t.Fatalf("extract: exit %d\n%s", code, stderr.String())
			}
			if _, err := os.Stat(filepath.Join(out, "acme-labs", "widget", tt.file)); err != nil {
				t.Errorf("%s not written with %s", tt.file, tt.flag)
			}
		})
	}
}

func TestExtractBadInput(t *testing.T) {
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
		{"a folder of the standard library", []string{"extract", "--out", t.TempDir(), filepath.Join(runtime.GOROOT(), "src", "errors")}, 1, "extract std"},
		{"a Go release misnamed", []string{"extract", "--out", t.TempDir(), "std@1.21"}, 1, `"1.21" is not a Go release`},
		{"nothing builds here", []string{"extract", "--out", t.TempDir(), "--repo", "a/b", plan9Only(t)}, 1, "holds no Go code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(context.Background(), tt.args, &stdout, &stderr, epochEnv); code != tt.code || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s", code, tt.code, tt.want, stderr.String())
			}
		})
	}
}

// plan9Only is a module whose one file builds on plan9 alone.
func plan9Only(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/acme/plan9only\n\ngo 1.22\n",
		"p9.go":  "//go:build plan9\n\npackage p9\n\nimport \"errors\"\n\nvar ErrP9 = errors.New(\"p9: plan9 only\")\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
