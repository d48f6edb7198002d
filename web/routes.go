package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb/web/route"
	"github.com/errkb/errkb/web/siteurl"
)

// The route table: every route of the site, declared once, with what it
// answers in, whether its answers are kept, whether its work is admitted
// and what the static export makes of it (package route says what each
// fact means). The router (router), the response cache (cache.go), format
// negotiation (format.go), the fast path (fast.go), the rate limit, the
// sitemap (discovery.go) and the export (package export, through Routes)
// all read it; docs/architecture.md shows it, and routes_test.go checks
// that every route is served, kept and exported as declared.
//
// The sitemap lists the pages of the routes with pages, in table order.
func routeTable() []entry {
	return []entry{
		{route.Route{Pattern: "/", Formats: route.HTML, Cached: true, Admitted: true, Export: route.Page},
			(*Server).home, onePage("/")},
		{route.Route{Pattern: "/errors", Formats: route.HTML, Cached: true, Admitted: true, Export: route.Page},
			(*Server).projects, onePage(siteurl.Projects)},
		{route.Route{Pattern: "/errors/:owner/:repo", Formats: route.HTML, Cached: true, Admitted: true, Export: route.Page},
			(*Server).project, (*Server).projectPages},
		{route.Route{Pattern: "/tags/:tag", Formats: route.HTML, Cached: true, Admitted: true, Export: route.Page},
			(*Server).tagPage, (*Server).tagPages},
		{route.Route{Pattern: "/errors/:owner/:repo/:slug", Formats: route.HTML | route.Text | route.Markdown, Cached: true, Admitted: true, Export: route.Page},
			(*Server).recordPage, (*Server).recordPages},
		{route.Route{Pattern: "/search", Formats: route.HTML | route.Text | route.Markdown, Admitted: true, Export: route.Page},
			(*Server).searchPage, nil},
		// A redirect to the record or the search; the export's browser search
		// stands in for it.
		{route.Route{Pattern: "/lookup", Formats: route.HTML | route.Text | route.Markdown, Admitted: true},
			(*Server).lookupRedirect, nil},

		{route.Route{Pattern: "/healthz", Formats: route.Text, Unlimited: true}, (*Server).healthz, nil},
		{route.Route{Pattern: "/readyz", Formats: route.Text, Unlimited: true}, (*Server).readyz, nil},
		{route.Route{Pattern: "/metrics", Formats: route.Text, Unlimited: true}, (*Server).serveMetrics, nil},
		{route.Route{Pattern: patternStatic, Formats: route.File, Prepared: true, Unlimited: true, Export: route.FileExport},
			(*Server).serveAsset, nil},
		{route.Route{Pattern: patternFavicon, Formats: route.File, Prepared: true, Export: route.FileExport},
			(*Server).favicon, nil},
		{route.Route{Pattern: "/robots.txt", Formats: route.Text, Export: route.FileExport}, (*Server).robots, nil},
		// Tens of thousands of URLs each: admitted.
		{route.Route{Pattern: "/sitemap.xml", Formats: route.XML, Admitted: true, Export: route.FileExport},
			(*Server).sitemap, nil},
		{route.Route{Pattern: "/sitemap-:n", Formats: route.XML, Admitted: true, Export: route.FileExport},
			(*Server).sitemapPart, nil},
		{route.Route{Pattern: "/opensearch.xml", Formats: route.XML, Export: route.FileExport}, (*Server).openSearch, nil},

		{route.Route{Pattern: "/api/v1/errors/:owner/:repo/:slug", Formats: route.JSON, Cached: true, Admitted: true, Export: route.FileExport},
			(*Server).apiRecord, nil},
		{route.Route{Pattern: "/api/v1/lookup", Formats: route.JSON, Admitted: true}, (*Server).apiLookup, nil},
		{route.Route{Pattern: "/api/v1/search", Formats: route.JSON, Admitted: true}, (*Server).apiSearch, nil},
		{route.Route{Pattern: "/api/v1/openapi.json", Formats: route.JSON, Cached: true, Export: route.FileExport},
			(*Server).apiOpenAPI, nil},
	}
}

// The patterns of the routes whose answers are prepared at start-up.
const (
	patternStatic  = "/static/*"
	patternFavicon = "/favicon.ico"
)

// entry is a route of the table with its handler and, for the sitemap,
// the paths of its pages (nil: none listed).
type entry struct {
	route.Route
	handle func(*Server, echo.Context) error
	pages  func(*Server) []string
}

func onePage(path string) func(*Server) []string {
	return func(*Server) []string { return []string{path} }
}

// routes is the route table, and byPattern its routes by pattern (what
// c.Path() names). They are set by init, as the handlers in the table
// read them.
var (
	routes    []entry
	byPattern map[string]route.Route
)

func init() {
	routes = routeTable()
	byPattern = make(map[string]route.Route, len(routes))
	for _, e := range routes {
		byPattern[e.Pattern] = e.Route
	}
}

// Routes is the route table, for the static export and the docs.
func Routes() []route.Route {
	out := make([]route.Route, len(routes))
	for i, e := range routes {
		out[i] = e.Route
	}
	return out
}

// router builds the echo router of the table: every route answers GET
// and HEAD (which link checkers and load balancers use), admitted routes
// through admission (admission.go).
func (s *Server) router() *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	s.middleware(e)
	e.Use(s.compress(), s.cache())
	for _, r := range routes {
		handle := r.handle
		h := func(c echo.Context) error { return handle(s, c) }
		if r.Admitted {
			h = s.admit(h)
		}
		e.Match([]string{http.MethodGet, http.MethodHead}, r.Pattern, h)
	}
	return e
}
