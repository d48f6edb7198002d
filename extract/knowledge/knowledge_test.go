package knowledge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/knowledge"
)

var update = flag.Bool("update", false, "rewrite testdata/sprocket.golden.json from the analysis's output")

// facts are the fields Fill derives, for one record of the golden file.
type facts struct {
	Slug       string            `json:"slug"`
	Conditions []errkb.Condition `json:"conditions,omitempty"`
	ReturnedBy []errkb.Entry     `json:"returnedBy,omitempty"`
	HandledAt  []errkb.Check     `json:"handledAt,omitempty"`
	Tests      []errkb.Test      `json:"tests,omitempty"`
	Docs       []errkb.Doc       `json:"docs,omitempty"`
}

// fill extracts the fixture module and fills its records' knowledge.
func fill(t *testing.T) ([]errkb.Record, knowledge.Stats) {
	t.Helper()
	ctx := context.Background()
	s, err := extract.Resolve(ctx, "../testdata/sprocket", "acme-labs/sprocket", "v1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := extract.Load(ctx, s, extract.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := extract.Extract(prog, extract.Options{})
	recs, err := extract.Records(res.Errors, s.Dir, s.Origin)
	if err != nil {
		t.Fatal(err)
	}
	withTests, err := extract.Load(ctx, s, extract.LoadOptions{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := knowledge.Fill(withTests, res.Errors, recs, knowledge.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return recs, st
}

// TestFillGolden compares every derived fact of the fixture, whose files
// hold each shape (else, switch, wrap chain, interface call, method value,
// closure, test helper, functional option, configuration key), with
// testdata/sprocket.golden.json; go test -update rewrites it.
func TestFillGolden(t *testing.T) {
	recs, _ := fill(t)
	var all []facts
	for _, r := range recs {
		all = append(all, facts{Slug: r.Slug, Conditions: r.Conditions, ReturnedBy: r.ReturnedBy, HandledAt: r.HandledAt, Tests: r.Tests, Docs: r.Docs})
	}
	got, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	const golden = "testdata/sprocket.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("derived facts differ from %s (go test -update rewrites it); got:\n%s", golden, got)
	}
}
