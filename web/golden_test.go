package web

import (
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// assetHash matches content-hashed static URLs; golden files hold a
// placeholder so a stylesheet change does not rewrite every page.
var assetHash = regexp.MustCompile(`(/static/[a-z]+)\.[0-9a-f]{10}\.`)

// TestGoldenPages compares rendered pages of the fixture records with
// testdata/golden. Run `go test ./web -run TestGoldenPages -update` after
// an intended change and review the diff.
func TestGoldenPages(t *testing.T) {
	s := newPagesServer(t, false, Config{BaseURL: "https://errkb.example.com"})
	for _, tc := range []struct{ name, path string }{
		{"seed-record", seedPath},
		{"python-record", quorumPath},
		{"js-record", timeoutPath},
		{"hostile-record", hostilePath},
		{"home", "/"},
		{"project", "/errors/fictional-org/quuxdb"},
		{"tag", "/tags/quorum"},
		{"projects", "/errors"},
		{"not-found", "/errors/fictional-org/quuxdb/no-such-error"},
		{"robots", "/robots.txt"},
		{"sitemap", "/sitemap.xml"},
		{"opensearch", "/opensearch.xml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
			if rec.Code != http.StatusOK && tc.name != "not-found" {
				t.Fatalf("GET %s: status %d", tc.path, rec.Code)
			}
			got := assetHash.ReplaceAllString(rec.Body.String(), "$1.HASH.")
			got = strings.ReplaceAll(got, "><", ">\n<") // one tag a line, for readable diffs
			file := filepath.Join("testdata", "golden", tc.name+ext(rec.Header().Get("Content-Type")))
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("GET %s differs from %s; run `go test ./web -run TestGoldenPages -update` and review the diff\n%s",
					tc.path, file, firstDiff(string(want), got))
			}
		})
	}
}

func ext(ctype string) string {
	switch {
	case strings.HasPrefix(ctype, "text/html"):
		return ".html"
	case strings.HasPrefix(ctype, "text/plain"):
		return ".txt"
	}
	return ".xml"
}

// firstDiff shows the first differing line of two texts.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return ""
}
