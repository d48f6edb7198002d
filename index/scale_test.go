package index

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
)

// scaledDataset loads the relevance fixture and adds clones of its
// records until there are n, each clone a different fictional error: its
// own id, project, code, class, message words, code numbers and
// identifiers. The originals keep their ids, so the labelled queries
// still apply; the clones are near-duplicates of them, the hardest kind
// of neighbour a real dataset of that size would have.
func scaledDataset(t testing.TB, n int) *errkb.Dataset {
	t.Helper()
	base, err := errkb.Load(errkb.Folder{Name: "relevance", FS: os.DirFS("../testdata/relevance/dataset")})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	add := func(r *errkb.Record) {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	for _, r := range base.Records {
		add(r)
	}
	for k := 0; len(lines) < n; k++ {
		add(cloneRecord(base.Records[k%base.Len()], k))
	}
	fsys := fstest.MapFS{}
	for i := 0; i*1000 < len(lines); i++ {
		part := lines[i*1000 : min(len(lines), (i+1)*1000)]
		fsys[fmt.Sprintf("part-%03d.jsonl", i)] = &fstest.MapFile{Data: []byte(strings.Join(part, "\n") + "\n")}
	}
	ds, err := errkb.Load(errkb.Folder{Name: "scaled", FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// syllables make up fictional words; pseudoWord(k) differs for each k.
var syllables = []string{"ka", "lo", "mir", "ten", "vu", "sa", "rod", "pe", "qui", "zan", "fo", "bel", "dri", "nok", "wu", "hal"}

func pseudoWord(k int) string {
	var b strings.Builder
	for i := 0; i < 3 || k > 0; i++ {
		b.WriteString(syllables[k%len(syllables)])
		k /= len(syllables)
	}
	return b.String()
}

var (
	cloneNumberRE = regexp.MustCompile(`\b\d{4,5}\b`)
	cloneIdentRE  = regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\b`)
)

// cloneRecord makes the k-th clone of r.
func cloneRecord(r *errkb.Record, k int) *errkb.Record {
	c := *r
	w := pseudoWord(k)
	title := strings.ToUpper(w[:1]) + w[1:]
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", r.ID, k)
	c.ID = fmt.Sprintf("%016x", h.Sum64())
	c.Repo = fmt.Sprintf("bench-%s/%s", pseudoWord(k%97), r.Name())
	c.Slug = r.Slug + "-" + w
	c.ErrorCode = r.ErrorCode + "_" + strings.ToUpper(w)
	c.ErrorClass = r.ErrorClass + title
	c.ErrorMessage = insertWord(r.ErrorMessage, w)
	c.MessagePattern = insertWord(r.MessagePattern, w)
	for _, f := range []*string{&c.TypeGuard, &c.ExampleFix, &c.ValidationCode, &c.TryCatchPattern, &c.SourceCode} {
		*f = cloneNumberRE.ReplaceAllStringFunc(*f, func(s string) string { return fmt.Sprint(30000 + k) })
		*f = cloneIdentRE.ReplaceAllString(*f, "${0}"+title)
	}
	return &c
}

// insertWord puts w after the first word of s, so the clone's message is
// a near-duplicate of the original that no query for the original fits.
func insertWord(s, w string) string {
	first, rest, ok := strings.Cut(s, " ")
	if !ok {
		return s + " " + w
	}
	return first + " " + w + " " + rest
}

func buildScaled(t testing.TB, n int) *Index {
	t.Helper()
	ix, err := Build(context.Background(), scaledDataset(t, n), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}
