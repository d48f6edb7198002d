package program

import (
	"go/token"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Origin is where a module's source lives: the GitHub repo and ref that
// links point at, and the version facts a dataset records about it.
type Origin struct {
	Repo    string // OWNER/NAME on GitHub
	Subdir  string // the module's folder in the repo: "" at its root, "src" for the standard library
	Ref     string // what links point at: the commit when known, else a tag; "" for no links
	Commit  string // the commit, when known
	Time    string // RFC 3339 time of the commit or version, when known
	Module  string // module path ("std" for the standard library)
	Version string // module version (a Go release, go1.26.8, for the standard library), when known
}

// RepoPath is a file's path in the repo, from its path in the module.
func (o Origin) RepoPath(file string) string { return path.Join(o.Subdir, file) }

// LineURL links to one line of a module file at o.Ref; "" when there is
// no ref or repo, so nothing links to a guess.
func (o Origin) LineURL(file string, line int) string {
	if o.Repo == "" || o.Ref == "" || file == "" || line <= 0 {
		return ""
	}
	return "https://github.com/" + o.Repo + "/blob/" + o.Ref + "/" + o.RepoPath(file) + "#L" + strconv.Itoa(line)
}

// RangeURL links to lines start to end of a module file at o.Ref.
func (o Origin) RangeURL(file string, start, end int) string {
	u := o.LineURL(file, start)
	if u == "" || end <= start {
		return u
	}
	return u + "-L" + strconv.Itoa(end)
}

// Where is the provenance of a derived fact: the file (slash-separated,
// relative to the module's root), the line, and a link to that line at
// the pinned ref. Every fact extract derives from code carries one; a
// fact whose position is outside the module (a dependency, generated
// code) has none and is not stated.
type Where struct {
	File string
	Line int
	URL  string // "" when the origin has no ref
}

// Where is the provenance of pos: its file relative to the module's
// root, its line, and the link to that line. ok is false for a position
// outside the module. A file that cgo rewrote is placed by its //line
// comments, in the file the module holds.
func (p *Program) Where(pos token.Pos) (Where, bool) {
	if !pos.IsValid() {
		return Where{}, false
	}
	for _, adjusted := range []bool{false, true} {
		pp := p.Fset.PositionFor(pos, adjusted)
		if rel, ok := p.Rel(pp.Filename); ok {
			return Where{File: rel, Line: pp.Line, URL: p.Origin.LineURL(rel, pp.Line)}, true
		}
	}
	return Where{}, false
}

// Rel is a file's path relative to the module's root, slash-separated;
// ok is false for a file outside it.
func (p *Program) Rel(filename string) (string, bool) {
	if !filepath.IsAbs(filename) || !p.inModule(filename) {
		return "", false
	}
	rel, _ := filepath.Rel(p.root, filename)
	return filepath.ToSlash(rel), true
}

// inModule reports a file below the module's root.
func (p *Program) inModule(filename string) bool {
	rel, err := filepath.Rel(p.root, filename)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
