package errkb

import (
	"errors"
	"fmt"
	"testing"
	"testing/fstest"
)

// provRecord is a minimal valid record of the fictional acme-labs/widget.
func provRecord(id, slug, code, msg string) string {
	return fmt.Sprintf(`{"id":%q,"repo":"acme-labs/widget","slug":%q,"errorCode":%q,"errorMessage":%q,"severity":"error"}`, id, slug, code, msg)
}

const widgetSource = `{"repo":"acme-labs/widget","module":"example.com/acme/widget","version":"v1.2.0","commit":"","license":"MIT","licenseFile":"LICENSE","tool":"errkb extract"}`

func TestProvenanceAndCuratedRecordsWin(t *testing.T) {
	fsys := fstest.MapFS{
		// Extracted: a folder with _source.json.
		"extracted/acme-labs/widget/_source.json":       {Data: []byte(widgetSource)},
		"extracted/acme-labs/widget/LICENSE":            {Data: []byte("MIT License\n")},
		"extracted/acme-labs/widget/gear-jammed.json":   {Data: []byte(provRecord("e1", "gear-jammed", "GEAR_JAMMED", "widget: gear jammed"))},
		"extracted/acme-labs/widget/other-slug.json":    {Data: []byte(provRecord("e2", "other-slug", "SEALED", "widget: sealed"))},
		"extracted/acme-labs/widget/err-no-widget.json": {Data: []byte(provRecord("e3", "err-no-widget", "ERR_NO_WIDGET", "widget: no such widget"))},
		// Curated, in a folder without one: same code as e1 (and its
		// slug), same code as e2 under another slug.
		"acme-labs/widget/gear-jammed.json": {Data: []byte(provRecord("c1", "gear-jammed", "GEAR_JAMMED", "the gear is jammed"))},
		"acme-labs/widget/sealed.json":      {Data: []byte(provRecord("c2", "sealed", "SEALED", "the widget is sealed"))},
	}
	ds, err := Load(Folder{Name: "ds", FS: fsys})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var ids []string
	for _, r := range ds.Records {
		ids = append(ids, r.ID)
	}
	if fmt.Sprint(ids) != "[e3 c1 c2]" {
		t.Errorf("records %v, want the curated c1 and c2, merged with e1 and e2, and e3", ids)
	}
	for twin, curated := range map[string]string{"e1": "c1", "e2": "c2"} {
		if r, ok := ds.ByID(twin); !ok || r.ID != curated {
			t.Errorf("ByID(%s) = %v, want the curated %s", twin, r, curated)
		}
	}
	pv, ok := ds.Provenance["acme-labs/widget"]
	if !ok || pv.Module != "example.com/acme/widget" || pv.License != "MIT" || pv.LicenseFile != "LICENSE" || pv.Version != "v1.2.0" {
		t.Errorf("Provenance = %+v", ds.Provenance)
	}
}

func TestBadProvenanceIsAProblem(t *testing.T) {
	fsys := fstest.MapFS{
		"p/_source.json": {Data: []byte(`{"repo": 7}`)},
		"q/_source.json": {Data: []byte(`{"repo": "no-slash"}`)},
	}
	_, err := Load(Folder{Name: "ds", FS: fsys})
	var probs Problems
	if !errors.As(err, &probs) || len(probs) != 2 {
		t.Fatalf("Load = %v, want two problems", err)
	}
}

func TestEmbeddedProvenance(t *testing.T) {
	ds, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, repo := range []string{"nats-io/nats-server", "nats-io/nats.go"} {
		pv := ds.Provenance[repo]
		if pv.License != "Apache-2.0" || pv.Version == "" || pv.LicenseFile == "" {
			t.Errorf("%s: provenance %+v", repo, pv)
		}
		if _, err := Embedded().FS.Open("extracted/" + repo + "/" + pv.LicenseFile); err != nil {
			t.Errorf("%s: license file not embedded: %v", repo, err)
		}
		if n := len(ds.ByRepo(repo)); n < 300 {
			t.Errorf("%s: %d records, want several hundred", repo, n)
		}
	}
	seed, ok := ds.ByID("dabd815d1877efcd")
	if !ok || seed.Location.File != "dataset/nats-io/nats-server/js-consumer-offline.json" {
		t.Fatalf("the curated seed is not the record served for JS_CONSUMER_OFFLINE: %+v", seed)
	}
	if r, _ := ds.ByPath("nats-io/nats-server", "js-consumer-offline"); r != seed {
		t.Error("nats-io/nats-server/js-consumer-offline is not the seed")
	}
}
