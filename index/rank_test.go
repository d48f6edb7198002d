package index

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/errkb/errkb"
)

// rankIndex builds an index of a few fictional records chosen to trap a
// ranker: a catch-all "(.+)" pattern, near-duplicate messages, a code
// shared by two records and a numeric code that appears only in a guard.
func rankIndex(t testing.TB) *Index {
	t.Helper()
	recs := []map[string]any{
		{"id": "0000000000000001", "slug": "internal", "errorCode": "ZK_INTERNAL", "errorClass": "InternalError", "errorMessage": "%s", "messagePattern": "(.+)"},
		{"id": "0000000000000002", "slug": "stream-not-found", "errorCode": "ZK_STREAM_NOT_FOUND", "errorClass": "StreamNotFoundError", "errorMessage": "stream not found", "messagePattern": "stream not found",
			"typeGuard": "return errors.As(err, &apiErr) && apiErr.ErrorCode == 31417"},
		{"id": "0000000000000003", "slug": "stream-not-found-in-account", "errorCode": "ZK_STREAM_NOT_FOUND_IN_ACCOUNT", "errorClass": "StreamNotFoundInAccountError", "errorMessage": "stream %q not found in account %q", "messagePattern": "stream %q not found in account %q"},
		{"id": "0000000000000004", "slug": "consumer-name-in-use", "errorCode": "ZK_CONSUMER_NAME_EXISTS", "errorClass": "ConsumerNameExistsError", "errorMessage": "consumer name already in use", "messagePattern": "consumer name already in use"},
		{"id": "0000000000000005", "slug": "stream-name-in-use", "errorCode": "ZK_STREAM_NAME_EXISTS", "errorClass": "StreamNameExistsError", "errorMessage": "stream name already in use", "messagePattern": "stream name already in use"},
		{"id": "0000000000000006", "slug": "commit-conflict", "errorCode": "ZK_CONFLICT", "errorClass": "ConflictError", "errorMessage": "commit conflict: transaction {txn} must be retried", "messagePattern": `^commit conflict: transaction (\d+) must be retried$`, "severity": "error"},
		{"id": "0000000000000007", "slug": "lock-commit-conflict", "errorCode": "ZK_CONFLICT", "errorClass": "ConflictError", "errorMessage": "commit conflict while acquiring lock on {object}", "messagePattern": "commit conflict while acquiring lock on {object}", "severity": "error"},
	}
	var lines []string
	for _, r := range recs {
		r["repo"] = "zinc-labs/zincd"
		if r["severity"] == nil {
			r["severity"] = "error"
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	fsys := fstest.MapFS{"records.jsonl": &fstest.MapFile{Data: []byte(strings.Join(lines, "\n"))}}
	return buildIndex(t, errkb.Folder{Name: "rank", FS: fsys})
}

func TestRanking(t *testing.T) {
	ix := rankIndex(t)
	tests := []struct{ name, q, want string }{
		{"catch-all never outranks a specific message", "stream not found", "0000000000000002"},
		{"filled near-duplicate", `stream "ORDERS" not found in account "ACME"`, "0000000000000003"},
		{"one word apart", "stream name already in use", "0000000000000005"},
		{"one word apart, other", "consumer name already in use", "0000000000000004"},
		{"typo in a message word", "consumer name alredy in use", "0000000000000004"},
		{"typo in a code", "ZK_STREAM_NOT_FUOND", "0000000000000002"},
		{"numeric code only in a guard", "err_code 31417", "0000000000000002"},
		{"wrapped with an inner error", "create stream: stream name already in use: raft: no quorum", "0000000000000005"},
		{"shared code: the shorter slug first", "ZK_CONFLICT", "0000000000000006"},
		{"shared code told apart by message", "code=ZK_CONFLICT msg=\"commit conflict while acquiring lock on row 7\"", "0000000000000007"},
		{"catch-all found by its code", "ZK_INTERNAL", "0000000000000001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Search(context.Background(), Query{Text: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			if got := firstID(res); got != tt.want {
				t.Errorf("first hit for %q is %s, want %s", tt.q, got, tt.want)
			}
		})
	}
}

func TestLookupConfidence(t *testing.T) {
	ix := rankIndex(t)
	tests := []struct {
		name, q, want, reason string // want "" means no confident match
	}{
		{"message", "stream not found", "0000000000000002", "message"},
		{"filled message in a log line", `2026/03/01 10:22:01 [ERR] stream "A" not found in account "B"`, "0000000000000003", "message in text"},
		{"near code", "ZK_STREAM_NOT_FUOND", "0000000000000002", "near code"},
		{"keyed code number", "apiErr.ErrorCode == 31417", "0000000000000002", "identifier"},
		{"shared code", "ZK_CONFLICT", "", ""},
		{"shared code and a message", "ZK_CONFLICT: commit conflict: transaction 12 must be retried", "0000000000000006", "code and message"},
		{"catch-all pattern is no evidence", "something odd happened", "", ""},
		{"words shared with two messages", "already in use", "", ""},
		{"typo left ambiguous", "name alredy in use", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Lookup(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if res.Match != nil {
				got = res.Match.ID
			}
			if got != tt.want || res.Reason != tt.reason {
				t.Errorf("Lookup(%q) = %q (%s), want %q (%s)", tt.q, got, res.Reason, tt.want, tt.reason)
			}
		})
	}
}

