package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/explain"
	"github.com/errkb/errkb/index"
)

// Formats an error page can be answered in besides HTML: the terminal text
// of `errkb lookup` for Accept: text/plain, and Markdown for
// ?format=markdown.
const (
	formatHTML     = "html"
	formatText     = "text"
	formatMarkdown = "markdown"
)

// formatRoutes are the routes that answer in the format the client asks
// for; their responses vary on Accept and the cache keys on the format.
var formatRoutes = map[string]bool{
	"/errors/:owner/:repo/:slug": true,
	"/lookup":                    true,
}

// pageFormat is the format the request asks for on a route that offers
// several, or "" on any other route.
func pageFormat(c echo.Context) string {
	if !formatRoutes[c.Path()] {
		return ""
	}
	if c.QueryParam("format") == formatMarkdown {
		return formatMarkdown
	}
	return negotiate(c.Request().Header.Get(echo.HeaderAccept))
}

// negotiate picks the format an Accept header prefers: text/plain or
// text/markdown when named with a higher weight than text/html, else
// HTML. Wildcards ("*/*", what curl sends) keep HTML, so only a client
// that asks for text gets it.
func negotiate(accept string) string {
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
		return formatMarkdown
	case plain > 0 && plain > html:
		return formatText
	}
	return formatHTML
}

// writeRecordAs answers r as text or Markdown; it reports false for HTML,
// which the caller renders.
func (s *Server) writeRecordAs(c echo.Context, format string, r *errkb.Record) (bool, error) {
	c.Response().Header().Add(echo.HeaderVary, echo.HeaderAccept)
	var buf bytes.Buffer
	switch format {
	case formatText:
		if err := explain.Text(&buf, r, s.absBase(c)); err != nil {
			return true, err
		}
		return true, c.Blob(http.StatusOK, echo.MIMETextPlainCharsetUTF8, buf.Bytes())
	case formatMarkdown:
		if err := explain.Markdown(&buf, r, s.absBase(c)); err != nil {
			return true, err
		}
		return true, c.Blob(http.StatusOK, "text/markdown; charset=utf-8", buf.Bytes())
	}
	return false, nil
}

// writeNoMatch answers a lookup without a single match in text: the
// candidates with their URLs, or what to try instead. The status is 404,
// so `curl -f` and scripts can tell it from a match.
func (s *Server) writeNoMatch(c echo.Context, q string, res *index.LookupResult) error {
	c.Response().Header().Add(echo.HeaderVary, echo.HeaderAccept)
	base := s.absBase(c)
	var b bytes.Buffer
	fmt.Fprintf(&b, "no single error matches %q\n", q)
	if len(res.Alternatives) > 0 {
		b.WriteString("Candidates:\n")
		for _, h := range res.Alternatives {
			fmt.Fprintf(&b, "  %-28s %s: %s\n    %s%s\n", h.Record.ErrorCode, h.Record.Repo, h.Record.ErrorMessage, base, recordPath(h.Record))
		}
	}
	if len(res.DidYouMean) > 0 {
		b.WriteString("Did you mean:\n")
		for _, sg := range res.DidYouMean {
			fmt.Fprintf(&b, "  %s\n    %s%s\n", sg.Text, base, suggestionPath(sg))
		}
	}
	fmt.Fprintf(&b, "Search: %s/search?q=%s\n", base, url.QueryEscape(q))
	return c.Blob(http.StatusNotFound, echo.MIMETextPlainCharsetUTF8, b.Bytes())
}
