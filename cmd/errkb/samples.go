package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/errkb/errkb/curate"
	"github.com/errkb/errkb/web"
)

// maxFailuresBytes bounds what is read of a dataset's failures file: the
// shipped one is a few hundred bytes, and a dataset must not make the
// server hold an unbounded list.
const maxFailuresBytes = 1 << 20

// brokenSamples reads the compile test's list of samples that do not
// compile (curate.FailuresFile) from the top of each dataset folder, for
// the pages to mark them. A folder without the file has none.
func brokenSamples(paths []string) (map[string][]string, error) {
	dirs, err := folders(paths)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, d := range dirs {
		f, err := d.FS.Open(curate.FailuresFile)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", d.Name, err)
		}
		fails, err := curate.ReadFailures(io.LimitReader(f, maxFailuresBytes))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", d.Name, err)
		}
		for _, fl := range fails {
			k := web.SampleKey(fl.Repo, fl.Slug, fl.Field)
			out[k] = append(out[k], fl.Message)
		}
	}
	return out, nil
}
