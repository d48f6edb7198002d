package index

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
)

// One test per class of miss found on real records (see docs/search.md),
// each over every record of the real-record dataset the class applies to,
// so a fix holds in general rather than for the queries of the suite.

// realLookup is a built index of the real records, shared by these tests.
func realLookup(t *testing.T) (*Index, []*errkb.Record) {
	t.Helper()
	ix, _ := realRelevanceIndex(t, realSuiteDefault)
	return ix, ix.Dataset().Records
}

// unique counts keys and reports whether key is had by one record.
func counts(recs []*errkb.Record, key func(*errkb.Record) string) map[string]int {
	m := map[string]int{}
	for _, r := range recs {
		if k := key(r); k != "" {
			m[k]++
		}
	}
	return m
}

func goPkg(r *errkb.Record) string { return r.GoPackage[strings.LastIndex(r.GoPackage, "/")+1:] }

// expectLookup checks that each query is matched to its record, and that
// Search ranks it first.
func expectLookup(t *testing.T, ix *Index, want map[string]*errkb.Record, min int) {
	t.Helper()
	if len(want) < min {
		t.Fatalf("only %d queries; the class needs at least %d records", len(want), min)
	}
	ctx := context.Background()
	for q, r := range want {
		lr, err := ix.Lookup(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if lr.Match == nil || lr.Match.ID != r.ID {
			got := "nothing"
			if lr.Match != nil {
				got = lr.Match.ErrorCode
			}
			t.Errorf("Lookup(%q) = %s, want %s (%s)", q, got, r.ErrorCode, r.ID)
		}
		res, err := ix.Search(ctx, Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Record.ID != r.ID {
			t.Errorf("Search(%q): first %s, want %s", q, first(res), r.ID)
		}
	}
}

// Class 2: other forms of a known identifier. A name qualified by its
// package, written as code writes pointers and literals, or under another
// package that exports the same constant (syscall's and x/sys/unix's
// errnos), names the record; so does an all-caps name with digits.
func TestOtherFormsOfIdentifiers(t *testing.T) {
	ix, recs := realLookup(t)
	qualified := counts(recs, func(r *errkb.Record) string {
		if r.GoPackage == "" {
			return ""
		}
		return goPkg(r) + "." + r.ErrorCode
	})
	bare := counts(recs, func(r *errkb.Record) string { return r.ErrorCode })
	want := map[string]*errkb.Record{}
	for _, r := range recs {
		q := goPkg(r) + "." + r.ErrorCode
		if r.GoPackage == "" || qualified[q] != 1 || !regexp.MustCompile(`^[a-z][a-z0-9]*$`).MatchString(goPkg(r)) {
			continue
		}
		want[q] = r
		want["*"+q] = r
		want[q+"{}"] = r
		want["&"+q+"{}"] = r
		if r.ErrorType == "errno" && bare[r.ErrorCode] == 1 {
			want["unix."+r.ErrorCode] = r
			want[r.ErrorCode] = r
		}
	}
	expectLookup(t, ix, want, 400)
}

// Class 1: identifiers in prose or code fields. An identifier only a
// record's documentation or guard names (another name of the same errno,
// the client's name for a server code) finds that record first.
func TestIdentifiersInProse(t *testing.T) {
	ix, recs := realLookup(t)
	alias := regexp.MustCompile(`also named ([A-Z0-9, ]+)\.`)
	apiCode := regexp.MustCompile("`ErrorCode` (JSErrCode[A-Za-z]+)")
	named := map[string][]*errkb.Record{}
	for _, r := range recs {
		if m := alias.FindStringSubmatch(r.Documentation); m != nil {
			for _, a := range strings.Split(m[1], ", ") {
				named[a] = append(named[a], r)
			}
		}
		if m := apiCode.FindStringSubmatch(r.Documentation); m != nil {
			named[m[1]] = append(named[m[1]], r)
		}
	}
	ctx := context.Background()
	n := 0
	for q, rs := range named {
		if len(rs) != 1 {
			continue
		}
		n++
		res, err := ix.Search(ctx, Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Record.ID != rs[0].ID {
			t.Errorf("Search(%q): first %s, want %s", q, first(res), rs[0].ID)
		}
	}
	if n < 5 {
		t.Fatalf("only %d identifiers named by one record's prose", n)
	}
}

// Class 3: typos in long CamelCase identifiers. One or two letters wrong
// or swapped inside a long identifier still find its record first.
func TestTyposInLongIdentifiers(t *testing.T) {
	ix, recs := realLookup(t)
	bare := counts(recs, func(r *errkb.Record) string { return strings.ToLower(r.ErrorCode) })
	ctx := context.Background()
	n, found := 0, 0
	for _, r := range recs {
		c := r.ErrorCode
		if len(c) < 14 || bare[strings.ToLower(c)] != 1 || !lex.LooksLikeCode(c) {
			continue
		}
		for _, q := range []string{swapAt(c, len(c)/2), replaceAt(swapAt(c, len(c)/3), 2*len(c)/3, 'x')} {
			n++
			res, err := ix.Search(ctx, Query{Text: q})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) > 0 && res.Hits[0].Record.ID == r.ID {
				found++
			} else {
				t.Logf("Search(%q): first %s, want %s", q, first(res), c)
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d typo queries", n)
	}
	if ratio(found, n) < 0.97 {
		t.Errorf("typos in long identifiers: %d of %d found first, below 0.97", found, n)
	}
}

func swapAt(s string, i int) string {
	b := []byte(s)
	b[i], b[i+1] = b[i+1], b[i]
	return string(b)
}

func replaceAt(s string, i int, c byte) string {
	b := []byte(s)
	if b[i] == c {
		c = 'q'
	}
	b[i] = c
	return string(b)
}

// Class 4: wrap chains. A log line holding "context: outer: inner", where
// the outer record's error wraps the inner's with %w, is the outer error:
// it ranks first and is the lookup, though both messages are found.
func TestWrapChains(t *testing.T) {
	ix, recs := realLookup(t)
	want := map[string]*errkb.Record{}
	for _, r := range recs {
		if len(r.Wraps) != 1 {
			continue
		}
		in, ok := ix.Dataset().ByID(r.Wraps[0])
		if !ok {
			t.Fatalf("%s wraps %s, which is not in the dataset", r.ID, r.Wraps[0])
		}
		msg := strings.Replace(r.ErrorMessage, "%w", in.ErrorMessage, 1)
		want[msg] = r
		want["time=2026-11-30T10:00:00Z level=ERROR msg=\"add mapping\" err=\"account APP: "+msg+"\""] = r
		want["Error: reload config: "+msg] = r
	}
	expectLookup(t, ix, want, 15)
}

// Class 5: quoted values and short messages. A message with its values
// filled in, quoted, is its record's; a short message of common words is
// the record whose message it is, not one with more of those words.
func TestQuotedValuesAndShortMessages(t *testing.T) {
	ix, recs := realLookup(t)
	msgs := counts(recs, func(r *errkb.Record) string { return lex.NormalizeText(holeRE.ReplaceAllString(r.ErrorMessage, "*")) })
	want := map[string]*errkb.Record{}
	short := 0
	for _, r := range recs {
		m := r.ErrorMessage
		if msgs[lex.NormalizeText(holeRE.ReplaceAllString(m, "*"))] != 1 || lex.AlnumCount(holeRE.ReplaceAllString(m, "")) < 4 {
			continue
		}
		if strings.Contains(m, "%q") || strings.Contains(m, "{") {
			want[holeRE.ReplaceAllString(m, `"nats-2 eu"`)] = r
		}
		if w := strings.Fields(m); len(w) <= 3 && !holeRE.MatchString(m) {
			want[m] = r
			short++
		}
	}
	if short < 50 {
		t.Fatalf("only %d short messages", short)
	}
	expectLookup(t, ix, want, 80)
}

var holeRE = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]|\{[a-zA-Z_]*\}`)

// Class 6: client and server forms. The client prints "nats: " before the
// server's description: either form finds its own record, and the client's
// message without its prefix finds the client's record when no server
// record has that text.
func TestClientAndServerForms(t *testing.T) {
	ix, recs := realLookup(t)
	msgs := counts(recs, func(r *errkb.Record) string { return strings.ToLower(r.ErrorMessage) })
	bare := counts(recs, func(r *errkb.Record) string {
		return strings.ToLower(strings.TrimPrefix(r.ErrorMessage, "nats: "))
	})
	want := map[string]*errkb.Record{}
	pairs := 0
	for _, r := range recs {
		m := r.ErrorMessage
		if holeRE.MatchString(m) || msgs[strings.ToLower(m)] != 1 {
			continue
		}
		rest, client := strings.CutPrefix(m, "nats: ")
		switch {
		case client && bare[strings.ToLower(rest)] == 1:
			want[rest] = r // only the client prints it
			want["publish: "+m] = r
		case client && msgs[strings.ToLower(rest)] == 1:
			want[m] = r // the server record has the bare text
			pairs++
		case !client && r.Repo == "nats-io/nats-server" && msgs["nats: "+strings.ToLower(m)] == 1:
			want[m] = r
		}
	}
	if pairs < 5 {
		t.Fatalf("only %d messages printed both by the client and the server", pairs)
	}
	expectLookup(t, ix, want, 100)
}
