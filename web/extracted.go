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
			links = append(links, templates.Link{Label: label, URL: recordURL(o)})
		}
	}
	return links
}
