package main

import (
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

type syncWriter struct {
	mu     sync.Mutex
	b      strings.Builder
	writes int
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	return w.b.Write(p)
}

func (w *syncWriter) String() (string, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String(), w.writes
}

// TestRequestLogBuffered: request lines wait for a flush and cost no write
// each; any other line is written at once, after the request lines before
// it, so order is kept; closing writes the rest, and no line is lost.
func TestRequestLogBuffered(t *testing.T) {
	out := &syncWriter{}
	buf := newLogBuffer(out, time.Hour) // no timed flush during the test
	log := slog.New(flushingHandler{slog.NewTextHandler(buf, nil), buf})

	for i := range 100 {
		log.Info("request", "n", i)
	}
	log.Info("request refused", "status", 404)
	if s, n := out.String(); n != 0 || s != "" {
		t.Fatalf("request lines written before a flush: %d writes", n)
	}
	log.Error("request failed", "status", 500)
	s, n := out.String()
	if n != 1 || strings.Count(s, "msg=request ") != 100 || !strings.HasSuffix(s, "status=500\n") {
		t.Fatalf("an error line did not write everything before it, in order, at once (%d writes):\n%s", n, s)
	}
	log.Info("request", "n", "last")
	log.Info("listening", "addr", "x")
	if s, _ := out.String(); !strings.Contains(s, "n=last") || !strings.HasSuffix(s, "addr=x\n") {
		t.Errorf("a start-up line waited: %q", s[max(0, len(s)-80):])
	}
	log.Info("request", "n", "at exit")
	buf.Close()
	if s, _ := out.String(); !strings.Contains(s, "n=\"at exit\"") {
		t.Error("closing lost a buffered line")
	}
}

// TestRequestLogFlushedOnTime: buffered lines reach the output within the
// flush interval without any other line to push them.
func TestRequestLogFlushedOnTime(t *testing.T) {
	out := &syncWriter{}
	buf := newLogBuffer(out, time.Millisecond)
	defer buf.Close()
	slog.New(flushingHandler{slog.NewTextHandler(buf, nil), buf}).Info("request", "n", 1)
	for {
		if s, _ := out.String(); strings.Contains(s, "n=1") {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
