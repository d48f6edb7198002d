// Package store keeps a loaded dataset's bytes out of the Go heap and saves
// it for the next start: records' raw JSON and long text move into a
// read-only mapping of a file (spill), and a dataset loaded without
// problems is saved beside it as a snapshot that a later start with the
// same files and binary reads instead of parsing JSON. Records read the
// same either way.
//
// It works through the contract errkb declares for a storage engine, and
// knows no field of a record:
//
//   - errkb.Options.Parsed hands it each file's records as they are
//     parsed, to move their bytes (spill_linux.go);
//   - errkb.AppendTexts and errkb.AppendShape list a record's values in
//     the field table's order, and errkb.Arena.SetShape sets the shape
//     back and lists the texts to set, so that it saves and reads records
//     (codec_linux.go) without naming a field;
//   - errkb.Record.HoldRaw takes a record's raw JSON as this package keeps
//     it, with holes where its text and keys were (holes.go), and rawHolder
//     gives the bytes back;
//   - errkb.Dataset.SetStorage takes storage, which releases the records'
//     pages, gives the order to read them in, and the hash a snapshot
//     saved.
package store

import (
	"fmt"
	"sync"

	"github.com/errkb/errkb"
)

// The shipped snapshot's files, written by SaveShipped (see
// shipped_linux.go) into prebuilt/ and embedded in the binary.
const (
	ShippedIndexFile = "records.idx"
	ShippedDataFile  = "records.bin"
)

// Report says how Load held a dataset's records.
type Report struct {
	// FromSnapshot is set when the records were read from the snapshot
	// saved by an earlier start rather than from their files.
	FromSnapshot bool
	// Err is why the records stayed on the heap, or were not saved for
	// the next start; nil when both were done.
	Err error
}

// Load is errkb.Load with the records' text spilled into a file in dir,
// or read from the snapshot of the same files saved there by an earlier
// start. Where spilling is not possible the records stay on the heap, and
// the report says why.
func Load(dir string, folders ...errkb.Folder) (*errkb.Dataset, Report, error) {
	// Without a list of the files there is no snapshot to read or save.
	files, listErr := listFiles(folders)
	if listErr == nil {
		if ds, err := loadSnapshot(dir, files); err == nil {
			ds.Provenance = errkb.ReadProvenance(folders...)
			return ds, Report{FromSnapshot: true}, nil
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
	var mu sync.Mutex
	parsed := func(recs []*errkb.Record) {
		if sf == nil {
			return
		}
		if err := sf.spill(recs); err != nil {
			mu.Lock()
			defer mu.Unlock()
			if spillErr == nil {
				spillErr = err
			}
		}
	}
	ds, err := errkb.LoadWithOptions(errkb.Options{Parsed: parsed}, folders...)
	report := Report{Err: spillErr}
	if sf != nil {
		order := sf.order(ds.Records)
		ds.SetStorage(&storage{release: sf.release, order: func() []int { return order }})
		// The snapshot records the dataset's hash: made of the digests
		// loading took before spilling, it reads no spilled page back
		// (from the records, it read and mapped the whole file).
		if err == nil && spillErr == nil && key != "" {
			if serr := saveSnapshot(dir, key, ds, sf, madeOf); serr != nil {
				report.Err = fmt.Errorf("save snapshot: %w", serr)
			}
		}
		sf.done()
	}
	ds.ReleasePages()
	return ds, report, err
}

// storage is what this package tells a dataset it holds (errkb.Storage).
type storage struct {
	release func()
	order   func() []int // nil: Records' own
	hash    string       // saved with a snapshot
}

func (s *storage) ReleasePages() { s.release() }

func (s *storage) ReadOrder() []int {
	if s.order == nil {
		return nil
	}
	return s.order()
}

func (s *storage) SavedHash() string { return s.hash }
