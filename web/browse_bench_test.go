package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkProjectPage renders the page of a project of 1,000 errors
// through the whole router, uncached (a query string bypasses the cache),
// plain, filtered and sorted by number; "cached" answers from the kept
// bytes, and "record" renders one record page of the same dataset, the
// baseline the figures compare against.
func BenchmarkProjectPage(b *testing.B) {
	ds, repo := generatedDataset(b, 1000, 1000)
	s := readyServer(b, ds, Config{})
	rec := ds.ByRepo(repo)[0]
	for _, bc := range []struct{ name, path string }{
		{"record", recordPath(rec) + "?nocache=1"},
		{"render", repoPath(repo) + "?nocache=1"},
		{"filter", repoPath(repo) + "?q=timed+out"},
		{"numeric", repoPath(repo) + "?sort=numeric"},
		{"cached", repoPath(repo)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			serve := func() int {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, bc.path, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: status %d", bc.path, w.Code)
				}
				return w.Body.Len()
			}
			size := serve()
			for b.Loop() {
				serve()
			}
			b.ReportMetric(float64(size), "bytes/page")
		})
	}
}
