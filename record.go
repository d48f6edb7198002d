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

	// The fields below are left out of a record's JSON when empty, so
	// records without them (a curated record, generated test data) keep
	// their bytes; absent and empty mean the same.

	// Identity: the name the code uses, package-qualified for headlines
	// ("nats.ErrNoResponders"), older names that still resolve, whether
	// the error belongs to an internal package or test helper, how an
	// engineer meets it, and the same error seen from other places.
	QualifiedName string   `json:"qualifiedName,omitempty"`
	Aliases       []string `json:"aliases,omitempty"`
	Internal      bool     `json:"internal,omitempty"`
	Surface       string   `json:"surface,omitempty"`
	// Closes are where the code closes the connection right after it
	// logs or sends the error, so the page can say the client is dropped.
	Closes []Closing `json:"closes,omitempty"`
	Faces  []Face    `json:"faces,omitempty"`

	// Knowledge derived from the code, each fact with its line: when the
	// error happens, which exported functions pass it on, where the
	// project checks for it, which of its tests provoke it, and what its
	// doc comments say.
	Conditions []Condition `json:"conditions,omitempty"`
	ReturnedBy []Entry     `json:"returnedBy,omitempty"`
	HandledAt  []Check     `json:"handledAt,omitempty"`
	Tests      []Test      `json:"tests,omitempty"`
	Docs       []Doc       `json:"docs,omitempty"`
	// History is the versions the error appears in and its older wordings.
	History *History `json:"history,omitempty"`
	// Sources are what curated prose rests on: each claim links to one.
	Sources []Citation `json:"sources,omitempty"`
	// Extracted is set on a curated record merged with the record the
	// extractor made of the same error: what the extractor knows that the
	// curated record does not say, and where the two disagree. Loading
	// adds it; the typed fields the curated record left empty are filled
	// from it, and its own fields stay as written.
	Extracted *Extracted `json:"extracted,omitempty"`

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

// Surfaces: how an engineer meets an error (Record.Surface).
const (
	SurfaceReturned = "returned" // reaches callers of the package's API
	SurfaceProtocol = "protocol" // sent to clients over the wire
	SurfaceLog      = "log"      // written to the log only
	SurfaceStartup  = "startup"  // refuses to start
)

// Place is where a fact was read: a line of the project's source at the
// analysed version, and its link.
type Place struct {
	FilePath   string `json:"filePath"`
	LineNumber int    `json:"lineNumber"`
	GithubURL  string `json:"githubUrl"`
}

// Face is the same error seen from another place: the server's error and
// the client's constant and sentinels for its code, or one message in two
// packages of a module. The place states the fact that joins them.
type Face struct {
	ID         string `json:"id"`       // the other record
	Side       string `json:"side"`     // "server" or "client"
	Package    string `json:"package"`  // the other record's Go package
	Name       string `json:"name"`     // its qualified name, or its message
	Relation   string `json:"relation"` // what joins them: "err_code 10059", "same message"
	FilePath   string `json:"filePath"`
	LineNumber int    `json:"lineNumber"`
	GithubURL  string `json:"githubUrl"`
}

// Closing is a call that closes the connection right after the error is
// logged or sent: the function called and where the call is.
type Closing struct {
	Call       string `json:"call"`     // "(*client).closeConnection"
	Function   string `json:"function"` // the function the call is in
	FilePath   string `json:"filePath"`
	LineNumber int    `json:"lineNumber"`
	GithubURL  string `json:"githubUrl"`
}

// Condition is when the error is made at one place: the guards around
// that place, innermost first, and the settings they read.
type Condition struct {
	Function      string    `json:"function"`
	FilePath      string    `json:"filePath"`
	LineNumber    int       `json:"lineNumber"`
	GithubURL     string    `json:"githubUrl"`
	Unconditional bool      `json:"unconditional,omitempty"` // no guard in Function
	Guards        []Guard   `json:"guards"`
	Settings      []Setting `json:"settings"`
}

// Guard is one condition as written in Go.
type Guard struct {
	Expr       string `json:"expr"`
	Kind       string `json:"kind"` // "if", "else", "case" or "call"
	FilePath   string `json:"filePath"`
	LineNumber int    `json:"lineNumber"`
	GithubURL  string `json:"githubUrl"`
}

// Setting is a configuration field a guard reads, with the key that sets
// it where the project's config parser assigns it from one.
type Setting struct {
	Field      string `json:"field"`
	Type       string `json:"type"`
	Doc        string `json:"doc"`
	FilePath   string `json:"filePath"` // the field's declaration
	LineNumber int    `json:"lineNumber"`
	GithubURL  string `json:"githubUrl"`
	ConfigKey  string `json:"configKey"`
	ConfigAt   *Place `json:"configAt,omitempty"` // where the parser assigns it
}

