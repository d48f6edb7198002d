package curate

import (
	"regexp"
	"strings"

	"github.com/errkb/errkb"
)

// Claim is one statement of a prose field: a paragraph or a list item of
// documentation, triggerScenarios or commonSituations, or one entry of
// solutions or preventionTips (its prose; code blocks in it are not
// claims). A claim ends with a Markdown link to the source it rests on.
type Claim struct {
	Field string // the record field
	Index int    // the entry of a list field; 0 for a string field
	Text  string // the claim's Markdown, trimmed
}

// Where names the claim for a problem report: "solutions[2]" or
// "documentation".
func (c Claim) Where() string {
	if c.Field == "solutions" || c.Field == "preventionTips" {
		return c.Field + "[" + itoa(c.Index) + "]"
	}
	return c.Field
}

// Claims splits the prose fields of r into claims.
func Claims(r *errkb.Record) []Claim {
	var out []Claim
	for _, f := range []struct {
		name string
		text string
	}{{"documentation", r.Documentation}, {"triggerScenarios", r.TriggerScenarios}, {"commonSituations", r.CommonSituations}} {
		for _, t := range statements(f.text) {
			out = append(out, Claim{Field: f.name, Text: t})
		}
	}
	for _, f := range []struct {
		name    string
		entries []string
	}{{"solutions", r.Solutions}, {"preventionTips", r.PreventionTips}} {
		for i, e := range f.entries {
			for _, t := range statements(e) {
				out = append(out, Claim{Field: f.name, Index: i, Text: t})
			}
		}
	}
	return out
}

// statements splits Markdown into paragraphs and list items, leaving out
// fenced code blocks.
func statements(md string) []string {
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
		if strings.HasPrefix(trimmed, "```") {
			flush()
			code = !code
			continue
		}
		switch {
		case code:
		case trimmed == "":
			flush()
		case listItem.MatchString(line):
			flush()
			cur = append(cur, listItem.ReplaceAllString(line, ""))
		default:
			cur = append(cur, trimmed)
		}
	}
	flush()
	return out
}

// listItem is the marker of a Markdown list item at the start of a line.
var listItem = regexp.MustCompile(`^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+`)

// endLink finds a claim's closing link: an inline link followed only by
// closing punctuation.
var endLink = regexp.MustCompile(`\]\((https?://[^\s()]+(?:\([^\s()]*\))?[^\s()]*)\)[\s).,;:]*$`)

// SourceURL returns the URL of the link c ends with.
func (c Claim) SourceURL() (string, bool) {
	m := endLink.FindStringSubmatch(c.Text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// anyURL finds every http(s) URL in Markdown: link destinations,
// autolinks and bare URLs.
var anyURL = regexp.MustCompile(`https?://[^\s<>()\]]+(?:\([^\s()]*\))?[^\s<>()\]]*`)

// URLs returns every URL of the prose fields of r, each once, in order.
func URLs(r *errkb.Record) []string {
	var (
		out  []string
		seen = map[string]bool{}
	)
	texts := []string{r.Documentation, r.TriggerScenarios, r.CommonSituations}
	texts = append(texts, r.Solutions...)
	texts = append(texts, r.PreventionTips...)
	for _, t := range texts {
		for _, u := range anyURL.FindAllString(t, -1) {
			u = strings.TrimRight(u, ".,;:")
			if !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
}
