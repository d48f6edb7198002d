package errkb

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Limits on what a dataset may hold. A dataset may come from anyone, so
// every size the loader, the index or the renderer pays for is capped, and
// a record over a cap is reported, not trimmed.
const (
	// MaxRecordBytes caps one record's JSON.
	MaxRecordBytes = 1 << 20
	// MaxJSONDepth caps the nesting of any field's value. Known fields need
	// 1; unknown ones get room, but not the thousands of levels that make
	// decoders slow or crash them.
	MaxJSONDepth = 32
	// MaxMarkdownBytes caps one Markdown field or list entry: some inputs
	// make goldmark quadratic (64 KiB of "[a](b" takes half a second, 256 KiB
	// eight), and 16 KiB renders in tens of milliseconds at worst.
	MaxMarkdownBytes = 16 << 10
	// MaxCodeBytes caps one code field.
	MaxCodeBytes = 64 << 10
	// MaxTextBytes caps every other known string field.
	MaxTextBytes = 4 << 10
	// MaxListEntries caps solutions, preventionTips and tags.
	MaxListEntries = 100
	// MaxTagBytes caps one tag.
	MaxTagBytes = 100
)

// markdownFields hold prose rendered as Markdown; codeFields are shown as
// code. Every other known string field is short text.
var (
	markdownFields = map[string]bool{"documentation": true, "triggerScenarios": true, "commonSituations": true,
		"solutions": true, "preventionTips": true}
	codeFields = map[string]bool{"sourceCode": true, "exampleFix": true, "validationCode": true,
		"typeGuard": true, "tryCatchPattern": true}
)

// readCapped reads one dataset file, refusing anything but a regular file
// of at most MaxFileBytes: a FIFO or device would block or never end, and a
// huge file would exhaust memory before parsing could complain.
func readCapped(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("is not a regular file (%s)", info.Mode().Type())
	}
	if info.Size() > MaxFileBytes {
		return nil, fmt.Errorf("is %d bytes; a dataset file may have at most %d", info.Size(), MaxFileBytes)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("grew past %d bytes while being read", MaxFileBytes)
	}
	return data, nil
}

// checkHostile checks what a hostile or broken dataset could use against
// the server: invalid UTF-8, deep nesting, oversize fields and lists, and
// links with a scheme that runs code. Each problem names its field.
func checkHostile(fields map[string]json.RawMessage, loc Location) Problems {
	id := stringField(fields, "id")
	var probs Problems
	add := func(field, msg string) {
		probs = append(probs, Problem{Location: loc, Record: id, Field: field, Message: msg})
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		raw := fields[name]
		if !utf8.Valid(raw) {
			add(name, "holds invalid UTF-8")
			continue
		}
		if d := jsonDepth(raw); d > MaxJSONDepth {
			add(name, fmt.Sprintf("nests %d levels deep; at most %d", d, MaxJSONDepth))
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			continue // checkFields or the syntax check reports it
		}
		checkSizes(name, v, add)
		checkURLs(name, name, v, add)
	}
	return probs
}

// checkSizes applies the field caps to one known field.
func checkSizes(name string, v any, add func(field, msg string)) {
	limit, what := MaxTextBytes, "text"
	switch {
	case markdownFields[name]:
		limit, what = MaxMarkdownBytes, "Markdown"
	case codeFields[name]:
		limit, what = MaxCodeBytes, "code"
	case name == "tags":
		limit, what = MaxTagBytes, "tag"
	}
	if !isKnown(name) {
		return
	}
	switch v := v.(type) {
	case string:
		if len(v) > limit {
			add(name, fmt.Sprintf("%s of %d bytes; at most %d", what, len(v), limit))
		}
	case []any:
		if len(v) > MaxListEntries {
			add(name, fmt.Sprintf("has %d entries; at most %d", len(v), MaxListEntries))
		}
		for i, e := range v {
			if s, ok := e.(string); ok && len(s) > limit {
				add(fmt.Sprintf("%s[%d]", name, i), fmt.Sprintf("%s of %d bytes; at most %d", what, len(s), limit))
			}
		}
	}
}

func isKnown(name string) bool {
	for _, f := range knownFields {
		if f.name == name {
			return true
		}
	}
	return false
}

