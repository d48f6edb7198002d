// Package export writes an errkb site as static files that any static
// host or CDN can serve: every page, the API's record JSON, the sitemap,
// OpenSearch and the assets, with links that work under any path prefix
// and a search that runs in the browser.
//
// Every file is rendered by the real server's http.Handler, so pages hold
// the bytes the server sends; only their site links are rewritten.
package export

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/errkb/errkb/web/route"
	"github.com/errkb/errkb/web/siteurl"
)

// Options say where and how to export.
type Options struct {
	// Out is the folder to write. It must not exist or be empty, unless
	// Force is set.
	Out string
	// Force writes into a folder that is not empty. Files of an earlier
	// export there (marked by its .errkb-export file) are removed first;
	// other files are left alone and overwritten where names clash.
	Force bool
	// Routes is the server's route table (web.Routes()): which routes
	// are pages, which files, and which are not exported.
	Routes []route.Route
	// BaseURL is the absolute URL the files will be served at, such as
	// "https://docs.example.com/kb". The server must have been created
	// with the same base URL. Without it the sitemap and OpenSearch files,
	// which need absolute URLs, are left out.
	BaseURL string
}

// Stats count what was written.
type Stats struct {
	Pages, Files, Records int
	Bytes                 int64
}

// renderHost is the host pages are asked for on. Without a base URL the
// server writes absolute URLs of this host; they become site paths.
const renderHost = "errkb-export.invalid"

// markerFile marks a folder as an export, so --force may clear it.
const markerFile = ".errkb-export"

// ErrNotEmpty is returned when Out holds files and Force is not set.
var ErrNotEmpty = errors.New("exists and is not empty")

// Run renders the site h serves into opt.Out.
func Run(ctx context.Context, h http.Handler, opt Options) (Stats, error) {
	opt.BaseURL = strings.TrimRight(opt.BaseURL, "/")
	if len(opt.Routes) == 0 {
		return Stats{}, errors.New("no route table given")
	}
	root, err := prepareOut(opt.Out, opt.Force)
	if err != nil {
		return Stats{}, err
	}
	defer root.Close()
	x := &exporter{h: h, opt: opt, site: site(opt.Routes), root: root, seen: map[string]bool{}, twins: map[string]bool{}}
	if err := x.crawl(ctx); err != nil {
		return x.stats, err
	}
	if err := x.writeSearch(); err != nil {
		return x.stats, err
	}
	if err := x.writeNotFound(); err != nil {
		return x.stats, err
	}
	return x.stats, x.write(markerFile, []byte("written by errkb export\n"))
}

// prepareOut creates the folder or checks it may be written, and opens it
// as an os.Root so no name can lead outside it.
func prepareOut(dir string, force bool) (*os.Root, error) {
	if dir == "" {
		return nil, errors.New("no output folder given")
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	case len(entries) > 0 && !force:
		return nil, fmt.Errorf("%s %w; pass --force to write into it", dir, ErrNotEmpty)
	case len(entries) > 0:
		if _, err := os.Stat(dir + "/" + markerFile); err == nil {
			for _, e := range entries {
				if err := os.RemoveAll(dir + "/" + e.Name()); err != nil {
					return nil, err
				}
			}
		}
	}
	return os.OpenRoot(dir)
}

type exporter struct {
	h    http.Handler
	opt  Options
	site site
	root *os.Root

	mu     sync.Mutex
	seen   map[string]bool
	twins  map[string]bool // the API records of error pages
	stats  Stats
	search []searchEntry
}

// crawl renders the seeds, every page of the sitemap, the API record of
// each error page, and everything the rendered pages link to on the site,
// in rounds until nothing new is found.
func (x *exporter) crawl(ctx context.Context) error {
	queue := x.unseen(x.site.seeds())
	for len(queue) > 0 {
		found, err := x.renderAll(ctx, queue)
		if err != nil {
			return err
		}
		queue = x.unseen(found)
	}
	return nil
}

func (x *exporter) unseen(paths []string) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []string
	for _, p := range paths {
		// A lookup answers with a redirect; the browser search stands
		// in for it. Searches with a query are answered in the browser.
		if !x.seen[p] && x.site.exported(p) {
			x.seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// renderAll renders paths on every core and returns the site paths they
// refer to.
func (x *exporter) renderAll(ctx context.Context, paths []string) ([]string, error) {
	work := make(chan string)
	var (
		mu       sync.Mutex
		found    []string
		firstErr error
		wg       sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range work {
				refs, err := x.render(p)
				mu.Lock()
				found = append(found, refs...)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		})
	}
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		work <- p
	}
	close(work)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return found, firstErr
}

// get asks the handler for one site path.
func (x *exporter) get(path string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "http://"+renderHost+path, nil)
	req.RemoteAddr = "127.0.0.1:1"
	w := httptest.NewRecorder()
	x.h.ServeHTTP(w, req)
	return w
}

