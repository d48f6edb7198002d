//go:build linux

package store

import (
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// TestSpillPointsIntoRawJSON checks that a long field spelled out in the
// record's raw JSON is not written to the spill file a second time, while
// one that JSON escapes (code on several lines) is, and that both read the
// same after spilling.
func TestSpillPointsIntoRawJSON(t *testing.T) {
	prose := strings.Repeat("the consumer went away while the stream was being read; ", 3)
	code := strings.Repeat("if err != nil {\n\treturn err\n}\n", 4)
	r := &errkb.Record{ID: "a", TriggerScenarios: prose, SourceCode: code}
	r.Raw = []byte(`{"id":"a","triggerScenarios":"` + prose + `","sourceCode":"` + strings.ReplaceAll(strings.ReplaceAll(code, "\n", `\n`), "\t", `\t`) + `"}`)
	sf, err := newSpillFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sf.done()
	if err := sf.spill([]*errkb.Record{r}); err != nil {
		t.Fatal(err)
	}
	if r.TriggerScenarios != prose || r.SourceCode != code {
		t.Fatal("spilled fields read differently")
	}
	raw := sf.refs[r][0]
	inRaw := func(ref spillRef) bool { return ref.Off >= raw.Off && ref.Off+ref.Len <= raw.Off+raw.Len }
	for _, ref := range sf.refs[r][1:] {
		switch ref.Len {
		case int64(len(prose)):
			if !inRaw(ref) {
				t.Errorf("triggerScenarios copied beside the raw JSON, which holds it verbatim")
			}
		case int64(len(code)):
			if inRaw(ref) {
				t.Errorf("sourceCode points into the raw JSON, where it is escaped")
			}
		}
	}
	if want := int64(len(r.Raw) + len(code)); sumLens(sf) != want {
		t.Errorf("spill file holds %d bytes of data, want %d (raw JSON and the escaped field)", sumLens(sf), want)
	}
}

func sumLens(sf *spillFile) int64 {
	var n int64
	for _, m := range sf.maps {
		n += int64(len(m))
	}
	return n
}
