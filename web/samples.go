package web

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/alecthomas/chroma/v2"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/explain"
	"github.com/errkb/errkb/templates"
)

// SampleKey names one code field of one record in Config.BrokenSamples:
// "repo/slug field", field as the record's JSON spells it.
func SampleKey(repo, slug, field string) string { return repo + "/" + slug + " " + field }

// sampleFields are the code sections of a page whose samples the compile
// test checks, by section id: the record field each shows.
var sampleFields = map[string]string{
	"example-fix": "exampleFix",
	"validation":  "validationCode",
	"type-guard":  "typeGuard",
	"try-catch":   "tryCatchPattern",
}

// sampleOf is the record's code in a JSON code field.
func sampleOf(r *errkb.Record, field string) string {
	switch field {
	case "exampleFix":
		return r.ExampleFix
	case "validationCode":
		return r.ValidationCode
	case "typeGuard":
		return r.TypeGuard
	case "tryCatchPattern":
		return r.TryCatchPattern
	}
	return ""
}

// markBroken marks a code section whose sample does not compile with the
// compiler's messages, and sets beside it the same field of the curated
// record that replaces this one's samples (its replacesSamplesOf names
// this record), when there is one.
func (s *Server) markBroken(ps *templates.PageSection, r *errkb.Record, lexer chroma.Lexer) {
	field, ok := sampleFields[ps.ID]
	if !ok || ps.Code == nil || ps.Code.Code != sampleOf(r, field) {
		return // not the record's own sample (a client-side check we wrote)
	}
	ps.Broken = s.cfg.BrokenSamples[SampleKey(r.Repo, r.Slug, field)]
	if len(ps.Broken) == 0 {
		return
	}
	if o := s.replacement(r); o != nil {
		if code := sampleOf(o, field); code != "" && len(s.cfg.BrokenSamples[SampleKey(o.Repo, o.Slug, field)]) == 0 {
			ps.Fixed = &templates.CodeBlock{ID: ps.ID + "-fixed", Title: ps.Title, Code: code, HTML: highlightBlock(lexer, code), Language: languageName(lexer)}
			ps.FixedFrom = templates.Link{Label: explain.Headline(o), URL: recordURL(o)}
		}
	}
}

// replacement is the record whose replacesSamplesOf names r, or nil. Only
// pages with a broken sample ask, and the response cache keeps them, so
// the scan of every record's JSON is rare.
func (s *Server) replacement(r *errkb.Record) *errkb.Record {
	key := []byte(`"replacesSamplesOf"`)
	for _, o := range s.ds.Records {
		raw := o.RawJSON()
		if !bytes.Contains(raw, key) || !bytes.Contains(raw, []byte(r.ID)) {
			continue
		}
		var v struct {
			Replaces []string `json:"replacesSamplesOf"`
		}
		if json.Unmarshal(raw, &v) == nil && slices.Contains(v.Replaces, r.ID) {
			return o
		}
	}
	return nil
}
