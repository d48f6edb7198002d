package export

import (
	"context"
	"log/slog"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/internal/errkbtest"
	"github.com/errkb/errkb/web"
)

// BenchmarkExport exports 1,000 fictional records:
//
//	go test -run XXX -bench Export -benchtime 1x ./export
func BenchmarkExport(b *testing.B) {
	const n = 1000
	ds := errkbtest.Generated(b, n)
	ix, err := index.Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	dir := b.TempDir()
	i := 0
	for b.Loop() {
		srv := web.New(ds, web.Config{BaseURL: "https://kb.example"})
		srv.SetSearcher(ix)
		i++
		if _, err := Run(context.Background(), srv, Options{Routes: web.Routes(), Out: filepath.Join(dir, strconv.Itoa(i)), BaseURL: "https://kb.example"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}
