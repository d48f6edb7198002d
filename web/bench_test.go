package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/internal/errkbtest"
)

var benchSizes = errkbtest.BenchSizes

var (
	benchMu      sync.Mutex
	benchServers = map[int]*Server{}
)

func benchServer(b *testing.B, n int) *Server {
	b.Helper()
	ds := errkbtest.Generated(b, n)
	benchMu.Lock()
	defer benchMu.Unlock()
	if s, ok := benchServers[n]; ok {
		return s
	}
	// With its index, as a started server is once ready: before, pages
	// are not cached, and the "cached" kinds would measure rendering. The
	// server outlives the sub-benchmark that made it, so the index is not
	// closed with it.
	ix, err := index.Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	s := New(ds, Config{})
	s.SetSearcher(ix)
	benchServers[n] = s
	return s
}

// BenchmarkRender serves record pages and API records through the whole
// router: "render" builds each answer anew (a query string bypasses the
// cache), "cached" answers from the rendered bytes, "gzip" from the
// compressed bytes, "304" revalidates.
func BenchmarkRender(b *testing.B) {
	for _, kind := range []struct {
		name, prefix, query string
		header              []string
	}{
		{"page/render", "/errors/", "?nocache=1", nil},
		{"page/cached", "/errors/", "", nil},
		{"page/gzip", "/errors/", "", []string{"Accept-Encoding", "gzip"}},
		{"api/render", "/api/v1/errors/", "?nocache=1", nil},
		{"api/cached", "/api/v1/errors/", "", nil},
	} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/records=%d", kind.name, n), func(b *testing.B) {
				s := benchServer(b, n)
				recs := s.ds.Records
				serve := func(r *errkb.Record) {
					req := httptest.NewRequest(http.MethodGet, kind.prefix+r.Path()+kind.query, nil)
					for j := 0; j+1 < len(kind.header); j += 2 {
						req.Header.Set(kind.header[j], kind.header[j+1])
					}
					w := httptest.NewRecorder()
					s.ServeHTTP(w, req)
					if w.Code != http.StatusOK {
						b.Fatalf("%s: status %d", req.URL, w.Code)
					}
				}
				// The same 500 records throughout; for the cached kinds
				// they are rendered once before timing starts.
				sample := recs[:min(len(recs), 500)]
				for _, r := range sample {
					serve(r)
				}
				i := 0
				for b.Loop() {
					serve(sample[(i*7919)%len(sample)])
					i++
				}
			})
		}
	}
}
