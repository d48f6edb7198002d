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
// whatever their names. The records' snapshot beside them is embedded
// as strings (see EmbeddedSnapshot), so it is named file by file here.
//
//go:embed prebuilt/manifest.json prebuilt/tables.bin all:prebuilt/bleve
var prebuilt embed.FS

// The embedded dataset's records as internal/store saves them, written by
// `make prebuilt` beside the index.
var (
	//go:embed prebuilt/records.idx
	snapshotIndex string
	//go:embed prebuilt/records.bin
	snapshotData string
)

// EmbeddedSnapshot is the embedded dataset's records saved by
// internal/store (SaveShipped): its record table and its record bytes.
// They are strings in the binary's read-only data, so reading the
// records from them copies no text and parses no JSON. internal/store
// uses them only when the embedded files hash to what they were made of.
func EmbeddedSnapshot() (index, data string) { return snapshotIndex, snapshotData }

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
