// Package store keeps a loaded dataset's bytes out of the Go heap and saves
// it for the next start: records' raw JSON and long text move into a
// read-only mapping of a file (spill), and a dataset loaded without
// problems is saved beside it as a snapshot that a later start with the
// same files and binary reads instead of parsing JSON. Records read the
// same either way; errkb itself knows nothing of files or mappings.
package store

import (
	"fmt"
	"sync"

	"github.com/errkb/errkb"
)

// Load is errkb.Load with the records' text spilled into a file in dir,
// or read from the snapshot of the same files saved there by an earlier
// start. Where spilling is not possible the records stay on the heap, and
// the dataset's SpillError says why.
func Load(dir string, sources ...errkb.Source) (*errkb.Dataset, error) {
	// Without a list of the files there is no snapshot to read or save.
	files, listErr := listFiles(sources)
	if listErr == nil {
		if ds, err := loadSnapshot(dir, files); err == nil {
			ds.Provenance = errkb.ReadProvenance(sources...)
			return ds, nil
		}
	}
	var (
		key    string
		madeOf manifest
	)
	if listErr == nil {
		// Hashed before loading, so a file changed while loading is
		// read again at the next start.
		var err error
		if madeOf, key, err = hashFiles(files); err != nil {
			key = ""
		}
	}
	sf, spillErr := newSpillFile(dir)
	var (
		mu      sync.Mutex
		digests = make(map[*errkb.Record][32]byte)
	)
	parsed := func(recs []*errkb.Record) {
		sums := make([][32]byte, len(recs))
		for i, r := range recs {
			sums[i] = errkb.RecordDigest(r)
		}
		var err error
		if sf != nil {
			err = sf.spill(recs)
		}
		mu.Lock()
		defer mu.Unlock()
		for i, r := range recs {
			digests[r] = sums[i]
		}
		if err != nil && spillErr == nil {
			spillErr = err
		}
	}
	ds, err := errkb.LoadWithOptions(errkb.Options{Parsed: parsed}, sources...)
	st := errkb.Storage{Err: spillErr, Digests: digests}
	if sf != nil {
		st.Release = sf.release
		order := sf.order(ds.Records)
		st.Order = func() []int { return order }
		// The snapshot records the dataset's hash: made of the digests
		// taken while spilling, it reads no spilled page back (from the
		// records, it read and mapped the whole file).
		ds.SetStorage(st)
		if err == nil && spillErr == nil && key != "" {
			if serr := saveSnapshot(dir, key, ds, sf, madeOf); serr != nil {
				st.Err = fmt.Errorf("save snapshot: %w", serr)
			}
		}
		sf.done()
	}
	ds.SetStorage(st)
	ds.ReleasePages()
	return ds, err
}
