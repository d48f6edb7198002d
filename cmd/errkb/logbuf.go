package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Request log buffering. Writing each request's line to stderr costs a
// system call per request, as much as answering a cached page; instead the
// lines of ordinary requests are gathered and written at most every
// logFlushEvery, or when logBufferBytes fill. Every other line (start-up,
// refusals, failures, shutdown) is written at once, with whatever request
// lines came before it, so the order is kept and nothing operators watch
// for waits. On exit the rest is written; only a crash of the process
// itself (SIGKILL, out of memory) can lose up to logFlushEvery of request
// lines.
const (
	logFlushEvery  = 100 * time.Millisecond
	logBufferBytes = 64 << 10
)

// logBuffer is an io.Writer that buffers until Flush.
type logBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

// newLogBuffer buffers writes to w and flushes them every interval until
// Close.
func newLogBuffer(w io.Writer, interval time.Duration) *logBuffer {
	b := &logBuffer{w: bufio.NewWriterSize(w, logBufferBytes), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.Flush()
			case <-b.stop:
				b.Flush()
				return
			}
		}
	}()
	return b
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

// Flush writes what is buffered.
func (b *logBuffer) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.w.Flush()
}

// Close stops the timer and writes the rest.
func (b *logBuffer) Close() {
	close(b.stop)
	<-b.done
}

// flushingHandler writes through to buf at once for every record but the
// per-request lines at Info ("request", and "request refused" for 4xx
// answers), which wait for the next flush.
type flushingHandler struct {
	slog.Handler
	buf *logBuffer
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level > slog.LevelInfo || r.Message != "request" && r.Message != "request refused" {
		h.buf.Flush()
	}
	return err
}

func (h flushingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(as), h.buf}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.buf}
}

// newServeLogger is the text logger of `errkb serve` on w, with request
// lines buffered; call the returned function before exiting.
func newServeLogger(w io.Writer) (*slog.Logger, func()) {
	buf := newLogBuffer(w, logFlushEvery)
	return slog.New(flushingHandler{slog.NewTextHandler(buf, nil), buf}), buf.Close
}
