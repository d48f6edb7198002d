package index_test

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
)

// TestPrebuiltIndexIsCurrent fails while prebuilt/ was built for another
// dataset, mapping or table version than this code and dataset/ make:
// every start would then build the index again instead of copying it.
func TestPrebuiltIndexIsCurrent(t *testing.T) {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	got, err := index.SeedKey(errkb.EmbeddedIndex())
	if err != nil {
		t.Fatalf("prebuilt index: %v; run `make prebuilt` and commit prebuilt/", err)
	}
	if want := index.Key(ds); got != want {
		t.Fatalf("prebuilt/ holds the index for key %.16s, the embedded dataset and this code need %.16s; run `make prebuilt` and commit prebuilt/", got, want)
	}
}

// TestOpenSeededServesThePrebuiltIndex opens the embedded dataset's index
// from its prebuilt copy and wants it copied, not built, and answering
// searches exactly as an index built from scratch does.
func TestOpenSeededServesThePrebuiltIndex(t *testing.T) {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	seeded, err := index.OpenSeeded(context.Background(), ds, t.TempDir(), errkb.EmbeddedIndex(), slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatalf("OpenSeeded: %v\n%s", err, log.String())
	}
	defer seeded.Close()
	if !strings.Contains(log.String(), "prebuilt index copied") || strings.Contains(log.String(), "building") {
		t.Fatalf("the prebuilt index was not used:\n%s", log.String())
	}
	built, err := index.Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer built.Close()
	for _, i := range []int{0, ds.Len() / 3, ds.Len() / 2, ds.Len() - 1} {
		r := ds.Records[i]
		for _, q := range []string{r.ErrorMessage, r.ErrorCode, "stream not found", "nats: timeout"} {
			if q == "" {
				continue
			}
			want, err := built.Search(context.Background(), index.Query{Text: q, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			got, err := seeded.Search(context.Background(), index.Query{Text: q, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != want.Total || len(got.Hits) != len(want.Hits) {
				t.Fatalf("search %q: prebuilt index found %d (%d hits), a fresh build %d (%d hits)", q, got.Total, len(got.Hits), want.Total, len(want.Hits))
			}
			for j := range want.Hits {
				if got.Hits[j].Record.ID != want.Hits[j].Record.ID {
					t.Fatalf("search %q: hit %d is %s from the prebuilt index, %s from a fresh build", q, j, got.Hits[j].Record.ID, want.Hits[j].Record.ID)
				}
			}
		}
	}
}

// TestOpenSeededBuildsWhenThePrebuiltIndexDoesNotFit gives a prebuilt
// index of another key and a damaged one of the right key: both must end
// in a build, never in serving the wrong or broken files.
func TestOpenSeededBuildsWhenThePrebuiltIndexDoesNotFit(t *testing.T) {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join("..", "prebuilt", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	damaged := fstest.MapFS{}
	if err := copyIntoMap(damaged, errkb.EmbeddedIndex()); err != nil {
		t.Fatal(err)
	}
	for name, f := range damaged {
		if strings.HasSuffix(name, ".zap") {
			f.Data = append([]byte(nil), f.Data...)
			f.Data[len(f.Data)/2] ^= 0xff
			break
		}
	}
	for name, seed := range map[string]fstest.MapFS{
		"another key": {"manifest.json": {Data: []byte(strings.Replace(string(manifest), index.Key(ds)[:8], "00000000", 1))}},
		"damaged":     damaged,
	} {
		t.Run(name, func(t *testing.T) {
			var log strings.Builder
			ix, err := index.OpenSeeded(context.Background(), ds, t.TempDir(), seed, slog.New(slog.NewTextHandler(&log, nil)))
			if err != nil {
				t.Fatalf("OpenSeeded: %v\n%s", err, log.String())
			}
			defer ix.Close()
			if !strings.Contains(log.String(), "index built") {
				t.Fatalf("no build with an unfit prebuilt index:\n%s", log.String())
			}
			want := ds.Records[ds.Len()/2]
			res, err := ix.Search(context.Background(), index.Query{Text: want.ErrorMessage, Limit: 5})
			if err != nil || res.Total == 0 {
				t.Fatalf("search for %q: %d results, %v", want.ErrorMessage, res.Total, err)
			}
		})
	}
}

// copyIntoMap copies every file of src into m.
func copyIntoMap(m fstest.MapFS, src fs.FS) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		m[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		return err
	})
}
