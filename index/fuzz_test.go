package index

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
)

// fixtureRecords are fictional records whose text holds markup, so that
// highlights over them show whether bleve escapes what it returns.
const fixtureRecords = `{"id":"fx-1","repo":"example-org/fixture","slug":"markup-in-message","errorCode":"E_MARKUP","errorMessage":"stream <b>closed</b> & \"quoted\" <script>alert(1)</script>","severity":"error","documentation":"The <stream> was closed; see <img src=x onerror=alert(1)> and a&b.","tags":["io"]}
{"id":"fx-2","repo":"example-org/fixture","slug":"plain","errorCode":"E_PLAIN","errorMessage":"connection refused by peer","severity":"warning","errorClass":"PlainError"}
`

var (
	fixtureOnce sync.Once
	fixtureIx   *Index
	fixtureErr  error
)

// fixtureIndex is one index over the embedded dataset and the fixture
// records, built once per process.
func fixtureIndex(t testing.TB) *Index {
	fixtureOnce.Do(func() {
		ds, err := errkb.Load(errkb.Embedded(), errkb.Folder{Name: "fixture", FS: fstest.MapFS{"f.jsonl": {Data: []byte(fixtureRecords)}}})
		if err != nil {
			fixtureErr = err
			return
		}
		fixtureIx, fixtureErr = Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixtureIx
}

var querySeeds = []string{
	"", "*", "a* a* a*", "/.*/", "foo~2", `"unclosed`, `+-&&||!(){}[]^"~*?:\/`, "field:value",
	"JS_CONSUMER_OFFLINE", "js-consumer-offline", "consumer is offline", "fx-1", "PlainError",
	"2026/11/30 01:02:03 [ERR] nats: JetStream consumer is offline (10087) cid:5",
	"stream <b>closed</b>", "<script>alert(1)</script>", "\xff\xfe", strings.Repeat("日本語", 300),
	strings.Repeat("a.", 2000), strings.Repeat("x", 600), strings.Repeat("word ", 300),
}

// FuzzSearch sends arbitrary text through Search, as any query box or API
// call can. It must not fail, must bound its work, and every highlight it
// returns must be escaped text with only <mark> added, since pages show
// highlights as HTML.
func FuzzSearch(f *testing.F) {
	for _, s := range querySeeds {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, text string, filter uint8) {
		if len(text) > MaxQueryBytes {
			return // refused before it reaches the index
		}
		ix := fixtureIndex(t)
		q := Query{Text: text, Limit: int(filter%5) * 30, Offset: int(filter / 5)}
		switch filter % 4 {
		case 1:
			q.Repo = text
		case 2:
			q.Tag = text
		case 3:
			q.Severity = "error"
		}
		res, err := ix.Search(context.Background(), q)
		if err != nil {
			t.Fatalf("Search(%q): %v", text, err)
		}
		if res.Total < len(res.Hits) || len(res.Hits) > MaxLimit {
			t.Fatalf("Search(%q): total %d, %d hits", text, res.Total, len(res.Hits))
		}
		for _, h := range res.Hits {
			if h.Record == nil {
				t.Fatal("hit without a record")
			}
			for field, frags := range h.Highlights {
				for _, fr := range frags {
					if bare := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(fr); strings.ContainsAny(bare, "<>") {
						t.Fatalf("Search(%q): %s highlight holds markup: %q", text, field, fr)
					}
				}
			}
		}
	})
}

// FuzzLookup sends arbitrary text through Lookup, as /lookup and the
// terminal command do: no failure, and a match only with its reason.
func FuzzLookup(f *testing.F) {
	for _, s := range querySeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > MaxQueryBytes {
			return
		}
		res, err := fixtureIndex(t).Lookup(context.Background(), text)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", text, err)
		}
		if (res.Match != nil) != (res.Reason != "") {
			t.Fatalf("Lookup(%q): match %v with reason %q", text, res.Match != nil, res.Reason)
		}
		for _, h := range res.Alternatives {
			if h.Record == nil || h.Record == res.Match {
				t.Fatalf("Lookup(%q): bad alternative", text)
			}
		}
		if c := lex.NormalizeCode(text); lex.NormalizeCode(c) != c {
			t.Fatalf("NormalizeCode is not idempotent on %q", text)
		}
	})
}

// FuzzUnderstand feeds arbitrary pasted text to the query reader (log-line
// prefixes, JSON, key=value pairs, escapes). It must never panic and must
// keep its output bounded and valid text, whatever the input.
func FuzzUnderstand(f *testing.F) {
	for _, s := range querySeeds {
		f.Add(s)
	}
	for _, s := range []string{
		`time=2026-11-30T01:02:03Z level=ERROR msg="publish failed" err="stream \"ORDERS\" not found"`,
		`{"level":"error","msg":"x","error":"stream \"A\" not found","nested":{"code":10,"description":"d"}}`,
		`app: API error: code=500 err_code=20118 description=stream name already in use`, `{"a":`, `k="unterminated`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		u := understand(q)
		if len(u.raw) > MaxQueryBytes || !utf8.ValidString(u.raw) {
			t.Fatalf("raw text unbounded or invalid: %d bytes", len(u.raw))
		}
		if len(u.words) > maxWords {
			t.Fatalf("%d words, more than %d", len(u.words), maxWords)
		}
		for _, w := range u.words {
			if w != strings.ToLower(w) || w == "" {
				t.Fatalf("word %q is not a lower-case word", w)
			}
		}
		for _, s := range u.segments {
			if !utf8.ValidString(s) {
				t.Fatalf("segment %q is not valid UTF-8", s)
			}
		}
	})
}
