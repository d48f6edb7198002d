package web

import (
	"cmp"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/templates"
	"github.com/errkb/errkb/web/route"
	"github.com/errkb/errkb/web/siteurl"
)

func (s *Server) home(c echo.Context) error {
	v := templates.HomeView{Base: s.base("Search software errors", "")}
	v.Description = "Explanations, causes and fixes for errors of open-source projects, with the source that raises them."
	for _, p := range largestProjects(s.ds.Projects(), homeProjects) {
		v.Projects = append(v.Projects, templates.Link{Label: p.Repo, URL: siteurl.Project(p.Repo), Count: p.Count})
	}
	v.ProjectsTotal = len(s.ds.Projects())
	for i, t := range s.ds.Tags() {
		if i == 30 {
			break
		}
		v.Tags = append(v.Tags, templates.Link{Label: t.Tag, URL: siteurl.Tag(t.Tag), Count: t.Count})
	}
	return s.render(c, http.StatusOK, templates.Home(v))
}

const pageSize = 20

func (s *Server) searchPage(c echo.Context) error {
	q, err := parseQuery(c)
	if err != nil {
		return err
	}
	page := 1
	if p := c.QueryParam("page"); p != "" {
		if page, err = strconv.Atoi(p); err != nil || page < 1 || page > index.MaxOffset/pageSize {
			return badRequest("page must be a whole number from 1 to " + strconv.Itoa(index.MaxOffset/pageSize))
		}
	}
	q.Limit, q.Offset = pageSize, (page-1)*pageSize
	sr, err := s.search()
	if err != nil {
		return err
	}
	res, err := sr.Search(c.Request().Context(), q)
	if err != nil {
		return err
	}
	v := s.searchView(q, page, res)
	ok, err := explained(c.Request().Context(), sr, q, page)
	if err != nil {
		return err
	}
	if !ok {
		v.Notice = Unexplained
	}
	if f := pageFormat(c); f == route.Text || f == route.Markdown {
		return s.writeSearchAs(c, f, v)
	}
	return s.render(c, http.StatusOK, templates.Search(v))
}

func (s *Server) searchView(q index.Query, page int, res *index.Result) templates.SearchView {
	title := "Search"
	if q.Text != "" {
		title = q.Text
	}
	v := templates.SearchView{Base: s.base(title, q.Text), Total: res.Total, First: q.Offset + 1}
	for _, h := range res.Hits {
		v.Hits = append(v.Hits, recordItem(h.Record, h.Highlights))
	}
	for _, sg := range res.DidYouMean {
		v.DidYouMean = append(v.DidYouMean, templates.Link{Label: sg.Text, URL: suggestionURL(sg)})
	}
	link := func(change func(url.Values)) string {
		vals := url.Values{}
		for k, val := range map[string]string{"q": q.Text, "repo": q.Repo, "tag": q.Tag, "severity": q.Severity} {
			if val != "" {
				vals.Set(k, val)
			}
		}
		change(vals)
		return siteurl.SearchWith(vals)
	}
	facet := func(title, key string, counts []index.FacetCount) templates.FacetGroup {
		g := templates.FacetGroup{Title: title}
		for _, fc := range counts {
			g.Values = append(g.Values, templates.Link{Label: fc.Value, Count: fc.Count,
				URL: link(func(v url.Values) { v.Set(key, fc.Value) })})
		}
		return g
	}
	v.Facets = []templates.FacetGroup{
		facet("Project", "repo", res.Facets.Repo),
		facet("Severity", "severity", res.Facets.Severity),
		facet("Tag", "tag", res.Facets.Tag),
	}
	for _, f := range []struct{ key, label, value string }{
		{"repo", "project", q.Repo}, {"tag", "tag", q.Tag}, {"severity", "severity", q.Severity},
	} {
		if f.value != "" {
			v.Filters = append(v.Filters, templates.Link{Label: f.label + ": " + f.value, URL: link(func(v url.Values) { v.Del(f.key) })})
		}
	}
	if page > 1 {
		v.Prev = link(func(v url.Values) { v.Set("page", strconv.Itoa(page-1)) })
	}
	if q.Offset+len(res.Hits) < res.Total && page < index.MaxOffset/pageSize {
		v.Next = link(func(v url.Values) { v.Set("page", strconv.Itoa(page+1)) })
	}
	return v
}

