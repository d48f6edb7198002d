package annotate

import (
	"bufio"
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
)

// readSize is the reader's buffer; lines longer than this are copied
// through in pieces, never held whole.
const readSize = 64 << 10

// Stream copies r to w one line at a time, annotating the lines m matches.
// Several lines are looked up at once (Options.Workers), so m must be safe
// for concurrent use; lines come out in order. Output is flushed whenever
// no line read is waiting to be written, so a follower such as
// `kubectl logs -f | errkb annotate` sees each line as it comes, while a
// file is still written in large blocks. It returns when r ends, ctx is
// done, or a read or write fails.
func Stream(ctx context.Context, r io.Reader, w io.Writer, m Matcher, opt Options) error {
	if opt.OnError != nil {
		var mu sync.Mutex
		onError := opt.OnError
		opt.OnError = func(err error) {
			mu.Lock()
			defer mu.Unlock()
			onError(err)
		}
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	br := bufio.NewReaderSize(r, readSize)
	bw := bufio.NewWriterSize(w, readSize)
	var err error
	if workers == 1 {
		err = streamSerial(ctx, br, bw, m, opt)
	} else {
		err = streamParallel(ctx, br, bw, m, opt, workers)
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return errors.Join(err, bw.Flush())
}

// streamSerial annotates one line after the other.
func streamSerial(ctx context.Context, br *bufio.Reader, bw *bufio.Writer, m Matcher, opt Options) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			err = passLongLine(br, bw, line)
		} else if len(line) > 0 {
			if _, werr := bw.Write(annotateLine(ctx, line, m, opt)); werr != nil {
				return werr
			}
		}
		if err != nil {
			return err
		}
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

// job is one line on its way through streamParallel.
type job struct {
	line []byte // the line read, with its end
	out  []byte // what to write, set by a worker
	long bool   // longer than the read buffer: the writer copies the rest from the reader
	err  error  // of copying a long line
	done chan struct{}
}

// streamParallel reads lines in one goroutine, looks them up in workers
// and writes them, in the order read, in the calling goroutine.
func streamParallel(ctx context.Context, br *bufio.Reader, bw *bufio.Writer, m Matcher, opt Options, workers int) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := make(chan *job, 4*workers) // in input order, to the writer
	work := make(chan *job, 4*workers)  // to the workers
	var readErr error
	go func() {
		defer close(queue)
		defer close(work)
		readErr = readLines(ctx, br, queue, work)
	}()
	// Workers end when the reader closes work; on an early return they
	// finish the lines already read and stop.
	for range workers {
		go func() {
			for j := range work {
				j.out = annotateLine(ctx, j.line, m, opt)
				close(j.done)
			}
		}()
	}
	for j := range queue {
		if j.long {
			// The reader waits on j.done, so the writer may read from br.
			j.err = passLongLine(br, bw, j.line)
			close(j.done)
			if j.err != nil && !errors.Is(j.err, io.EOF) {
				return j.err
			}
			continue
		}
		select {
		case <-j.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if _, err := bw.Write(j.out); err != nil {
			return err
		}
		if len(queue) == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
	if readErr == nil {
		readErr = ctx.Err()
	}
	return readErr
}

// readLines sends each line read to the writer's queue and to the
// workers, until the input ends or ctx is done.
func readLines(ctx context.Context, br *bufio.Reader, queue, work chan<- *job) error {
	send := func(ch chan<- *job, j *job) bool {
		select {
		case ch <- j:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			j := &job{line: append([]byte(nil), line...), long: true, done: make(chan struct{})}
			if !send(queue, j) {
				return ctx.Err()
			}
			select {
			case <-j.done:
			case <-ctx.Done():
				return ctx.Err()
			}
			if j.err != nil {
				return j.err
			}
			continue
		}
		if len(line) > 0 {
			j := &job{line: append([]byte(nil), line...), done: make(chan struct{})}
			if !send(queue, j) || !send(work, j) {
				return ctx.Err()
			}
		}
		if err != nil {
			return err
		}
	}
}

// passLongLine copies a line that does not fit the read buffer, whose
// first part is head, through unchanged. It returns io.EOF when the input
// ends inside the line.
func passLongLine(br *bufio.Reader, bw *bufio.Writer, head []byte) error {
	if _, err := bw.Write(head); err != nil {
		return err
	}
	for {
		part, err := br.ReadSlice('\n')
		if _, werr := bw.Write(part); werr != nil {
			return werr
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}
