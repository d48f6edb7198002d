// Package templates owns the HTML pages: templ components and the typed
// view models they render. It knows nothing of HTTP or search; the web
// package fills the view models.
package templates

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
}

// Link is a labelled URL.
type Link struct {
	Label string
	URL   string
	Count int
}

// RecordItem is one record in a list.
type RecordItem struct {
	URL        string
	Code       string
	Message    string
	Repo       string
	Severity   string
	Highlights []HTML // message or documentation fragments with <mark>
}

// HomeView is the front page.
type HomeView struct {
	Base
	Projects []Link
	Tags     []Link
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
	Code        string
	Message     string
	Class       string
	Severity    string
	HTTPStatus  string
	ErrorType   string
	Repo        string
	RepoURL     string
	Pattern     string
	Sections    []Section
	Solutions   []HTML
	Tips        []HTML
	CodeBlocks  []CodeBlock
	Source      *SourceView
	Tags        []Link
	StableURL   string
	LookupURL   string
	APIURL      string
	AnalyzedAt  string
	DatasetInfo string
}

// Section is one prose section with its anchor.
type Section struct {
	ID    string
	Title string
	Body  HTML
}

// CodeBlock is one code field shown as code.
type CodeBlock struct {
	ID    string
	Title string
	Code  string
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
}

// SourceLine is one numbered line; URL links to it on GitHub.
type SourceLine struct {
	Number  int
	Text    string
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

// ProjectsView lists every project.
type ProjectsView struct {
	Base
	Projects []Link
}

// ProblemView is an error page (404, 400, 500): what went wrong and a way on.
type ProblemView struct {
	Base
	Status      int
	Heading     string
	Message     string
	Suggestions []RecordItem
}
