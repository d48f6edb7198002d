package extract

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract/program"
)

// SnippetRadius is how many lines a snippet shows each side of the
// definition: 15 lines in all.
const SnippetRadius = 7

// Records turns the errors of one module into records. root is the module
// on disk, for snippets. The result is sorted by slug and depends only on
// the source and o.
func Records(errs []Error, root string, o Origin) ([]errkb.Record, error) {
	slugs := assignSlugs(errs)
	ids := make(map[string]string, len(errs))
	for _, e := range errs {
		ids[e.Key()] = recordID(o.Repo, e.Key())
	}
	wrappedBy := map[string][]string{}
	for _, e := range errs {
		for _, k := range e.Wraps {
			wrappedBy[k] = append(wrappedBy[k], ids[e.Key()])
		}
	}
	byKey := make(map[string]*Error, len(errs))
	for i := range errs {
		byKey[errs[i].Key()] = &errs[i]
	}
	files := fileCache{root: root, lines: map[string][]string{}}
	var out []errkb.Record
	for i := range errs {
		e := &errs[i]
		r, err := record(e, slugs[i], o, &files)
		r.TypeGuard = typeGuard(e, byKey)
		applySurface(&r, e)
		if err != nil {
			return nil, err
		}
		r.ID = ids[e.Key()]
		for _, k := range e.Wraps {
			if id, ok := ids[k]; ok {
				r.Wraps = append(r.Wraps, id)
			}
		}
		r.WrappedBy = wrappedBy[e.Key()]
		slices.Sort(r.Wraps)
		slices.Sort(r.WrappedBy)
		r.WrappedBy = slices.Compact(r.WrappedBy)
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b errkb.Record) int { return strings.Compare(a.Slug, b.Slug) })
	return out, nil
}

// recordID is stable across versions: the repo and the error's key.
func recordID(repo, key string) string {
	sum := sha256.Sum256([]byte(repo + "\n" + key))
	return hex.EncodeToString(sum[:8])
}

func record(e *Error, slug string, o Origin, files *fileCache) (errkb.Record, error) {
	repoPath := o.RepoPath(e.File)
	lines, err := files.get(e.File)
	if err != nil {
		return errkb.Record{}, err
	}
	start := max(1, e.Line-SnippetRadius)
	end := min(len(lines), e.Line+SnippetRadius)
	if sp := e.Span; sp[0] >= 1 && sp[0] <= e.Line && sp[1] >= e.Line && sp[1] <= len(lines) {
		start, end = sp[0], min(sp[1], sp[0]+2*SnippetRadius+10)
	}
	for end > e.Line && strings.TrimSpace(lines[end-1]) == "" {
		end-- // a snippet ends on code: a trailing blank line would read as a missing one
	}
	for start < e.Line && strings.TrimSpace(lines[start-1]) == "" {
		start++
	}
	r := errkb.Record{
		Repo:            o.Repo,
		Slug:            slug,
		ErrorCode:       ErrorCode(e),
		QualifiedName:   QualifiedName(e),
		Internal:        internal(e, o.Module),
		Surface:         e.Surface,
		ErrorMessage:    e.Message,
		MessagePattern:  e.Message,
		ErrorType:       string(e.Kind),
		ErrorClass:      errorClass(e),
		Severity:        "error",
		FilePath:        repoPath,
		LineNumber:      e.Line,
		SourceCode:      strings.Join(lines[start-1:end], "\n"),
		SourceCodeStart: start,
		SourceCodeEnd:   end,
		GithubURL:       o.RangeURL(e.File, start, end),
		Documentation:   e.Doc,
		Tags:            tags(e, o.Module),
		AnalyzedSha:     o.Commit,
		AnalyzedAt:      o.Time,
		SchemaVersion:   2,
		GoPackage:       e.Package,
	}
	// The code earlier versions derived is kept as an alias, so links and
	// scripts that used it still resolve. Log lines and protocol strings
	// were never records before: they have no earlier code.
	if old := DerivedCode(e, slug); old != r.ErrorCode && e.Kind != Log && e.Kind != Protocol {
		r.Aliases = []string{old}
	}
	if e.HTTPStatus > 0 {
		r.HTTPStatus = new(e.HTTPStatus)
	}
	if e.Code != nil {
		r.NumericCode = new(e.Code.Value)
	}
	for _, s := range e.Sites {
		r.CallSites = append(r.CallSites, errkb.CallSite{FilePath: o.RepoPath(s.File), LineNumber: s.Line, Function: s.Func,
			GithubURL: o.LineURL(s.File, s.Line)})
	}
	for _, c := range e.Closes {
		r.Closes = append(r.Closes, errkb.Closing{Call: c.Call, Function: c.Func, FilePath: o.RepoPath(c.File), LineNumber: c.Line,
			GithubURL: o.LineURL(c.File, c.Line)})
	}
	return r, nil
}

