package errkb

import (
	"net/url"
	"strconv"
	"strings"
)

// Record is one documented error of one project. The typed fields are the
// ones errkb reads to index and render (fields.go lists them); RawJSON
// returns the record exactly as it was given.
type Record struct {
	ID               string     `json:"id"`
	Repo             string     `json:"repo"`
	Slug             string     `json:"slug"`
	ErrorCode        string     `json:"errorCode"`
	ErrorMessage     string     `json:"errorMessage"`
	MessagePattern   string     `json:"messagePattern"`
	ErrorType        string     `json:"errorType"`
	ErrorClass       string     `json:"errorClass"`
	HTTPStatus       *int       `json:"httpStatus"`
	Severity         string     `json:"severity"`
	FilePath         string     `json:"filePath"`
	LineNumber       int        `json:"lineNumber"`
	SourceCode       string     `json:"sourceCode"`
	SourceCodeStart  int        `json:"sourceCodeStart"`
	SourceCodeEnd    int        `json:"sourceCodeEnd"`
	GithubURL        string     `json:"githubUrl"`
	Documentation    string     `json:"documentation"`
	TriggerScenarios string     `json:"triggerScenarios"`
	CommonSituations string     `json:"commonSituations"`
	Solutions        []string   `json:"solutions"`
	ExampleFix       string     `json:"exampleFix"`
	HandlingStrategy string     `json:"handlingStrategy"`
	ValidationCode   string     `json:"validationCode"`
	TypeGuard        string     `json:"typeGuard"`
	TryCatchPattern  string     `json:"tryCatchPattern"`
	PreventionTips   []string   `json:"preventionTips"`
	Tags             []string   `json:"tags"`
	BackgroundTag    string     `json:"backgroundTag"`
	AnalyzedSha      string     `json:"analyzedSha"`
	AnalyzedAt       string     `json:"analyzedAt"`
	ContentChangedAt *string    `json:"contentChangedAt"`
	SchemaVersion    int        `json:"schemaVersion"`
	NumericCode      *int       `json:"numericCode"` // the project's own numeric code (JetStream err_code, a nats.go ErrorCode value)
	CallSites        []CallSite `json:"callSites"`   // where the error is raised
	Wraps            []string   `json:"wraps"`       // ids of records whose error this one wraps (%w)
	WrappedBy        []string   `json:"wrappedBy"`   // ids of records that wrap this one
	GoPackage        string     `json:"goPackage"`   // import path of the package that defines the error

	// DatasetVersion comes from the envelope; empty for a bare record.
	DatasetVersion string `json:"-"`
	// Location names the file and line the record was read from.
	Location Location `json:"-"`

	// raw is the record object as it appeared in its file, or, once a
	// storage engine holds it (held is set), what the engine kept of it:
	// read it through RawJSON.
	raw  []byte
	held RawHolder
}

// RawJSON is the record object exactly as it appeared in its file, so the
// API serves fields this version does not know without loss.
func (r *Record) RawJSON() []byte {
	if r.held == nil {
		return r.raw
	}
	return r.held.RawJSON(r, r.raw)
}

// A RawHolder keeps records' raw JSON in a form of its own: internal/store
// keeps it without the text the record's fields hold decoded, which would
// otherwise be held twice, and without the known keys every record
// repeats. It is the one hook a storage engine has into a record.
type RawHolder interface {
	// RawJSON returns the record object of r exactly as it appeared in
	// its file, made of kept, the bytes HoldRaw was given, and r's
	// fields. It must not change r.
	RawJSON(r *Record, kept []byte) []byte
}

// HoldRaw hands r's raw JSON to h, which keeps kept in its place and
// makes the record object's bytes of it when they are read; with h nil,
// kept is the raw JSON itself. Call it while r is not yet shared.
func (r *Record) HoldRaw(kept []byte, h RawHolder) {
	r.raw, r.held = kept, h
}

// CallSite is one place in the source where an error is raised.
type CallSite struct {
	FilePath   string `json:"filePath"`
	LineNumber int    `json:"lineNumber"`
	Function   string `json:"function"`
	GithubURL  string `json:"githubUrl"`
}

// Provenance says where a project's records came from and under which license.
type Provenance struct {
	Repo        string `json:"repo"`        // owner/name
	Module      string `json:"module"`      // Go module path
	Version     string `json:"version"`     // module version
	Commit      string `json:"commit"`      // full commit SHA, when known
	License     string `json:"license"`     // SPDX identifier, e.g. Apache-2.0
	LicenseFile string `json:"licenseFile"` // file beside _source.json holding the license text
	Tool        string `json:"tool"`        // what made the records, e.g. "errkb extract"
}

// Location is where a record was read from, for error messages.
type Location struct {
	File string // slash-separated, prefixed with the dataset's name
	Line int    // 1-based; 0 when unknown
}

func (l Location) String() string {
	if l.Line > 0 {
		return l.File + ":" + itoa(l.Line)
	}
	return l.File
}

// Owner is the first half of Repo ("nats-io" of "nats-io/nats-server").
func (r *Record) Owner() string {
	owner, _, _ := strings.Cut(r.Repo, "/")
	return owner
}

// Name is the second half of Repo ("nats-server" of "nats-io/nats-server").
func (r *Record) Name() string {
	_, name, _ := strings.Cut(r.Repo, "/")
	return name
}

// Path is the record's canonical path below /errors/: "{owner}/{repo}/{slug}".
func (r *Record) Path() string { return r.Repo + "/" + r.Slug }

// SourceLineURL links to one line of the snippet on GitHub at the analysed
// commit. It is built from githubUrl, whose path already pins the commit and
// file, so it never points at a moving branch.
func (r *Record) SourceLineURL(line int) string {
	base := r.sourceBaseURL()
	if base == "" {
		return ""
	}
	return base + "#L" + itoa(line)
}

// sourceBaseURL is githubUrl without its fragment.
func (r *Record) sourceBaseURL() string {
	u, err := url.Parse(r.GithubURL)
	if err != nil || r.GithubURL == "" {
		return ""
	}
	u.Fragment = ""
	u.RawFragment = ""
	return u.String()
}

// SnippetLines splits the source snippet into numbered lines starting at
// sourceCodeStart.
func (r *Record) SnippetLines() []SourceLine {
	if r.SourceCode == "" {
		return nil
	}
	texts := strings.Split(strings.TrimSuffix(r.SourceCode, "\n"), "\n")
	start := r.SourceCodeStart
	if start < 1 {
		start = 1
	}
	lines := make([]SourceLine, len(texts))
	for i, t := range texts {
		n := start + i
		lines[i] = SourceLine{Number: n, Text: t, IsError: n == r.LineNumber}
	}
	return lines
}

// SourceLine is one numbered line of a source snippet.
type SourceLine struct {
	Number  int
	Text    string
	IsError bool
}

// ShortSHA is the first 12 characters of the analysed commit.
func (r *Record) ShortSHA() string {
	if len(r.AnalyzedSha) > 12 {
		return r.AnalyzedSha[:12]
	}
	return r.AnalyzedSha
}

func itoa(n int) string { return strconv.Itoa(n) }
