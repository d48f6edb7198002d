package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteKeepsOldFileOnFailure checks that a failed write leaves the old
// file as it was and no temporary file behind, and that a good one
// replaces it whole with a CRC that FileCRC reads back.
func TestWriteKeepsOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := WriteBytes(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	failed := Write(path, func(w io.Writer) error {
		_, _ = w.Write([]byte("half"))
		return errors.New("disk full")
	})
	if failed == nil {
		t.Fatal("Write hid the writer's error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if err := WriteBytes(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	sum, n, err := FileCRC(path)
	want, _, _ := CRC(bytesReader("new"))
	if err != nil || n != 3 || sum != want {
		t.Errorf("FileCRC = %x, %d, %v; want %x, 3", sum, n, err, want)
	}
}

func bytesReader(s string) io.Reader { return strings.NewReader(s) }
