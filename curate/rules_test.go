package curate_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/curate"
	"github.com/errkb/errkb/internal/errkbtest"
)

const code = "https://github.com/nats-io/nats.go/blob/v1.55.0/nats.go#L158"

func TestClaimsEndWithTheirSource(t *testing.T) {
	tests := []struct {
		name  string
		field func(r *errkb.Record)
		want  []string // the source of each claim, "" for none
	}{
		{"paragraphs", func(r *errkb.Record) {
			r.Documentation = "One ([src](" + code + ")).\n\nTwo, no source."
		}, []string{code, ""}},
		{"list items", func(r *errkb.Record) {
			r.TriggerScenarios = "- a [x](" + code + ")\n- b ([y](https://docs.nats.io/a/b))\n  continued line."
		}, []string{code, ""}},
		{"a link not at the end", func(r *errkb.Record) {
			r.CommonSituations = "See [x](" + code + ") for more."
		}, []string{""}},
		{"code blocks are not claims", func(r *errkb.Record) {
			r.Solutions = []string{"Do this ([x](" + code + ")).\n\n```go\nfoo()\n\nbar()\n```"}
		}, []string{code}},
		{"trailing punctuation after the link", func(r *errkb.Record) {
			r.PreventionTips = []string{"Tip [x](" + code + "));"}
		}, []string{code}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &errkb.Record{}
			tt.field(r)
			var got []string
			for _, c := range curate.Claims(r) {
				u, _ := c.SourceURL()
				got = append(got, u)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("sources %q, want %q", got, tt.want)
			}
		})
	}
}

func TestURLsFindsEveryLink(t *testing.T) {
	r := &errkb.Record{
		Documentation: "A [x](" + code + "), <https://docs.nats.io/a> and bare https://example.com/x.",
		Solutions:     []string{"([y](https://github.com/nats-io/nats.go/issues/1))"},
	}
	want := []string{code, "https://docs.nats.io/a", "https://example.com/x", "https://github.com/nats-io/nats.go/issues/1"}
	if got := curate.URLs(r); !slices.Equal(got, want) {
		t.Errorf("URLs = %q, want %q", got, want)
	}
}

func TestClassifySources(t *testing.T) {
	tests := []struct {
		url  string
		kind curate.Kind
	}{
		{code, curate.CodeLine},
		{"https://github.com/nats-io/nats-server/blob/v2.15.3/server/client.go#L4722-L4733", curate.CodeLine},
		{"https://docs.nats.io/running-a-nats-service/nats_admin/slow_consumers", curate.DocsPage},
		{"https://github.com/nats-io/nats.go/pull/576", curate.Thread},
		{"https://github.com/choria-io/asyncjobs/issues/113", curate.Thread},
		// Not sources: code on a branch, a line range backwards, a blog.
		{"https://github.com/nats-io/nats.go/blob/main/nats.go#L158", 0},
		{"https://github.com/nats-io/nats.go/blob/v1.55.0/nats.go#L9-L3", 0},
		{"https://github.com/nats-io/nats.go/blob/v1.55.0/nats.go", 0},
		{"https://docs.nats.io/page.md", 0},
		{"https://www.synadia.com/blog/x", 0},
	}
	for _, tt := range tests {
		kind, err := curate.Classify(tt.url)
		if kind != tt.kind || (tt.kind == 0) != (err != nil) {
			t.Errorf("Classify(%s) = %v, %v; want kind %v", tt.url, kind, err, tt.kind)
		}
	}
	l, ok := curate.ParseCodeLink("https://github.com/nats-io/nats-server/blob/v2.15.3/server/client.go#L4722-L4733")
	if !ok || l != (curate.CodeLink{Repo: "nats-io/nats-server", Version: "v2.15.3", Path: "server/client.go", Start: 4722, End: 4733}) {
		t.Errorf("ParseCodeLink = %+v, %v", l, ok)
	}
}

func TestMaintainersAndHandles(t *testing.T) {
	md := "### Maintainers\n  - Derek Collison <derek@nats.io> [@derekcollison](https://github.com/derekcollison)\n  - R.I. Pienaar <rip@devco.net> [@ripienaar](https://github.com/ripienaar)\n"
	if got := curate.Maintainers(md); !slices.Equal(got, []string{"derekcollison", "ripienaar"}) {
		t.Errorf("Maintainers = %q", got)
	}
	if got := curate.Handles("answer by @wallyqs, listed in MAINTAINERS.md"); !slices.Equal(got, []string{"wallyqs"}) {
		t.Errorf("Handles = %q", got)
	}
}

