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
func Embedded() Source {
	sub, err := fs.Sub(embedded, "dataset")
	if err != nil {
		panic(err) // the directive above guarantees the folder exists
	}
	return Source{Name: "dataset", FS: sub}
}
