package export

import (
	"net/url"
	"regexp"
	"strings"
)

// siteLink matches an attribute holding a site path, as the templates
// write them: href="/...", src="/...", action="/...". A value starting
// with "//" names another host and is left alone.
var siteLink = regexp.MustCompile(`(\s(?:href|src|action)=")(/(?:[^/"][^"]*)?)"`)

// rootFiles are the site paths at the root that are files, not pages.
var rootFiles = map[string]bool{"/favicon.ico": true, "/robots.txt": true, "/opensearch.xml": true, "/sitemap.xml": true}

// fileFor maps a site path to the file that holds it and says whether it
// is a page: pages are folders with an index.html, so "/errors/a/b" is
// "errors/a/b/index.html" and its links need no extension; static files,
// API answers and the root files keep their path.
func fileFor(sitePath string) (file string, page bool) {
	p, err := url.PathUnescape(sitePath)
	if err != nil {
		p = sitePath
	}
	p = strings.TrimPrefix(p, "/")
	if isFile(sitePath) {
		return p, false
	}
	if p == "" {
		return "index.html", true
	}
	return strings.TrimSuffix(p, "/") + "/index.html", true
}

func isFile(sitePath string) bool {
	return rootFiles[sitePath] || strings.HasPrefix(sitePath, "/sitemap-") ||
		strings.HasPrefix(sitePath, "/static/") || strings.HasPrefix(sitePath, "/api/")
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
func relativize(html []byte, depth int) []byte {
	up := strings.Repeat("../", depth)
	return siteLink.ReplaceAllFunc(html, func(m []byte) []byte {
		sm := siteLink.FindSubmatch(m)
		return append(append(append([]byte(nil), sm[1]...), localURL(string(sm[2]), up)...), '"')
	})
}

// absolutize rewrites site links under prefix, the base URL's path, for a
// page served at any depth (404.html).
func absolutize(html []byte, prefix string) []byte {
	return siteLink.ReplaceAllFunc(html, func(m []byte) []byte {
		sm := siteLink.FindSubmatch(m)
		return append(append(append([]byte(nil), sm[1]...), localURL(string(sm[2]), prefix+"/")...), '"')
	})
}

// localURL is a site link (as written in HTML) made to start with root,
// with a page's path ending in "/" so a static host serves its index.html
// without a redirect.
func localURL(link, root string) string {
	rest := ""
	if i := strings.IndexAny(link, "?#"); i >= 0 {
		link, rest = link[:i], link[i:]
	}
	p := strings.TrimPrefix(link, "/")
	if p != "" && !isFile(link) && !strings.HasSuffix(p, "/") {
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