// ErrorCode is the name the code gives the error: the sentinel's, the
// error type's or the table entry's constant (ErrNoResponders,
// JSStreamNotFoundErr), as written, so a reader can find it with grep.
// An error made inside a function has no name of its own: "".
func ErrorCode(e *Error) string { return e.Name }

// QualifiedName is ErrorCode with its package's name in front
// (nats.ErrNoResponders, server.JSStreamNotFoundErr), or "": the name a
// reader tells the same identifier of two packages apart by.
func QualifiedName(e *Error) string {
	if e.Name == "" {
		return ""
	}
	return e.PkgName + "." + e.Name
}

// DerivedCode is the code earlier versions of errkb made up for an error,
// kept as an alias so that links and lookups with it keep working: the
// code constant an error carries (JSErrCodeStreamNotFound), or for a
// table entry its constant without the Err/ErrF suffix in capitals
// (JSConsumerOfflineErr: JS_CONSUMER_OFFLINE). Otherwise the identifier in
// capitals (ErrFrameTooLarge: ERR_FRAME_TOO_LARGE), and for an error made
// inside a function its slug (PROCESS_CONNECT_INVALID_CLIENT_PROTOCOL).
func DerivedCode(e *Error, slug string) string {
	switch {
	case e.Kind == API:
		return screaming(TrimErrSuffix(e.Name))
	case e.Code != nil:
		return e.Code.Name
	case e.Name != "":
		return screaming(e.Name)
	}
	return strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(slug))
}

// TrimErrSuffix drops errors.json's "Err" or "ErrF" (or bare "F" of a
// format) from a constant's name.
func TrimErrSuffix(name string) string {
	for _, suf := range []string{"ErrF", "Err", "F"} {
		if rest, ok := strings.CutSuffix(name, suf); ok && rest != "" {
			return rest
		}
	}
	return name
}

func errorClass(e *Error) string {
	if e.Kind == Call {
		return e.PkgName + "." + e.Func
	}
	return e.PkgName + "." + e.Name
}

// tags are the package's folders within the module, or its name for the
// module's root package. A standard library package's path is its folder.
func tags(e *Error, module string) []string {
	rel := e.Package
	if module != "std" {
		rel = strings.TrimPrefix(strings.TrimPrefix(e.Package, module), "/")
	}
	var out []string
	if rel == "" {
		out = []string{strings.ToLower(e.PkgName)}
	} else {
		for _, part := range strings.Split(rel, "/") {
			out = append(out, strings.ToLower(part))
		}
	}
	if e.Kind == API {
		out = append(out, "jetstream")
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// assignSlugs gives each error a slug unique in its project: from its
// code or identifier, and for an error made inside a function from the
// message's first six words. Errors that would share a slug get a longer
// one: more of the message, then the function's name in front, then the
// package's, then a number.
func assignSlugs(errs []Error) []string {
	// Log lines and protocol strings take their slugs after every other
	// error, around the slugs already taken: a log line that repeats an
	// error's message must not move that error's page.
	var first, later []int
	for i := range errs {
		if errs[i].Kind == Log || errs[i].Kind == Protocol {
			later = append(later, i)
		} else {
			first = append(first, i)
		}
	}
	out := make([]string, len(errs))
	used := map[string]bool{}
	for _, group := range [][]int{first, later} {
		slugGroup(errs, group, used, out)
	}
	return out
}

// slugGroup gives each error of group the shortest of its candidates that
// no other error of the group shares, then numbers what is still shared,
// skipping slugs in used, in key order.
func slugGroup(errs []Error, group []int, used map[string]bool, out []string) {
	cands := make(map[int][]string, len(group))
	level := make(map[int]int, len(group))
	for _, i := range group {
		cands[i] = slugCandidates(&errs[i])
	}
	slug := func(i int) string { return cands[i][level[i]] }
	for changed := true; changed; {
		changed = false
		count := map[string]int{}
		for _, i := range group {
			count[slug(i)]++
		}
		for _, i := range group {
			if count[slug(i)] > 1 && level[i] < len(cands[i])-1 {
				level[i]++
				changed = true
			}
		}
	}
	order := slices.Clone(group)
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(errs[a].Key(), errs[b].Key()) })
	for _, i := range order {
		base := clip(slug(i), 190)
		s := base
		for n := 2; used[s]; n++ {
			s = base + "-" + strconv.Itoa(n)
		}
		used[s] = true
		out[i] = s
	}
}

