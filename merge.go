package errkb

import (
	"bytes"
	"encoding/json"
	"path"
	"slices"
	"strconv"
	"strings"
)

// mergeCurated joins each curated record with the record the extractor
// made of the same error (its twin: one read from a folder with a
// provenance file, of the same project, with the same slug or else the
// same errorCode or alias). The curated record stays, its own fields as
// written; what the twin knows and the curated record does not say is
// added beside them (see Extracted), and the twin is dropped. Neither
// loses a fact, whatever the order of the folders.
//
// merged are the curated records that changed: their raw JSON now holds
// the extracted facts too, so a storage engine that moved their bytes
// must be given them again.
func mergeCurated(records []*Record, extractedDirs map[string]Provenance) (kept, merged []*Record) {
	if len(extractedDirs) == 0 {
		return records, nil
	}
	provOf := func(r *Record) (Provenance, bool) {
		pv, ok := extractedDirs[path.Dir(r.Location.File)]
		return pv, ok
	}
	twins := newTwinFinder(records, provOf)
	if twins == nil {
		return records, nil
	}
	taken := map[*Record]bool{}
	for _, c := range records {
		if _, ok := provOf(c); ok || c.Extracted != nil {
			continue
		}
		t := twins.find(c, taken)
		if t == nil {
			continue
		}
		taken[t] = true
		pv, _ := provOf(t)
		mergeTwin(c, t, firstOf(pv.Version, t.AnalyzedSha))
		merged = append(merged, c)
	}
	kept = records[:0]
	for _, r := range records {
		if !taken[r] {
			kept = append(kept, r)
		}
	}
	return kept, merged
}

// firstOf is the first of its arguments that is not empty.
func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// twinFinder keys the extracted records by what a curated record may
// share with one: repo and slug, repo and a code.
type twinFinder struct {
	bySlug map[string]*Record
	byCode map[string][]*Record
}

func newTwinFinder(records []*Record, extracted func(*Record) (Provenance, bool)) *twinFinder {
	f := &twinFinder{bySlug: map[string]*Record{}, byCode: map[string][]*Record{}}
	for _, r := range records {
		if _, ok := extracted(r); !ok {
			continue
		}
		repo := strings.ToLower(r.Repo)
		if _, dup := f.bySlug[repo+"\x00"+r.Slug]; !dup {
			f.bySlug[repo+"\x00"+r.Slug] = r
		}
		for _, code := range append([]string{r.ErrorCode}, r.Aliases...) {
			if code != "" {
				f.byCode[repo+"\x00"+code] = append(f.byCode[repo+"\x00"+code], r)
			}
		}
	}
	if len(f.bySlug) == 0 {
		return nil
	}
	return f
}

// find returns c's twin not yet taken: the one with c's slug, else one
// with one of c's codes, of c's Go package when c names one.
func (f *twinFinder) find(c *Record, taken map[*Record]bool) *Record {
	repo := strings.ToLower(c.Repo)
	if t := f.bySlug[repo+"\x00"+c.Slug]; t != nil && !taken[t] {
		return t
	}
	var first *Record
	for _, code := range append([]string{c.ErrorCode}, c.Aliases...) {
		for _, t := range f.byCode[repo+"\x00"+code] {
			if taken[t] {
				continue
			}
			if c.GoPackage == "" || t.GoPackage == c.GoPackage {
				return t
			}
			if first == nil {
				first = t
			}
		}
	}
	return first
}

