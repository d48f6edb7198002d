package export

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
	"github.com/errkb/errkb/internal/indextest"
	"github.com/errkb/errkb/web"
	"github.com/errkb/errkb/web/route"
)

// server is the real web server over the seed record and the
// fictional acme-labs fixture.
func server(t *testing.T, baseURL string) (*web.Server, *errkb.Dataset) {
	t.Helper()
	ds := errkbtest.Load(t, errkbtest.SeedFolder(), errkb.Folder{Name: "basic", FS: os.DirFS("../testdata/basic")})
	srv := web.New(ds, web.Config{BaseURL: baseURL})
	srv.SetSearcher(indextest.Build(t, ds))
	return srv, ds
}

func TestExport(t *testing.T) {
	const base = "https://docs.example.test/kb"
	srv, ds := server(t, base)
	out := filepath.Join(t.TempDir(), "site")
	st, err := Run(context.Background(), srv, Options{Routes: web.Routes(), Out: out, BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != ds.Len() {
		t.Errorf("%d records in the search index, want %d", st.Records, ds.Len())
	}
	// Every record, project and tag page, and each record's API answer.
	want := []string{"index.html", "404.html", "errors/index.html", "search/index.html", "lookup/index.html",
		"search/index.json", "search/search.js", "sitemap.xml", "opensearch.xml", "robots.txt", "favicon.ico", "api/v1/openapi.json"}
	for _, r := range ds.Records {
		want = append(want, "errors/"+r.Path()+"/index.html", "api/v1/errors/"+r.Path(), "errors/"+r.Repo+"/index.html")
		for _, tag := range r.Tags {
			want = append(want, "tags/"+tag+"/index.html")
		}
	}
	for _, f := range want {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}

	// A record page holds the server's bytes apart from its site links.
	r := ds.Records[0]
	res := httptest.NewRecorder()
	srv.ServeHTTP(res, httptest.NewRequest(http.MethodGet, "/errors/"+r.Path(), nil))
	got, _ := os.ReadFile(filepath.Join(out, "errors", r.Path(), "index.html"))
	if string(got) != string(site(web.Routes()).relativize(res.Body.Bytes(), 4)) {
		t.Errorf("exported page of %s differs from the server's", r.Path())
	}
	api := httptest.NewRecorder()
	srv.ServeHTTP(api, httptest.NewRequest(http.MethodGet, "/api/v1/errors/"+r.Path(), nil))
	if got, _ := os.ReadFile(filepath.Join(out, "api/v1/errors", r.Path())); string(got) != api.Body.String() {
		t.Errorf("exported API answer of %s differs from the server's", r.Path())
	}
	sitemap, _ := os.ReadFile(filepath.Join(out, "sitemap.xml"))
	if !strings.Contains(string(sitemap), "<loc>"+base+"/errors/"+r.Path()+"</loc>") {
		t.Errorf("sitemap lacks %s", r.Path())
	}
	var idx searchIndex
	data, _ := os.ReadFile(filepath.Join(out, "search/index.json"))
	if err := json.Unmarshal(data, &idx); err != nil || len(idx.Records) != ds.Len() {
		t.Errorf("search index: %v, %d records", err, len(idx.Records))
	}
	checkLinks(t, out, "/kb/")
}

// relLink matches the links of a page that stay on the site.
var relLink = regexp.MustCompile(`\s(?:href|src|action)="([^"#][^"]*)"`)

// checkLinks resolves every link of every exported page as a browser
// would with the site served under prefix, and fails on any that names
// no file of the export.
func checkLinks(t *testing.T, out, prefix string) {
	t.Helper()
	checked := 0
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		pageURL, _ := url.Parse("http://host" + prefix + strings.TrimSuffix(filepath.ToSlash(rel), "index.html"))
		data, _ := os.ReadFile(p)
		for _, m := range relLink.FindAllStringSubmatch(string(data), -1) {
			link := strings.ReplaceAll(m[1], "&amp;", "&")
			u, err := pageURL.Parse(link)
			if err != nil || u.Host != "host" {
				continue
			}
			if !strings.HasPrefix(u.Path, prefix) {
				t.Errorf("%s: link %q leaves the prefix %s", rel, m[1], prefix)
				continue
			}
			target := filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(u.Path, prefix)))
			if strings.HasSuffix(u.Path, "/") {
				target = filepath.Join(target, "index.html")
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link %q names no file (%s)", rel, m[1], target)
			}
			checked++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("only %d links checked", checked)
	}
}

