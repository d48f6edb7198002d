package bleveshim

import (
	"context"
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// asyncErrorsName names, in scorch's registry, the callback through which
// a build on disk hears of errors bleve meets writing segments in the
// background.
const asyncErrorsName = "errkb-build"

// builds maps a build's bleve folder to its DiskWrites, for that callback.
var builds sync.Map

func init() {
	scorch.RegistryAsyncErrorCallbacks[asyncErrorsName] = func(err error, path string) {
		if w, ok := builds.Load(path); ok {
			w.(*DiskWrites).fail(err)
		}
	}
}

// DiskWrites follows the batches of a build on disk that bleve has not
// yet written. The build's batches are unsafe (scorch's unsafe_batch):
// Batch returns once the batch's segment is searchable in memory, and
// bleve's persister then writes every segment introduced meanwhile as one,
// merged in memory. Waiting for each batch to reach the disk instead made
// the goroutines sending batches wait on one persister in turn, and wrote
// and merged four times as many small files. The index is complete only
// once every batch is written: the build waits for that (Wait) before
// the index is closed, since bleve's Close drops what it has not written.
// A nil *DiskWrites, for a build in memory, follows nothing.
type DiskWrites struct {
	path    string
	pending sync.WaitGroup
	errOnce sync.Once
	errs    chan error
}

// NewDiskWrites returns the scorch configuration of a build into the
// bleve folder path, and what follows its writes; done must be called when
// the build is over.
func NewDiskWrites(path string) (w *DiskWrites, config map[string]any, done func()) {
	w = &DiskWrites{path: path, errs: make(chan error, 1)}
	builds.Store(path, w)
	config = map[string]any{
		"unsafe_batch":           true,
		"asyncErrorCallbackName": asyncErrorsName,
	}
	return w, config, func() { builds.Delete(path) }
}

func (w *DiskWrites) fail(err error) {
	w.errOnce.Do(func() { w.errs <- fmt.Errorf("write index segments: %w", err) })
}

// Track counts b as pending until bleve has written it.
func (w *DiskWrites) Track(b *bleve.Batch) {
	if w == nil {
		return
	}
	w.pending.Add(1)
	b.SetPersistedCallback(func(err error) {
		if err != nil {
			w.fail(err)
		}
		w.pending.Done()
	})
}

// Untrack undoes Track for a batch that bleve refused.
func (w *DiskWrites) Untrack() {
	if w != nil {
		w.pending.Done()
	}
}

// Wait returns once every tracked batch is written, or the first error
// writing one (bleve retries a failed write forever), or ctx's error.
func (w *DiskWrites) Wait(ctx context.Context) error {
	if w == nil {
		return nil
	}
	written := make(chan struct{})
	go func() {
		w.pending.Wait()
		close(written)
	}()
	select {
	case <-written:
		return nil
	case err := <-w.errs:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
