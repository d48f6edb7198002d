package web

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/templates"
)

// recordPath is the canonical page of a record.
func recordPath(r *errkb.Record) string { return "/errors/" + r.Path() }

// repoPath is the page of a project.
func repoPath(repo string) string { return "/errors/" + repo }

// tagPath is the page of a tag.
func tagPath(tag string) string { return "/tags/" + url.PathEscape(tag) }

// suggestionPath is where a did-you-mean leads: the record it names, or
// a search for the corrected text.
func suggestionPath(s index.Suggestion) string {
	if s.Record != nil {
		return recordPath(s.Record)
	}
	return "/search?q=" + url.QueryEscape(s.Text)
}

// lookupPath is the short form a log message can carry.
func lookupPath(q string) string { return "/lookup?q=" + url.QueryEscape(q) }

func recordItem(r *errkb.Record, highlights map[string][]string) templates.RecordItem {
	it := templates.RecordItem{
		URL:      recordPath(r),
		Code:     r.ErrorCode,
		Message:  r.ErrorMessage,
		Repo:     r.Repo,
		Severity: r.Severity,
	}
	// Highlights are bleve's HTML fragments: the record text escaped, with
	// <mark> added around matched terms.
	for _, field := range []string{"message", "documentation"} {
		for _, f := range highlights[field] {
			it.Highlights = append(it.Highlights, templates.HTML(f))
			break
		}
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

// recordView builds the page of one record. Markdown is rendered here, once
// per record, and the result cached by the caller.
func (s *Server) recordView(r *errkb.Record) *templates.RecordView {
	v := &templates.RecordView{
		Base:       s.base(r.ErrorCode+": "+r.ErrorMessage, ""),
		Code:       r.ErrorCode,
		Message:    r.ErrorMessage,
		Class:      r.ErrorClass,
		Severity:   r.Severity,
		ErrorType:  r.ErrorType,
		Repo:       r.Repo,
		RepoURL:    repoPath(r.Repo),
		Pattern:    r.MessagePattern,
		StableURL:  s.url(recordPath(r)),
		LookupURL:  s.url(lookupPath(r.ErrorCode)),
		APIURL:     "/api/v1" + recordPath(r),
		AnalyzedAt: r.AnalyzedAt,
	}
	v.Description = firstLine(r.Documentation)
	if r.HTTPStatus != nil {
		v.HTTPStatus = strconv.Itoa(*r.HTTPStatus)
	}
	if r.DatasetVersion != "" {
		v.DatasetInfo = "Dataset version " + r.DatasetVersion + "."
	}
	for _, sec := range []struct{ id, title, body string }{
		{"documentation", "What it means", r.Documentation},
		{"triggers", "When it happens", r.TriggerScenarios},
		{"situations", "Common situations", r.CommonSituations},
	} {
		if strings.TrimSpace(sec.body) != "" {
			v.Sections = append(v.Sections, templates.Section{ID: sec.id, Title: sec.title, Body: renderMarkdown(s.md, sec.body)})
		}
	}
	for _, sol := range r.Solutions {
		v.Solutions = append(v.Solutions, renderMarkdown(s.md, sol))
	}
	for _, tip := range r.PreventionTips {
		v.Tips = append(v.Tips, renderMarkdown(s.md, tip))
	}
	for _, cb := range []struct{ id, title, code string }{
		{"example-fix", "Example fix", r.ExampleFix},
		{"validation", "Validation", r.ValidationCode},
		{"type-guard", "Type guard", r.TypeGuard},
		{"try-catch", "Handling the error", r.TryCatchPattern},
	} {
		if strings.TrimSpace(cb.code) != "" {
			v.CodeBlocks = append(v.CodeBlocks, templates.CodeBlock{ID: cb.id, Title: cb.title, Code: cb.code})
		}
	}
	for _, t := range r.Tags {
		v.Tags = append(v.Tags, templates.Link{Label: t, URL: tagPath(t)})
	}
	v.Source = sourceView(r)
	return v
}

func sourceView(r *errkb.Record) *templates.SourceView {
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
	}
	for _, l := range lines {
		sv.Lines = append(sv.Lines, templates.SourceLine{Number: l.Number, Text: l.Text, URL: r.SourceLineURL(l.Number), IsError: l.IsError})
	}
	return sv
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