func TestSharedCodeListsOnlyItsRecords(t *testing.T) {
	res, err := rankIndex(t).Lookup(context.Background(), "ZK_CONFLICT")
	if err != nil {
		t.Fatal(err)
	}
	if res.Match != nil || len(res.Alternatives) != 2 {
		t.Fatalf("match %v with %d alternatives; want none and the two records sharing the code", res.Match, len(res.Alternatives))
	}
}

func TestDidYouMean(t *testing.T) {
	ix := rankIndex(t)
	res, err := ix.Search(context.Background(), Query{Text: "consumr nmae"})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range res.DidYouMean {
		texts = append(texts, s.Text)
	}
	if len(texts) == 0 || texts[0] != "consumer name" {
		t.Errorf("did you mean %q; want the corrected query first", texts)
	}
	res, err = ix.Search(context.Background(), Query{Text: "consumer name already in use"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.DidYouMean) != 0 {
		t.Errorf("a query answered well got suggestions %v", res.DidYouMean)
	}
}

func TestHighlights(t *testing.T) {
	ix := rankIndex(t)
	res, err := ix.Search(context.Background(), Query{Text: `stream "<b>X</b>" not found in account "B"`})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Hits[0].Highlights["message"]
	// Stop words ("not", "in") are searched but not marked.
	want := "<mark>stream</mark> %q not <mark>found</mark> in <mark>account</mark> %q"
	if len(got) != 1 || got[0] != want {
		t.Errorf("message highlight %q, want %q", got, want)
	}
}

// TestHostileQueriesStayCheap sends the largest texts a request may carry,
// built to defeat the shortcuts (every pattern's words present, long
// unknown words, deep JSON), and checks they are answered without error
// in bounded time.
func TestHostileQueriesStayCheap(t *testing.T) {
	ix := buildScaled(t, 2000)
	var msgs []string
	for _, r := range ix.ds.Records {
		msgs = append(msgs, r.ErrorMessage)
	}
	allMessages := strings.Join(msgs, " ")
	for name, q := range map[string]string{
		"every message":  allMessages,
		"one long word":  strings.Repeat("abcdefghij", 800),
		"many json":      strings.Repeat(`{"error":{"code":20417,"description":"stream not found"}}`, 150),
		"deep json":      strings.Repeat(`{"a":`, 1500) + "1" + strings.Repeat("}", 1500),
		"many keys":      strings.Repeat("code=12345 msg=\"x\" ", 450),
		"many typos":     strings.Repeat("straem consumr offlnie ", 350),
		"many codes":     strings.Repeat("QK_STREAM_NOT_FOUND BRK-3001 ", 280),
		"regexp syntax":  strings.Repeat(`(.+)*\d{1000}[^a]`, 400),
		"unicode":        strings.Repeat("ошибка 错误 エラー ", 400),
		"control chars":  strings.Repeat("\x00\x01\x1b[31m", 1000),
		"unbalanced ops": strings.Repeat(`"'+-~*?:\/`, 800),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			if _, err := ix.Search(context.Background(), Query{Text: q}); err != nil {
				t.Fatalf("Search: %v", err)
			}
			if _, err := ix.Lookup(context.Background(), q); err != nil {
				t.Fatalf("Lookup: %v", err)
			}
			// Logged, never asserted: tests do not fail on wall-clock
			// time. The bounds that keep these inputs cheap (clause caps,
			// word and segment limits) are tested where they are set.
			t.Logf("%v", time.Since(start))
		})
	}
}

func TestDidYouMeanNearCode(t *testing.T) {
	res, err := rankIndex(t).Search(context.Background(), Query{Text: "ZK_STREAM_NOT_FUOND"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.DidYouMean) == 0 || res.DidYouMean[0].Text != "ZK_STREAM_NOT_FOUND" || res.DidYouMean[0].Record == nil {
		t.Errorf("did you mean %+v; want the near code with its record first", res.DidYouMean)
	}
}

// TestProjectNameInQuery checks that when two projects raise the same
// message, the one whose name the log line carries comes first, and that
// the lookup still does not guess.
func TestProjectNameInQuery(t *testing.T) {
	lines := `{"id":"a1","repo":"orbit-labs/alphad","slug":"refused","errorCode":"A_REFUSED","errorMessage":"connection refused","severity":"error"}
{"id":"b1","repo":"orbit-labs/betad","slug":"refused","errorCode":"B_REFUSED","errorMessage":"connection refused","severity":"error"}`
	ds, err := errkb.Load(errkb.Folder{Name: "p", FS: fstest.MapFS{"r.jsonl": &fstest.MapFile{Data: []byte(lines)}}})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for q, want := range map[string]string{
		"Mar  1 10:22:01 host betad[311]: connection refused": "b1",
		"alphad: connection refused":                          "a1",
	} {
		res, err := ix.Search(context.Background(), Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if got := firstID(res); got != want {
			t.Errorf("first hit for %q is %s, want %s", q, got, want)
		}
		lr, err := ix.Lookup(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if lr.Match != nil {
			t.Errorf("Lookup(%q) matched %s; the message is shared, the project name only ranks", q, lr.Match.ID)
		}
	}
}
