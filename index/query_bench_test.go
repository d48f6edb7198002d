package index

import (
	"context"
	"runtime"
	"sort"
	"testing"

	"github.com/errkb/errkb/index/internal/tables"
)

// BenchmarkQuery measures Search and Lookup latency for each kind of
// labelled query, with the fixture hidden among 10,000 records (see
// scaledDataset). Run: go test ./index -run '^$' -bench Query -benchtime 200x
func BenchmarkQuery(b *testing.B) {
	_, qs := relevanceIndex(b)
	ix := buildScaled(b, 10000)
	byKind := map[string][]string{}
	for _, q := range qs {
		byKind[q.Kind] = append(byKind[q.Kind], q.Q)
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	ctx := context.Background()
	for _, kind := range kinds {
		texts := byKind[kind]
		b.Run("search/"+kind, func(b *testing.B) {
			defer reportCPU(b)()
			for i := 0; b.Loop(); i++ {
				if _, err := ix.Search(ctx, Query{Text: texts[i%len(texts)]}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("lookup/"+kind, func(b *testing.B) {
			defer reportCPU(b)()
			for i := 0; b.Loop(); i++ {
				if _, err := ix.Lookup(ctx, texts[i%len(texts)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildTables measures what query understanding adds to a first
// start at 10,000 records: parsing every pattern, the vocabulary FSTs and
// the identifier tables, laid out as the tables file (bleve indexing not
// included). A restart maps the file instead.
func BenchmarkBuildTables(b *testing.B) {
	ds := scaledDataset(b, 10000)
	b.ReportAllocs()
	defer reportCPU(b)()
	var t *tables.Tables
	for b.Loop() {
		data, err := tables.Build(ds.Records)
		if err != nil {
			b.Fatal(err)
		}
		if t, err = tables.Read(data, ds.Len()); err != nil {
			b.Fatal(err)
		}
	}
	// What the tables keep: the heap with them, less the heap without.
	var with, without runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&with)
	runtime.KeepAlive(t)
	t = nil
	runtime.GC()
	runtime.ReadMemStats(&without)
	b.ReportMetric(float64(int64(with.HeapAlloc)-int64(without.HeapAlloc))/(1<<20), "retained-MB")
}
