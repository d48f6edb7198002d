package index

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// benchSizes are the dataset sizes of the benchmarks; 100k is skipped with
// -short. Run them with, for example:
//
//	go test -run XXX -bench . -benchtime 2000x ./index
var benchSizes = errkbtest.BenchSizes

var (
	benchMu      sync.Mutex
	benchIndexes = map[int]*Index{}
)

func benchDataset(b *testing.B, n int) *errkb.Dataset { return errkbtest.Generated(b, n) }

// benchIndex is the on-disk index of n records, built once per run, as a
// server with --index-dir serves it.
func benchIndex(b *testing.B, n int) *Index {
	b.Helper()
	ds := benchDataset(b, n)
	benchMu.Lock()
	defer benchMu.Unlock()
	if ix, ok := benchIndexes[n]; ok {
		return ix
	}
	// ERRKB_BENCH_SEARCH_DIR keeps the indexes between runs, so a search
	// benchmark at 100k does not build one first.
	dir := b.TempDir()
	if d := os.Getenv("ERRKB_BENCH_SEARCH_DIR"); d != "" {
		dir = filepath.Join(d, fmt.Sprintf("records=%d", n))
	}
	ix, err := Open(context.Background(), ds, dir, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	benchIndexes[n] = ix
	return ix
}

// BenchmarkBuild builds the whole index, in memory and on disk.
func BenchmarkBuild(b *testing.B) {
	for _, n := range benchSizes {
		for _, where := range []string{"memory", "disk"} {
			b.Run(fmt.Sprintf("%s/records=%d", where, n), func(b *testing.B) {
				ds := benchDataset(b, n)
				log := slog.New(slog.DiscardHandler)
				for b.Loop() {
					var ix *Index
					var err error
					if where == "memory" {
						ix, err = Build(context.Background(), ds, log)
					} else {
						ix, err = Open(context.Background(), ds, b.TempDir(), log)
					}
					if err != nil {
						b.Fatal(err)
					}
					ix.Close()
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			})
		}
	}
}

// BenchmarkReopen opens an index persisted by an earlier run, as a restart
// with an unchanged dataset does (key, checksums, bleve open, lookups).
func BenchmarkReopen(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			ds := benchDataset(b, n)
			dir := b.TempDir()
			log := slog.New(slog.DiscardHandler)
			ix, err := Open(context.Background(), ds, dir, log)
			if err != nil {
				b.Fatal(err)
			}
			ix.Close()
			b.ResetTimer()
			for b.Loop() {
				ds.ResetHashForBenchmark()
				ix, err := Open(context.Background(), ds, dir, log)
				if err != nil {
					b.Fatal(err)
				}
				ix.Close()
			}
		})
	}
}

// searchKinds are the kinds of query readers send, each derived from
// record i of the dataset.
var searchKinds = []struct {
	name   string
	lookup bool
	query  func(r *errkb.Record) Query
}{
	{"code", false, func(r *errkb.Record) Query { return Query{Text: r.ErrorCode} }},
	{"class", false, func(r *errkb.Record) Query { return Query{Text: r.ErrorClass} }},
	{"message", false, func(r *errkb.Record) Query { return Query{Text: r.ErrorMessage} }},
	{"words", false, func(r *errkb.Record) Query { return Query{Text: firstWords(r.ErrorMessage, 2)} }},
	{"typo", false, func(r *errkb.Record) Query { return Query{Text: typo(firstWords(r.ErrorMessage, 3))} }},
	{"logline", false, func(r *errkb.Record) Query { return Query{Text: logLine(r)} }},
	{"filtered", false, func(r *errkb.Record) Query {
		return Query{Text: firstWords(r.ErrorMessage, 2), Repo: r.Repo, Severity: r.Severity}
	}},
	{"browse-tag", false, func(r *errkb.Record) Query { return Query{Tag: r.Tags[0]} }},
	{"page-10", false, func(r *errkb.Record) Query { return Query{Text: firstWords(r.ErrorMessage, 1), Offset: 180} }},
	{"lookup-code", true, func(r *errkb.Record) Query { return Query{Text: r.ErrorCode} }},
	{"lookup-logline", true, func(r *errkb.Record) Query { return Query{Text: logLine(r)} }},
}

// BenchmarkSearch runs each kind of query against the persisted index and
// reports the median and 99th percentile latency besides the mean.
func BenchmarkSearch(b *testing.B) {
	for _, kind := range searchKinds {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/records=%d", kind.name, n), func(b *testing.B) {
				ix := benchIndex(b, n)
				searchKind(b, ix, ix.Dataset().Records, kind.query, kind.lookup)
			})
		}
	}
}

// BenchmarkSearchEmbedded is BenchmarkSearch on the embedded dataset,
// opened from its prebuilt index as `errkb serve` opens it, with queries
// made from its records that have a code, a tag and a message.
func BenchmarkSearchEmbedded(b *testing.B) {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	ix, err := OpenSeeded(context.Background(), ds, b.TempDir(), errkb.EmbeddedIndex(), slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	var recs []*errkb.Record
	for _, r := range ds.Records {
		if r.ErrorCode != "" && len(r.Tags) > 0 && len(strings.Fields(r.ErrorMessage)) > 1 {
			recs = append(recs, r)
		}
	}
	for _, kind := range searchKinds {
		b.Run(kind.name, func(b *testing.B) { searchKind(b, ix, recs, kind.query, kind.lookup) })
	}
}

// searchKind runs one kind of query made from recs and reports its
// latency percentiles.
func searchKind(b *testing.B, ix *Index, recs []*errkb.Record, query func(*errkb.Record) Query, lookup bool) {
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	i := 0
	stopCPU := reportCPU(b)
	for b.Loop() {
		r := recs[(i*7919)%len(recs)]
		i++
		q := query(r)
		start := time.Now()
		var err error
		if lookup {
			_, err = ix.Lookup(ctx, q.Text)
		} else {
			_, err = ix.Search(ctx, q)
		}
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
	}
	stopCPU()
	reportPercentiles(b, lat)
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	at := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

func firstWords(s string, n int) string {
	f := strings.Fields(placeholder.ReplaceAllString(s, ""))
	return strings.Join(f[:min(n, len(f))], " ")
}

// typo swaps two letters in the longest word, as a hurried reader does.
func typo(s string) string {
	words := strings.Fields(s)
	long := 0
	for i, w := range words {
		if len(w) > len(words[long]) {
			long = i
		}
	}
	if w := []byte(words[long]); len(w) >= 4 {
		w[1], w[2] = w[2], w[1]
		words[long] = string(w)
	}
	return strings.Join(words, " ")
}

var placeholder = regexp.MustCompile(`<[^>]*>|\{[^}]*\}|%[sdvq]`)

// logLine is the record's message as it appears in a log: placeholders
// filled with values, behind a timestamp and a level.
func logLine(r *errkb.Record) string {
	msg := placeholder.ReplaceAllStringFunc(r.ErrorMessage, func(string) string { return "orders-7f3a" })
	return "2026-11-30T01:02:03.456Z ERROR worker-3 request_id=9c1e " + msg
}
