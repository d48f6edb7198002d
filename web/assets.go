package web

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb/web/internal/answer"
)

// Cache lifetimes of static files. A hashed name changes whenever the
// content does, so it can be cached for a year; the plain name is kept for
// old links and must revalidate soon.
const (
	immutableCache = "public, max-age=31536000, immutable"
	plainCache     = cacheControl
)

// asset is one static file held in memory with its content-hashed name.
type asset struct {
	body   []byte
	ctype  string
	hashed string // "style.3f9a1c2b7d.css"
	tag    string // the ETag, unquoted

	immutable *answer.Response // under the hashed name
	plain     *answer.Response // under the plain name
}

// gzipMinBytes is the smallest static file sent gzipped; smaller ones gain
// too little.
const gzipMinBytes = 1024

// answerFor is the prepared answer to req for the asset by name: hashed
// names with a year-long immutable cache, plain names with a short one;
// gzipped when the request's Accept-Encoding allows it.
func (as *asset) answerFor(name, acceptEncoding string) *answer.Answer {
	if name == as.hashed {
		return as.immutable.Pick(acceptEncoding)
	}
	return as.plain.Pick(acceptEncoding)
}

// assets are the site's static files, by plain and by hashed name.
type assets struct {
	byName  map[string]*asset
	plain   map[string]*asset // plain name -> asset, for URL lookups
	favicon *answer.Response  // /favicon.ico
}

// loadAssets reads every file of the embedded static folder. The stylesheet
// gets the syntax-highlighting rules appended, so pages load one CSS file.
func loadAssets(fsys fs.FS) (*assets, error) {
	a := &assets{byName: map[string]*asset{}, plain: map[string]*asset{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("read static file %s: %w", p, err)
		}
		if p == "style.css" {
			body = append(body, highlightCSS()...)
		}
		a.add(p, body)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if icon := a.plain["favicon.svg"]; icon != nil {
		a.favicon = answer.Prepare(patternFavicon, icon.ctype, icon.body, icon.tag, "public, max-age=86400", varyOf(patternFavicon), gzipMinBytes)
	}
	return a, nil
}

func (a *assets) add(name string, body []byte) {
	sum := sha256.Sum256(body)
	h := hex.EncodeToString(sum[:])[:10]
	ext := path.Ext(name)
	as := &asset{body: body, ctype: contentType(ext), hashed: strings.TrimSuffix(name, ext) + "." + h + ext, tag: h}
	as.immutable = answer.Prepare(patternStatic, as.ctype, body, h, immutableCache, varyOf(patternStatic), gzipMinBytes)
	as.plain = answer.Prepare(patternStatic, as.ctype, body, h, plainCache, varyOf(patternStatic), gzipMinBytes)
	a.byName[name] = as
	a.byName[as.hashed] = as
	a.plain[name] = as
}

// URL is the content-hashed path of a static file, e.g.
// "/static/style.3f9a1c2b7d.css"; a missing file panics at start-up, in
// tests, rather than giving pages a broken link.
func (a *assets) URL(name string) string {
	as, ok := a.plain[name]
	if !ok {
		panic("web: no static file " + name)
	}
	return "/static/" + as.hashed
}

func contentType(ext string) string {
	switch ext {
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return "application/octet-stream"
}

// prepared is the answer made at start-up for a Prepared route of the
// table, rest being what its "*" matched, in the form acceptEncoding
// takes; nil when there is none. The fast path answers from it first
// (fast.go); the handlers below, for what it leaves (a rate limit, odd
// escapes).
func (s *Server) prepared(pattern, rest, acceptEncoding string) *answer.Answer {
	switch pattern {
	case patternStatic:
		if as := s.assets.byName[rest]; as != nil {
			return as.answerFor(rest, acceptEncoding)
		}
	case patternFavicon:
		if s.assets.favicon != nil {
			return s.assets.favicon.Pick(acceptEncoding)
		}
	}
	return nil
}

// serveAsset answers /static/{name}: hashed names with a year-long
// immutable cache, plain names with a short one.
func (s *Server) serveAsset(c echo.Context) error {
	name := c.Param("*")
	a := s.prepared(patternStatic, name, c.Request().Header.Get(echo.HeaderAcceptEncoding))
	if a == nil {
		return notFound("There is no static file " + name + ".")
	}
	a.Write(c.Response(), c.Request(), nil)
	return nil
}

// favicon answers /favicon.ico, which browsers and crawlers ask for on
// their own, with the SVG icon.
func (s *Server) favicon(c echo.Context) error {
	a := s.prepared(patternFavicon, "", c.Request().Header.Get(echo.HeaderAcceptEncoding))
	if a == nil {
		return notFound("There is no icon.")
	}
	a.Write(c.Response(), c.Request(), nil)
	return nil
}
