package web

import (
	"cmp"
	"context"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/chroma/v2"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/explain"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/templates"
	"github.com/errkb/errkb/web/siteurl"
)

// recordURL is the canonical page of a record (package siteurl spells
// every address of the site).
func recordURL(r *errkb.Record) string { return siteurl.Record(r.Repo, r.Slug) }

// suggestionURL is where a did-you-mean leads: the record it names, or
// a search for the corrected text.
func suggestionURL(s index.Suggestion) string {
	if s.Record != nil {
		return recordURL(s.Record)
	}
	return siteurl.Search(s.Text)
}

func recordItem(r *errkb.Record, highlights map[string][]string) templates.RecordItem {
	it := templates.RecordItem{
		URL:     recordURL(r),
		Code:    explain.Headline(r),
		Message: r.ErrorMessage,
		Repo:    r.Repo,
	}
	if explain.SeverityStated(r) {
		it.Severity = r.Severity
	}
	// Highlights are HTML fragments: the record text escaped, with <mark>
	// added around matched terms. A message fragment replaces the plain
	// message when it marks something; it is the whole message, as
	// messages are short. The documentation fragment is Markdown, rendered
	// inline (snippetHTML).
	if m := highlights["message"]; len(m) > 0 && strings.Contains(m[0], "<mark>") {
		it.MessageHTML = templates.HTML(m[0])
	}
	if d := highlights["documentation"]; len(d) > 0 {
		it.Highlights = append(it.Highlights, snippetHTML(d[0]))
	}
	return it
}

func recordItems(rs []*errkb.Record) []templates.RecordItem {
	items := make([]templates.RecordItem, len(rs))
	for i, r := range rs {
		items[i] = recordItem(r, nil)
	}
	return items
}

// codeAndMessage is a record's title: its code and message, or its
// message alone for an error without a name of its own.
func codeAndMessage(r *errkb.Record) string {
	if r.ErrorCode == "" {
		return r.ErrorMessage
	}
	return r.ErrorCode + ": " + r.ErrorMessage
}

// recordView builds the page of one record: Markdown, highlighting and
// related errors. Nothing is built ahead: chroma alone costs milliseconds
// per record, too much for every record at start-up on large datasets, and
// the response cache (cache.go) keeps the rendered pages people open, so
// it is not paid on every request either.
func (s *Server) recordView(ctx context.Context, r *errkb.Record) *templates.RecordView {
	v := &templates.RecordView{
		Base:       s.base(codeAndMessage(r), ""),
		Code:       r.ErrorCode,
		Message:    r.ErrorMessage,
		Class:      r.ErrorClass,
		Severity:   r.Severity,
		ErrorType:  r.ErrorType,
		Handling:   r.HandlingStrategy,
		Repo:       r.Repo,
		RepoURL:    siteurl.Project(r.Repo),
		Pattern:    r.MessagePattern,
		StableURL:  s.url(recordURL(r)),
		LookupURL:  s.url(siteurl.Lookup(cmp.Or(r.ErrorCode, r.ErrorMessage))),
		APIURL:     siteurl.API(recordURL(r)),
		AnalyzedAt: r.AnalyzedAt,
	}
	if d := dateOf(r.AnalyzedAt); d != "" {
		v.AnalyzedAt = d
	}
	v.Description = firstLine(r.Documentation)
	v.Canonical = s.url(recordURL(r))
	v.Crumbs = []templates.Link{{Label: "Projects", URL: siteurl.Projects}, {Label: r.Repo, URL: siteurl.Project(r.Repo)}, {Label: cmp.Or(r.ErrorCode, r.Slug)}}
	if r.HTTPStatus != nil {
		v.HTTPStatus = strconv.Itoa(*r.HTTPStatus)
	}
	if r.DatasetVersion != "" {
		v.DatasetInfo = "Dataset version " + r.DatasetVersion + "."
	}
	lexer := s.lexers.forFile(r.FilePath)
	s.addIdentity(v, r)
	v.Body = s.pageSections(r, lexer)
	for _, t := range r.Tags {
		v.Tags = append(v.Tags, templates.Link{Label: t, URL: siteurl.Tag(t)})
	}
	v.Source = sourceView(r, lexer)
	s.addExtracted(v, r)
	v.Related = s.related(ctx, r, maxRelated)
	v.Contents = contentsOf(v)
	return v
}

// contentsOf lists the sections v shows, in page order, for "On this page".
func contentsOf(v *templates.RecordView) []templates.Link {
	var links []templates.Link
	add := func(show bool, label, id string) {
		if show {
			links = append(links, templates.Link{Label: label, URL: "#" + id})
		}
	}
	add(len(v.Faces) > 0, v.FacesTitle, "faces")
	for _, sec := range v.Body {
		add(true, sec.Title, sec.ID)
	}
	add(len(v.CallSites) > 0 || len(v.Wraps) > 0 || len(v.WrappedBy) > 0, "Where it is raised", "raised")
	add(v.Source != nil, "Source", "source")
	add(len(v.Related) > 0, "Related errors", "related")
	add(true, "Link to this error", "links")
	return links
}

func sourceView(r *errkb.Record, lexer chroma.Lexer) *templates.SourceView {
	lines := r.SnippetLines()
	if len(lines) == 0 {
		return nil
	}
	sv := &templates.SourceView{
		FilePath:  r.FilePath,
		Line:      r.LineNumber,
		RangeURL:  r.GithubURL,
		FileURL:   r.SourceLineURL(r.LineNumber),
		ShortSHA:  r.ShortSHA(),
		StartLine: lines[0].Number,
		EndLine:   lines[len(lines)-1].Number,
		Language:  languageName(lexer),
		Analyzed:  dateOf(r.AnalyzedAt),
	}
	if r.LineNumber == 0 {
		sv.FileURL = r.SourceLineURL(lines[0].Number)
	}
	if r.GithubURL != "" && r.AnalyzedSha != "" && shaRE.MatchString(r.AnalyzedSha) {
		sv.CommitURL = "https://github.com/" + r.Repo + "/commit/" + r.AnalyzedSha
		if r.FilePath != "" {
			sv.HeadURL = "https://github.com/" + r.Repo + "/blob/HEAD/" + escapePath(r.FilePath)
		}
	}
	html := highlightLines(lexer, r.SourceCode)
	for i, l := range lines {
		sl := templates.SourceLine{Number: l.Number, Text: l.Text, URL: r.SourceLineURL(l.Number), IsError: l.IsError}
		if i < len(html) {
			sl.HTML = html[i]
		}
		sv.Lines = append(sv.Lines, sl)
	}
	return sv
}

// shaRE matches a git commit id, so only real ones become commit links.
var shaRE = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// escapePath escapes each segment of a slash-separated file path for a URL.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// dateOf is the date part of an RFC 3339 time ("2026-09-02T04:41:54Z" ->
// "2026-09-02"), or "" when t is not one.
func dateOf(t string) string {
	if len(t) >= 10 {
		if _, err := time.Parse(time.DateOnly, t[:10]); err == nil {
			return t[:10]
		}
	}
	return ""
}

// firstLine is the first line of s, cut to 200 bytes on a character
// boundary, for the page's meta description.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "")
	}
	return s
}
