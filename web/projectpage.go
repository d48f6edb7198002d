package web

import (
	"cmp"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/templates"
	"github.com/errkb/errkb/web/siteurl"
)

// The project pages: a project's errors filtered, sorted and grouped (by
// Go package, directory, file or tag), and the list of every project.

// The orders a project page offers (?sort=).
const (
	sortCode    = "code"
	sortNumeric = "numeric"
)

// minGrouped is the smallest project whose page is split into groups: a
// handful of errors reads best as one table.
const minGrouped = 12

// grouping is one way of splitting a project's errors: by the Go package
// that defines them, the directory or file that raises them, or their
// first tag.
type grouping struct {
	name string
	key  func(*errkb.Record) string
}

var groupings = []grouping{
	{"package", func(r *errkb.Record) string { return r.GoPackage }},
	{"directory", func(r *errkb.Record) string {
		if r.FilePath == "" {
			return ""
		}
		return path.Dir(r.FilePath)
	}},
	{"file", func(r *errkb.Record) string { return r.FilePath }},
	{"tag", func(r *errkb.Record) string {
		if len(r.Tags) == 0 {
			return ""
		}
		return r.Tags[0]
	}},
}

// chooseGrouping picks the coarsest grouping that splits recs into
// groups of two errors or more on average, none holding more than half of
// them; failing that, the coarsest that splits them at all; nil keeps them
// in one group. The coarsest wins because a reader scans a few large
// groups faster than many small ones, and a package is what a Go reader
// looks for first; but nats-server defines almost all its errors in one
// package, where its files (jetstream_errors_generated.go, stream.go,
// mqtt.go) are the subsystems a reader knows.
func chooseGrouping(recs []*errkb.Record) *grouping {
	if len(recs) < minGrouped {
		return nil
	}
	var fallback *grouping
	for i := range groupings {
		g := &groupings[i]
		sizes := map[string]int{}
		for _, r := range recs {
			sizes[g.key(r)]++
		}
		n := len(sizes)
		if sizes[""] > 0 && n > 1 {
			n-- // records without the key go to "Other", which alone splits nothing
		}
		if n < 2 || len(sizes) > len(recs)/2 {
			continue
		}
		largest := 0
		for _, c := range sizes {
			largest = max(largest, c)
		}
		if largest <= len(recs)/2 {
			return g
		}
		if fallback == nil {
			fallback = g
		}
	}
	return fallback
}

// groupTitle shortens a package path to its part below the module, as the
// module is shown once in the attribution; other keys are shown as they are.
func groupTitle(by, key, module string) string {
	if key == "" {
		return "Other"
	}
	if by == "package" && module != "" {
		if rest, ok := strings.CutPrefix(key, module+"/"); ok {
			return rest
		}
	}
	return key
}

// projectQuery is what a reader asked of a project page.
type projectQuery struct {
	filter string // ?q=
	sort   string // ?sort=
}

// projectView builds the page of one project: rows filtered and sorted,
// then grouped. Rows that do not match the filter are kept, hidden, so the
// script can show them again as the reader widens the filter.
func (s *Server) projectView(repo string, recs []*errkb.Record, pq projectQuery) templates.ProjectView {
	v := templates.ProjectView{Base: s.base(repo, ""), Repo: repo, Total: len(recs),
		Filter: pq.filter, FilterURL: siteurl.Project(repo), Sort: pq.sort}
	v.Crumbs = []templates.Link{{Label: "Projects", URL: siteurl.Projects}, {Label: repo}}
	v.Canonical = s.url(siteurl.Project(repo))
	v.Description = "The " + templates.Count(len(recs), "error", "errors") + " of " + repo + ": codes, messages and statuses, with a filter."
	module := ""
	if p, ok := s.ds.Provenance[repo]; ok {
		v.Source = &p
		module = p.Module
	}
	sorted := sortRecords(recs, pq.sort)
	words := filterWords(pq.filter)
	g := chooseGrouping(recs)
	index := map[string]int{}
	for _, r := range sorted {
		row := errorRow(r)
		v.HasStatus = v.HasStatus || row.HTTPStatus != ""
		v.HasNumeric = v.HasNumeric || row.NumericCode != ""
		row.Hidden = len(words) > 0 && !matchesAll(rowText(row), words)
		key := ""
		if g != nil {
			key = g.key(r)
		}
		i, ok := index[key]
		if !ok {
			i = len(v.Groups)
			index[key] = i
			title := "Errors"
			if g != nil {
				title = groupTitle(g.name, key, module)
			}
			v.Groups = append(v.Groups, templates.ErrorGroup{Title: title})
		}
		grp := &v.Groups[i]
		grp.Rows = append(grp.Rows, row)
		grp.HasStatus = grp.HasStatus || row.HTTPStatus != ""
		grp.HasNumeric = grp.HasNumeric || row.NumericCode != ""
		grp.Total++
		if !row.Hidden {
			grp.Shown++
			v.Shown++
		}
	}
	if g != nil {
		v.GroupedBy = g.name
	}
	finishGroups(v.Groups)
	v.SortLinks = sortLinks(repo, pq)
	return v
}

