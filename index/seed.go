package index

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"

	"github.com/errkb/errkb"
)

// OpenSeeded is Open with a prebuilt index to start from: when dir holds
// no index for ds's key and seed (the files of a persisted index folder:
// manifest.json, bleve/, tables.bin) was built under that same key, seed
// is copied into dir instead of building. Copying a few MB takes
// milliseconds where building takes hundreds; the copy is then checked
// against its manifest like any persisted index. A seed for another key
// (a different dataset, mapping or table version) is ignored.
func OpenSeeded(ctx context.Context, ds *errkb.Dataset, dir string, seed fs.FS, log *slog.Logger) (*Index, error) {
	if seed != nil {
		if err := plantSeed(ds, dir, seed, log); err != nil {
			log.Warn("prebuilt index not used; building", "err", err)
		}
	}
	return Open(ctx, ds, dir, log)
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

// plantSeed copies seed into dir under ds's key when it was built for that
// key and dir holds no index for it yet. It copies into a build folder
// first and renames it into place, so a half-copied seed never looks
// usable; Open removes build folders left by a crash.
func plantSeed(ds *errkb.Dataset, dir string, seed fs.FS, log *slog.Logger) error {
	key := Key(ds)
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
