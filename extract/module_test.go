package extract_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/errkb/errkb/extract"
)

// TestModuleAndFolderGiveSameBytes serves the fixture from a module proxy
// in a folder (GOPROXY=file://...), so MODULE@VERSION goes through the go
// command without a network, and compares what it writes with what the
// module's folder gives.
func TestModuleAndFolderGiveSameBytes(t *testing.T) {
	src := fixture(t)
	proxy := t.TempDir()
	vdir := filepath.Join(proxy, "example.com", "acme", "widget", "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"list":        "v1.2.0\n",
		"v1.2.0.info": `{"Version":"v1.2.0","Time":"2026-01-02T03:04:05Z"}`,
		"v1.2.0.mod":  string(gomod),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(vdir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zf, err := os.Create(filepath.Join(vdir, "v1.2.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := modzip.CreateFromDir(zf, module.Version{Path: "example.com/acme/widget", Version: "v1.2.0"}, src); err != nil {
		t.Fatal(err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	t.Setenv("GOMODCACHE", t.TempDir())

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
	if !bytes.Contains(a["acme-labs/widget/err-no-widget.json"], []byte(`"analyzedAt":"2026-01-02T03:04:05Z"`)) {
		t.Errorf("analyzedAt is not the version's time:\n%s", a["acme-labs/widget/err-no-widget.json"])
	}
}
