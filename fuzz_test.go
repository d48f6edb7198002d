package errkb

import (
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

// FuzzLoad feeds arbitrary bytes to the loader as a .json and a .jsonl
// file. It must never panic, must say where every problem is, and every
// record it accepts must hold to the limits the server relies on.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(fictional("seed", "")))
	f.Add([]byte(`[` + fictional("a", "") + `,{"record":` + fictional("b", `,"tags":["x"]`) + `,"datasetVersion":"1"}]`))
	f.Add([]byte(fictional("c", `,"documentation":"[a](javascript:x)","githubUrl":"https://github.com/o/r/blob/abc/f.go#L1-L2"`)))
	f.Add([]byte(fictional("d", `,"sourceCode":"a\nb","sourceCodeStart":3,"sourceCodeEnd":4,"lineNumber":4`)))
	f.Add([]byte("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"))
	f.Add([]byte("{\"id\":\"\xff\"}\n\n{}\n[]\nnull\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files := fstest.MapFS{"f.json": {Data: data}, "f.jsonl": {Data: data}}
		ds, err := Load(Folder{Name: "fuzz", FS: files})
		if err != nil {
			probs, ok := err.(Problems)
			if !ok {
				t.Fatalf("Load returned %T, want Problems", err)
			}
			for _, p := range probs {
				if p.File != "fuzz/f.json" && p.File != "fuzz/f.jsonl" {
					t.Fatalf("problem without its file: %s", p)
				}
				if p.Message == "" {
					t.Fatalf("problem without a message: %s", p)
				}
			}
		}
		for _, r := range ds.Records {
			checkAccepted(t, r)
		}
	})
}

// checkAccepted fails unless r holds to what Load promises of a record it
// accepts.
func checkAccepted(t *testing.T, r *Record) {
	t.Helper()
	if !utf8.Valid(r.raw) || !idRE.MatchString(r.ID) || !repoRE.MatchString(r.Repo) || !slugRE.MatchString(r.Slug) {
		t.Fatalf("accepted a record with a bad identity or bytes: %q %q %q", r.ID, r.Repo, r.Slug)
	}
	if len(r.raw) > MaxRecordBytes {
		t.Fatalf("accepted a record of %d bytes", len(r.raw))
	}
	for _, md := range append([]string{r.Documentation, r.TriggerScenarios, r.CommonSituations}, append(r.Solutions, r.PreventionTips...)...) {
		if len(md) > MaxMarkdownBytes {
			t.Fatalf("accepted %d bytes of Markdown", len(md))
		}
		if l := dangerousLink(md); l != "" {
			t.Fatalf("accepted a Markdown link to %q", l)
		}
	}
	if len(r.Solutions) > MaxListEntries || len(r.PreventionTips) > MaxListEntries || len(r.Tags) > MaxListEntries {
		t.Fatal("accepted an oversize list")
	}
	if r.GithubURL != "" && !strings.HasPrefix(r.GithubURL, "https://github.com/") {
		t.Fatalf("accepted githubUrl %q", r.GithubURL)
	}
	if jsonDepth(r.raw) > MaxJSONDepth+1 {
		t.Fatalf("accepted a record nested %d deep", jsonDepth(r.raw))
	}
}