func TestExportWithoutBaseURL(t *testing.T) {
	srv, _ := server(t, "")
	out := t.TempDir()
	if _, err := Run(context.Background(), srv, Options{Routes: web.Routes(), Out: out}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"sitemap.xml", "opensearch.xml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s written without absolute URLs", f)
		}
	}
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), renderHost) {
				t.Errorf("%s names the render host", p)
			}
		}
		return err
	})
	if robots, _ := os.ReadFile(filepath.Join(out, "robots.txt")); strings.Contains(string(robots), "Sitemap:") {
		t.Errorf("robots.txt points at a sitemap that was not written:\n%s", robots)
	}
	checkLinks(t, out, "/")
}

func TestExportRefusesNonEmptyFolder(t *testing.T) {
	srv, _ := server(t, "")
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), srv, Options{Routes: web.Routes(), Out: out}); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("non-empty folder: %v", err)
	}
	// --force into a folder that is not an export keeps the other files.
	if _, err := Run(context.Background(), srv, Options{Routes: web.Routes(), Out: out, Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "notes.txt")); err != nil {
		t.Error("--force removed a file that an export did not write")
	}
	// --force over an earlier export replaces it, stale files included.
	out2 := t.TempDir()
	if _, err := Run(context.Background(), srv, Options{Routes: web.Routes(), Out: out2}); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(out2, "errors", "gone", "index.html")
	os.MkdirAll(filepath.Dir(stale), 0o755)
	os.WriteFile(stale, []byte("old"), 0o644)
	if _, err := Run(context.Background(), srv, Options{Routes: web.Routes(), Out: out2, Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a stale page of the earlier export survived --force")
	}
}

// TestExportFollowsRouteTable: the export asks the server for no route
// the table does not export, for every exported route without
// parameters, and writes each answer as a page or a file as the route's
// Export says.
func TestExportFollowsRouteTable(t *testing.T) {
	const base = "https://docs.example.test/kb"
	srv, _ := server(t, base)
	var mu sync.Mutex
	asked := map[string]bool{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.EscapedPath()] = true
		mu.Unlock()
		srv.ServeHTTP(w, r)
	})
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Run(context.Background(), h, Options{Routes: web.Routes(), Out: out, BaseURL: base}); err != nil {
		t.Fatal(err)
	}
	s := site(web.Routes())
	byRoute := map[string]int{}
	for p := range asked {
		r, ok := s.route(p)
		if !ok {
			continue // the 404 page
		}
		byRoute[r.Pattern]++
		if r.Export == route.NotExported {
			t.Errorf("asked for %s, of %s, which the table does not export", p, r.Pattern)
			continue
		}
		file, page := s.fileFor(p)
		if page != (r.Export == route.Page) {
			t.Errorf("%s written as page %v; the table says %v", p, page, r.Export)
		}
		if _, err := os.Stat(filepath.Join(out, file)); err != nil {
			t.Errorf("%s not written to %s", p, file)
		}
	}
	for _, r := range web.Routes() {
		if r.Export != route.NotExported && !strings.ContainsAny(r.Pattern, ":*") && byRoute[r.Pattern] == 0 {
			t.Errorf("%s is exported but was never asked for", r.Pattern)
		}
	}
	if byRoute["/errors/:owner/:repo/:slug"] == 0 || byRoute["/api/v1/errors/:owner/:repo/:slug"] == 0 {
		t.Errorf("no record page or API record exported: %v", byRoute)
	}
}
