package persist

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
)

// SeedKey is the key the prebuilt index in seed was built under.
func SeedKey(seed fs.FS) (string, error) {
	data, err := fs.ReadFile(seed, ManifestName)
	if err != nil {
		return "", err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("prebuilt manifest: %w", err)
	}
	return m.Key, nil
}

// PlantSeed copies seed into dir under key when it was built for that
// key and dir holds no index for it yet. It copies into a build folder
// first and renames it into place, so a half-copied seed never looks
// usable; RemoveOthers removes build folders left by a crash.
func PlantSeed(dir, key string, seed fs.FS, log *slog.Logger) error {
	final := Folder(dir, key)
	if _, err := os.Stat(filepath.Join(final, ManifestName)); err == nil {
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
