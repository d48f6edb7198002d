package export

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/errkb/errkb/web/route"
)

// siteLink matches an attribute holding a site path, as the templates
// write them: href="/...", src="/...", action="/...". A value starting
// with "//" names another host and is left alone.
var siteLink = regexp.MustCompile(`(\s(?:href|src|action)=")(/(?:[^/"][^"]*)?)"`)

// site is the server's route table (web/routes.go, given as
// Options.Routes): what each route's Export says the export makes of it.
type site []route.Route

// route is the route that answers sitePath.
func (s site) route(sitePath string) (route.Route, bool) {
	for _, r := range s {
		if _, ok := r.Match(sitePath); ok {
			return r, true
		}
	}
	return route.Route{}, false
}

// exported reports whether the export writes sitePath: a path of no
// route is rendered, so that a broken link fails the export.
func (s site) exported(sitePath string) bool {
	r, ok := s.route(sitePath)
	return !ok || r.Export != route.NotExported
}

// isFile reports whether sitePath is written as a file (static files, API
// answers, the root files) rather than as a page.
func (s site) isFile(sitePath string) bool {
	r, ok := s.route(sitePath)
	return ok && r.Export == route.FileExport
}

// seeds are the addresses no page may link to but the site serves: the
// exported routes without parameters.
func (s site) seeds() []string {
	var out []string
	for _, r := range s {
		if r.Export != route.NotExported && !strings.ContainsAny(r.Pattern, ":*") {
			out = append(out, r.Pattern)
		}
	}
	return out
}

// fileFor maps a site path to the file that holds it and says whether it
// is a page: pages are folders with an index.html, so "/errors/a/b" is
// "errors/a/b/index.html" and its links need no extension; files keep
// their path.
func (s site) fileFor(sitePath string) (file string, page bool) {
	p, err := url.PathUnescape(sitePath)
	if err != nil {
		p = sitePath
	}
	p = strings.TrimPrefix(p, "/")
	if s.isFile(sitePath) {
		return p, false
	}
	if p == "" {
		return "index.html", true
	}
	return strings.TrimSuffix(p, "/") + "/index.html", true
}

// depth is how many folders down a page's index.html sits.
func depth(sitePath string) int {
	p := strings.Trim(sitePath, "/")
	if p == "" {
		return 0
	}
	return strings.Count(p, "/") + 1
}

// siteLinks returns the site paths a page links to, without their query
// or fragment. Searches and lookups with a query are answered in the
// browser, so only their bare paths are kept.
func siteLinks(html []byte) []string {
	var out []string
	for _, m := range siteLink.FindAllSubmatch(html, -1) {
		p := unescapeHTML(string(m[2]))
		p, _, _ = strings.Cut(p, "#")
		p, _, _ = strings.Cut(p, "?")
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// relativize rewrites a page's site links relative to the page, which
// sits depth folders below the root, so the export works under any path
// prefix: "/errors/a" on a page two folders down becomes "../../errors/a/".
func (s site) relativize(html []byte, depth int) []byte {
	up := strings.Repeat("../", depth)
	return siteLink.ReplaceAllFunc(html, func(m []byte) []byte {
		sm := siteLink.FindSubmatch(m)
		return append(append(append([]byte(nil), sm[1]...), s.localURL(string(sm[2]), up)...), '"')
	})
}

// absolutize rewrites site links under prefix, the base URL's path, for a
// page served at any depth (404.html).
func (s site) absolutize(html []byte, prefix string) []byte {
	return siteLink.ReplaceAllFunc(html, func(m []byte) []byte {
		sm := siteLink.FindSubmatch(m)
		return append(append(append([]byte(nil), sm[1]...), s.localURL(string(sm[2]), prefix+"/")...), '"')
	})
}

// localURL is a site link (as written in HTML) made to start with root,
// with a page's path ending in "/" so a static host serves its index.html
// without a redirect.
func (s site) localURL(link, root string) string {
	rest := ""
	if i := strings.IndexAny(link, "?#"); i >= 0 {
		link, rest = link[:i], link[i:]
	}
	p := strings.TrimPrefix(link, "/")
	if p != "" && !s.isFile(link) && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	if root == "" && p == "" {
		p = "./"
	}
	return root + p + rest
}

// unescapeHTML undoes the entity escaping templ applies to attribute
// values that matters in a URL path.
func unescapeHTML(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return strings.NewReplacer("&amp;", "&", "&#39;", "'", "&quot;", `"`, "&lt;", "<", "&gt;", ">").Replace(s)
}
