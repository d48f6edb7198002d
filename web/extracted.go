package web

import (
	"strconv"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/templates"
)

// addExtracted fills the facts that extracted records carry: the numeric
// code, the Go package, where the error is raised and what it wraps.
// Records without them (curated ones) show nothing more.
func (s *Server) addExtracted(v *templates.RecordView, r *errkb.Record) {
	if r.NumericCode != nil {
		v.NumericCode = strconv.Itoa(*r.NumericCode)
	}
	v.GoPackage = r.GoPackage
	for _, c := range r.CallSites {
		v.CallSites = append(v.CallSites, templates.CallSite{File: c.FilePath, Line: c.LineNumber, Function: c.Function, URL: c.GithubURL})
	}
	v.Wraps = s.recordLinks(r.Wraps)
	v.WrappedBy = s.recordLinks(r.WrappedBy)
}

// recordLinks links to the records with these ids; unknown ids are left out.
func (s *Server) recordLinks(ids []string) []templates.Link {
	var links []templates.Link
	for _, id := range ids {
		if o, ok := s.ds.ByID(id); ok {
			label := o.ErrorClass
			if label == "" {
				label = o.ErrorCode
			}
			links = append(links, templates.Link{Label: label, URL: recordPath(o)})
		}
	}
	return links
}

// attribution is the provenance of a project's extracted records, for its
// page; nil when its records were not extracted.
func (s *Server) attribution(repo string) *templates.Attribution {
	p, ok := s.ds.Provenance[repo]
	if !ok {
		return nil
	}
	tool := p.Tool
	if tool == "" {
		tool = "a tool"
	}
	summary := "Extracted by " + tool + " from " + p.Module
	if p.Version != "" {
		summary += " " + p.Version
	}
	if c := p.Commit; c != "" {
		summary += " at commit " + c[:min(len(c), 12)]
	}
	a := &templates.Attribution{Summary: summary + ".", License: p.License}
	ref := p.Commit
	if ref == "" {
		ref = p.Version
	}
	if p.LicenseFile != "" && ref != "" {
		a.LicenseURL = "https://github.com/" + p.Repo + "/blob/" + ref + "/" + p.LicenseFile
	}
	return a
}
