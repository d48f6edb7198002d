package web

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/alecthomas/chroma/v2"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/explain"
	"github.com/errkb/errkb/templates"
)

// addIdentity fills what the record is: its headline, how an engineer
// meets it, the versions a curated record was written for, its severity
// where the source states one, and its faces.
func (s *Server) addIdentity(v *templates.RecordView, r *errkb.Record) {
	v.Headline = explain.Headline(r)
	if r.QualifiedName != "" {
		// The name the code uses heads the title and the crumbs too.
		v.Title = r.QualifiedName + ": " + r.ErrorMessage
		v.Crumbs[len(v.Crumbs)-1].Label = r.QualifiedName
	}
	v.Surface = explain.Surface(r)
	v.ShowSeverity = explain.SeverityStated(r)
	v.WrittenFor = writtenFor(r)
	if r.Internal {
		v.Internal = explain.InternalNote
	}
	v.FacesTitle = explain.FacesTitle
	for _, f := range r.Faces {
		fv := templates.FaceView{Side: explain.SideName(f.Side), Package: f.Package, Name: f.Name,
			Relation: f.Relation, JoinURL: f.GithubURL, JoinPlace: f.FilePath}
		if o, ok := s.ds.ByID(f.ID); ok {
			fv.URL = recordURL(o)
		}
		v.Faces = append(v.Faces, fv)
	}
}

// writtenFor is "Written for nats-io/nats-server v2.15.3, ..." from the
// curated record's writtenFor object (repo to version), which the record
// model does not hold: it is read from the record's own JSON. "" when the
// record says no version.
func writtenFor(r *errkb.Record) string {
	var w struct {
		WrittenFor map[string]string `json:"writtenFor"`
	}
	if raw := r.RawJSON(); len(raw) == 0 || !strings.Contains(string(raw), `"writtenFor"`) || json.Unmarshal(raw, &w) != nil || len(w.WrittenFor) == 0 {
		return ""
	}
	repos := make([]string, 0, len(w.WrittenFor))
	for repo := range w.WrittenFor {
		repos = append(repos, repo)
	}
	slices.Sort(repos)
	for i, repo := range repos {
		repos[i] = repo + " " + w.WrittenFor[repo]
	}
	return "Written for " + strings.Join(repos, ", ") + "."
}

// pageSections renders explain.Sections, the sections every format shows,
// for the page: prose as Markdown with the sources it cites beneath it,
// facts with their links, code highlighted. Where it is raised has its
// own section on the page (call sites and wrapping), so it is left out.
func (s *Server) pageSections(r *errkb.Record, lexer chroma.Lexer) []templates.PageSection {
	goLexer := s.lexers.forFile("x.go")
	var out []templates.PageSection
	for _, sec := range explain.Sections(r) {
		if sec.ID == "raised" {
			continue
		}
		ps := templates.PageSection{ID: sec.ID, Title: sec.Title, Intro: sec.Intro, Numbered: sec.Numbered}
		switch {
		case strings.TrimSpace(sec.Body) == "":
		case len(r.Sources) > 0:
			ps.Claims = s.claimsOf(r, sec.Body)
		default:
			ps.Body = renderMarkdown(s.md, sec.Body)
		}
		for _, f := range sec.Facts {
			if f.MD != "" {
				ps.Items = append(ps.Items, templates.Prose{Body: renderMarkdown(s.md, f.MD), Sources: cited(r, f.MD)})
				continue
			}
			ps.Facts = append(ps.Facts, factView(f, goLexer))
		}
		if strings.TrimSpace(sec.Code) != "" {
			lx := lexer
			if sec.ID == "type-guard" && !explain.ShowsGuard(r) {
				lx = goLexer // the client-side check is Go whatever the record's language
			}
			ps.Code = &templates.CodeBlock{ID: sec.ID, Title: sec.Title, Code: sec.Code, HTML: highlightBlock(lx, sec.Code), Language: languageName(lx)}
			s.markBroken(&ps, r, lx)
		}
		out = append(out, ps)
	}
	return out
}

func factView(f explain.Fact, goLexer chroma.Lexer) templates.Fact {
	fv := templates.Fact{Words: f.Words, Lit: f.Lit, Place: f.Place, URL: f.URL, Quote: f.Quote}
	if f.Code != "" {
		fv.Code = &templates.CodeBlock{Title: f.Lit, Code: f.Code, HTML: highlightBlock(goLexer, f.Code), Language: languageName(goLexer)}
	}
	for _, st := range f.Steps {
		fv.Steps = append(fv.Steps, factView(st, goLexer))
	}
	return fv
}

// cited is the record's sources that md links to, in the record's order,
// so each claim shows the sources it rests on beneath it.
func cited(r *errkb.Record, md string) []templates.Citation {
	var out []templates.Citation
	for _, c := range r.Sources {
		if c.URL != "" && strings.Contains(md, "("+c.URL+")") {
			note := c.Note
			if note == "" {
				note = c.URL
			}
			out = append(out, templates.Citation{URL: c.URL, Note: note})
		}
	}
	return out
}
