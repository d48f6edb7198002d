package web

import (
	"github.com/errkb/errkb/web/siteurl"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/errkb/errkb"
)

// BenchmarkProjectPage renders the page of a project of 1,000 errors
// through the whole router, uncached (a query string bypasses the cache),
// plain, filtered and sorted by number; "cached" answers from the kept
// bytes, and "record" renders one record page of the same dataset, the
// baseline the figures compare against; "nats-server" renders the
// embedded dataset's nats-server page.
func BenchmarkProjectPage(b *testing.B) {
	ds, repo := generatedDataset(b, 1000, 1000)
	s := readyServer(b, ds, Config{})
	embedded, err := errkb.Load(errkb.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	real := readyServer(b, embedded, Config{})
	rec := ds.ByRepo(repo)[0]
	for _, bc := range []struct {
		name, path string
		s          *Server
	}{
		{"record", recordURL(rec) + "?nocache=1", s},
		{"render", siteurl.Project(repo) + "?nocache=1", s},
		{"filter", siteurl.Project(repo) + "?q=timed+out", s},
		{"numeric", siteurl.Project(repo) + "?sort=numeric", s},
		{"cached", siteurl.Project(repo), s},
		{"nats-server", siteurl.Project(natsRepo) + "?nocache=1", real},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := bc.s
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
