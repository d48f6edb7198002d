package web

import (
	"log/slog"
	"os"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// Fixture records: the seed record (real, nats-io, from the embedded
// dataset) and, under testdata/pages, clearly fictional ones, one of which
// holds an injection in every field.
const (
	seedPath    = "/errors/nats-io/nats-server/js-consumer-offline"
	quorumPath  = "/errors/fictional-org/quuxdb/replica-quorum-lost"
	timeoutPath = "/errors/fictional-org/quuxdb/write-timeout"
	hostilePath = "/errors/fictional-org/hostile-html/injection-everywhere"
)

// loadPages loads the page fixtures; every one of them must be valid.
func loadPages(t testing.TB) *errkb.Dataset {
	t.Helper()
	return errkbtest.Load(t, errkbtest.SeedFolder(), errkb.Folder{Name: "pages", FS: os.DirFS("testdata/pages")})
}

// newPagesServer serves the page fixtures. With search, the index is built
// first, so related errors include similar messages; without it, pages do
// not depend on search ranking, which golden files must not.
func newPagesServer(t testing.TB, withSearch bool, cfg Config) *Server {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if withSearch {
		return readyServer(t, loadPages(t), cfg)
	}
	return New(loadPages(t), cfg)
}
