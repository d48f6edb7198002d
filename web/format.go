package web

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/explain"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/web/route"
	"github.com/errkb/errkb/web/siteurl"
)

// pageFormat is the format the request asks for on a route that answers
// in several (route.Route.Negotiated): Markdown for ?format=markdown,
// else what Accept prefers; 0 on any other route.
func pageFormat(c echo.Context) route.Format {
	if !byPattern[c.Path()].Negotiated() {
		return 0
	}
	if c.QueryParam("format") == "markdown" {
		return route.Markdown
	}
	return route.Negotiate(c.Request().Header.Get(echo.HeaderAccept))
}

// writeRecordAs answers r as text or Markdown; it reports false for HTML,
// which the caller renders.
func (s *Server) writeRecordAs(c echo.Context, format route.Format, r *errkb.Record) (bool, error) {
	c.Response().Header().Add(echo.HeaderVary, echo.HeaderAccept)
	var buf bytes.Buffer
	switch format {
	case route.Text:
		if err := explain.Text(&buf, r, s.absBase(c)); err != nil {
			return true, err
		}
		return true, c.Blob(http.StatusOK, echo.MIMETextPlainCharsetUTF8, buf.Bytes())
	case route.Markdown:
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
			fmt.Fprintf(&b, "  %-28s %s: %s\n    %s%s\n", h.Record.ErrorCode, h.Record.Repo, h.Record.ErrorMessage, base, recordURL(h.Record))
		}
	}
	if len(res.DidYouMean) > 0 {
		b.WriteString("Did you mean:\n")
		for _, sg := range res.DidYouMean {
			fmt.Fprintf(&b, "  %s\n    %s%s\n", sg.Text, base, suggestionURL(sg))
		}
	}
	fmt.Fprintf(&b, "Search: %s%s\n", base, siteurl.Search(q))
	return c.Blob(http.StatusNotFound, echo.MIMETextPlainCharsetUTF8, b.Bytes())
}
