// Package templates owns the HTML pages: templ components and the typed
// view models they render. It knows nothing of HTTP or search; the web
// package fills the view models.
package templates

import "strings"

// HTML is Markdown already rendered to safe HTML (raw HTML off, dangerous
// links dropped) by the web package. Only values of this type reach
// templ.Raw.
type HTML string

// Base is what every page shares.
type Base struct {
	Title          string
	Description    string
	Query          string // pre-fills the search box
	DatasetVersion string
	RecordCount    int
	StylesheetURL  string
	ScriptURL      string // the small copy-button and "/" script; pages work without it
	IconURL        string
	Canonical      string // absolute or site path of the page's canonical URL; "" for none
	Crumbs         []Link // breadcrumbs; the last one, the page itself, has no URL
}

// Link is a labelled URL.
type Link struct {
	Label string
	URL   string
	Count int
}

// RecordItem is one record in a list.
type RecordItem struct {
	URL         string
	Code        string // the record's headline: qualified name, code or message
	Message     string
	Repo        string
	Severity    string // "" when the record's source states none
	MessageHTML HTML   // Message with the matched terms in <mark>, from search; "" to show Message
	Highlights  []HTML // documentation fragments with <mark>
	Note        string // why a related record is shown ("same project, tag quorum")
}

// HomeView is the front page.
type HomeView struct {
	Base
	Projects      []Link // the largest projects, largest first
	ProjectsTotal int    // every project; more than len(Projects) when the list is cut
	Tags          []Link
}

// SearchView is a page of search results.
type SearchView struct {
	Base
	Total   int
	Hits    []RecordItem
	Facets  []FacetGroup
	Filters []Link // active filters, each linking to the search without it
	Prev    string
	Next    string
	First   int // 1-based rank of the first hit shown
	Notice  string
	// DidYouMean proposes corrected queries, near codes and near messages
	// when nothing matched well.
	DidYouMean []Link
}

// FacetGroup is one facet (project, tag, severity) with its values.
type FacetGroup struct {
	Title  string
	Values []Link
}

// RecordView is the page of one error.
type RecordView struct {
	Base
	Headline string // the qualified name, else the code, else the message
	Surface  string // how an engineer meets it, one fixed sentence; "" when not known
	// Wraps is the error the looked-up text also held, which this log
	// line wraps; nil on a page not reached by such a lookup.
	WrapsFound *RecordItem
	WrittenFor string // the versions a curated record was written for
	Faces      []FaceView
	FacesTitle string
	Internal   string // why the error is marked internal; "" for a user-facing one
	// ShowSeverity is set when the record's source states its severity.
	ShowSeverity bool
	Code         string
	Message      string
	Class        string
	Severity     string
	HTTPStatus   string
	ErrorType    string
	Repo         string
	RepoURL      string
	Pattern      string
	Body         []PageSection // every section below the header, in page order
	Source       *SourceView
	Tags         []Link
	Related      []RecordItem
	Contents     []Link // "On this page": one link per section anchor
	Handling     string // handlingStrategy
	StableURL    string
	LookupURL    string
	APIURL       string
	AnalyzedAt   string
	DatasetInfo  string
	NumericCode  string     // the project's own numeric code (JetStream's err_code)
	GoPackage    string     // import path of the package that defines the error
	CallSites    []CallSite // where the error is raised
	Wraps        []Link     // errors this one wraps
	WrappedBy    []Link     // errors that wrap this one
}

// CallSite is one place the error is raised, linked to GitHub.
type CallSite struct {
	File     string
	Line     int
	Function string
	URL      string
}

// CodeBlock is one code field shown as code.
type CodeBlock struct {
	ID       string
	Title    string
	Code     string
	HTML     HTML   // Code highlighted: escaped text in spans with chroma's classes
	Language string // display name of the language ("Go"), "" when unknown
}

// SourceView is the source snippet with line links at the analysed commit.
type SourceView struct {
	FilePath  string
	Line      int
	RangeURL  string
	FileURL   string
	ShortSHA  string
	Lines     []SourceLine
	StartLine int
	EndLine   int
	Language  string // from the file's extension, "" when unknown
	CommitURL string // the analysed commit on GitHub
	HeadURL   string // the same file on the default branch, which may have moved on
	Analyzed  string // date of the analysis, "2026-09-02"
}

// SourceLine is one numbered line; URL links to it on GitHub.
type SourceLine struct {
	Number  int
	Text    string
	HTML    HTML // Text highlighted
	URL     string
	IsError bool
}

// ListView is a page listing records: one project or one tag.
type ListView struct {
	Base
	Heading string
	Intro   string
	Records []RecordItem
}

// ProblemView is an error page (404, 400, 500): what went wrong and a way on.
type ProblemView struct {
	Base
	Status      int
	Heading     string
	Message     string
	Suggestions []RecordItem
}

// severityClass is the CSS class for a severity ("sev-error"), from its
// letters only: severities come from the dataset, and a class name must
// not carry whatever text a record holds.
func severityClass(severity string) string {
	b := []byte("sev-")
	for _, c := range []byte(strings.ToLower(severity)) {
		if c >= 'a' && c <= 'z' {
			b = append(b, c)
		}
	}
	return string(b)
}
