package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb/explain"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/templates"
	"github.com/errkb/errkb/web/route"
)

// Unexplained is what the search page says first when a pasted text (a
// message or log line, several words long) names no known error: its
// results only share words with it.
const Unexplained = "No known error has this text; these share words with it."

// pastedWords is how many words make a query pasted text rather than
// search terms: a code or two words are searched, not explained.
const pastedWords = 3

// explained reports whether a pasted text names a known error, as lookup
// decides; queries that are not pasted text, later pages and filtered
// searches are not asked about (true).
func explained(ctx context.Context, sr Searcher, q index.Query, page int) (bool, error) {
	if page != 1 || q.Repo != "" || q.Tag != "" || q.Severity != "" || len(strings.Fields(q.Text)) < pastedWords {
		return true, nil
	}
	res, err := sr.Lookup(ctx, q.Text)
	if err != nil {
		return false, err
	}
	return res.Match != nil, nil
}

// writeSearchAs answers a search in text, for a terminal, or in
// Markdown: what the page says first (or the total), the suggestions, and
// each hit with its code, project, message and page URL.
func (s *Server) writeSearchAs(c echo.Context, format route.Format, v templates.SearchView) error {
	c.Response().Header().Add(echo.HeaderVary, echo.HeaderAccept)
	base := s.absBase(c)
	md := format == route.Markdown
	var b bytes.Buffer
	lead := v.Notice
	if lead == "" {
		lead = templates.Count(v.Total, "matching error", "matching errors")
	}
	fmt.Fprintf(&b, "%s\n", lead)
	if md {
		b.WriteString("\n")
	}
	for _, dym := range v.DidYouMean {
		if md {
			fmt.Fprintf(&b, "Did you mean [%s](%s%s)?\n\n", explain.MarkdownText(dym.Label), base, dym.URL)
		} else {
			fmt.Fprintf(&b, "Did you mean: %s\n  %s%s\n", dym.Label, base, dym.URL)
		}
	}
	for i, h := range v.Hits {
		if md {
			fmt.Fprintf(&b, "%d. [%s](%s%s) (%s): %s\n", v.First+i, explain.MarkdownText(h.Code), base, h.URL, explain.MarkdownText(h.Repo), explain.MarkdownText(h.Message))
		} else {
			fmt.Fprintf(&b, "%d. %s (%s)\n   %s\n   %s%s\n", v.First+i, h.Code, h.Repo, h.Message, base, h.URL)
		}
	}
	if v.Next != "" {
		if md {
			fmt.Fprintf(&b, "\n[More](%s%s)\n", base, v.Next)
		} else {
			fmt.Fprintf(&b, "More: %s%s\n", base, v.Next)
		}
	}
	ct := echo.MIMETextPlainCharsetUTF8
	if md {
		ct = "text/markdown; charset=utf-8"
	}
	return c.Blob(http.StatusOK, ct, b.Bytes())
}
