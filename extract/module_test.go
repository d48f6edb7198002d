package extract_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/errkb/errkb/extract"
)

// proxyModule is a folder served by a test's module proxy.
type proxyModule struct {
	path, version, dir, time string
}

// serveProxy writes a module proxy in a folder (GOPROXY=file://...) that
// serves the modules, so MODULE@VERSION goes through the go command
// without a network. The module cache is a fresh one, read-only as the
// go command leaves it, and emptied after the test.
func serveProxy(t *testing.T, mods ...proxyModule) {
	t.Helper()
	proxy := t.TempDir()
	for _, m := range mods {
		esc, err := module.EscapePath(m.path)
		if err != nil {
			t.Fatal(err)
		}
		vdir := filepath.Join(proxy, filepath.FromSlash(esc), "@v")
		if err := os.MkdirAll(vdir, 0o755); err != nil {
			t.Fatal(err)
		}
		gomod, err := os.ReadFile(filepath.Join(m.dir, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{
			"list":              m.version + "\n",
			m.version + ".info": `{"Version":"` + m.version + `","Time":"` + m.time + `"}`,
			m.version + ".mod":  string(gomod),
		}
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(vdir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		zf, err := os.Create(filepath.Join(vdir, m.version+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		if err := modzip.CreateFromDir(zf, module.Version{Path: m.path, Version: m.version}, m.dir); err != nil {
			t.Fatal(err)
		}
		if err := zf.Close(); err != nil {
			t.Fatal(err)
		}
	}
	cache := t.TempDir()
	t.Cleanup(func() { makeWritable(t, cache) }) // runs before TempDir removes it

	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOMODCACHE", cache)
}

// makeWritable gives back write permission on a module cache in a test's
// own folder, which the go command leaves read-only, so that it can be
// removed. It touches nothing outside dir.
func makeWritable(t *testing.T, dir string) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		return os.Chmod(p, 0o755)
	})
	if err != nil {
		t.Logf("make %s writable: %v", dir, err)
	}
}

// TestModuleAndFolderGiveSameBytes compares what MODULE@VERSION writes
// with what the module's folder gives.
func TestModuleAndFolderGiveSameBytes(t *testing.T) {
	serveProxy(t, proxyModule{"example.com/acme/widget", "v1.2.0", fixture(t), "2026-01-02T03:04:05Z"})

	viaModule, viaFolder := t.TempDir(), t.TempDir()
	extractTo(t, "example.com/acme/widget@v1.2.0", viaModule)
	s, err := extract.Resolve(context.Background(), "example.com/acme/widget@v1.2.0", "acme-labs/widget", "v1.2.0")
	if err != nil {
		t.Fatal(err)
	}
	if s.Origin.Time != "2026-01-02T03:04:05Z" || s.Origin.Version != "v1.2.0" {
		t.Errorf("origin %+v: want the version's time from the proxy", s.Origin)
	}
	extractTo(t, s.Dir, viaFolder)

	a, b := readTree(t, viaModule), readTree(t, viaFolder)
	if len(a) < 5 || len(a) != len(b) {
		t.Fatalf("%d files from the module, %d from its folder", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs:\nmodule: %s\nfolder: %s", name, data, b[name])
		}
	}
	rec := a["acme-labs/widget/err-no-widget.json"]
	if !bytes.Contains(rec, []byte(`"analyzedAt":"2026-01-02T03:04:05Z"`)) || !bytes.Contains(rec, []byte(`"datasetVersion":"2026-01-02T03:04:05Z"`)) {
		t.Errorf("analyzedAt or datasetVersion is not the version's time:\n%s", rec)
	}
}

// TestModuleWithDependency loads a module from the read-only module cache
// with a dependency it has no go.sum for: the go command records the
// checksum in a temporary copy of go.mod and go.sum, never in the cache,
// and the dependency's types resolve.
func TestModuleWithDependency(t *testing.T) {
	serveProxy(t,
		proxyModule{"example.com/acme/widget", "v1.2.0", fixture(t), "2026-01-02T03:04:05Z"},
		proxyModule{"example.com/acme/gadget", "v0.1.0", "testdata/gadget", "2026-02-03T04:05:06Z"},
	)
	s, err := extract.Resolve(context.Background(), "example.com/acme/gadget@v0.1.0", "acme-labs/gadget", "")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := extract.Load(context.Background(), s, extract.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := extract.Extract(prog, extract.Options{})
	if len(res.Problems) > 0 {
		t.Errorf("problems: %v", res.Problems)
	}
	var names []string
	for _, e := range res.Errors {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "ErrNoGadget" {
		t.Errorf("errors %v, want gadget's ErrNoGadget alone (widget's are widget's)", names)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "go.sum")); err == nil {
		t.Error("a go.sum was written into the module cache")
	}
	if !strings.HasPrefix(res.Errors[0].Sites[0].URL, "https://github.com/acme-labs/gadget/blob/v0.1.0/gadget.go#L") {
		t.Errorf("site %+v: want a link at the version's tag", res.Errors[0].Sites)
	}
}
