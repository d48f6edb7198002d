package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/searcher"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/bleveshim"
	"github.com/errkb/errkb/index/internal/tables"
	"github.com/errkb/errkb/internal/safefile"
)

// formatVersion names how records become index documents. Bump it when
// document() or the analysis changes in a way the mapping's JSON does not
// show; Key also samples document() itself, as a safety net.
const formatVersion = 2

// Key identifies the index that ds needs: the dataset's content, the
// mapping, and how records are turned into documents. A persisted index is
// reused only under the same key, so a changed dataset or mapping is
// always rebuilt, never served stale.
func Key(ds *errkb.Dataset) string {
	h := sha256.New()
	fmt.Fprintf(h, "errkb index format %d tables %d\ndataset %s\n", formatVersion, tables.Version, ds.Hash())
	m, err := json.Marshal(newMapping())
	if err != nil {
		panic(err) // the mapping is built in code; it always encodes
	}
	h.Write(m)
	writeDocFingerprint(h, ds)
	return hex.EncodeToString(h.Sum(nil))
}

// writeDocFingerprint hashes the documents of a sample of records, so a
// change to document() or to the normalizers it calls changes the key even
// if nobody remembered to bump formatVersion.
func writeDocFingerprint(w io.Writer, ds *errkb.Dataset) {
	const samples = 64
	n := ds.Len()
	for i := 0; i < samples && i < n; i++ {
		doc := document(ds.Records[i*n/min(n, samples)])
		keys := make([]string, 0, len(doc))
		for k := range doc {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(w, "%s=%q\n", k, doc[k])
		}
	}
}

// Files of a persisted index inside its folder, {dir}/{key}/.
const (
	manifestName = "manifest.json"
	bleveDirName = "bleve"
	tablesName   = "tables.bin"
	buildPrefix  = ".build-"
)

// manifest is written last, once the index is complete; an index without
// one, or whose files no longer match it, is treated as damaged.
type manifest struct {
	Key     string     `json:"key"`
	Records int        `json:"records"`
	Built   time.Time  `json:"built"`
	Files   []fileInfo `json:"files"`  // the bleve folder's
	Tables  fileInfo   `json:"tables"` // the lookup tables, beside it
}

type fileInfo struct {
	Name   string `json:"name"` // slash-separated, relative to the bleve folder
	Size   int64  `json:"size"`
	CRC32C uint32 `json:"crc32c"`
}

// Open returns the index of ds persisted in dir, building and persisting
// it first when dir holds none for ds's key or holds a damaged one. The
// index is opened read-only, so nothing changes its files while serving.
// Indexes of other keys in dir are removed once the new one is in place,
// so one folder holds one index; give each server process its own dir.
func Open(ctx context.Context, ds *errkb.Dataset, dir string, log *slog.Logger) (*Index, error) {
	return OpenSeeded(ctx, ds, dir, nil, log)
}

