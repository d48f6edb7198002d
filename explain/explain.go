// Package explain writes one error record as plain text for a terminal
// (what `errkb lookup` prints and what an error page answers to
// Accept: text/plain) and as Markdown with links to the source on GitHub.
// Both the command line and the web server use it, so the two never drift.
package explain

import (
	"fmt"
	"io"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/web/siteurl"
)

// pagePath is the site path of a record's page.
func pagePath(r *errkb.Record) string { return siteurl.Record(r.Repo, r.Slug) }

// Text writes r like `rustc --explain`: the headline, project and
// severity (where the source says one), the message, then every section
// of its page in page order (Sections), the source line with its GitHub
// link and the page URL. baseURL ("" for a site path) prefixes the URLs.
func Text(w io.Writer, r *errkb.Record, baseURL string) error {
	ew := &errWriter{w: w}
	if SeverityStated(r) {
		ew.printf("%s (%s, %s)\n", Headline(r), r.Repo, r.Severity)
	} else {
		ew.printf("%s (%s)\n", Headline(r), r.Repo)
	}
	ew.printf("  %s\n\n", r.ErrorMessage)
	writeTextParts(ew, append(identityParts(r, baseURL), Sections(r)...))
	if r.FilePath != "" {
		ew.printf("Source: %s:%d\n  %s\n", r.FilePath, r.LineNumber, r.SourceLineURL(r.LineNumber))
	}
	ew.printf("More: %s%s\n", baseURL, pagePath(r))
	return ew.err
}

// Markdown writes r as a Markdown document: the same sections as Text,
// with the source snippet in a fenced block and every line of it linked
// to GitHub at the analysed commit.
func Markdown(w io.Writer, r *errkb.Record, baseURL string) error {
	ew := &errWriter{w: w}
	ew.printf("# %s\n\n", mdInline(Headline(r)))
	if SeverityStated(r) {
		ew.printf("**%s** · %s · %s\n\n", mdInline(r.Repo), mdInline(r.Severity), codeSpan(r.ErrorMessage))
	} else {
		ew.printf("**%s** · %s\n\n", mdInline(r.Repo), codeSpan(r.ErrorMessage))
	}
	writeMarkdownParts(ew, append(identityParts(r, baseURL), Sections(r)...))
	if r.FilePath != "" {
		markdownSource(ew, r)
	}
	ew.printf("More: <%s%s>\n", baseURL, pagePath(r))
	return ew.err
}

// markdownSource is the source line's link and the snippet, each line
// linked to GitHub.
func markdownSource(ew *errWriter, r *errkb.Record) {
	ew.printf("## Source\n\n")
	if u := r.SourceLineURL(r.LineNumber); u != "" {
		ew.printf("[%s:%d](%s)", mdInline(r.FilePath), r.LineNumber, u)
	} else {
		ew.printf("%s:%d", mdInline(r.FilePath), r.LineNumber)
	}
	if sha := r.ShortSHA(); sha != "" {
		ew.printf(" at commit `%s`", sha)
	}
	ew.printf("\n\n")
	lines := r.SnippetLines()
	if len(lines) == 0 {
		return
	}
	fence := fenceFor(r.SourceCode)
	ew.printf("%s\n", fence)
	for _, l := range lines {
		mark := "  "
		if l.IsError {
			mark = "> "
		}
		ew.printf("%s%5d  %s\n", mark, l.Number, l.Text)
	}
	ew.printf("%s\n\n", fence)
	ew.printf("Lines on GitHub:")
	for _, l := range lines {
		if u := r.SourceLineURL(l.Number); u != "" {
			ew.printf(" [%d](%s)", l.Number, u)
		}
	}
	ew.printf("\n\n")
}

// MarkdownText is s escaped for Markdown, shown as written.
func MarkdownText(s string) string { return mdInline(s) }

// mdInline escapes the characters that would start Markdown syntax in a
// short piece of plain text.
func mdInline(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune("\\`*_{}[]<>()#+-.!|", c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// codeSpan is s as an inline code span, its delimiter longer than any run
// of backticks inside.
func codeSpan(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	ticks := "`"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	if len(ticks) > 1 || strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// fenceFor is a code fence longer than any run of backticks in s.
func fenceFor(s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ")
}

// errWriter keeps the first write error so the formatters read straight.
type errWriter struct {
	w   io.Writer
	err error
}

func (ew *errWriter) printf(format string, args ...any) {
	if ew.err == nil {
		_, ew.err = fmt.Fprintf(ew.w, format, args...)
	}
}
