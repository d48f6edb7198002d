package web

import (
	"bufio"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errkb/errkb/internal/errkbtest"
)

// previousNamesFile lists every record of an earlier embedded dataset: id,
// repo, slug and errorCode, one a line. Links and scripts written against
// that dataset use these names, so a regenerated dataset must still serve
// them. `go test ./web -run TestPreviousNames -update` rewrites it from the
// embedded dataset: do that only before a regeneration renames anything.
var previousNamesFile = filepath.Join("testdata", "previous-names.tsv")

// previousName is one line of previousNamesFile.
type previousName struct{ id, repo, slug, code string }

// TestPreviousNames: every slug of the earlier dataset still serves its
// page, and every code of it still resolves, through /lookup, to the record
// at that slug. A code several earlier records shared may resolve to any
// of them or to the choice between them; so may a code several records of
// today's dataset carry, as their code or an alias (a bare name two
// packages share).
func TestPreviousNames(t *testing.T) {
	if *update {
		writePreviousNames(t)
	}
	names := readPreviousNames(t)
	if len(names) == 0 {
		t.Fatal("no previous names")
	}
	s := newTestServer(t, Config{})
	h := s
	byCode := map[string][]previousName{}
	for _, n := range names {
		k := codeKey(n.code)
		byCode[k] = append(byCode[k], n)
	}
	carriers := map[string]int{} // today's records carrying each code
	for _, r := range s.ds.Records {
		seen := map[string]bool{}
		for _, c := range append([]string{r.ErrorCode}, r.Aliases...) {
			if k := codeKey(c); c != "" && !seen[k] {
				seen[k] = true
				carriers[k]++
			}
		}
	}
	for _, n := range names {
		page := "/errors/" + n.repo + "/" + n.slug
		if w := get(t, h, page); w.Code != http.StatusOK {
			t.Errorf("%s: status %d, want 200", page, w.Code)
		}
		if n.code == "" {
			continue
		}
		w := get(t, h, "/lookup?q="+url.QueryEscape(n.code))
		loc := w.Header().Get("Location")
		shared := byCode[codeKey(n.code)]
		switch {
		case loc == page:
		case len(shared) > 1 && (strings.HasPrefix(loc, "/search") || sharedPage(loc, shared)):
		case carriers[codeKey(n.code)] > 1 && strings.HasPrefix(loc, "/search"):
		default:
			t.Errorf("lookup %q (%s/%s): %d to %q, want %s", n.code, n.repo, n.slug, w.Code, loc, page)
		}
	}
}

// codeKey is a code as lookups compare codes: without case, with '-',
// '.' and spaces read as '_'.
func codeKey(c string) string {
	return strings.NewReplacer("-", "_", ".", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(c)))
}

// sharedPage reports whether loc is the page of one of the records that
// shared a code.
func sharedPage(loc string, shared []previousName) bool {
	for _, n := range shared {
		if loc == "/errors/"+n.repo+"/"+n.slug {
			return true
		}
	}
	return false
}

func readPreviousNames(t *testing.T) []previousName {
	t.Helper()
	f, err := os.Open(previousNamesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []previousName
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if line == 1 {
			continue // the header
		}
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 4 {
			t.Fatalf("%s:%d: %d fields, want 4", previousNamesFile, line, len(fs))
		}
		out = append(out, previousName{fs[0], fs[1], fs[2], fs[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// writePreviousNames writes previousNamesFile from the embedded dataset.
func writePreviousNames(t *testing.T) {
	t.Helper()
	var b strings.Builder
	b.WriteString("id\trepo\tslug\terrorCode\n")
	for _, r := range errkbtest.Seed(t).Records {
		b.WriteString(r.ID + "\t" + r.Repo + "\t" + r.Slug + "\t" + r.ErrorCode + "\n")
	}
	if err := os.WriteFile(previousNamesFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
