package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/errkb/errkb/extract/program"
)

// Source is a module ready to load: its folder, where it came from, and
// how the go command must be run on it.
type Source struct {
	Dir    string
	Origin Origin
	// Patterns name the packages to load: "./..." for a module, "std"
	// for the standard library.
	Patterns []string
	// Env is added to the go command's environment (GOTOOLCHAIN for a
	// Go release other than the local one).
	Env []string
	// readOnly is a folder the go command must not write to (the module
	// cache): it is loaded through a temporary copy of its go.mod.
	readOnly bool
}

// Resolve finds SOURCE: a module's root folder, MODULE@VERSION (which the
// go command downloads through the module proxy and checks against the
// checksum database, as `go mod download` does), "std" (the local Go's
// standard library) or "std@goX.Y.Z" (a Go release, from the module
// proxy). repo and ref, when given, override the GitHub repo and the ref
// links point at.
func Resolve(ctx context.Context, src, repo, ref string) (Source, error) {
	var (
		s   Source
		err error
	)
	switch modPath, version, ok := strings.Cut(src, "@"); {
	case src == "std" || ok && modPath == "std":
		s, err = stdSource(ctx, version)
	case ok && !isDir(src):
		s, err = download(ctx, modPath, version)
	default:
		s, err = local(src, ref)
	}
	if err != nil {
		return Source{}, err
	}
	if len(s.Patterns) == 0 {
		s.Patterns = []string{"./..."}
	}
	o := &s.Origin
	if repo == "" && o.Repo == "" {
		repo, o.Subdir = githubRepo(o.Module)
		if repo == "" {
			return Source{}, fmt.Errorf("source %s: cannot tell the GitHub repo of module %s; pass --repo OWNER/NAME", src, o.Module)
		}
	}
	if repo != "" {
		if !repoRE.MatchString(repo) {
			return Source{}, fmt.Errorf("--repo %q: want OWNER/NAME", repo)
		}
		o.Repo = repo
	}
	switch {
	case ref != "":
		o.Ref = ref
	case o.Ref != "":
	case o.Commit != "":
		o.Ref = o.Commit
	case o.Version != "":
		o.Ref = o.Version
		if o.Subdir != "" {
			o.Ref = o.Subdir + "/" + o.Version // a tag of a module in a subfolder
		}
	}
	return s, nil
}

var repoRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$`)

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// githubRepo maps a module path to its GitHub repo and the module's
// folder in it, where the mapping is certain: github.com/OWNER/NAME[/sub],
// and golang.org/x/NAME[/sub], which is github.com/golang/NAME. "" for
// any other host.
func githubRepo(modPath string) (repo, subdir string) {
	parts := strings.Split(modPath, "/")
	if len(parts) < 3 {
		return "", ""
	}
	switch {
	case parts[0] == "github.com":
	case parts[0] == "golang.org" && parts[1] == "x":
		parts[1] = "golang"
	default:
		return "", ""
	}
	rest := parts[3:]
	if n := len(rest); n > 0 {
		if _, major, ok := module.SplitPathVersion("x/" + rest[n-1]); ok && major != "" {
			rest = rest[:n-1] // the /vN of a major version is not a folder
		}
	}
	return parts[1] + "/" + parts[2], strings.Join(rest, "/")
}

// goModDownload is the JSON `go mod download -json` prints.
type goModDownload struct {
	Path, Version, Error, Info, Dir string
	Origin                          *struct{ Hash string }
}

// info is a version's .info file in the module cache.
type info struct {
	Version string
	Time    string
	Origin  *struct{ Hash string }
}

func download(ctx context.Context, modPath, version string) (Source, error) {
	if err := module.CheckPath(modPath); err != nil {
		return Source{}, fmt.Errorf("source %s@%s: %w", modPath, version, err)
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", modPath+"@"+version)
	cmd.Dir = os.TempDir() // outside any module, so no go.mod is read or changed
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var d goModDownload
	if err := json.Unmarshal(out, &d); err != nil || d.Error != "" || runErr != nil {
		msg := strings.TrimSpace(d.Error)
		if msg == "" {
			msg = strings.TrimSpace(stderr.String())
		}
		if msg == "" && runErr != nil {
			msg = runErr.Error()
		}
		return Source{}, fmt.Errorf("download %s@%s: %s", modPath, version, msg)
	}
	o := Origin{Module: d.Path, Version: d.Version}
	if inf, err := readInfo(d.Info); err == nil {
		o.Time = inf.Time
		if inf.Origin != nil {
			o.Commit = inf.Origin.Hash
		}
	}
	if d.Origin != nil && d.Origin.Hash != "" {
		o.Commit = d.Origin.Hash
	}
	if o.Commit == "" && module.IsPseudoVersion(d.Version) {
		o.Commit, _ = module.PseudoVersionRev(d.Version)
	}
	return Source{Dir: d.Dir, Origin: o, readOnly: true}, nil
}

func readInfo(file string) (info, error) {
	var inf info
	data, err := os.ReadFile(file)
	if err == nil {
		err = json.Unmarshal(data, &inf)
	}
	return inf, err
}

// local is a module's folder. When ref is the module's version and the
// module cache holds that version's .info, its time and commit are used,
// so a folder and MODULE@VERSION give the same records; nothing is
// downloaded.
func local(dir, ref string) (Source, error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Source{}, fmt.Errorf("source %s: no such folder (give a module's folder or MODULE@VERSION)", dir)
		}
		return Source{}, fmt.Errorf("source %s: %w", dir, err)
	}
	if !st.IsDir() {
		return Source{}, fmt.Errorf("source %s: not a folder (give a module's folder or MODULE@VERSION)", dir)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		if inGoroot(dir) {
			return Source{}, fmt.Errorf("source %s: a folder of the Go standard library, which is one module: extract std (or std@goX.Y.Z)", dir)
		}
		return Source{}, fmt.Errorf("source %s: no go.mod, so not a module's root folder", dir)
	}
	o := Origin{Module: modfile.ModulePath(gomod)}
	if o.Module == "" {
		return Source{}, fmt.Errorf("source %s: go.mod names no module", dir)
	}
	if o.Module == "std" {
		if !inGoroot(dir) {
			return Source{}, fmt.Errorf("source %s: the standard library of a Go other than the go command's; extract std@goX.Y.Z", dir)
		}
		return stdSource(context.Background(), "")
	}
	if semver.IsValid(ref) {
		if inf, err := cachedInfo(o.Module, ref); err == nil && inf.Version == ref {
			o.Version, o.Time = inf.Version, inf.Time
			if inf.Origin != nil {
				o.Commit = inf.Origin.Hash
			}
			if o.Commit == "" && module.IsPseudoVersion(ref) {
				o.Commit, _ = module.PseudoVersionRev(ref) // as download does
			}
		}
	}
	return Source{Dir: dir, Origin: o, readOnly: inModCache(dir)}, nil
}

// inModCache reports a folder in the module cache, which is read-only.
func inModCache(dir string) bool {
	cache, err := goEnv("GOMODCACHE")
	if err != nil || cache == "" {
		return false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(cache, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// goEnv is one variable of `go env`.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	return strings.TrimSpace(string(out)), err
}

// cachedInfo reads a version's .info from the local module cache.
func cachedInfo(modPath, version string) (info, error) {
	esc, err := module.EscapePath(modPath)
	if err != nil {
		return info{}, err
	}
	escV, err := module.EscapeVersion(version)
	if err != nil {
		return info{}, err
	}
	cache, err := goEnv("GOMODCACHE")
	if err != nil {
		return info{}, err
	}
	return readInfo(filepath.Join(cache, "cache", "download", filepath.FromSlash(esc), "@v", escV+".info"))
}

// FolderTime is a folder source's time when its version has none: the
// commit time of the git checkout it is in, else the newest modification
// time of the Go files loaded from it. Both are read from the source as it
// is on disk, so extracting the same folder again gives the same bytes.
func FolderTime(ctx context.Context, s Source, prog *program.Program) string {
	cmd := exec.CommandContext(ctx, "git", "-C", s.Dir, "log", "-1", "--format=%cI")
	if out, err := cmd.Output(); err == nil {
		if t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out))); err == nil {
			return t.UTC().Format(time.RFC3339)
		}
	}
	var newest time.Time
	for _, p := range prog.Packages {
		for _, f := range p.GoFiles {
			if st, err := os.Stat(f); err == nil && st.ModTime().After(newest) {
				newest = st.ModTime()
			}
		}
	}
	if newest.IsZero() {
		return ""
	}
	return newest.UTC().Format(time.RFC3339)
}
