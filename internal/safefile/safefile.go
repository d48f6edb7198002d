// Package safefile writes files so that a crash leaves either the old file
// or the whole new one, and checks files against the CRC-32C recorded when
// they were written. The persisted index and the dataset snapshot both
// rely on it to never read back a torn or damaged file.
package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC returns the CRC-32C and the size of everything r holds.
func CRC(r io.Reader) (uint32, int64, error) {
	h := crc32.New(castagnoli)
	n, err := io.Copy(h, r)
	return h.Sum32(), n, err
}

// FileCRC is CRC of the file at path.
func FileCRC(path string) (uint32, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sum, n, err := CRC(f)
	if err != nil {
		return 0, 0, fmt.Errorf("read %s: %w", path, err)
	}
	return sum, n, nil
}

// Write writes path through write, buffered: first to a temporary file in
// the same folder, synced to disk, then renamed over path. Readers see the
// old file or the complete new one, never a part.
func Write(path string, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	w := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(w); err != nil {
		tmp.Close()
		return err
	}
	if err := errors.Join(w.Flush(), tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// WriteBytes is Write of data.
func WriteBytes(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
