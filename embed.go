package errkb

import (
	"embed"
	"io/fs"
)

// "all:" keeps each project's _source.json, which a plain pattern skips.
//
//go:embed all:dataset
var embedded embed.FS

// Embedded is the dataset built into the binary, rooted at dataset/.
func Embedded() Folder {
	sub, err := fs.Sub(embedded, "dataset")
	if err != nil {
		panic(err) // the directive above guarantees the folder exists
	}
	return Folder{Name: "dataset", FS: sub}
}

// The search index and lookup tables of the embedded dataset, written by
// `make prebuilt` (go run ./cmd/prebuild). "all:" keeps bleve's files
// whatever their names.
//
//go:embed all:prebuilt
var prebuilt embed.FS

// EmbeddedIndex is the prebuilt index of the embedded dataset: the files
// of a persisted index folder (see index.OpenSeeded). It is only used when
// its recorded key matches the one computed for the dataset being served,
// so a stale copy costs a build, never a wrong answer.
func EmbeddedIndex() fs.FS {
	sub, err := fs.Sub(prebuilt, "prebuilt")
	if err != nil {
		panic(err) // the directive above guarantees the folder exists
	}
	return sub
}
