package persist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/errkb/errkb/internal/safefile"
)

// A Build is a fresh folder beside the final one in which a new index is
// written. It is renamed into place only once complete (Finish), so a
// crash mid-build leaves no folder that looks usable; RemoveOthers
// removes what a crash left.
type Build struct {
	tmp, final, key string
	files           int // in the bleve folder, once finished
	done            bool
}

// NewBuild makes the folder in dir in which the index of key is built.
func NewBuild(dir, key string) (*Build, error) {
	tmp, err := os.MkdirTemp(dir, buildPrefix+key[:12]+"-")
	if err != nil {
		return nil, fmt.Errorf("index dir: %w", err)
	}
	return &Build{tmp: tmp, final: Folder(dir, key), key: key}, nil
}

// BleveDir is where the build's bleve index goes.
func (b *Build) BleveDir() string { return filepath.Join(b.tmp, BleveDir) }

// Finish writes the lookup tables beside the bleve index and the
// manifest of both, for records records, and moves the folder into place,
// replacing a damaged index of the same key.
func (b *Build) Finish(tables []byte, records int) error {
	if err := safefile.WriteBytes(filepath.Join(b.tmp, TablesName), tables); err != nil {
		return fmt.Errorf("write lookup tables: %w", err)
	}
	sum, _, err := safefile.CRC(bytes.NewReader(tables))
	if err != nil {
		return err
	}
	tinfo := FileInfo{Name: TablesName, Size: int64(len(tables)), CRC32C: sum}
	files, err := sumFiles(b.tmp)
	if err != nil {
		return err
	}
	m := Manifest{Key: b.key, Records: records, Built: time.Now().UTC(), Files: files, Tables: tinfo}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.WriteBytes(filepath.Join(b.tmp, ManifestName), data); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := os.RemoveAll(b.final); err != nil {
		return fmt.Errorf("remove damaged index: %w", err)
	}
	if err := os.Rename(b.tmp, b.final); err != nil {
		return fmt.Errorf("move index into place: %w", err)
	}
	b.files, b.done = len(files), true
	return nil
}

// Folder is where the index is once finished.
func (b *Build) Folder() string { return b.final }

// Files is how many files the finished index's bleve folder holds.
func (b *Build) Files() int { return b.files }

// Abandon removes the folder of a build that did not finish; after
// Finish it does nothing.
func (b *Build) Abandon() {
	if !b.done {
		os.RemoveAll(b.tmp)
	}
}
