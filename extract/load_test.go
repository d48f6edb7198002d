package extract_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/errkb/errkb/extract"
)

// sites lists an error's sites as "file:line".
func sites(e *extract.Error) []string {
	var out []string
	for _, s := range e.Sites {
		out = append(out, fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	return out
}

func itoa(n int) string {
	return string(rune('0'+n/100%10)) + string(rune('0'+n/10%10)) + string(rune('0'+n%10))
}

// TestBuildConstraints: a file the build constraints exclude is not
// extracted, and --tags brings it in. The sentinel ErrGearbox has one
// definition per build: the record must hold the active one's message
// and line, not the first file's in name order (gearbox_exp.go).
func TestBuildConstraints(t *testing.T) {
	tests := []struct {
		name           string
		tags           []string
		file, message  string
		experimentFunc bool
	}{
		{"default", nil, "gearbox_std.go", "widget: gearbox stuck", false},
		{"--tags widget_experimental", []string{"widget_experimental"}, "gearbox_exp.go", "widget: experimental gearbox stuck", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := loadFixture(t, extract.LoadOptions{Tags: tt.tags})
			e := find(t, res, named("ErrGearbox"))
			if e == nil || e.File != tt.file || e.Message != tt.message {
				t.Fatalf("ErrGearbox = %+v, want %q from %s", e, tt.message, tt.file)
			}
			if got := find(t, res, message("widget: experimental gearbox has no gear %d")) != nil; got != tt.experimentFunc {
				t.Errorf("error made in the experimental file extracted: %v, want %v", got, tt.experimentFunc)
			}
			if find(t, res, named("ErrPlan9")) != nil {
				t.Error("a package built only on plan9 was extracted on this platform")
			}
		})
	}
}

// TestScaffolding: test files, examples and test helper packages are left
// out, and --include-tests brings them back; internal packages are kept
// either way.
func TestScaffolding(t *testing.T) {
	scaffolding := []func(*extract.Error) bool{
		named("errOnlyInTests"),                       // assemble_test.go
		named("ErrFake"),                              // internal/widgettest
		message("hello: the example could not start"), // examples/hello
		message("widget: an example's own error"),     // example_test.go
	}
	def := loadFixture(t, extract.LoadOptions{})
	withTests := loadFixture(t, extract.LoadOptions{Tests: true})
	for i, pred := range scaffolding {
		if e := find(t, def, pred); e != nil {
			t.Errorf("scaffolding %d extracted by default from %s", i, e.File)
		}
		if find(t, withTests, pred) == nil {
			t.Errorf("scaffolding %d not extracted with --include-tests", i)
		}
	}
	for _, res := range []*extract.Result{def, withTests} {
		if e := find(t, res, named("ErrStripped")); e == nil || !e.Internal {
			t.Errorf("internal ErrStripped = %+v, want kept and marked", e)
		}
	}
	if e := find(t, withTests, named("errOnlyInTests")); e != nil && e.File != "assemble_test.go" {
		t.Errorf("errOnlyInTests from %s", e.File)
	}
}

// TestResolutionByTypes covers what names mean to the type checker
// where the syntax alone misleads (resolve.go of the fixture): dot
// imports, an alias of an error type, a local that shadows a sentinel,
// and a parameter named fmt; and (describe.go) when ErrX.Error() raises.
func TestResolutionByTypes(t *testing.T) {
	res := loadFixture(t, extract.LoadOptions{})
	tests := []struct {
		name  string
		find  func(*extract.Error) bool
		check func(t *testing.T, e *extract.Error)
	}{
		{"a dot-imported sentinel is raised where returned", named("ErrStripped"), func(t *testing.T, e *extract.Error) {
			if !slices.Contains(sites(e), "resolve.go:23") {
				t.Errorf("sites %v lack resolve.go:23 (return ErrStripped, dot-imported)", sites(e))
			}
		}},
		{"a dot-imported errors.New makes an error", message("widget: negative coats of polish"), func(t *testing.T, e *extract.Error) {
			if e.Kind != extract.Call || e.Func != "Polish" || e.File != "resolve.go" {
				t.Errorf("%+v", e)
			}
		}},
		{"a conversion through a type alias raises the aliased type", named("ColorError"), func(t *testing.T, e *extract.Error) {
			if !slices.Contains(sites(e), "resolve.go:29") {
				t.Errorf("sites %v lack resolve.go:29 (Tint(name))", sites(e))
			}
		}},
		{"a local that shadows a sentinel is not the sentinel", named("ErrSealed"), func(t *testing.T, e *extract.Error) {
			for _, s := range e.Sites {
				if s.File == "resolve.go" {
					t.Errorf("site %s:%d is the local ErrSealed of Polish", s.File, s.Line)
				}
			}
		}},
		{"ErrX.Error() hands its message on", named("ErrGearJammed"), func(t *testing.T, e *extract.Error) {
			if !slices.Contains(sites(e), "describe.go:10") {
				t.Errorf("sites %v lack describe.go:10", sites(e))
			}
		}},
		{"ErrX.Error() compared with strings.Contains is a test", named("ErrGearbox"), func(t *testing.T, e *extract.Error) {
			if len(e.Sites) != 0 {
				t.Errorf("sites %v, want none", sites(e))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := find(t, res, tt.find)
			if e == nil {
				t.Fatal("not found")
			}
			tt.check(t, e)
		})
	}
	if e := find(t, res, message("widget: reported by a printer, not made here: %s")); e != nil {
		t.Errorf("printer.Errorf, called on a parameter named fmt, was taken for fmt.Errorf: %+v", e)
	}
}

// TestFolderTime: a folder without a version's time is dated by its git
// commit, else by its newest Go file, so the same folder gives the same
// analyzedAt every time.
func TestFolderTime(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/acme/clock\n\ngo 1.22\n",
		"a.go":   "package clock\n\nimport \"errors\"\n\nvar ErrStopped = errors.New(\"clock: stopped\")\n",
		"b.go":   "package clock\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	older, newer := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC), time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)
	for name, at := range map[string]time.Time{"a.go": older, "b.go": newer} {
		if err := os.Chtimes(filepath.Join(dir, name), at, at); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	s, err := extract.Resolve(ctx, dir, "acme-labs/clock", "")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := extract.Load(ctx, s, extract.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := extract.FolderTime(ctx, s, prog); got != "2025-06-07T08:09:10Z" {
		t.Errorf("outside git: %q, want the newest file's time", got)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here")
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2024-01-02T03:04:05+02:00", "GIT_AUTHOR_DATE=2024-01-02T03:04:05+02:00",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "clock")
	if got := extract.FolderTime(ctx, s, prog); got != "2024-01-02T01:04:05Z" {
		t.Errorf("in a git checkout: %q, want the commit's time in UTC", got)
	}
}