// slugCandidates are an error's slugs, shortest first.
func slugCandidates(e *Error) []string {
	pkg := kebab(e.PkgName)
	switch {
	case e.Kind == API:
		s := kebab(TrimErrSuffix(e.Name))
		return []string{s, pkg + "-" + s}
	case e.Name != "":
		s := kebab(e.Name)
		return []string{s, pkg + "-" + s}
	}
	fn := e.Func
	if i := strings.LastIndexByte(fn, '.'); i >= 0 {
		fn = fn[i+1:]
	}
	words := strings.FieldsFunc(strings.ToLower(LiteralText(e.Message)), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	first := func(n int) string { return strings.Join(words[:min(len(words), n)], "-") }
	all := first(16)
	withFn := strings.Trim(kebab(fn)+"-"+all, "-")
	if all == "" {
		return []string{withFn, pkg + "-" + withFn}
	}
	// More of the message first: two messages that start alike usually
	// differ further on; the same message made in two functions or
	// packages never does.
	return []string{first(6), first(10), all, withFn, pkg + "-" + withFn}
}

func clip(s string, n int) string {
	if len(s) > n {
		return strings.TrimRight(s[:n], "-")
	}
	return s
}

// words splits a Go identifier at case changes: "JSErrCodeStreamNotFound"
// is JS, Err, Code, Stream, Not, Found.
func words(id string) []string {
	var out []string
	rs := []rune(id)
	cur := []rune{}
	isUpper := func(r rune) bool { return r >= 'A' && r <= 'Z' }
	isLower := func(r rune) bool { return r >= 'a' && r <= 'z' }
	for i, r := range rs {
		if r == '_' || !(isUpper(r) || isLower(r) || r >= '0' && r <= '9') {
			if len(cur) > 0 {
				out = append(out, string(cur))
				cur = cur[:0]
			}
			continue
		}
		if len(cur) > 0 && isUpper(r) {
			prev := rs[i-1]
			next := rune(0)
			if i+1 < len(rs) {
				next = rs[i+1]
			}
			if !isUpper(prev) || isLower(next) {
				out = append(out, string(cur))
				cur = cur[:0]
			}
		}
		cur = append(cur, r)
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}

func kebab(id string) string { return strings.ToLower(strings.Join(words(id), "-")) }

func screaming(id string) string { return strings.ToUpper(strings.Join(words(id), "_")) }

// internal reports an error that users of the module never meet by its
// name: one of an internal package, of a test helper package or of a test
// file (the last two only with --include-tests).
func internal(e *Error, module string) bool {
	rel := strings.TrimPrefix(strings.TrimPrefix(e.Package, module), "/")
	return e.Internal || strings.HasSuffix(e.File, "_test.go") ||
		module != "std" && program.Scaffolding(rel) == "test helpers"
}

// importable reports whether other modules can name the package's
// identifiers: not a main package, not an internal one.
func importable(e *Error) bool {
	return e.PkgName != "main" && !e.Internal
}

// typeGuard is Go that detects the error, made only from what the source
// says: errors.Is for an exported sentinel, errors.As for an exported type,
// errors.As and the numeric code for a table entry, and otherwise a test
// for the message's longest fixed text.
func typeGuard(e *Error, byKey map[string]*Error) string {
	exported := e.Name != "" && e.Name[0] >= 'A' && e.Name[0] <= 'Z' && importable(e)
	contains := ""
	if lit := LongestLiteral(e.Message); lit != "" {
		contains = "strings.Contains(err.Error(), " + strconv.Quote(lit) + ")"
	}
	switch {
	case e.Kind == API && e.Code != nil && e.Code.CarrierType != "":
		return fmt.Sprintf("var apiErr *%s.%s\nerrors.As(err, &apiErr) && apiErr.%s == %d // %s.%s",
			e.PkgName, e.Code.CarrierType, e.Code.CarrierField, e.Code.Value, e.PkgName, e.Name)
	case e.Kind == Sentinel && exported:
		g := "errors.Is(err, " + e.PkgName + "." + e.Name + ")"
		if c := e.Code; c != nil && c.CarrierType != "" && isExported(c.CarrierType) {
			g += fmt.Sprintf("\n\nvar apiErr *%s.%s\nerrors.As(err, &apiErr) && apiErr.%s == %s.%s",
				c.PkgName, c.CarrierType, c.CarrierField, c.PkgName, c.Name)
		}
		return g
	case e.Kind == Type && exported:
		ptr := ""
		if e.Pointer {
			ptr = "*"
		}
		return fmt.Sprintf("var target %s%s.%s\nerrors.As(err, &target)", ptr, e.PkgName, e.Name)
	case e.Kind == Call:
		var gs []string
		for _, k := range e.Wraps {
			if w := byKey[k]; w != nil && isExported(w.Name) && importable(w) {
				gs = append(gs, "errors.Is(err, "+w.PkgName+"."+w.Name+")")
			}
		}
		if contains != "" {
			gs = append(gs, contains)
		}
		return strings.Join(gs, " && ")
	}
	return contains
}

func isExported(name string) bool { return name != "" && name[0] >= 'A' && name[0] <= 'Z' }

// fileCache reads each source file once, as lines.
type fileCache struct {
	root  string
	lines map[string][]string
}

func (c *fileCache) get(rel string) ([]string, error) {
	if l, ok := c.lines[rel]; ok {
		return l, nil
	}
	data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("read %s for its snippet: %w", rel, err)
	}
	l := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	c.lines[rel] = l
	return l, nil
}
