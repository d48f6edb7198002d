package extract

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/errkb/errkb/extract/program"
)

// Origin is where a module's source lives, for links, ids and provenance.
type Origin = program.Origin

// Where is the provenance every derived fact carries: file, line, link.
type Where = program.Where

// LoadOptions choose what of a source is loaded.
type LoadOptions struct {
	Tags     []string // build tags, added to the default build constraints
	Tests    bool     // test files and scaffolding packages too
	Progress func(msg string)
}

// Load parses and type-checks the source's packages. A module in the
// read-only module cache is loaded through a temporary copy of its go.mod
// and go.sum (-modfile), so that the go command can record the checksums
// of dependencies it downloads without writing into the cache.
func Load(ctx context.Context, s Source, o LoadOptions) (*program.Program, error) {
	cfg := program.Config{Dir: s.Dir, Patterns: s.Patterns, Tags: o.Tags, Tests: o.Tests,
		Env: s.Env, Origin: s.Origin, Progress: o.Progress}
	if s.readOnly && s.Origin.Module != "std" {
		tmp, err := os.MkdirTemp("", "errkb-modfile-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if err := copyModFiles(s.Dir, tmp); err != nil {
			return nil, fmt.Errorf("source %s: %w", s.Dir, err)
		}
		cfg.BuildFlags = []string{"-modfile=" + filepath.Join(tmp, "go.mod"), "-mod=mod"}
		cfg.Env = append(cfg.Env, "GOWORK=off")
	}
	prog, err := program.Load(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", s.Dir, err)
	}
	if len(prog.Packages) == 0 {
		return nil, fmt.Errorf("source %s: %w (no package outside tests and examples builds here; --include-tests, --tags?)", s.Dir, ErrNoGoCode)
	}
	return prog, nil
}

func copyModFiles(dir, tmp string) error {
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) && name == "go.sum" {
			continue // a module without dependencies has none
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
