package kbgen

import (
	"fmt"
	"testing/fstest"
)

// FS returns n records of seed as an in-memory dataset folder, laid out as
// Write lays it out on disk (JSONL files of 1,000 records), so benchmarks
// can load datasets of any size without touching the disk.
func FS(n int, seed uint64) fstest.MapFS {
	const perFile = 1000
	fsys := fstest.MapFS{}
	g := NewGenerator(seed)
	_ = produce(g, n, false, func(start int, b batch) error {
		prev := 0
		for j, end := range b.ends {
			name := fmt.Sprintf("part-%05d.jsonl", (start+j)/perFile)
			f := fsys[name]
			if f == nil {
				f = &fstest.MapFile{Mode: 0o644}
				fsys[name] = f
			}
			f.Data = append(f.Data, b.buf[prev:end]...)
			prev = end
		}
		return nil
	})
	return fsys
}
