package persist

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/blevesearch/mmap-go"

	"github.com/errkb/errkb/internal/safefile"
)

// MapTables maps the tables file of the index in folder read-only, after
// checking its size and CRC-32C against the manifest m, and returns the
// bytes and how to unmap them.
// Mapped, the tables cost no decoding and live in the page cache, which
// the kernel shares and can reclaim, rather than on the heap. The
// checksum is read through the page cache, not the mapping, so checking
// it leaves nothing resident in the process.
func MapTables(folder string, m Manifest) ([]byte, func() error, error) {
	mem, unmap, err := mapFile(filepath.Join(folder, TablesName), m.Tables)
	if err != nil {
		return nil, nil, fmt.Errorf("lookup tables: %w", err)
	}
	return mem, unmap, nil
}

func mapFile(path string, want FileInfo) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if info.Size() != want.Size || want.Size == 0 {
		return nil, nil, fmt.Errorf("%s is %d bytes, want %d", path, info.Size(), want.Size)
	}
	sum, _, err := safefile.FileCRC(path)
	if err != nil {
		return nil, nil, err
	}
	if sum != want.CRC32C {
		return nil, nil, fmt.Errorf("%s is damaged (checksum mismatch)", path)
	}
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", path, err)
	}
	smallPages(m)
	return m, m.Unmap, nil
}
