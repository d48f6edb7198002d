package extract

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzVerbs: any format string splits into verbs and literal text without
// a panic, and the spans are in order and inside the string.
func FuzzVerbs(f *testing.F) {
	for _, s := range []string{"nats: %s", "%w: %v", "100%% sure %d", "%[1]d %-08.3f", "widget {name} is bent", "%", "{{Wildcard()}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, format string) {
		last := 0
		for _, v := range Verbs(format) {
			if v.Start < last || v.End <= v.Start || v.End > len(format) || format[v.Start] != '%' {
				t.Fatalf("bad span %+v in %q", v, format)
			}
			last = v.End
		}
		if lit := LongestLiteral(format); !strings.Contains(strings.ReplaceAll(format, "%%", "%"), lit) {
			t.Fatalf("LongestLiteral(%q) = %q is not in the format", format, lit)
		}
		_ = hasWords(format)
	})
}

// FuzzExtract: any Go file, extracted as a one-file module, gives records
// whose snippet holds its definition line.
func FuzzExtract(f *testing.F) {
	seed, err := os.ReadFile("testdata/widget/errors.go")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	f.Add("package p\nvar ErrX = errors.New(\"x\")\n")
	f.Add("package p\nimport \"fmt\"\nfunc F() error { return fmt.Errorf(\"f %w\", ErrX) }\nvar ErrX = fmt.Errorf(\"%w\", ErrX)\n")
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/acme/fuzz\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Dir(dir, Options{})
		if err != nil {
			return
		}
		recs, err := Records(res.Errors, dir, Origin{Repo: "acme-labs/fuzz", Ref: "v0.0.1", Module: "example.com/acme/fuzz"})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			n := strings.Count(strings.TrimSuffix(r.SourceCode, "\n"), "\n") + 1
			if r.LineNumber < r.SourceCodeStart || r.LineNumber > r.SourceCodeEnd || n != r.SourceCodeEnd-r.SourceCodeStart+1 {
				t.Fatalf("record %s: line %d, snippet %d-%d of %d lines", r.Slug, r.LineNumber, r.SourceCodeStart, r.SourceCodeEnd, n)
			}
		}
	})
}
