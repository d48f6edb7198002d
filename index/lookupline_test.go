package index

import (
	"context"
	"testing"
)

// TestLookupLineAgreesWithLookup runs every labelled query of the relevance
// suite (codes, messages, log lines, JSON logs, typos, prose) through
// LookupLine and Lookup: LookupLine must never name a record Lookup does not,
// and must name the same record whenever Lookup's reason is anything but
// a corrected typo.
func TestLookupLineAgreesWithLookup(t *testing.T) {
	ix, qs := relevanceIndex(t)
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Q
	}
	lookupLineAgrees(t, ix, texts)
}

// TestLookupLineAgreesWithLookupOnRealRecords holds LookupLine to the same
// promise over the real-record suite, whose typos next to wrapped
// messages ("invalid mapping destination: functon argument ...", where
// Lookup's corrected word completes the wrapping record's message and
// contests the wrapped one) the fictional suite lacks.
func TestLookupLineAgreesWithLookupOnRealRecords(t *testing.T) {
	ix, qs := realRelevanceIndex(t, realSuiteDefault)
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Q
	}
	lookupLineAgrees(t, ix, texts)
}

func lookupLineAgrees(t *testing.T, ix *Index, texts []string) {
	t.Helper()
	ctx := context.Background()
	var matched, agreed int
	for _, q := range texts {
		res, err := ix.Lookup(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		r, reason, err := ix.LookupLine(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case r != nil && res.Match != r:
			got := "nothing"
			if res.Match != nil {
				got = res.Match.ID
			}
			t.Errorf("%q: LookupLine names %s (%s), Lookup %s", q, r.ID, reason, got)
		case res.Match != nil && res.Reason != "corrected message" && r != res.Match:
			t.Errorf("%q: Lookup names %s (%s), LookupLine nothing", q, res.Match.ID, res.Reason)
		case r != nil:
			agreed++
			if reason != res.Reason {
				t.Errorf("%q: LookupLine's reason %q, Lookup's %q", q, reason, res.Reason)
			}
		}
		if res.Match != nil {
			matched++
		}
	}
	t.Logf("%d queries: Lookup matched %d, LookupLine agreed on %d", len(texts), matched, agreed)
	if agreed == 0 {
		t.Fatal("LookupLine matched nothing")
	}
}
