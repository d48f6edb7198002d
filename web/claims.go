package web

import (
	"regexp"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/templates"
)

// claimsOf splits a curated record's Markdown prose into its claims, a
// paragraph or list item each (as curate splits them to check that each
// rests on a source), rendered one by one with the sources each cites
// beneath it. Code blocks stay with the claim before them.
func (s *Server) claimsOf(r *errkb.Record, md string) []templates.Prose {
	var out []templates.Prose
	for _, b := range mdBlocks(md) {
		out = append(out, templates.Prose{Body: renderMarkdown(s.md, b), Sources: cited(r, b)})
	}
	return out
}

// claimItem is the marker of a Markdown list item at the start of a line.
var claimItem = regexp.MustCompile(`^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+`)

// mdBlocks splits Markdown into paragraphs and list items, each kept as
// written; a fenced code block belongs to the block it follows.
func mdBlocks(md string) []string {
	var (
		out  []string
		cur  []string
		code bool
	)
	flush := func() {
		if t := strings.TrimSpace(strings.Join(cur, "\n")); t != "" {
			out = append(out, t)
		}
		cur = cur[:0]
	}
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			code = !code
			cur = append(cur, line)
		case code:
			cur = append(cur, line)
		case trimmed == "":
			flush()
		case claimItem.MatchString(line):
			flush()
			cur = append(cur, line)
		default:
			cur = append(cur, line)
		}
	}
	flush()
	return out
}
