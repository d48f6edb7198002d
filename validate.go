package errkb

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkFields checks presence and JSON type of every known field.
func checkFields(fields map[string]json.RawMessage, loc Location) Problems {
	var probs Problems
	id := stringField(fields, "id")
	for i := range knownFields {
		f := &knownFields[i]
		v, ok := fields[f.name]
		if !ok || isNull(v) {
			if f.has(required) {
				probs = append(probs, Problem{Location: loc, Record: id, Field: f.name, Message: "is required"})
			}
			continue
		}
		if !f.decodes(v) {
			probs = append(probs, Problem{Location: loc, Record: id, Field: f.name,
				Message: "must be " + f.kindName() + ", got " + jsonKind(v)})
		}
	}
	return probs
}

// decodes reports whether v, not null, has the field's JSON type.
func (f *field[T]) decodes(v json.RawMessage) bool {
	switch f.kind {
	case kindString:
		var s string
		return json.Unmarshal(v, &s) == nil
	case kindInt:
		var n int
		return json.Unmarshal(v, &n) == nil
	case kindStringList:
		var l []string
		return isArray(v) && json.Unmarshal(v, &l) == nil
	case kindObjects:
		return f.objects.decodes(v)
	case kindBool:
		var b bool
		return json.Unmarshal(v, &b) == nil
	case kindObject:
		return f.object.decodes(v)
	}
	return false
}

var (
	idRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
	repoRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$`)
	slugRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$`)
)

// checkRecord checks the values of a record whose fields have the right
// types: identifiers usable in URLs, a GitHub permalink, consistent lines.
func checkRecord(r *Record) Problems {
	var probs Problems
	add := func(field, msg string) {
		probs = append(probs, Problem{Location: r.Location, Record: r.ID, Field: field, Message: msg})
	}
	if !utf8.Valid(r.raw) {
		add("", "holds invalid UTF-8")
	}
	if !idRE.MatchString(r.ID) {
		add("id", "must be 1-128 letters, digits, '.', '_' or '-', got "+quote(r.ID))
	}
	if !repoRE.MatchString(r.Repo) || strings.HasPrefix(r.Name(), ".") || strings.HasPrefix(r.Owner(), ".") {
		add("repo", `must be "owner/name", got `+quote(r.Repo))
	}
	if !slugRE.MatchString(r.Slug) {
		add("slug", "must be 1-200 letters, digits, '.', '_' or '-', got "+quote(r.Slug))
	}
	if strings.TrimSpace(r.ErrorMessage) == "" {
		add("errorMessage", "must not be empty")
	}
	// An error made inside a function has no name: its code is "", and
	// its message is its headline. A code of spaces names nothing.
	if r.ErrorCode != "" && strings.TrimSpace(r.ErrorCode) == "" {
		add("errorCode", "must not be blank")
	}
	if strings.TrimSpace(r.Severity) == "" {
		add("severity", "must not be empty")
	}
	if r.GithubURL != "" {
		if msg := checkGithubURL(r.GithubURL); msg != "" {
			add("githubUrl", msg)
		}
	}
	for i, t := range r.Tags {
		if strings.TrimSpace(t) == "" || strings.ContainsAny(t, "/?#") {
			add("tags", "tag "+itoa(i)+" must be a non-empty word without '/', '?' or '#', got "+quote(t))
		}
	}
	probs = append(probs, checkLines(r)...)
	return probs
}

func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func checkGithubURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host != "github.com" || !strings.HasPrefix(s, "https://github.com/") {
		return "must be an https://github.com/ URL, got " + quote(s)
	}
	return ""
}

// checkLines checks that the snippet's line range holds the error line and
// matches the snippet's length, since line links are computed from them.
func checkLines(r *Record) Problems {
	var probs Problems
	add := func(field, msg string) {
		probs = append(probs, Problem{Location: r.Location, Record: r.ID, Field: field, Message: msg})
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"lineNumber", r.LineNumber}, {"sourceCodeStart", r.SourceCodeStart}, {"sourceCodeEnd", r.SourceCodeEnd}} {
		if f.v < 0 {
			add(f.name, "must not be negative, got "+itoa(f.v))
		}
	}
	start, end := r.SourceCodeStart, r.SourceCodeEnd
	if len(probs) > 0 || start == 0 && end == 0 {
		return probs
	}
	// Both are now 0 <= start <= end, so end-start cannot overflow, but
	// end-start+1 can: the span is compared and printed without the +1.
	if start > end {
		add("sourceCodeStart", "is after sourceCodeEnd ("+itoa(start)+" > "+itoa(end)+")")
		return probs
	}
	if r.LineNumber != 0 && (r.LineNumber < start || r.LineNumber > end) {
		add("lineNumber", itoa(r.LineNumber)+" is outside the snippet's lines "+itoa(start)+"-"+itoa(end))
	}
	if r.SourceCode != "" {
		n := strings.Count(strings.TrimSuffix(r.SourceCode, "\n"), "\n") + 1
		if n-1 != end-start {
			span := strconv.FormatUint(uint64(end-start)+1, 10)
			add("sourceCode", "has "+itoa(n)+" lines but sourceCodeStart-sourceCodeEnd spans "+span)
		}
	}
	return probs
}

// dropDuplicates keeps the first record of each id and each repo+slug
// (repo compared without case, as in URLs) and reports the others.
func dropDuplicates(records []*Record) ([]*Record, Problems) {
	var probs Problems
	byID := make(map[string]*Record, len(records))
	byPath := make(map[string]*Record, len(records))
	kept := records[:0]
	for _, r := range records {
		if first, ok := byID[r.ID]; ok {
			probs = append(probs, Problem{Location: r.Location, Record: r.ID, Field: "id",
				Message: "duplicates the id of the record at " + first.Location.String()})
			continue
		}
		key := pathKey(r.Repo, r.Slug)
		if first, ok := byPath[key]; ok {
			probs = append(probs, Problem{Location: r.Location, Record: r.ID, Field: "slug",
				Message: "repo+slug " + quote(r.Path()) + " duplicates the record at " + first.Location.String()})
			continue
		}
		byID[r.ID] = r
		byPath[key] = r
		kept = append(kept, r)
	}
	return kept, probs
}

func pathKey(repo, slug string) string { return strings.ToLower(repo) + "/" + slug }

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// jsonKind names the JSON type of v for error messages.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func stringField(fields map[string]json.RawMessage, name string) string {
	var s string
	if v, ok := fields[name]; ok {
		_ = json.Unmarshal(v, &s)
	}
	return s
}
