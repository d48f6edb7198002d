package persist

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/errkb/errkb/internal/safefile"
)

// Files of a persisted index inside its folder, {dir}/{key}/ (see
// Folder).
const (
	ManifestName = "manifest.json"
	BleveDir     = "bleve"
	TablesName   = "tables.bin"
	buildPrefix  = ".build-"
)

// Folder is the folder in dir of the index of key.
func Folder(dir, key string) string { return filepath.Join(dir, key[:32]) }

// Manifest is written last, once the index is complete; an index without
// one, or whose files no longer match it, is treated as damaged.
type Manifest struct {
	Key     string     `json:"key"`
	Records int        `json:"records"`
	Built   time.Time  `json:"built"`
	Files   []FileInfo `json:"files"`  // the bleve folder's
	Tables  FileInfo   `json:"tables"` // the lookup tables, beside it
}

// FileInfo is one file of a persisted index: its size and checksum.
type FileInfo struct {
	Name   string `json:"name"` // slash-separated, relative to the bleve folder
	Size   int64  `json:"size"`
	CRC32C uint32 `json:"crc32c"`
}

// ReadManifest reads the manifest of the index in folder. Its error wraps
// fs.ErrNotExist when the folder holds no complete index.
func ReadManifest(folder string) (Manifest, error) {
	var m Manifest
	data, err := os.ReadFile(filepath.Join(folder, ManifestName))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("manifest: %w", err)
	}
	return m, nil
}

// Check returns the manifest of the index in folder after checking it is
// complete, for this key and number of records, and that no file of its
// bleve folder changed since it was built (the tables are checked when
// they are mapped: see MapTables). Its error wraps fs.ErrNotExist when
// the folder holds no complete index.
func Check(folder, key string, records int) (Manifest, error) {
	m, err := ReadManifest(folder)
	if err != nil {
		return m, err
	}
	if m.Key != key || m.Records != records {
		return m, fmt.Errorf("manifest is for key %.16s with %d records, want %.16s with %d", m.Key, m.Records, key, records)
	}
	bdir := filepath.Join(folder, BleveDir)
	files, err := listFiles(bdir)
	if err != nil {
		return m, err
	}
	if !slices.EqualFunc(files, m.Files, func(a, b FileInfo) bool { return a.Name == b.Name && a.Size == b.Size }) {
		return m, errors.New("index files differ from the manifest")
	}
	if err := checkSums(bdir, m.Files); err != nil {
		return m, err
	}
	return m, nil
}

// sumFiles lists the files of the bleve folder of the index in folder,
// with their checksums, for its manifest.
func sumFiles(folder string) ([]FileInfo, error) {
	bdir := filepath.Join(folder, BleveDir)
	files, err := listFiles(bdir)
	if err != nil {
		return nil, err
	}
	for i := range files {
		if files[i].CRC32C, _, err = safefile.FileCRC(filepath.Join(bdir, filepath.FromSlash(files[i].Name))); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// listFiles lists the regular files below dir, sorted by name.
func listFiles(dir string) ([]FileInfo, error) {
	var files []FileInfo
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, FileInfo{Name: filepath.ToSlash(rel), Size: info.Size()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b FileInfo) int { return strings.Compare(a.Name, b.Name) })
	return files, nil
}

// checkSums compares every file's CRC-32C with the manifest. It reads the
// whole index (a few hundred MB at 100,000 records) at several GB/s; that
// is the price of never serving from a corrupted segment, which bleve
// would only notice, if at all, in the middle of a search.
func checkSums(dir string, files []FileInfo) error {
	for _, f := range files {
		sum, _, err := safefile.FileCRC(filepath.Join(dir, filepath.FromSlash(f.Name)))
		if err != nil {
			return err
		}
		if sum != f.CRC32C {
			return fmt.Errorf("index file %s is damaged (checksum mismatch)", f.Name)
		}
	}
	return nil
}

// RemoveOthers deletes the indexes of other keys and abandoned builds in
// dir but keep. It only touches names this package creates.
func RemoveOthers(dir, keep string, log *slog.Logger) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if name == keep || !e.IsDir() || !(isKeyName(name) || strings.HasPrefix(name, buildPrefix)) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			log.Warn("could not remove an old index", "dir", name, "err", err)
			continue
		}
		log.Info("removed an old index", "dir", name)
	}
}

func isKeyName(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