// jsonDepth is the deepest nesting of arrays and objects in a valid JSON
// value, counted without decoding it.
func jsonDepth(raw []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// checkURLs walks a field's value and reports links whose scheme could run
// code: any string under a URL-like key, and the link destinations of
// Markdown fields.
func checkURLs(path, key string, v any, add func(field, msg string)) {
	switch v := v.(type) {
	case string:
		// githubUrl is held to more: checkRecord wants an https://github.com/ URL.
		if urlKey(key) && path != "githubUrl" && !safeScheme(v) {
			add(path, "must be an http, https or mailto URL, got "+quote(v))
		}
		if markdownFields[key] {
			if m := dangerousLink(v); m != "" {
				add(path, "links to "+quote(m)+"; a link in Markdown must not use a scheme that runs code")
			}
		}
	case []any:
		for i, e := range v {
			checkURLs(fmt.Sprintf("%s[%d]", path, i), key, e, add)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			checkURLs(path+"."+k, k, v[k], add)
		}
	}
}

// urlKey reports whether a field name says it holds a URL: githubUrl,
// homepage, docsLink, href...
func urlKey(key string) bool {
	k := strings.ToLower(key)
	for _, suffix := range []string{"url", "uri", "link", "href", "src", "homepage", "website"} {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// safeScheme reports whether s is relative or uses http, https or mailto,
// judged as a browser would: entities decoded, control characters and
// white space dropped, case ignored.
func safeScheme(s string) bool {
	s = strings.ToLower(stripControls(html.UnescapeString(s)))
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return true
	}
	if sep := strings.IndexAny(s, "/?#"); sep >= 0 && sep < colon {
		return true
	}
	switch s[:colon] {
	case "http", "https", "mailto":
		return true
	}
	return false
}

func stripControls(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

var (
	// inlineLink finds the destination of [text](dest), ![img](dest) and
	// <autolinks>, with the spaces CommonMark allows.
	inlineLink = regexp.MustCompile(`(?i)(?:\]\(\s*<?|<)\s*([a-z][a-z0-9+.-]*:[^\s)>]*)`)
	// refDef finds the destination of a reference definition "[x]: dest".
	refDef = regexp.MustCompile(`(?im)^ {0,3}\[[^\]]+\]:\s*<?\s*([a-z][a-z0-9+.-]*:\S*)`)
)

// squeeze drops the characters browsers ignore inside a URL scheme. It is
// built once: building a Replacer per record cost 650 MB of allocation
// loading 100,000 records.
var squeeze = strings.NewReplacer("\t", "", "\r", "", "\n", "", "\x00", "")

// dangerousLink returns the first link destination of Markdown text md
// whose scheme runs code, or "". Goldmark drops such links when it
// renders; reporting them tells the dataset's author the text is wrong.
func dangerousLink(md string) string {
	text := html.UnescapeString(md)
	squeezed := squeeze.Replace(text)
	for _, m := range inlineLink.FindAllStringSubmatch(squeezed, -1) {
		if scriptScheme(m[1]) {
			return m[1]
		}
	}
	for _, m := range refDef.FindAllStringSubmatch(text, -1) {
		if scriptScheme(m[1]) {
			return m[1]
		}
	}
	return ""
}

// scriptScheme reports whether a link in prose uses a scheme that runs or
// smuggles code. Prose is full of "std::vector" and "C:\path", so only
// these schemes count, not every one but http.
func scriptScheme(s string) bool {
	scheme, _, _ := strings.Cut(strings.ToLower(stripControls(s)), ":")
	switch scheme {
	case "javascript", "vbscript", "livescript", "data", "file":
		return true
	}
	return false
}

// tooLarge reports a record over MaxRecordBytes before it is decoded.
func tooLarge(raw []byte, loc Location) Problems {
	if len(raw) <= MaxRecordBytes {
		return nil
	}
	return Problems{{Location: loc, Message: fmt.Sprintf("record is %d bytes; at most %d", len(raw), MaxRecordBytes)}}
}

// breaksLimits reports whether a record decoded on the fast path may break
// a cap or hold a link checkHostile refuses. It only has to be cheap and
// never miss: the careful path then finds and names the problem.
func breaksLimits(r *Record) bool {
	markdown := slices.Concat([]string{r.Documentation, r.TriggerScenarios, r.CommonSituations}, r.Solutions, r.PreventionTips)
	for _, f := range []struct {
		limit int
		texts []string
	}{
		{MaxMarkdownBytes, markdown},
		{MaxCodeBytes, []string{r.SourceCode, r.ExampleFix, r.ValidationCode, r.TypeGuard, r.TryCatchPattern}},
		{MaxTextBytes, []string{r.ID, r.Repo, r.Slug, r.ErrorCode, r.ErrorMessage, r.MessagePattern, r.ErrorType, r.ErrorClass,
			r.Severity, r.FilePath, r.GithubURL, r.HandlingStrategy, r.BackgroundTag, r.AnalyzedSha, r.AnalyzedAt}},
		{MaxTagBytes, r.Tags},
	} {
		for _, t := range f.texts {
			if len(t) > f.limit {
				return true
			}
		}
	}
	if len(r.Solutions) > MaxListEntries || len(r.PreventionTips) > MaxListEntries || len(r.Tags) > MaxListEntries {
		return true
	}
	for _, md := range markdown {
		// A scheme needs a colon, written as is or as an entity.
		if strings.ContainsAny(md, ":&") && dangerousLink(md) != "" {
			return true
		}
	}
	return false
}
