//go:build browser

package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
	"github.com/errkb/errkb/web/siteurl"
)

// TestBrowserPages shoots the record pages that show identity, faces,
// surface and the derived facts, light and dark, on a desktop and a
// 360 px phone, into artifacts/pages (not committed): the fictional
// knowledge fixture ("fixture-*", every new field set), and the NATS
// pages of the embedded dataset: the seed, a server API error, a client
// sentinel, a log-only error (found through search) and three curated
// pages. Each page must not scroll sideways, keep AA contrast and report
// no script or CSP problem. Run one group with -run, e.g.
// TestBrowserPages/fixture.
func TestBrowserPages(t *testing.T) {
	exe := findChromium(t)
	ds, err := errkb.Load(errkb.Embedded(), errkbtest.Folder(knowledgeRecords()...))
	if err != nil {
		t.Fatal(err)
	}
	s := readyServer(t, ds, Config{BrokenSamples: embeddedBrokenSamples(t)})
	srv := httptest.NewServer(withCSP(s))
	defer srv.Close()
	b := &bt{t: t, srv: srv, alloc: newAllocator(t, exe, 10*time.Minute), shots: pagesArtifactsDir(t)}

	fixture := "/errors/acme-labs/gizmo/"
	t.Run("fixture", func(t *testing.T) {
		b.shootPages(t, []shot{
			{"fixture-client", fixture + clientID, []string{"#faces", "#conditions", "#returned-by", "#type-guard", "#handled-at", "#tests", "#docs", "details.more-facts"}},
			{"fixture-api-error", fixture + serverID, []string{"#faces", "#type-guard"}},
			{"fixture-log", fixture + logID, []string{".surface"}},
			{"fixture-curated", fixture + curatedID, []string{"ul.citations"}},
		})
	})
	t.Run("nats", func(t *testing.T) {
		pages := []shot{
			{"seed", seedPath, []string{"#source", ".broken"}},
			{"js-stream-not-found", "/errors/nats-io/nats-server/js-stream-not-found", []string{"#type-guard"}},
			{"client-sentinel", clientSentinelPath(ds), nil},
			{"log-only", searchFirst(t, srv.URL, "QoS=2 is disabled for PUBLISH messages", "nats-io/nats-server"), nil},
			{"curated-no-responders", "/errors/nats-io/nats.go/err-no-responders", []string{"ul.citations"}},
			{"curated-consumer-not-found", "/errors/nats-io/nats-server/js-consumer-not-found", []string{"ul.citations"}},
			{"curated-slow-consumer", "/errors/nats-io/nats.go/err-slow-consumer", []string{"ul.citations"}},
		}
		b.shootPages(t, pages)
	})
}

// shot is one page to check and shoot, with the elements it must show.
type shot struct {
	name, path string
	want       []string
}

func (b *bt) shootPages(t *testing.T, pages []shot) {
	for _, v := range []viewport{desktop, desktopDark, phone, phoneDark} {
		t.Run(v.name, func(t *testing.T) {
			tb := b.newTab(t)
			tb.emulate(t, v)
			for _, p := range pages {
				if p.path == "" {
					t.Errorf("%s: no page found", p.name)
					continue
				}
				tb.do(t, chromedp.Navigate(b.srv.URL+p.path), waitFor("main h1"))
				for _, sel := range p.want {
					if !eval[bool](t, tb, `!!document.querySelector(`+jsString(sel)+`)`) {
						t.Errorf("%s: no %s", p.name, sel)
					}
				}
				tb.checkLayout(t, p.name, v)
				b.screenshot(t, tb, p.name+"-"+v.name, true)
				tb.check(t, p.name+" ("+v.name+")")
			}
		})
	}
}

// clientSentinelPath is the page of nats.go's nats.ErrStreamNotFound: by
// its qualified name once extraction sets it, else by today's slug.
func clientSentinelPath(ds *errkb.Dataset) string {
	for _, r := range ds.Records {
		if r.Repo == "nats-io/nats.go" && r.QualifiedName == "nats.ErrStreamNotFound" {
			return recordURL(r)
		}
	}
	if r, ok := ds.ByPath("nats-io/nats.go", "nats-err-stream-not-found"); ok {
		return recordURL(r)
	}
	return ""
}

// searchFirst is the path of the first hit of a search in one project,
// through the JSON API, as a reader would find the page; "" for none.
func searchFirst(t *testing.T, base, q, repo string) string {
	t.Helper()
	resp, err := http.Get(base + siteurl.API(siteurl.SearchWith(url.Values{"q": {q}, "repo": {repo}, "limit": {"1"}})))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res struct {
		Hits []struct {
			URL string `json:"url"`
		} `json:"hits"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	if len(res.Hits) == 0 {
		return ""
	}
	return strings.TrimPrefix(res.Hits[0].URL, base)
}

// pagesArtifactsDir is artifacts/pages at the repository root, or
// $ERRKB_ARTIFACTS/pages.
func pagesArtifactsDir(t *testing.T) string {
	dir := filepath.Join("..", "artifacts", "pages")
	if env := os.Getenv("ERRKB_ARTIFACTS"); env != "" {
		dir = filepath.Join(env, "pages")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
