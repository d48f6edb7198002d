package index

import (
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
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/searcher"
	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/bleveshim"
	"github.com/errkb/errkb/index/internal/persist"
	"github.com/errkb/errkb/index/internal/tables"
)

// Keeping the index on disk between starts: which index a dataset needs
// (Key), reusing it when a folder holds it intact, building it there
// otherwise. The folder itself (manifest, checksums, atomic moves, seeds)
// is package persist's.

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

// Open returns the index of ds persisted in dir, building and persisting
// it first when dir holds none for ds's key or holds a damaged one. The
// index is opened read-only, so nothing changes its files while serving.
// Indexes of other keys in dir are removed once the new one is in place,
// so one folder holds one index; give each server process its own dir.
func Open(ctx context.Context, ds *errkb.Dataset, dir string, log *slog.Logger) (*Index, error) {
	return OpenSeeded(ctx, ds, dir, nil, log)
}

// OpenSeeded is Open with a prebuilt index to start from: when dir holds
// no index for ds's key and seed (the files of a persisted index folder:
// manifest.json, bleve/, tables.bin) was built under that same key, seed
// is copied into dir instead of building. Copying a few MB takes
// milliseconds where building takes hundreds; the copy is then checked
// against its manifest like any persisted index. A seed for another key
// (a different dataset, mapping or table version) is ignored.
func OpenSeeded(ctx context.Context, ds *errkb.Dataset, dir string, seed fs.FS, log *slog.Logger) (*Index, error) {
	start := time.Now()
	key := Key(ds)
	log.Info("index key", "key", key[:16], "took", time.Since(start).Round(time.Millisecond))
	if seed != nil {
		if err := persist.PlantSeed(dir, key, seed, log); err != nil {
			log.Warn("prebuilt index not used; building", "err", err)
		}
	}
	return openKeyed(ctx, ds, dir, key, start, log)
}

// SeedKey is the key the prebuilt index in seed was built under.
func SeedKey(seed fs.FS) (string, error) { return persist.SeedKey(seed) }

// Compact merges the bleve segments of ds's index persisted in dir into
// one and records the new files in its manifest. Open's builds end so
// (see buildPersisted); an index persisted before them holds as many
// segments as its merges had reached. One segment is the smallest to ship
// (see cmd/prebuild) and the fewest to search.
func Compact(ctx context.Context, ds *errkb.Dataset, dir string) error {
	return persist.Compact(ctx, persist.Folder(dir, Key(ds)))
}

// openKeyed is Open with ds's key already computed, from start.
func openKeyed(ctx context.Context, ds *errkb.Dataset, dir, key string, start time.Time, log *slog.Logger) (*Index, error) {
	searcher.DisjunctionMaxClauseCount = maxClauses
	final := persist.Folder(dir, key)
	ix, err := openPersisted(ds, final, key)
	switch {
	case err == nil:
		log.Info("index reused", "dir", final, "records", ds.Len(), "took", time.Since(start).Round(time.Millisecond))
		persist.RemoveOthers(dir, key[:32], log)
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
	if err := buildPersisted(ctx, ds, dir, key, log); err != nil {
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
	persist.RemoveOthers(dir, key[:32], log)
	return ix, nil
}

// openPersisted opens the index in folder, after checking it is complete,
// for this key and record count, and that no file changed since it was
// built. It returns an error wrapping fs.ErrNotExist when there is none.
func openPersisted(ds *errkb.Dataset, folder, key string) (*Index, error) {
	records := ds.Len()
	m, err := persist.Check(folder, key, records)
	if err != nil {
		return nil, err
	}
	mem, unmap, err := persist.MapTables(folder, m)
	if err != nil {
		return nil, err
	}
	t, err := tables.Read(mem, records)
	if err != nil {
		unmap()
		return nil, err
	}
	persist.ReleasePages(mem)
	bi, err := bleve.OpenUsing(filepath.Join(folder, persist.BleveDir), map[string]any{"read_only": true})
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

// buildPersisted builds the index of key in a fresh folder of dir, which
// persist.Build moves into place only once complete.
func buildPersisted(ctx context.Context, ds *errkb.Dataset, dir, key string, log *slog.Logger) error {
	b, err := persist.NewBuild(dir, key)
	if err != nil {
		return err
	}
	defer b.Abandon()
	bdir := b.BleveDir()
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
		if mergeErr = persist.CompactBleve(ctx, bdir); mergeErr == nil {
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
	if err := b.Finish(a.data, ds.Len()); err != nil {
		return err
	}
	log.Info("index persisted", "dir", b.Folder(), "files", b.Files())
	return nil
}