// render writes the file for one site path and returns the site paths it
// refers to.
func (x *exporter) render(path string) ([]string, error) {
	w := x.get(path)
	if w.Code != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d", path, w.Code)
	}
	absolute := isSitemap(path) || path == "/opensearch.xml"
	if absolute && x.opt.BaseURL == "" {
		// Without a base URL there is no absolute URL to give: the file
		// is left out, and the sitemap still lists the pages to render.
		return x.sitemapPaths(path, w.Body.Bytes()), nil
	}
	body := x.unhost(w.Body.Bytes())
	if path == "/robots.txt" && x.opt.BaseURL == "" {
		body = dropSitemapLine(body)
	}
	ctype := w.Header().Get("Content-Type")
	file, page := x.site.fileFor(path)
	if page != strings.HasPrefix(ctype, "text/html") {
		return nil, fmt.Errorf("GET %s: answered %s, where the export expected %s", path, ctype, map[bool]string{true: "a page", false: "a file"}[page])
	}
	var refs []string
	switch {
	case page:
		refs = siteLinks(body)
		if api := siteurl.API(path); x.site.isFile(api) {
			// The API record beside an error page, for the search index.
			x.mu.Lock()
			x.twins[api] = true
			x.mu.Unlock()
			refs = append(refs, api)
		}
		body = x.site.relativize(body, depth(path))
	case isSitemap(path):
		refs = x.sitemapPaths(path, body)
	case x.isTwin(path):
		if err := x.addSearchEntry(body); err != nil {
			return nil, fmt.Errorf("GET %s: %w", path, err)
		}
	}
	if err := x.write(file, body); err != nil {
		return nil, err
	}
	x.mu.Lock()
	if page {
		x.stats.Pages++
	} else {
		x.stats.Files++
	}
	x.mu.Unlock()
	return refs, nil
}

// openSearchLink is the link by which browsers find opensearch.xml.
var openSearchLink = regexp.MustCompile(`<link rel="search"[^>]*>`)

// unhost turns the render host's absolute URLs into site paths. Without a
// base URL, opensearch.xml is not written, so pages stop linking to it.
func (x *exporter) unhost(body []byte) []byte {
	body = bytes.ReplaceAll(body, []byte("http://"+renderHost), nil)
	if x.opt.BaseURL == "" {
		body = openSearchLink.ReplaceAll(body, nil)
	}
	return body
}

func isSitemap(path string) bool {
	return path == "/sitemap.xml" || strings.HasPrefix(path, "/sitemap-")
}

// dropSitemapLine removes robots.txt's Sitemap line, for an export
// without the sitemap.
func dropSitemapLine(body []byte) []byte {
	var out []byte
	for line := range bytes.Lines(body) {
		if !bytes.HasPrefix(line, []byte("Sitemap:")) {
			out = append(out, line...)
		}
	}
	return out
}

// sitemapPaths returns the site paths a sitemap or sitemap index lists.
func (x *exporter) sitemapPaths(path string, body []byte) []string {
	if path == "/opensearch.xml" {
		return nil
	}
	var doc struct {
		URLs     []struct{ Loc string } `xml:"url"`
		Sitemaps []struct{ Loc string } `xml:"sitemap"`
	}
	if err := xml.Unmarshal(body, &doc); err != nil {
		return nil
	}
	var out []string
	for _, l := range append(doc.URLs, doc.Sitemaps...) {
		if p := x.sitePath(l.Loc); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// sitePath turns an absolute URL of the site into its site path.
func (x *exporter) sitePath(loc string) string {
	for _, base := range []string{x.opt.BaseURL, "http://" + renderHost} {
		if base != "" && strings.HasPrefix(loc, base+"/") {
			u, err := url.Parse(loc[len(base):])
			if err != nil {
				return ""
			}
			return u.EscapedPath()
		}
	}
	return ""
}

// write stores one file under the output folder, creating its folders.
func (x *exporter) write(name string, body []byte) error {
	if i := strings.LastIndexByte(name, '/'); i > 0 {
		if err := x.root.MkdirAll(name[:i], 0o755); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	if err := x.root.WriteFile(name, body, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	x.mu.Lock()
	x.stats.Bytes += int64(len(body))
	x.mu.Unlock()
	return nil
}

// writeNotFound writes 404.html, which static hosts answer for a missing
// address. It is served at any depth, so its links are absolute: under the
// base URL's path, or the site root without one.
func (x *exporter) writeNotFound() error {
	w := x.get("/errkb-export-missing-page")
	if w.Code != http.StatusNotFound {
		return fmt.Errorf("GET of a missing page: status %d", w.Code)
	}
	prefix := ""
	if u, err := url.Parse(x.opt.BaseURL); err == nil {
		prefix = strings.TrimRight(u.EscapedPath(), "/")
	}
	return x.write("404.html", x.site.absolutize(x.unhost(w.Body.Bytes()), prefix))
}

// isTwin reports whether path is the API record of an exported page.
func (x *exporter) isTwin(path string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.twins[path]
}
