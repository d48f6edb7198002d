package annotate

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/internal/errkbtest"
	"github.com/errkb/errkb/internal/indextest"
	"github.com/errkb/errkb/web"
)

// seedIndex is an index of the seed record alone, the real
// nats-io/nats-server error of the embedded dataset.
func seedIndex(t *testing.T) (*errkb.Dataset, *index.Index) {
	t.Helper()
	ds := errkbtest.Load(t, errkbtest.SeedFolder())
	return ds, indextest.Build(t, ds)
}

// seedLines are log lines about the seed record JS_CONSUMER_OFFLINE,
// and lines about nothing errkb knows.
var seedLines = []struct {
	line  string
	match bool
}{
	{`[1] 2026/11/30 01:02:03.456789 [ERR] 10.0.0.7:4222 - cid:9 - JetStream API error: consumer is offline`, true},
	{`{"level":"error","ts":"2026-11-30T01:02:03Z","msg":"nats: consumer is offline","code":"JS_CONSUMER_OFFLINE"}`, true},
	{`JS_CONSUMER_OFFLINE`, true},
	{`[1] 2026/11/30 01:02:03.456789 [INF] Server is ready`, false},
	{`consumer`, false},
	{`GET /healthz 200 3ms`, false},
}

// checkSeedLines runs m over seedLines; matches must link under base.
func checkSeedLines(t *testing.T, m Matcher, base string) {
	t.Helper()
	for _, tc := range seedLines {
		got, ok, err := m.Match(context.Background(), tc.line)
		if err != nil {
			t.Fatal(err)
		}
		if ok != tc.match {
			t.Errorf("%q: matched %v, want %v", tc.line, ok, tc.match)
			continue
		}
		if ok && (got.Code != "JS_CONSUMER_OFFLINE" || got.URL != base+"/errors/nats-io/nats-server/js-consumer-offline") {
			t.Errorf("%q: %+v", tc.line, got)
		}
	}
}

func TestLocalOnSeed(t *testing.T) {
	_, ix := seedIndex(t)
	checkSeedLines(t, NewLocal(ix, "https://errkb.example.com/"), "https://errkb.example.com")
}

// TestRemoteAgainstServer runs the remote matcher against the real web
// server, through its full router, and checks it answers as the local one.
func TestRemoteAgainstServer(t *testing.T) {
	ds, ix := seedIndex(t)
	srv := web.New(ds, web.Config{})
	srv.SetSearcher(ix)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	m, err := NewRemote(context.Background(), ts.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSeedLines(t, m, ts.URL)
}

func TestRemoteErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := NewRemote(ctx, "ftp://x", nil); err == nil || !strings.Contains(err.Error(), "http or https") {
		t.Errorf("bad scheme: %v", err)
	}
	// A port nothing listens on: take one and close it.
	ln := httptest.NewServer(http.NotFoundHandler())
	addr := ln.URL
	ln.Close()
	if _, err := NewRemote(ctx, addr, nil); err == nil || !strings.Contains(err.Error(), "cannot reach the errkb server at "+addr) {
		t.Errorf("unreachable server: %v", err)
	}
	// A server that is not errkb, or not ready.
	notReady := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "index is building", http.StatusServiceUnavailable)
	}))
	defer notReady.Close()
	if _, err := NewRemote(ctx, notReady.URL, nil); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("server not ready: %v", err)
	}
}

// TestLogMixAgreesWithLookup annotates the benchmark's kind of log
// against 1,000 fictional records: every line Local annotates is one
// /lookup's Lookup matches to the same record, no routine line is
// annotated, and error lines are.
func TestLogMixAgreesWithLookup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an index of 1,000 records")
	}
	ds := errkbtest.Generated(t, 1000)
	ix := indextest.Build(t, ds)
	input, errLines := logMix(ds, 400)
	var out bytes.Buffer
	if err := Stream(context.Background(), bytes.NewReader(input), &out, NewLocal(ix, ""), Options{MaxLineBytes: index.MaxQueryBytes}); err != nil {
		t.Fatal(err)
	}
	ins, outs := strings.Split(string(input), "\n"), strings.Split(out.String(), "\n")
	if len(ins) != len(outs) {
		t.Fatalf("%d lines in, %d out", len(ins), len(outs))
	}
	annotated := 0
	for i, in := range ins {
		if !strings.HasPrefix(outs[i], in) {
			t.Fatalf("line %d changed: %q -> %q", i, in, outs[i])
		}
		res, err := ix.Lookup(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if outs[i] == in {
			if res.Match != nil && res.Reason != "corrected message" {
				t.Errorf("line %d not annotated; Lookup names %s (%s)", i, res.Match.ID, res.Reason)
			}
			continue
		}
		annotated++
		if i%10 != 9 {
			t.Errorf("routine line %d annotated: %q", i, outs[i])
		}
		if res.Match == nil || !strings.HasSuffix(outs[i], "/errors/"+res.Match.Path()) {
			t.Errorf("line %d annotated as %q, Lookup says %v", i, outs[i][len(in):], res.Match)
		}
	}
	t.Logf("%d of %d error lines annotated", annotated, errLines)
	if annotated == 0 {
		t.Error("no error line annotated")
	}
}