// mergeTwin adds to c what its twin t, read at version, knows and c does
// not say. c's raw JSON keeps its bytes and gains the key "extracted";
// the typed fields c left empty take t's values, so pages and lookups
// read one record.
func mergeTwin(c, t *Record, version string) {
	raw := c.RawJSON() // before any field changes: a storage engine rebuilds it from them
	e := &Extracted{
		ID: t.ID, Slug: t.Slug, ErrorCode: t.ErrorCode, Version: version,
		FilePath: t.FilePath, LineNumber: t.LineNumber, GithubURL: t.GithubURL,
	}
	e.Differs = differences(c, t)
	fillPtr(&c.NumericCode, &e.NumericCode, t.NumericCode)
	fillPtr(&c.HTTPStatus, &e.HTTPStatus, t.HTTPStatus)
	fill(&c.ErrorClass, &e.ErrorClass, t.ErrorClass)
	fill(&c.GoPackage, &e.GoPackage, t.GoPackage)
	fill(&c.QualifiedName, &e.QualifiedName, t.QualifiedName)
	fill(&c.Surface, &e.Surface, t.Surface)
	fillList(&c.CallSites, &e.CallSites, t.CallSites)
	fillList(&c.Faces, &e.Faces, t.Faces)
	fillList(&c.Conditions, &e.Conditions, t.Conditions)
	fillList(&c.ReturnedBy, &e.ReturnedBy, t.ReturnedBy)
	fillList(&c.HandledAt, &e.HandledAt, t.HandledAt)
	fillList(&c.Tests, &e.Tests, t.Tests)
	fillList(&c.Docs, &e.Docs, t.Docs)
	// The twin's names are c's too, so that its links and codes resolve
	// to c; c's own code is not an alias of itself.
	for _, a := range append([]string{t.ErrorCode}, t.Aliases...) {
		if a != "" && a != c.ErrorCode && !slices.Contains(c.Aliases, a) {
			c.Aliases = append(c.Aliases, a)
			if a != t.ErrorCode {
				e.Aliases = append(e.Aliases, a)
			}
		}
	}
	c.Extracted = e
	c.HoldRaw(withKey(raw, "extracted", e), nil)
}

// fill sets the empty *dst, and *ext, to v.
func fill(dst, ext *string, v string) {
	if *dst == "" && v != "" {
		*dst, *ext = v, v
	}
}

func fillPtr(dst, ext **int, v *int) {
	if *dst == nil && v != nil {
		n := *v
		*dst, *ext = &n, &n
	}
}

func fillList[E any](dst, ext *[]E, v []E) {
	if len(*dst) == 0 && len(v) > 0 {
		*dst, *ext = slices.Clone(v), slices.Clone(v)
	}
}

// differences lists the facts c and its twin t both state, differently.
// c's location differs only when it is neither t's nor one of t's call
// sites: a curated record may point at the place that raises the error.
func differences(c, t *Record) []Difference {
	var out []Difference
	add := func(field, cv, tv, url string) {
		if cv != "" && tv != "" && cv != tv {
			out = append(out, Difference{Field: field, Curated: cv, Extracted: tv, GithubURL: url})
		}
	}
	add("errorCode", c.ErrorCode, t.ErrorCode, "")
	add("errorMessage", c.ErrorMessage, t.ErrorMessage, t.GithubURL)
	add("errorClass", c.ErrorClass, t.ErrorClass, "")
	add("numericCode", optItoa(c.NumericCode), optItoa(t.NumericCode), "")
	add("httpStatus", optItoa(c.HTTPStatus), optItoa(t.HTTPStatus), "")
	if c.FilePath != "" && t.FilePath != "" && !sameSite(c, t) {
		add("location", c.FilePath+" line "+itoa(c.LineNumber), t.FilePath+" line "+itoa(t.LineNumber), t.GithubURL)
	}
	return out
}

func sameSite(c, t *Record) bool {
	if c.FilePath == t.FilePath && c.LineNumber == t.LineNumber {
		return true
	}
	return slices.ContainsFunc(t.CallSites, func(s CallSite) bool {
		return s.FilePath == c.FilePath && s.LineNumber == c.LineNumber
	})
}

func optItoa(n *int) string {
	if n == nil {
		return ""
	}
	return strconv.Itoa(*n)
}

// withKey returns the JSON object raw with the key added last, its bytes
// otherwise as they were.
func withKey(raw []byte, key string, v any) []byte {
	var val bytes.Buffer
	enc := json.NewEncoder(&val)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return raw // a value of this package's own types always encodes
	}
	body := bytes.TrimRight(raw, " \t\r\n")
	end := len(body) - 1
	if end < 1 || body[end] != '}' {
		return raw
	}
	out := make([]byte, 0, len(raw)+len(key)+val.Len()+4)
	out = append(out, body[:end]...)
	if len(bytes.TrimSpace(body[1:end])) > 0 {
		out = append(out, ',')
	}
	out = strconv.AppendQuote(out, key)
	out = append(out, ':')
	out = append(out, bytes.TrimRight(val.Bytes(), "\n")...)
	out = append(out, '}')
	return append(out, raw[len(body):]...)
}