// Entry is an exported function from which the error reaches a caller,
// with one call chain, entry first, to where the error is made.
type Entry struct {
	Function   string     `json:"function"`
	Package    string     `json:"package"`
	FilePath   string     `json:"filePath"`
	LineNumber int        `json:"lineNumber"`
	GithubURL  string     `json:"githubUrl"`
	Chain      []CallSite `json:"chain"`
}

// Check is a place in the project's own code that checks for the error,
// with the handling block as written.
type Check struct {
	Function   string `json:"function"`
	Check      string `json:"check"` // the test, as written: errors.Is(err, ErrX)
	Code       string `json:"code"`
	CodeStart  int    `json:"codeStart"`
	CodeEnd    int    `json:"codeEnd"`
	FilePath   string `json:"filePath"`
	LineNumber int    `json:"lineNumber"`
	GithubURL  string `json:"githubUrl"`
}

// Test is a test of the project that provokes the error and asserts it.
type Test struct {
	Name       string `json:"name"`
	Package    string `json:"package"`
	Assertion  string `json:"assertion"`
	FilePath   string `json:"filePath"`
	LineNumber int    `json:"lineNumber"`
	GithubURL  string `json:"githubUrl"`
}

// Doc is a doc comment or documentation text that speaks of the error.
type Doc struct {
	Of         string `json:"of"` // what it documents: a function, "errors.json description"
	Text       string `json:"text"`
	FilePath   string `json:"filePath"`
	LineNumber int    `json:"lineNumber"`
	GithubURL  string `json:"githubUrl"`
}

// History is the versions an error appears in: the first, its older
// wordings with the versions that used them, and the one it was removed in.
// OldestAnalyzed is the oldest version the history was read from, so a
// page never claims an error is older than that: FirstVersion equal to it
// means "already in", not "new in". MessageSince is the first version with
// the record's own message, when it had others before.
type History struct {
	FirstVersion   string       `json:"firstVersion"`
	RemovedIn      string       `json:"removedIn"`
	Messages       []OldMessage `json:"messages"`
	OldestAnalyzed string       `json:"oldestAnalyzed,omitempty"`
	MessageSince   string       `json:"messageSince,omitempty"`
}

// OldMessage is an earlier wording and the first and last versions that
// used it.
type OldMessage struct {
	Message  string   `json:"message"`
	Versions []string `json:"versions"`
}

// Citation is a source a curated claim rests on: a line of code at a
// pinned version, a page of the project's docs, a maintainer's answer.
type Citation struct {
	URL  string `json:"url"`
	Note string `json:"note"`
}

// Extracted is what the extractor read of a curated record's error at
// one version of the project, beside the curated record's own fields:
// the facts the curated record lacks, and those it states otherwise
// (Differs). ID, Slug and ErrorCode name the extracted record it was
// merged from, so links to that record keep working.
type Extracted struct {
	ID            string       `json:"id"`
	Slug          string       `json:"slug"`
	ErrorCode     string       `json:"errorCode"`
	Version       string       `json:"version"` // the module version (or commit) read
	NumericCode   *int         `json:"numericCode,omitempty"`
	HTTPStatus    *int         `json:"httpStatus,omitempty"`
	ErrorClass    string       `json:"errorClass,omitempty"`
	GoPackage     string       `json:"goPackage,omitempty"`
	FilePath      string       `json:"filePath,omitempty"` // where the extractor found it
	LineNumber    int          `json:"lineNumber,omitempty"`
	GithubURL     string       `json:"githubUrl,omitempty"`
	CallSites     []CallSite   `json:"callSites,omitempty"`
	QualifiedName string       `json:"qualifiedName,omitempty"`
	Aliases       []string     `json:"aliases,omitempty"`
	Surface       string       `json:"surface,omitempty"`
	Faces         []Face       `json:"faces,omitempty"`
	Conditions    []Condition  `json:"conditions,omitempty"`
	ReturnedBy    []Entry      `json:"returnedBy,omitempty"`
	HandledAt     []Check      `json:"handledAt,omitempty"`
	Tests         []Test       `json:"tests,omitempty"`
	Docs          []Doc        `json:"docs,omitempty"`
	Differs       []Difference `json:"differs,omitempty"`
}

// Difference is one fact the curated record states otherwise than the
// code at the extracted version: the field, both values, and the line
// the extracted value was read from, when it has one.
type Difference struct {
	Field     string `json:"field"`
	Curated   string `json:"curated"`
	Extracted string `json:"extracted"`
	GithubURL string `json:"githubUrl,omitempty"`
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
