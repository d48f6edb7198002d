package index_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
)

// TestShippedNATSErrorsFoundFirst searches the embedded dataset the way a
// NATS user does, with what their program printed, and wants the record
// of that error first.
func TestShippedNATSErrorsFoundFirst(t *testing.T) {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	ix, err := index.Build(context.Background(), ds, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		repo, class string // the record wanted first
	}{
		{"nats.go message", "nats: no responders available for request",
			"nats-io/nats.go", "nats.ErrNoResponders"},
		{"slog line holding a nats.go message", `time=2026-11-30T10:00:00.000Z level=ERROR msg="request failed" err="nats: no responders available for request"`,
			"nats-io/nats.go", "nats.ErrNoResponders"},
		{"zap JSON line holding a nats.go message", `{"level":"error","ts":1764496800.123,"caller":"orders/publish.go:42","msg":"publish failed","error":"nats: invalid subject"}`,
			"nats-io/nats.go", "nats.ErrBadSubject"},
		{"log.Printf line holding a nats.go message", "2026/11/30 10:00:00 drain: nats: draining connection timed out",
			"nats-io/nats.go", "nats.ErrDrainTimeout"},
		{"JetStream API error body", "code=404 err_code=10059 description=stream not found",
			"nats-io/nats-server", "server.JSStreamNotFoundErr"},
		{"nats.go error-code constant", "JSErrCodeConsumerNotFound",
			"nats-io/nats.go", ""},
		{"nats-server log line", "[1] 2026/11/30 10:00:00.123456 [ERR] 10.0.0.1:52344 - cid:7 - maximum payload exceeded",
			"nats-io/nats-server", "server.ErrMaxPayload"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Search(context.Background(), index.Query{Text: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 {
				t.Fatalf("no hits for %q", tt.query)
			}
			top := res.Hits[0].Record
			if top.Repo != tt.repo || (tt.class != "" && top.ErrorClass != tt.class) {
				t.Errorf("first hit %s %s (%s), want %s %s", top.Repo, top.ErrorClass, top.ErrorMessage, tt.repo, tt.class)
			}
			if tt.class == "" && top.ErrorCode != tt.query && !slices.Contains(top.Aliases, tt.query) {
				t.Errorf("first hit has code %q (aliases %q), want %q", top.ErrorCode, top.Aliases, tt.query)
			}
		})
	}
}
