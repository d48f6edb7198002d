package errkb

import (
	"fmt"
	"io"
	"io/fs"
)

// Limits on what a dataset may hold, each named here and enforced in this
// file (the text caps through the field table's classes: fields.go). A
// dataset may come from anyone, so every size the loader, the index or the
// renderer pays for is capped, and a record over a cap is reported, not
// trimmed.
const (
	// MaxDatasetBytes caps the files of all folders of one Load
	// together: a dataset is held in memory (or, spilled, in the page
	// cache) whole, and 100,000 records take about 450 MB.
	MaxDatasetBytes = 4 << 30
	// MaxFileBytes caps one dataset file and one JSONL line.
	MaxFileBytes = 64 << 20
	// MaxRecordBytes caps one record's JSON.
	MaxRecordBytes = 1 << 20
	// MaxJSONDepth caps the nesting of any field's value. Known fields need
	// 1; unknown ones get room, but not the thousands of levels that make
	// decoders slow or crash them.
	MaxJSONDepth = 32
	// MaxMarkdownBytes caps one Markdown field or list entry: some inputs
	// make goldmark quadratic (64 KiB of "[a](b" takes half a second, 256 KiB
	// eight), and 16 KiB renders in tens of milliseconds at worst.
	MaxMarkdownBytes = 16 << 10
	// MaxCodeBytes caps one code field.
	MaxCodeBytes = 64 << 10
	// MaxTextFieldBytes caps every other known string field, and each
	// string of an element of an array of objects (a call site's path).
	MaxTextFieldBytes = 4 << 10
	// MaxListEntries caps every list and array of objects: solutions,
	// preventionTips, tags, callSites...
	MaxListEntries = 100
	// MaxTagBytes caps one tag.
	MaxTagBytes = 100
)

// maxDatasetBytes is MaxDatasetBytes, lowered by tests.
var maxDatasetBytes int64 = MaxDatasetBytes

// checkDatasetSize reports the folders read so far, up to the one named
// folder, when their files hold more than MaxDatasetBytes together.
func checkDatasetSize(folder string, total int64) Problems {
	if total <= maxDatasetBytes {
		return nil
	}
	return Problems{{Location: Location{File: folder},
		Message: fmt.Sprintf("the dataset's files hold more than %d bytes (%d MiB); a dataset may hold at most %d MiB, so split it or raise the cap", total, total>>20, maxDatasetBytes>>20)}}
}

// readCapped reads one dataset file, refusing anything but a regular file
// of at most MaxFileBytes: a FIFO or device would block or never end, and a
// huge file would exhaust memory before parsing could complain.
func readCapped(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("is not a regular file (%s)", info.Mode().Type())
	}
	if info.Size() > MaxFileBytes {
		return nil, fmt.Errorf("is %d bytes; a dataset file may have at most %d", info.Size(), MaxFileBytes)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("grew past %d bytes while being read", MaxFileBytes)
	}
	return data, nil
}

// tooLarge reports a record over MaxRecordBytes before it is decoded.
func tooLarge(raw []byte, loc Location) Problems {
	if len(raw) <= MaxRecordBytes {
		return nil
	}
	return Problems{{Location: loc, Message: fmt.Sprintf("record is %d bytes; at most %d", len(raw), MaxRecordBytes)}}
}