func TestExampleFixHalves(t *testing.T) {
	fix := "// before\nfunc a() {}\n\n// after: bind by name\nfunc b() {}"
	if !curate.HasBeforeAndAfter(fix) {
		t.Error("a fix with both halves is not recognised")
	}
	if got := curate.AfterFix(fix); got != "func b() {}" {
		t.Errorf("AfterFix = %q", got)
	}
	for _, bad := range []string{"// before\nfunc a() {}", "// after\nfunc b() {}\n// before\nfunc a() {}", "// before\n// after\nfunc b() {}"} {
		if curate.HasBeforeAndAfter(bad) {
			t.Errorf("%q counts as before and after", bad)
		}
	}
	if got := curate.AfterFix("x := 1"); got != "x := 1" {
		t.Errorf("AfterFix of a one-half sample = %q, want it whole", got)
	}
}

func TestWrapForms(t *testing.T) {
	imports := map[string]string{"errors": "errors", "nats": "github.com/nats-io/nats.go"}
	tests := []struct {
		name, code string
		form       curate.Form
		contains   []string
	}{
		{"program", "package main\nfunc main() {}", curate.Program, []string{"package main"}},
		{"declarations get their imports on the package line", "func f(err error) bool { return errors.Is(err, nats.ErrTimeout) }",
			curate.Declarations, []string{`package sample; import "errors"; import nats "github.com/nats-io/nats.go"` + "\nfunc f"}},
		{"a bare guard becomes an assignment", "errors.Is(err, nats.ErrTimeout) && err != nil",
			curate.Statements, []string{"_ = errors.Is(err, nats.ErrTimeout) && err != nil"}},
		{"a call stays a statement", "errors.Is(err, nats.ErrTimeout)", curate.Statements, []string{"\nerrors.Is(err"}},
		{"return of a value makes the function return an error", "return errors.New(\"x\")", curate.Statements, []string{"func sample() error {"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := curate.Wrap(tt.code, imports)
			if w.Form != tt.form {
				t.Errorf("form %v, want %v", w.Form, tt.form)
			}
			for _, c := range tt.contains {
				if !strings.Contains(w.Source, c) {
					t.Errorf("source lacks %q:\n%s", c, w.Source)
				}
			}
			// The sample's first line keeps its number: Offset lines come before it.
			lines := strings.Split(w.Source, "\n")
			first := strings.Split(tt.code, "\n")[0]
			if got := lines[w.Offset]; !strings.HasSuffix(got, first) {
				t.Errorf("line %d is %q, want the sample's first line %q", w.Offset+1, got, first)
			}
		})
	}
}

func TestDriftNamesWhatChanged(t *testing.T) {
	ext := errkbtest.Record()
	cur := errkbtest.Record()
	if d := curate.Drift(cur, ext); len(d) != 0 {
		t.Errorf("equal records drift: %v", d)
	}
	cur.ErrorMessage, cur.LineNumber = "gizmo was jammed", 4
	code := 10072
	cur.NumericCode = &code
	d := curate.Drift(cur, ext)
	for _, want := range []string{"errorMessage", "lineNumber", "numericCode"} {
		if !slices.ContainsFunc(d, func(s string) bool { return strings.HasPrefix(s, want+":") }) {
			t.Errorf("drift %v does not name %s", d, want)
		}
	}
	cur = errkbtest.Record()
	cur.ErrorClass = "" // left to the extractor: not compared
	if d := curate.Drift(cur, ext); len(d) != 0 {
		t.Errorf("an identity field the curated record leaves out drifts: %v", d)
	}
}

func TestFailuresRoundTripAndDiff(t *testing.T) {
	fs := []curate.Failure{
		{Repo: "o/r", Slug: "b", Field: "typeGuard", Message: "1:2: undefined: x"},
		{Repo: "o/r", Slug: "a", Field: "exampleFix", Message: "3:4: tab\there"},
	}
	var b bytes.Buffer
	if err := curate.WriteFailures(&b, fs); err != nil {
		t.Fatal(err)
	}
	got, err := curate.ReadFailures(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Slug != "a" || got[0].Message != "3:4: tab here" {
		t.Errorf("round trip: %+v", got)
	}
	added, gone := curate.DiffFailures(got[:1], got[1:])
	if len(added) != 1 || added[0].Slug != "a" || len(gone) != 1 || gone[0].Slug != "b" {
		t.Errorf("diff: added %v, gone %v", added, gone)
	}
	if _, err := curate.ReadFailures(strings.NewReader("o/r\tslug\tfield\n")); err == nil {
		t.Error("a line of three fields is accepted")
	}
}

func TestStrategies(t *testing.T) {
	if !curate.ValidStrategy("retry") || curate.ValidStrategy("Retry once.") {
		t.Error("strategy vocabulary not applied")
	}
}
