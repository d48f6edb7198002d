package store

import (
	"bytes"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
)

// TestMergedRecordSpilledAndRestored: a curated record merged with its
// extracted twin after its bytes were spilled reads the same spilled, read
// back from the snapshot, and on the heap.
func TestMergedRecordSpilledAndRestored(t *testing.T) {
	src := errkb.Folder{Name: "ds", FS: fstest.MapFS{
		"x/acme-labs/widget/_source.json": {Data: []byte(`{"repo":"acme-labs/widget","module":"example.com/acme/widget","version":"v1.2.0","license":"MIT","licenseFile":"LICENSE","tool":"errkb extract"}`)},
		"x/acme-labs/widget/a.json": {Data: []byte(`{"id":"e1","repo":"acme-labs/widget","slug":"gear-jammed","errorCode":"ErrGearJammed","errorMessage":"widget: gear jammed, \"really\" jammed","severity":"error","numericCode":4107,` +
			`"callSites":[{"filePath":"spin.go","lineNumber":40,"function":"Spin","githubUrl":"https://github.com/acme-labs/widget/blob/v1.2.0/spin.go#L40"}]}`)},
		"c/acme-labs/widget/a.json": {Data: []byte(`{"id":"c1","repo":"acme-labs/widget","slug":"gear-jammed","errorCode":"GEAR_JAMMED","errorMessage":"widget: gear jammed, \"really\" jammed","severity":"error","documentation":"A \"long\" text that needs escaping, long enough to be cut out of the raw JSON and held once."}`)},
	}}
	heap, err := errkb.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	want := heap.Records[0]
	if want.Extracted == nil {
		t.Fatal("not merged")
	}
	dir := t.TempDir()
	for i := range 2 {
		ds, report, err := Load(dir, src)
		if err != nil || report.Err != nil {
			t.Fatal(err, report.Err)
		}
		if i == 1 && !report.FromSnapshot {
			t.Fatal("second load did not read the snapshot")
		}
		if len(ds.Records) != 1 {
			t.Fatalf("load %d: %d records", i, len(ds.Records))
		}
		r := ds.Records[0]
		if !bytes.Equal(r.RawJSON(), want.RawJSON()) {
			t.Errorf("load %d: raw JSON\n%s\nwant\n%s", i, r.RawJSON(), want.RawJSON())
		}
		if !reflect.DeepEqual(r.Extracted, want.Extracted) || *r.NumericCode != 4107 || len(r.CallSites) != 1 {
			t.Errorf("load %d: extracted %+v, want %+v", i, r.Extracted, want.Extracted)
		}
		if got, ok := ds.ByID("e1"); !ok || got != r {
			t.Errorf("load %d: the twin's id does not name the record", i)
		}
		if ds.Hash() != heap.Hash() {
			t.Errorf("load %d: hash %s, want %s", i, ds.Hash(), heap.Hash())
		}
	}
}
