package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
)

// fictionalRecord is a record of a made-up project; msg varies per dataset.
func fictionalRecord(msg string) string {
	return `{"record":{"id":"wx1","repo":"acme/widget","slug":"gear-jammed","errorCode":"GEAR_JAMMED",` +
		`"errorMessage":"` + msg + `","severity":"error","documentation":"The gear is *jammed*.",` +
		`"futureField":{"kept":[1,2,3]}},"datasetVersion":"v1"}`
}

func newCacheTestServer(t *testing.T, msg string) *Server {
	t.Helper()
	ds, err := errkb.Load(errkb.Folder{Name: "t", FS: fstest.MapFS{
		"a.json": &fstest.MapFile{Data: []byte(fictionalRecord(msg))},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return readyServer(t, ds, Config{}) // pages are cached once the index is ready
}

func TestCacheHeadersAndRevalidation(t *testing.T) {
	s := newCacheTestServer(t, "gear jammed")
	for _, path := range []string{"/errors/acme/widget/gear-jammed", "/api/v1/errors/acme/widget/gear-jammed", "/", "/errors/acme/widget"} {
		t.Run(path, func(t *testing.T) {
			first := get(t, s, path)
			second := get(t, s, path)
			if first.Code != 200 || second.Code != 200 {
				t.Fatalf("status %d then %d, want 200", first.Code, second.Code)
			}
			if !bytes.Equal(first.Body.Bytes(), second.Body.Bytes()) {
				t.Error("cached answer differs from the rendered one")
			}
			etag := first.Header().Get("ETag")
			if etag == "" || etag != second.Header().Get("ETag") {
				t.Fatalf("ETag %q then %q, want one stable ETag", etag, second.Header().Get("ETag"))
			}
			if cc := first.Header().Get("Cache-Control"); !strings.Contains(cc, "max-age=") {
				t.Errorf("Cache-Control %q", cc)
			}
			vary := "Accept-Encoding"
			if strings.HasPrefix(path, "/errors/") && strings.Count(path, "/") == 4 {
				vary = "Accept, Accept-Encoding" // error pages also answer text and Markdown
			}
			if v := first.Header().Get("Vary"); v != vary {
				t.Errorf("Vary %q, want %s", v, vary)
			}
			nm := get(t, s, path, "If-None-Match", `"other", `+etag)
			if nm.Code != http.StatusNotModified || nm.Body.Len() != 0 {
				t.Errorf("If-None-Match with the ETag: status %d, %d bytes; want 304 and no body", nm.Code, nm.Body.Len())
			}
			if stale := get(t, s, path, "If-None-Match", `"stale"`); stale.Code != 200 {
				t.Errorf("If-None-Match with another ETag: status %d, want 200", stale.Code)
			}

			gz := get(t, s, path, "Accept-Encoding", "br, gzip;q=0.8")
			if gz.Header().Get("Content-Encoding") != "gzip" {
				t.Fatalf("no gzip for a %d-byte answer", first.Body.Len())
			}
			zr, err := gzip.NewReader(gz.Body)
			if err != nil {
				t.Fatal(err)
			}
			plain, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(plain, first.Body.Bytes()) {
				t.Errorf("gzip answer does not decompress to the plain one (%v)", err)
			}
			if gz.Header().Get("ETag") == etag {
				t.Error("gzip and plain answers share an ETag; a cache could mix them up")
			}
			if r := get(t, s, path, "Accept-Encoding", "gzip", "If-None-Match", etag); r.Code != 200 {
				t.Errorf("plain ETag revalidated a gzip answer: status %d", r.Code)
			}
		})
	}
}

func TestCacheServesRecordsWithoutLoss(t *testing.T) {
	s := newCacheTestServer(t, "gear jammed")
	for i := range 2 { // miss, then hit
		w := get(t, s, "/api/v1/errors/acme/widget/gear-jammed")
		var env struct {
			Record         map[string]any `json:"record"`
			DatasetVersion string         `json:"datasetVersion"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if _, ok := env.Record["futureField"]; !ok || env.DatasetVersion != "v1" {
			t.Errorf("request %d: record lost fields: %v, version %q", i, env.Record, env.DatasetVersion)
		}
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("request %d: Content-Type %q", i, ct)
		}
	}
}

func TestCacheNeverServesAnotherDataset(t *testing.T) {
	a := newCacheTestServer(t, "gear jammed")
	b := newCacheTestServer(t, "gear jammed twice")
	const path = "/errors/acme/widget/gear-jammed"
	ea, eb := get(t, a, path).Header().Get("ETag"), get(t, b, path).Header().Get("ETag")
	if ea == eb {
		t.Fatalf("both datasets answer ETag %s; a client would keep the old page", ea)
	}
	if r := get(t, b, path, "If-None-Match", ea); r.Code != 200 || !strings.Contains(r.Body.String(), "gear jammed twice") {
		t.Errorf("new dataset revalidated the old page: status %d", r.Code)
	}
}

func TestCacheSkips(t *testing.T) {
	s := newCacheTestServer(t, "gear jammed")
	for _, tc := range []struct{ name, path string }{
		{"unknown record", "/errors/acme/widget/nope"},
		{"query string", "/errors/acme/widget/gear-jammed?x=1"},
		{"redirect for case", "/errors/ACME/widget/gear-jammed"},
		{"health", "/healthz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if w := get(t, s, tc.path); w.Header().Get("ETag") != "" {
				t.Errorf("status %d answered with ETag %q; it must not be cached", w.Code, w.Header().Get("ETag"))
			}
		})
	}
	if n := s.responses.Len(); n != 0 {
		t.Errorf("%d entries cached, want 0", n)
	}
}
