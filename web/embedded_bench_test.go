package web

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// BenchmarkEmbeddedPages renders record pages of the embedded dataset
// anew (a query string bypasses the cache): every 25th record, so each
// kind of record and its derived facts is in the sample as it ships. One
// op is one page; compare it across versions of the dataset with
// benchstat (see BENCHMARKS.md).
func BenchmarkEmbeddedPages(b *testing.B) {
	ds := errkbtest.Load(b, errkb.Embedded())
	s := readyServer(b, ds, Config{})
	var paths []string
	for i := 0; i < len(ds.Records); i += 25 {
		paths = append(paths, "/errors/"+ds.Records[i].Path()+"?nocache=1")
	}
	i := 0
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, paths[i%len(paths)], nil))
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d", paths[i%len(paths)], w.Code)
		}
		i++
	}
}