// openKeyed is Open with ds's key already computed, from start.
func openKeyed(ctx context.Context, ds *errkb.Dataset, dir, key string, start time.Time, log *slog.Logger) (*Index, error) {
	searcher.DisjunctionMaxClauseCount = maxClauses
	final := filepath.Join(dir, key[:32])
	ix, err := openPersisted(ds, final, key)
	switch {
	case err == nil:
		log.Info("index reused", "dir", final, "records", ds.Len(), "took", time.Since(start).Round(time.Millisecond))
		removeOthers(dir, key[:32], log)
		// Loading and keying the dataset read some records' text (see
		// internal/store); it need not stay resident.
		ds.ReleasePages()
		return ix, nil
	case errors.Is(err, fs.ErrNotExist):
		log.Info("no index for this dataset yet; building", "dir", final)
	default:
		log.Warn("persisted index unusable; rebuilding", "dir", final, "err", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index dir: %w", err)
	}
	if err := buildPersisted(ctx, ds, dir, final, key, log); err != nil {
		return nil, err
	}
	// The build leaves hundreds of MB of garbage, which the collector,
	// its goal set during the build, may keep until traffic makes it
	// collect: at 100,000 records a first start was ready with 687-798 MiB
	// resident without this, 278 MiB with it. Return it before serving.
	debug.FreeOSMemory()
	if ix, err = openPersisted(ds, final, key); err != nil {
		return nil, fmt.Errorf("reopen the index just built: %w", err)
	}
	removeOthers(dir, key[:32], log)
	return ix, nil
}

// openPersisted opens the index in folder, after checking it is complete,
// for this key and record count, and that no file changed since it was
// built. It returns an error wrapping fs.ErrNotExist when there is none.
func openPersisted(ds *errkb.Dataset, folder, key string) (*Index, error) {
	records := ds.Len()
	data, err := os.ReadFile(filepath.Join(folder, manifestName))
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	if m.Key != key || m.Records != records {
		return nil, fmt.Errorf("manifest is for key %.16s with %d records, want %.16s with %d", m.Key, m.Records, key, records)
	}
	bdir := filepath.Join(folder, bleveDirName)
	files, err := listFiles(bdir)
	if err != nil {
		return nil, err
	}
	if !slices.EqualFunc(files, m.Files, func(a, b fileInfo) bool { return a.Name == b.Name && a.Size == b.Size }) {
		return nil, errors.New("index files differ from the manifest")
	}
	if err := checkSums(bdir, m.Files); err != nil {
		return nil, err
	}
	mem, unmap, err := mapFile(filepath.Join(folder, tablesName), m.Tables)
	if err != nil {
		return nil, fmt.Errorf("lookup tables: %w", err)
	}
	t, err := tables.Read(mem, records)
	if err != nil {
		unmap()
		return nil, err
	}
	releasePages(mem)
	bi, err := bleve.OpenUsing(bdir, map[string]any{"read_only": true})
	if err != nil {
		unmap()
		return nil, fmt.Errorf("open index: %w", err)
	}
	if n, err := bi.DocCount(); err != nil || n != uint64(records) {
		bi.Close()
		unmap()
		return nil, fmt.Errorf("index holds %d documents, want %d (%v)", n, records, err)
	}
	return newIndex(ds, bi, t, unmap), nil
}

// buildPersisted builds the index in a fresh folder next to final and
// renames it into place only once complete, so a crash mid-build leaves
// no folder that looks usable.
func buildPersisted(ctx context.Context, ds *errkb.Dataset, dir, final, key string, log *slog.Logger) error {
	tmp, err := os.MkdirTemp(dir, buildPrefix+key[:12]+"-")
	if err != nil {
		return fmt.Errorf("index dir: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	bdir := filepath.Join(tmp, bleveDirName)
	defer buildGC(ds.Len())()
	writes, config, forget := bleveshim.NewDiskWrites(bdir)
	defer forget()
	bi, err := bleve.NewUsing(bdir, newMapping(), scorch.Name, scorch.Name, config)
	if err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	parts, err := indexRecords(ctx, bi, ds, writes, log)
	if err != nil {
		bi.Close()
		return err
	}
	// bleve finishes its merges and writes its last segments on close,
	// mostly on one core; the tables are laid out meanwhile on another.
	type assembled struct {
		data []byte
		err  error
	}
	done := make(chan assembled, 1)
	go func() {
		data, err := parts.assemble(log)
		done <- assembled{data, err}
	}()
	closeErr := bi.Close()
	var mergeErr error
	if closeErr == nil {
		// One segment instead of the build's dozens (29 at 100,000
		// records): a query looks each of its words up once rather than
		// once a segment, and bleve's relevance walks one posting list a
		// term. About 2 s at 100,000 records, while the tables are laid
		// out; see BENCHMARKS.md.
		merging := time.Now()
		if mergeErr = compactBleve(ctx, bdir); mergeErr == nil {
			log.Info("index merged into one segment", "took", time.Since(merging).Round(time.Millisecond))
		}
	}
	a := <-done
	if closeErr != nil {
		return fmt.Errorf("close index: %w", closeErr)
	}
	if mergeErr != nil {
		return fmt.Errorf("compact index: %w", mergeErr)
	}
	if a.err != nil {
		return a.err
	}
	tables := a.data
	if err := safefile.WriteBytes(filepath.Join(tmp, tablesName), tables); err != nil {
		return fmt.Errorf("write lookup tables: %w", err)
	}
	sum, _, err := safefile.CRC(bytes.NewReader(tables))
	if err != nil {
		return err
	}
	tinfo := fileInfo{Name: tablesName, Size: int64(len(tables)), CRC32C: sum}
	files, err := listFiles(bdir)
	if err != nil {
		return err
	}
	for i := range files {
		if files[i].CRC32C, _, err = safefile.FileCRC(filepath.Join(bdir, files[i].Name)); err != nil {
			return err
		}
	}
	m := manifest{Key: key, Records: ds.Len(), Built: time.Now().UTC(), Files: files, Tables: tinfo}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.WriteBytes(filepath.Join(tmp, manifestName), data); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	if err := os.RemoveAll(final); err != nil {
		return fmt.Errorf("remove damaged index: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fmt.Errorf("move index into place: %w", err)
	}
	ok = true
	log.Info("index persisted", "dir", final, "files", len(files))
	return nil
}

// listFiles lists the regular files below dir, sorted by name.
func listFiles(dir string) ([]fileInfo, error) {
	var files []fileInfo
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
		files = append(files, fileInfo{Name: filepath.ToSlash(rel), Size: info.Size()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(files, func(a, b fileInfo) int { return strings.Compare(a.Name, b.Name) })
	return files, nil
}

// checkSums compares every file's CRC-32C with the manifest. It reads the
// whole index (a few hundred MB at 100,000 records) at several GB/s; that
// is the price of never serving from a corrupted segment, which bleve
// would only notice, if at all, in the middle of a search.
func checkSums(dir string, files []fileInfo) error {
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

// removeOthers deletes the indexes of other keys and abandoned builds in
// dir. It only touches names this package creates.
func removeOthers(dir, keep string, log *slog.Logger) {
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
