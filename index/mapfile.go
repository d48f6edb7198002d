package index

import (
	"errors"
	"fmt"
	"hash/crc32"
	"os"

	"github.com/blevesearch/mmap-go"
)

// mapFile maps the file at path read-only after checking its size and
// CRC-32C against want, and returns the bytes and how to unmap them.
// Mapped, the tables cost no decoding and live in the page cache, which
// the kernel shares and can reclaim, rather than on the heap.
func mapFile(path string, want fileInfo) ([]byte, func() error, error) {
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
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", path, err)
	}
	if crc32.Checksum(m, castagnoli) != want.CRC32C {
		m.Unmap()
		return nil, nil, errors.New("the lookup tables file is damaged (checksum mismatch)")
	}
	return m, m.Unmap, nil
}