// lookupRedirect sends the reader straight to the record that q clearly
// names, or to the search page when no record clearly does.
func (s *Server) lookupRedirect(c echo.Context) error {
	q := c.QueryParam("q")
	if len(q) > index.MaxQueryBytes {
		return badRequest("the query is longer than " + strconv.Itoa(index.MaxQueryBytes) + " bytes")
	}
	sr, err := s.search()
	if err != nil {
		return err
	}
	res, err := sr.Lookup(c.Request().Context(), q)
	if err != nil {
		return err
	}
	// A terminal (Accept: text/plain) or ?format=markdown gets the answer
	// itself rather than a redirect to a page it would then have to ask for.
	if f := pageFormat(c); f != route.HTML {
		if res.Match == nil {
			return s.writeNoMatch(c, q, res)
		}
		_, err := s.writeRecordAs(c, f, res.Match)
		return err
	}
	c.Response().Header().Add(echo.HeaderVary, echo.HeaderAccept)
	if res.Match != nil && res.Wrapped != nil {
		return c.Redirect(http.StatusSeeOther, siteurl.RecordWrapping(recordURL(res.Match), res.Wrapped.ID))
	}
	if res.Match != nil {
		return c.Redirect(http.StatusSeeOther, recordURL(res.Match))
	}
	return c.Redirect(http.StatusSeeOther, siteurl.Search(q))
}

func (s *Server) projects(c echo.Context) error {
	q := c.QueryParam("q")
	if len(q) > index.MaxQueryBytes {
		return badRequest("the filter is longer than " + strconv.Itoa(index.MaxQueryBytes) + " bytes")
	}
	return s.render(c, http.StatusOK, templates.Projects(s.projectsView(q)))
}

func (s *Server) project(c echo.Context) error {
	repo := c.Param("owner") + "/" + c.Param("repo")
	recs := s.ds.ByRepo(repo)
	if len(recs) == 0 {
		return notFound("errkb has no errors of the project " + repo + ".")
	}
	pq := projectQuery{filter: c.QueryParam("q"), sort: c.QueryParam("sort")}
	if canonical := recs[0].Repo; canonical != repo {
		return c.Redirect(http.StatusMovedPermanently, siteurl.Project(canonical)+projectQueryString(pq))
	}
	if len(pq.filter) > index.MaxQueryBytes {
		return badRequest("the filter is longer than " + strconv.Itoa(index.MaxQueryBytes) + " bytes")
	}
	switch pq.sort {
	case "":
		pq.sort = sortCode
	case sortCode, sortNumeric:
	default:
		return badRequest("sort must be " + sortCode + " or " + sortNumeric)
	}
	return s.render(c, http.StatusOK, templates.Project(s.projectView(repo, recs, pq)))
}

func (s *Server) tagPage(c echo.Context) error {
	tag := c.Param("tag")
	recs := s.ds.ByTag(tag)
	if len(recs) == 0 {
		return notFound("No error carries the tag " + strconv.Quote(tag) + ".")
	}
	v := templates.ListView{Base: s.base("Tag "+tag, ""), Heading: "Errors tagged " + tag, Records: recordItems(recs),
		Intro: templates.Count(len(recs), "error", "errors") + "."}
	v.Crumbs = []templates.Link{{Label: "Home", URL: "/"}, {Label: "Tag " + tag}}
	v.Canonical = s.url(siteurl.Tag(tag))
	return s.render(c, http.StatusOK, templates.List(v))
}

func (s *Server) recordPage(c echo.Context) error {
	owner, repo, slug := c.Param("owner"), c.Param("repo"), c.Param("slug")
	r, ok := s.ds.ByPath(owner+"/"+repo, slug)
	if !ok {
		return notFound("errkb has no error at " + owner + "/" + repo + "/" + slug + ".")
	}
	if r.Repo != owner+"/"+repo {
		return c.Redirect(http.StatusMovedPermanently, recordURL(r))
	}
	if done, err := s.writeRecordAs(c, pageFormat(c), r); done {
		return err
	}
	// No per-record view cache: the response cache (cache.go) keeps the
	// rendered bytes of the pages people open, within a byte budget.
	v := s.recordView(c.Request().Context(), r)
	// A lookup of a log line that wraps an error shows both (lookupRedirect).
	if w, ok := s.ds.ByID(c.QueryParam("wraps")); ok && w != r {
		it := recordItem(w, nil)
		v.WrapsFound = &it
	}
	if s.cfg.BaseURL == "" {
		// Without --base-url the link box still shows full URLs a reader
		// can paste, taken from the host the page was asked on (the
		// response cache keys on the host then).
		v.StableURL = s.absBase(c) + recordURL(r)
		v.LookupURL = s.absBase(c) + siteurl.Lookup(cmp.Or(r.ErrorCode, r.ErrorMessage))
	}
	return s.render(c, http.StatusOK, templates.Record(*v))
}
