//go:build linux

package store

import (
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// TestSpillHolesEscapedFields checks the layout of a spilled record: a
// long field spelled out in the raw JSON points into it, one that JSON
// escapes (code on several lines) is held once, decoded, with a hole in
// the raw JSON where its escaped value was, the known keys are cut out,
// and the API's bytes, with all spliced back, are the original ones.
func TestSpillHolesEscapedFields(t *testing.T) {
	prose := strings.Repeat("the consumer went away while the stream was being read; ", 3)
	code := strings.Repeat("if err != nil {\n\treturn fmt.Errorf(\"read: %w\", err)\n}\n", 4)
	escaped := string(appendJSONString(nil, code))
	raw := `{"id":"a","triggerScenarios":"` + prose + `","sourceCode":"` + escaped + `"}`
	r := &errkb.Record{ID: "a", TriggerScenarios: prose, SourceCode: code}
	r.HoldRaw([]byte(raw), nil)
	sf := spillOne(t, r)
	if r.ID != "a" || r.TriggerScenarios != prose || r.SourceCode != code {
		t.Fatal("spilled fields read differently")
	}
	if got := string(r.RawJSON()); got != raw {
		t.Fatalf("raw JSON after spilling:\n%s\nwant\n%s", got, raw)
	}
	if held := string(sf.maps[0]); strings.Contains(held, escaped) || strings.Contains(held, `"sourceCode":`) {
		t.Errorf("spilled bytes %q still hold the escaped code or a known key", held)
	}
	keys := len(`"id":`) + len(`"triggerScenarios":`) + len(`"sourceCode":`)
	// And the holes: four (three keys and the code) of a byte for what
	// goes there and one for the gap from the previous, but two after
	// the prose, and a byte for their length.
	if want := len(raw) - keys - len(escaped) + len(code) + 4*2 + 1 + 1; int(sumLens(sf)) != want {
		t.Errorf("spill file holds %d bytes, want %d (raw JSON without keys and escaped code, the holes, and the code once)", sumLens(sf), want)
	}
}

// TestSpillKeepsEscapesItCannotReproduce checks that a value escaped
// otherwise than appendJSONString would ("\u003c" for '<') stays in the
// raw JSON, so the API's bytes are still the original ones.
func TestSpillKeepsEscapesItCannotReproduce(t *testing.T) {
	code := "if a \u003c b {\n\treturn \"less\"\n}\n"
	raw := `{"id":"b","sourceCode":"if a \u003c b {\n\treturn \"less\"\n}\n"}`
	r := &errkb.Record{ID: "b", SourceCode: code}
	r.HoldRaw([]byte(raw), nil)
	sf := spillOne(t, r)
	if held := string(sf.maps[0]); !strings.Contains(held, `\u003c b`) || string(r.RawJSON()) != raw || r.SourceCode != code {
		t.Fatalf("spilled %s, raw %s, code %q", held, r.RawJSON(), r.SourceCode)
	}
}

// spillOne spills r into a spill file removed when the test ends.
func spillOne(t *testing.T, r *errkb.Record) *spillFile {
	t.Helper()
	sf, err := newSpillFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sf.done)
	if err := sf.spill([]*errkb.Record{r}); err != nil {
		t.Fatal(err)
	}
	return sf
}

func sumLens(sf *spillFile) int64 {
	var n int64
	for _, m := range sf.maps {
		n += int64(len(m))
	}
	return n
}
