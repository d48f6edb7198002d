package templates

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/errkb/errkb"
)

// ProjectView is the page of one project: its errors grouped by package or
// subsystem in tables a reader can scan like a project's own error table,
// narrow with a filter and sort by code or number.
type ProjectView struct {
	Base
	Repo       string
	Total      int    // errors of the project
	Shown      int    // errors matching Filter; Total without one
	Filter     string // the ?q= filter, "" for none
	FilterURL  string // the page itself: the filter form's action and "clear" link
	Sort       string // "code" or "numeric"
	SortLinks  []Link // one per order; the current one has no URL
	GroupedBy  string // what the groups are: "package", "directory", "file", "tag"; "" for one group
	Groups     []ErrorGroup
	HasStatus  bool // some error has an HTTP status
	HasNumeric bool // some error has a numeric code: offer to sort by it
	// Source is where the records came from and their license; nil when
	// the dataset does not say.
	Source *errkb.Provenance
}

// ErrorGroup is one package or subsystem of a project.
type ErrorGroup struct {
	ID     string // anchor, unique on the page
	Title  string
	Total  int
	Shown  int
	Rows   []ErrorRow
	Hidden bool // no row matches the filter
	// HasStatus and HasNumeric show the HTTP status and numeric code
	// columns, in the groups where some error has them.
	HasStatus, HasNumeric bool
}

// ErrorRow is one error in a project's table.
type ErrorRow struct {
	URL         string
	Code        string
	Message     string
	HTTPStatus  string // "" when the record has none
	NumericCode string // "" when the record has none
	Hidden      bool   // does not match the filter
}

// ProjectsView lists every project, with a filter.
type ProjectsView struct {
	Base
	Projects []ProjectItem
	Total    int
	Shown    int
	Filter   string
	Errors   int // errors over all projects
}

// ProjectItem is one project in a list of projects.
type ProjectItem struct {
	Repo   string
	URL    string
	Count  int
	Hidden bool // does not match the filter
}

// Count is n with its noun in agreement and thousands separated: "1
// error", "3,000 errors".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// Thousands writes n with commas between groups of three digits.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// shortSHA is the first 12 characters of a commit id.
func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// breakable writes a name with <wbr> after each '/', '-', '_' and '.', so
// a long name wraps between its parts rather than mid-word. It is a Go
// component because templ would put spaces between the parts.
func breakable(s string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		for i, part := range breakPoints(s) {
			if i > 0 {
				if _, err := io.WriteString(w, "<wbr>"); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, templ.EscapeString(part)); err != nil {
				return err
			}
		}
		return nil
	})
}

// breakPoints splits s after each '/', '-', '_' and '.', where a long
// project or package name may wrap: the template puts a <wbr> between the
// pieces, so a name breaks between its words instead of mid-word.
func breakPoints(s string) []string {
	var out []string
	last := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '/', '-', '_', '.':
			if i+1 < len(s) {
				out = append(out, s[last:i+1])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

// openIndexMax is the most groups whose index is shown open; a longer
// one starts folded, so the tables are not a screen or more away.
const openIndexMax = 24

// groupNoun names what a project's groups are, for "in 12 packages".
func groupNoun(groupedBy string) string {
	if groupedBy == "" {
		return "group"
	}
	return groupedBy
}

// directories and other nouns whose plural is not noun+"s".
func plural(noun string) string {
	if noun == "directory" {
		return "directories"
	}
	return noun + "s"
}

// groupCount is a group's count beside its heading: "40", or "3 of 40"
// under a filter.
func groupCount(g ErrorGroup, filtered bool) string {
	if filtered {
		return Thousands(g.Shown) + " of " + Thousands(g.Total)
	}
	return Thousands(g.Total)
}

// filterStatus says what a filter left: "Showing 12 of 300 errors
// matching “timeout”." The script writes the same sentence as the reader
// types (web/static/app.js, filterStatus).
func filterStatus(shown, total int, one, many, q string) string {
	if shown == 0 {
		return "No " + many + " match “" + q + "”."
	}
	return "Showing " + Thousands(shown) + " of " + Count(total, one, many) + " matching “" + q + "”."
}

// moduleURL is the module's page on pkg.go.dev at the version the records
// were made from.
func moduleURL(p errkb.Provenance) string {
	if p.Module == "" {
		return ""
	}
	u := "https://pkg.go.dev/" + p.Module
	if p.Version != "" {
		u += "@" + p.Version
	}
	return u
}

// licenseURL links the license text: the file named in _source.json, in
// the repository at the analysed commit or, without one, at the version's
// tag; else pkg.go.dev's license tab of the module at that version.
func licenseURL(p errkb.Provenance) string {
	ref := p.Commit
	if ref == "" {
		ref = p.Version
	}
	if p.Repo != "" && p.LicenseFile != "" && ref != "" {
		return "https://github.com/" + p.Repo + "/blob/" + ref + "/" + p.LicenseFile
	}
	if u := moduleURL(p); u != "" {
		return u + "?tab=licenses"
	}
	return ""
}

// commitURL links the analysed commit on GitHub, for a full commit id
// only.
func commitURL(p errkb.Provenance) string {
	if p.Repo == "" || len(p.Commit) != 40 || strings.Trim(p.Commit, "0123456789abcdef") != "" {
		return ""
	}
	return "https://github.com/" + p.Repo + "/commit/" + p.Commit
}
