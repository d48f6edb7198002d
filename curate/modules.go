package curate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Modules reads files of module versions from the module cache, asking the
// go command to download a version the cache lacks (through GOPROXY,
// checksums verified against GOSUMDB as usual).
type Modules struct {
	mu    sync.Mutex
	dirs  map[string]string // module@version -> directory
	lines map[string][]string
}

// NewModules returns an empty reader.
func NewModules() *Modules {
	return &Modules{dirs: map[string]string{}, lines: map[string][]string{}}
}

// Dir returns the directory holding module at version, downloading it
// when needed.
func (m *Modules) Dir(ctx context.Context, module, version string) (string, error) {
	key := module + "@" + version
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.dirs[key]; ok {
		return d, nil
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", key)
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", key, info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w: %s", key, err, strings.TrimSpace(stderr.String()))
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no directory in its answer", key)
	}
	m.dirs[key] = info.Dir
	return info.Dir, nil
}

// File returns the lines of a file of module at version.
func (m *Modules) File(ctx context.Context, module, version, path string) ([]string, error) {
	dir, err := m.Dir(ctx, module, version)
	if err != nil {
		return nil, err
	}
	key := module + "@" + version + "/" + path
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.lines[key]; ok {
		return l, nil
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %w", module, version, err)
	}
	l := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	m.lines[key] = l
	return l, nil
}
