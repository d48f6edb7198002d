package index

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/safefile"
)

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
		if err := plantSeed(dir, key, seed, log); err != nil {
			log.Warn("prebuilt index not used; building", "err", err)
		}
	}
	return openKeyed(ctx, ds, dir, key, start, log)
}

// SeedKey is the key the prebuilt index in seed was built under.
func SeedKey(seed fs.FS) (string, error) {
	data, err := fs.ReadFile(seed, manifestName)
	if err != nil {
		return "", err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("prebuilt manifest: %w", err)
	}
	return m.Key, nil
}

// plantSeed copies seed into dir under key when it was built for that
// key and dir holds no index for it yet. It copies into a build folder
// first and renames it into place, so a half-copied seed never looks
// usable; Open removes build folders left by a crash.
func plantSeed(dir, key string, seed fs.FS, log *slog.Logger) error {
	final := filepath.Join(dir, key[:32])
	if _, err := os.Stat(filepath.Join(final, manifestName)); err == nil {
		return nil // already there; Open checks and reuses it
	}
	seedKey, err := SeedKey(seed)
	if err != nil {
		return err
	}
	if seedKey != key {
		log.Info("prebuilt index is for another dataset or version", "prebuilt_key", seedKey[:min(16, len(seedKey))], "key", key[:16])
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("index dir: %w", err)
	}
	tmp, err := os.MkdirTemp(dir, buildPrefix+key[:12]+"-")
	if err != nil {
		return fmt.Errorf("index dir: %w", err)
	}
	if err := copyTree(seed, tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.RemoveAll(final); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("remove damaged index: %w", err)
	}
	if err := os.Rename(tmp, final); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("move prebuilt index into place: %w", err)
	}
	log.Info("prebuilt index copied", "dir", final)
	return nil
}

// copyTree copies every regular file of src into the folder dst.
func copyTree(src fs.FS, dst string) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("prebuilt index: %s is not a regular file", p)
		}
		return copyFile(src, p, target)
	})
}

func copyFile(src fs.FS, p, target string) error {
	in, err := src.Open(p)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("prebuilt index: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy prebuilt %s: %w", path.Base(p), err)
	}
	return out.Close()
}

// Compact merges the bleve segments of ds's index persisted in dir into
// one and records the new files in its manifest. Open's builds end so
// (see buildPersisted); an index persisted before them holds as many
// segments as its merges had reached. One segment is the smallest to ship
// (see cmd/prebuild) and the fewest to search.
func Compact(ctx context.Context, ds *errkb.Dataset, dir string) error {
	folder := filepath.Join(dir, Key(ds)[:32])
	data, err := os.ReadFile(filepath.Join(folder, manifestName))
	if err != nil {
		return err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	bdir := filepath.Join(folder, bleveDirName)
	if err := compactBleve(ctx, bdir); err != nil {
		return err
	}
	if m.Files, err = listFiles(bdir); err != nil {
		return err
	}
	for i := range m.Files {
		if m.Files[i].CRC32C, _, err = safefile.FileCRC(filepath.Join(bdir, filepath.FromSlash(m.Files[i].Name))); err != nil {
			return err
		}
	}
	if data, err = json.MarshalIndent(m, "", "  "); err != nil {
		return err
	}
	return safefile.WriteBytes(filepath.Join(folder, manifestName), data)
}

// compactBleve merges the segments of the bleve index in bdir into one
// and waits for scorch to delete the merged-away files, so that the
// folder lists only what the index uses.
func compactBleve(ctx context.Context, bdir string) error {
	if err := mergeSegments(ctx, bdir, true); err != nil {
		return err
	}
	// Scorch deletes merged-away segments in the background, when nothing
	// uses them any more; reopening gives it a fresh chance, with no
	// merge holding them, until one segment is left.
	for range 5 {
		if zaps, _ := filepath.Glob(filepath.Join(bdir, "store", "*.zap")); len(zaps) <= 1 {
			break
		}
		if err := mergeSegments(ctx, bdir, false); err != nil {
			return err
		}
	}
	return nil
}

// oneSegment is scorch's single-segment merge plan with every segment in
// one merge task: with its default of 10 per task, a forced merge of the
// 29 segments a 100,000-record build leaves stopped at two.
var oneSegment = func() *mergeplan.MergePlanOptions {
	o := mergeplan.SingleSegmentMergePlanOptions
	o.SegmentsPerMergeTask = math.MaxInt32
	return &o
}()

// mergeSegments opens the bleve index in bdir, merges its segments into
// one when merge is set, waits up to a second for scorch to delete the
// files no snapshot needs, and closes it.
func mergeSegments(ctx context.Context, bdir string, merge bool) error {
	// Keeping one snapshot lets scorch delete the merged-away segments.
	bi, err := bleve.OpenUsing(bdir, map[string]any{"numSnapshotsToKeep": 1})
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	if merge {
		adv, err := bi.Advanced()
		if err != nil {
			bi.Close()
			return err
		}
		s, ok := adv.(*scorch.Scorch)
		if !ok {
			bi.Close()
			return fmt.Errorf("index is a %T, not scorch", adv)
		}
		if err := s.ForceMerge(ctx, oneSegment); err != nil {
			bi.Close()
			return fmt.Errorf("merge segments: %w", err)
		}
	}
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if zaps, _ := filepath.Glob(filepath.Join(bdir, "store", "*.zap")); len(zaps) <= 1 {
			break
		}
	}
	if err := bi.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}
