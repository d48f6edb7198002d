package web

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb/web/siteurl"
)

// sitemapMax is the most URLs one sitemap file may hold (sitemaps.org).
// Larger sites get a sitemap index pointing at numbered parts. Tests lower
// Server.sitemapMax to exercise the index.
const sitemapMax = 50000

// absBase is the site's absolute root for sitemaps and OpenSearch, which
// need absolute URLs: --base-url when given, else the configured host the
// request came in on (see origins), so a local server still gives working
// files and a forged Host changes nothing.
func (s *Server) absBase(c echo.Context) string { return s.origins.Of(c.Request()) }

// robots lets crawlers read the pages but not the search results, lookup
// redirects or the API, which would only duplicate them.
func (s *Server) robots(c echo.Context) error {
	body := "User-agent: *\nDisallow: /search\nDisallow: /lookup\nDisallow: /api/\nAllow: /\n\nSitemap: " + s.absBase(c) + "/sitemap.xml\n"
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(body))
}

// sitemapPaths lists every page worth crawling: the pages of every route
// of the table that lists them (home, projects, each project, each tag
// and each record), in table order.
func (s *Server) sitemapPaths() []string {
	var paths []string
	for _, e := range routes {
		if e.pages != nil {
			paths = append(paths, e.pages(s)...)
		}
	}
	return paths
}

func (s *Server) projectPages() []string {
	var paths []string
	for _, p := range s.ds.Projects() {
		paths = append(paths, siteurl.Project(p.Repo))
	}
	return paths
}

func (s *Server) tagPages() []string {
	var paths []string
	for _, t := range s.ds.Tags() {
		paths = append(paths, siteurl.Tag(t.Tag))
	}
	return paths
}

func (s *Server) recordPages() []string {
	paths := make([]string, len(s.ds.Records))
	for i, r := range s.ds.Records {
		paths[i] = recordURL(r)
	}
	return paths
}

type urlSet struct {
	XMLName xml.Name   `xml:"urlset"`
	NS      string     `xml:"xmlns,attr"`
	URLs    []smLocRef `xml:"url"`
}

type sitemapIndex struct {
	XMLName  xml.Name   `xml:"sitemapindex"`
	NS       string     `xml:"xmlns,attr"`
	Sitemaps []smLocRef `xml:"sitemap"`
}

type smLocRef struct {
	Loc string `xml:"loc"`
}

const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// sitemap answers /sitemap.xml: every page when they fit in one file,
// otherwise an index of /sitemap-N.xml parts.
func (s *Server) sitemap(c echo.Context) error {
	paths, base, per := s.sitemapPaths(), s.absBase(c), s.sitemapMax
	if len(paths) <= per {
		return writeXML(c, urlSetOf(base, paths))
	}
	idx := sitemapIndex{NS: sitemapNS}
	for i := 0; i*per < len(paths); i++ {
		idx.Sitemaps = append(idx.Sitemaps, smLocRef{Loc: base + siteurl.SitemapPart(i+1)})
	}
	return writeXML(c, idx)
}

// sitemapPart answers /sitemap-N.xml, the Nth part of a large sitemap.
func (s *Server) sitemapPart(c echo.Context) error {
	num, ok := strings.CutSuffix(c.Param("n"), ".xml")
	n, err := strconv.Atoi(num)
	paths, per := s.sitemapPaths(), s.sitemapMax
	if !ok || err != nil || n < 1 || (n-1)*per >= len(paths) || len(paths) <= per {
		return notFound("There is no sitemap part " + c.Param("n") + ".")
	}
	return writeXML(c, urlSetOf(s.absBase(c), paths[(n-1)*per:min(n*per, len(paths))]))
}

func urlSetOf(base string, paths []string) urlSet {
	set := urlSet{NS: sitemapNS, URLs: make([]smLocRef, len(paths))}
	for i, p := range paths {
		set.URLs[i] = smLocRef{Loc: base + p}
	}
	return set
}

type openSearchDesc struct {
	XMLName       xml.Name `xml:"OpenSearchDescription"`
	NS            string   `xml:"xmlns,attr"`
	ShortName     string   `xml:"ShortName"`
	Description   string   `xml:"Description"`
	InputEncoding string   `xml:"InputEncoding"`
	Image         osImage  `xml:"Image"`
	URLs          []osURL  `xml:"Url"`
}

type osImage struct {
	Width  int    `xml:"width,attr"`
	Height int    `xml:"height,attr"`
	Type   string `xml:"type,attr"`
	URL    string `xml:",chardata"`
}

type osURL struct {
	Type     string `xml:"type,attr"`
	Rel      string `xml:"rel,attr,omitempty"`
	Method   string `xml:"method,attr,omitempty"`
	Template string `xml:"template,attr"`
}

// openSearch answers /opensearch.xml so a browser can add errkb as a
// search engine; the JSON suggestions URL is left out since errkb has no
// suggestion endpoint.
func (s *Server) openSearch(c echo.Context) error {
	base := s.absBase(c)
	d := openSearchDesc{
		NS:            "http://a9.com/-/spec/opensearch/1.1/",
		ShortName:     "errkb",
		Description:   "Search software errors by code, message or log line",
		InputEncoding: "UTF-8",
		Image:         osImage{Width: 32, Height: 32, Type: "image/svg+xml", URL: base + s.assets.URL("favicon.svg")},
		URLs: []osURL{
			{Type: "text/html", Method: "get", Template: base + "/search?q={searchTerms}"}, // a template, not a query: not escaped
			{Type: "application/opensearchdescription+xml", Rel: "self", Template: base + "/opensearch.xml"},
		},
	}
	return writeXMLType(c, "application/opensearchdescription+xml", d)
}

func writeXML(c echo.Context, v any) error {
	return writeXMLType(c, "application/xml; charset=utf-8", v)
}

func writeXMLType(c echo.Context, ctype string, v any) error {
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", " ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.WriteByte('\n')
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, ctype, buf.Bytes())
}
