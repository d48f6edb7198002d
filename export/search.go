package export

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/errkb/errkb/web/siteurl"
)

// searchEntry is one error in the browser's search index.
type searchEntry struct {
	path                               string // site path of the page, without the leading "/"
	code, message, repo, severity, cls string
	id                                 string
	tags                               []string
}

// addSearchEntry adds the error an API record answer describes.
func (x *exporter) addSearchEntry(body []byte) error {
	var env struct {
		Record struct {
			ID           string   `json:"id"`
			Repo         string   `json:"repo"`
			Slug         string   `json:"slug"`
			ErrorCode    string   `json:"errorCode"`
			ErrorMessage string   `json:"errorMessage"`
			ErrorClass   string   `json:"errorClass"`
			Severity     string   `json:"severity"`
			Tags         []string `json:"tags"`
		} `json:"record"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return fmt.Errorf("reading the record for the search index: %w", err)
	}
	r := env.Record
	e := searchEntry{path: strings.TrimPrefix(x.site.localURL(siteurl.Record(r.Repo, r.Slug), ""), "./"), code: r.ErrorCode,
		message: r.ErrorMessage, repo: r.Repo, severity: r.Severity, cls: r.ErrorClass, id: r.ID, tags: r.Tags}
	x.mu.Lock()
	x.search = append(x.search, e)
	x.stats.Records++
	x.mu.Unlock()
	return nil
}

//go:embed search.js
var searchJS []byte

// searchIndex is search/index.json: one array per error, fields in the
// order Fields names them, so the file stays small.
type searchIndex struct {
	Fields  []string `json:"fields"`
	Records [][]any  `json:"records"`
}

// writeSearch writes the browser search: its index, its script, and the
// search and lookup pages that load it.
func (x *exporter) writeSearch() error {
	sort.Slice(x.search, func(i, j int) bool { return x.search[i].path < x.search[j].path })
	idx := searchIndex{Fields: []string{"path", "code", "message", "repo", "severity", "class", "id", "tags"}}
	for _, e := range x.search {
		tags := e.tags
		if tags == nil {
			tags = []string{}
		}
		idx.Records = append(idx.Records, []any{e.path, e.code, e.message, e.repo, e.severity, e.cls, e.id, tags})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(idx); err != nil {
		return err
	}
	if err := x.write("search/index.json", buf.Bytes()); err != nil {
		return err
	}
	if err := x.write("search/search.js", searchJS); err != nil {
		return err
	}
	w := x.get("/search")
	if w.Code != http.StatusOK {
		return fmt.Errorf("GET /search: status %d", w.Code)
	}
	page := x.site.relativize(x.unhost(w.Body.Bytes()), 1)
	for _, p := range []struct{ file, mode string }{{"search/index.html", "search"}, {"lookup/index.html", "lookup"}} {
		if err := x.write(p.file, searchPage(page, p.mode)); err != nil {
			return err
		}
	}
	x.stats.Pages++
	return nil
}

// exportNote tells the reader how search works in a static copy.
const exportNote = `<p class="export-note" id="export-note">This is a static copy of errkb: search runs in your browser over every error's code, message, project and tags, and needs JavaScript.</p>`

// searchPage is the server's search page with the browser search's script
// and a note saying how it works. Both pages sit one folder down.
func searchPage(page []byte, mode string) []byte {
	script := `<script src="../search/search.js" data-mode="` + mode + `" defer></script></head>`
	page = bytes.Replace(page, []byte("</head>"), []byte(script), 1)
	main := []byte(`<main id="main" tabindex="-1">`)
	return bytes.Replace(page, main, append(main, exportNote...), 1)
}
