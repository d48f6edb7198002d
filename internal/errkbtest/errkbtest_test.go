package errkbtest

import (
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// TestFixturesLoad checks that every fixture is what it says: the record
// and its variants valid, the hostile record loaded with its markup kept,
// and the seed read from the embedded dataset.
func TestFixturesLoad(t *testing.T) {
	ds := Dataset(t, Record(), Record(ID("f00dfeed00000002")))
	if ds.Len() != 2 {
		t.Fatalf("%d records, want 2", ds.Len())
	}
	r, ok := ds.ByID("f00dfeed00000001")
	if !ok || r.NumericCode == nil || len(r.CallSites) != 1 || r.GoPackage == "" || r.DatasetVersion != "v-test" {
		t.Errorf("fixture record lost fields: %+v", r)
	}
	if _, probs := Problems(t, errkb.Folder{Name: "f", FS: Files(map[string]string{
		"a.json": string(JSON(Fields(func(f map[string]any) { f["lineNumber"] = "3" }))),
	})}); len(probs) != 1 || probs[0].Field != "lineNumber" {
		t.Errorf("Fields change not applied: %v", probs)
	}
	h := Load(t, HostileFolder())
	if h.Len() != 1 || !strings.Contains(h.Records[0].ErrorCode, "<script>") {
		t.Errorf("hostile record: %+v", h.Records)
	}
	seed := Load(t, SeedFolder())
	if r, ok := seed.ByPath("nats-io/nats-server", "js-consumer-offline"); !ok || r.ErrorCode != "JS_CONSUMER_OFFLINE" {
		t.Errorf("seed record missing from SeedFolder")
	}
	if Seed(t).Len() < 1 || SeedWithHostile(t).Len() != Seed(t).Len()+1 {
		t.Error("Seed and SeedWithHostile disagree")
	}
}