// finishGroups orders groups by title with "Other" last, and gives each
// a unique anchor.
func finishGroups(groups []templates.ErrorGroup) {
	slices.SortFunc(groups, func(a, b templates.ErrorGroup) int {
		return cmp.Or(cmp.Compare(boolInt(a.Title == "Other"), boolInt(b.Title == "Other")),
			strings.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title)), strings.Compare(a.Title, b.Title))
	})
	seen := map[string]bool{}
	for i := range groups {
		id := "g-" + anchorOf(groups[i].Title)
		for n := 2; seen[id]; n++ {
			id = "g-" + anchorOf(groups[i].Title) + "-" + strconv.Itoa(n)
		}
		seen[id] = true
		groups[i].ID = id
		groups[i].Hidden = groups[i].Shown == 0
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// anchorOf keeps the letters and digits of s, lower-cased, with '-' for
// anything else: "server/jetstream_api.go" -> "server-jetstream-api-go".
func anchorOf(s string) string {
	b := make([]byte, 0, len(s))
	for _, c := range []byte(strings.ToLower(s)) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
	}
	return strings.TrimSuffix(string(b), "-")
}

// sortRecords orders a project's records by code, or by numeric code
// with the records that have none after the others; ties go by slug,
// unique in a project. Each code is lower-cased once, not per comparison:
// at 1,000 records that was a third of the page's time.
func sortRecords(recs []*errkb.Record, order string) []*errkb.Record {
	type keyed struct {
		r     *errkb.Record
		lower string
	}
	ks := make([]keyed, len(recs))
	for i, r := range recs {
		ks[i] = keyed{r, strings.ToLower(r.ErrorCode)}
	}
	byCode := func(a, b keyed) int {
		return cmp.Or(strings.Compare(a.lower, b.lower), strings.Compare(a.r.ErrorCode, b.r.ErrorCode), strings.Compare(a.r.Slug, b.r.Slug))
	}
	cmpFn := byCode
	if order == sortNumeric {
		cmpFn = func(a, b keyed) int {
			an, bn := a.r.NumericCode, b.r.NumericCode
			switch {
			case an == nil && bn == nil:
				return byCode(a, b)
			case an == nil:
				return 1
			case bn == nil:
				return -1
			}
			return cmp.Or(cmp.Compare(*an, *bn), byCode(a, b))
		}
	}
	slices.SortFunc(ks, cmpFn)
	out := make([]*errkb.Record, len(ks))
	for i, k := range ks {
		out[i] = k.r
	}
	return out
}

func errorRow(r *errkb.Record) templates.ErrorRow {
	row := templates.ErrorRow{URL: recordURL(r), Code: r.ErrorCode, Message: r.ErrorMessage}
	if r.HTTPStatus != nil {
		row.HTTPStatus = strconv.Itoa(*r.HTTPStatus)
	}
	if r.NumericCode != nil {
		row.NumericCode = strconv.Itoa(*r.NumericCode)
	}
	return row
}

// rowText is what the filter looks in: the row's cells in page order,
// joined by spaces, lower-cased, as the script reads them.
func rowText(row templates.ErrorRow) string {
	return strings.ToLower(strings.Join([]string{row.Code, row.Message, row.HTTPStatus, row.NumericCode}, " "))
}

// filterWords splits a filter into lower-case words; a row matches when
// it contains every one.
func filterWords(q string) []string { return strings.Fields(strings.ToLower(q)) }

func matchesAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// sortLinks offers each order, keeping the filter; the current order has
// no link.
func sortLinks(repo string, pq projectQuery) []templates.Link {
	var links []templates.Link
	for _, o := range []struct{ sort, label string }{{sortCode, "code"}, {sortNumeric, "numeric code"}} {
		l := templates.Link{Label: o.label}
		if o.sort != pq.sort {
			l.URL = siteurl.Project(repo) + projectQueryString(projectQuery{filter: pq.filter, sort: o.sort})
		}
		links = append(links, l)
	}
	return links
}

// projectQueryString is the query string of a project page; the defaults
// are left out so the plain page keeps one (cached) URL.
func projectQueryString(pq projectQuery) string {
	var parts []string
	if pq.filter != "" {
		parts = append(parts, "q="+url.QueryEscape(pq.filter))
	}
	if pq.sort != "" && pq.sort != sortCode {
		parts = append(parts, "sort="+pq.sort)
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

// homeProjects is how many projects the home page lists, largest first;
// /errors lists them all.
const homeProjects = 50

// largestProjects returns up to n projects, most errors first, ties by
// name.
func largestProjects(ps []errkb.Project, n int) []errkb.Project {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b errkb.Project) int { return cmp.Compare(b.Count, a.Count) })
	return ps[:min(n, len(ps))]
}

// projectsView lists every project by name; those not matching the
// filter are kept hidden for the script.
func (s *Server) projectsView(filter string) templates.ProjectsView {
	v := templates.ProjectsView{Base: s.base("Projects", ""), Filter: filter, Errors: s.ds.Len()}
	v.Description = "Every project errkb documents, with the number of its errors."
	v.Canonical = s.url(siteurl.Projects)
	words := filterWords(filter)
	for _, p := range s.ds.Projects() {
		it := templates.ProjectItem{Repo: p.Repo, URL: siteurl.Project(p.Repo), Count: p.Count,
			Hidden: !matchesAll(strings.ToLower(p.Repo), words)}
		if !it.Hidden {
			v.Shown++
		}
		v.Projects = append(v.Projects, it)
	}
	v.Total = len(v.Projects)
	return v
}
