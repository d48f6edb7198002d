package errkb

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"sync"

	"github.com/errkb/errkb/internal/parallel"
)

// Hash identifies the dataset's content: two datasets with the same hash
// hold the same records, byte for byte, with the same dataset versions.
// Persisted indexes and HTTP caches are keyed on it, so a changed record
// can never be answered from state built for the old one. File names and
// the order of files do not count, since records are sorted on load.
//
// It is computed once, on first use, on every CPU.
func (ds *Dataset) Hash() string {
	ds.hashOnce.Do(func() {
		if ds.storage != nil {
			ds.hash = ds.storage.SavedHash()
		}
		if ds.hash == "" {
			ds.hash = hashRecords(ds.Records, ds.digests)
		}
		ds.digests = nil // taken only for this
	})
	return ds.hash
}

// recordDigest hashes what the dataset hash covers of one record. Loading
// for a storage engine takes it before the engine moves the record's
// bytes (see Options.Parsed), so hashing the dataset later does not read
// them back in.
func recordDigest(r *Record) [sha256.Size]byte {
	h := sha256.New()
	writeField(h, []byte(r.DatasetVersion))
	writeField(h, r.RawJSON())
	var d [sha256.Size]byte
	h.Sum(d[:0])
	return d
}

// hashRecords hashes chunks of records in parallel and then the chunk
// hashes in order; at 100,000 records (450 MB of JSON) this takes a
// fraction of a second.
func hashRecords(records []*Record, digests map[*Record][sha256.Size]byte) string {
	const chunk = 4096
	sums := make([][]byte, (len(records)+chunk-1)/chunk)
	parallel.For(len(sums), func(c int) {
		h := sha256.New()
		for _, r := range records[c*chunk : min((c+1)*chunk, len(records))] {
			d, ok := digests[r]
			if !ok {
				d = recordDigest(r)
			}
			_, _ = h.Write(d[:])
		}
		sums[c] = h.Sum(nil)
	})
	h := sha256.New()
	_, _ = h.Write([]byte("errkb dataset v2\n"))
	for _, s := range sums {
		_, _ = h.Write(s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeField writes b with its length, so field boundaries cannot shift
// between records and still hash the same.
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	_, _ = h.Write(n[:])
	_, _ = h.Write(b)
}

// ResetHashForBenchmark forgets the computed hash so that a benchmark can
// measure computing it again. Nothing else should call it.
func (ds *Dataset) ResetHashForBenchmark() {
	ds.hashOnce = sync.Once{}
	ds.hash = ""
}
