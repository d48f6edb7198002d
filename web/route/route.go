// Package route says what a route of the site is made of: its pattern,
// the formats it answers in, whether its answers are kept, whether its
// work waits for a worker, and what the static export makes of it. The
// table of the site's routes is web/routes.go; the router, the response
// cache, format negotiation, the fast path, the sitemap and the export
// all read that one table.
package route

import (
	"strconv"
	"strings"
)

// Route is one entry of the route table.
type Route struct {
	// Pattern is the path the router matches, echo's syntax: ":name"
	// matches one segment (or the rest of one, as in "/sitemap-:n"), a
	// final "*" the rest of the path.
	Pattern string
	// Formats are what the route answers in. A route with HTML and Text
	// or Markdown answers each client in the one it asks for (Negotiate).
	Formats Format
	// Cached routes answer a GET or HEAD without a query from what the
	// dataset and binary alone decide: the first answer is kept and later
	// ones are answered before the router.
	Cached bool
	// Prepared routes answer from answers made at start-up (static
	// files), before the router too.
	Prepared bool
	// Admitted routes run as admitted work, queued and refused under load
	// (web/admission.go); a kept answer never waits.
	Admitted bool
	// Unlimited routes are exempt from the per-client rate limit: probes,
	// metrics and the static files every page loads.
	Unlimited bool
	// Export is what the static export writes for the route.
	Export Export
}

// Format is a set of the formats a route answers in.
type Format uint8

// The formats.
const (
	HTML Format = 1 << iota
	Text
	Markdown
	JSON
	XML
	File // a static file of its own type
)

func (f Format) String() string {
	var names []string
	for i, name := range []string{"HTML", "text", "Markdown", "JSON", "XML", "file"} {
		if f&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

// Negotiated reports whether the route answers in the format a client
// asks for (HTML, or text or Markdown beside it): its answers vary on
// Accept, and the response cache keys on the format.
func (r Route) Negotiated() bool { return r.Formats&HTML != 0 && r.Formats&(Text|Markdown) != 0 }

// Export is what the static export makes of a route.
type Export uint8

const (
	// NotExported routes exist only on a server: searches and lookups
	// with a query, probes, metrics.
	NotExported Export = iota
	// Page routes become folders with an index.html.
	Page
	// FileExport routes keep their path as a file.
	FileExport
)

func (e Export) String() string {
	return [...]string{"no", "page", "file"}[e]
}

// Negotiate picks the format an Accept header prefers among HTML, Text and
// Markdown: text/plain or text/markdown when named with a higher weight
// than text/html, else HTML. Wildcards ("*/*", what curl sends) keep HTML,
// so only a client that asks for text gets it.
func Negotiate(accept string) Format {
	plain, md, html := -1.0, -1.0, -1.0
	for part := range strings.SplitSeq(accept, ",") {
		typ, params, _ := strings.Cut(part, ";")
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		switch strings.ToLower(strings.TrimSpace(typ)) {
		case "text/plain":
			plain = max(plain, q)
		case "text/markdown":
			md = max(md, q)
		case "text/html", "application/xhtml+xml":
			html = max(html, q)
		}
	}
	switch {
	case md > 0 && md > html && md >= plain:
		return Markdown
	case plain > 0 && plain > html:
		return Text
	}
	return HTML
}

// Match reports whether path is one the pattern matches, as the router
// matches it, and the part a final "*" matched.
func (r Route) Match(path string) (rest string, ok bool) {
	pat := r.Pattern
	for {
		if pat == "" || path == "" {
			return "", pat == path
		}
		switch pat[0] {
		case '*':
			return path, true
		case ':':
			end := strings.IndexByte(pat, '/')
			seg := strings.IndexByte(path, '/')
			if end < 0 {
				end = len(pat)
			}
			if seg < 0 {
				seg = len(path)
			}
			if seg == 0 {
				return "", false
			}
			pat, path = pat[end:], path[seg:]
			continue
		}
		if pat[0] != path[0] {
			return "", false
		}
		pat, path = pat[1:], path[1:]
	}
}
