package errkb

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

// TestParseEntryFastAgrees checks that the quick path never accepts what
// the careful path rejects, and yields the same Record when both accept.
func TestParseEntryFastAgrees(t *testing.T) {
	seed, err := fs.ReadFile(Embedded().FS, "nats-io/nats-server/js-consumer-offline.json")
	if err != nil {
		t.Fatal(err)
	}
	env := strings.TrimSpace(string(seed))
	bare := `{"id":"a1","repo":"acme/widget","slug":"s","errorCode":"E1","errorMessage":"m","severity":"error"}`
	tests := []struct {
		name     string
		raw      string
		wantFast bool
	}{
		{"seed envelope", env, true},
		{"bare record", bare, true},
		{"envelope of bare", `{"record":` + bare + `,"datasetVersion":"v9","extra":[1,{"a":"}"}]}`, true},
		// Unknown fields may hide nesting or URLs that checkHostile must see.
		{"unknown field", strings.Replace(bare, `"id"`, `"futureField":{"x":[1,2]},"id"`, 1), false},
		{"null optional", strings.Replace(bare, `"id"`, `"errorClass":null,"id"`, 1), true},
		{"key in other case", strings.Replace(bare, `"id"`, `"ID"`, 1), false},
		{"extra key in other case", strings.Replace(bare, `"slug"`, `"Slug":"t","slug"`, 1), false},
		{"duplicate known key", strings.Replace(bare, `"slug":"s"`, `"slug":"s","slug":null`, 1), false},
		{"escaped key", strings.Replace(bare, `"id"`, `"\u0069d"`, 1), false},
		{"wrong type", strings.Replace(bare, `"errorCode":"E1"`, `"errorCode":1`, 1), false},
		{"missing required", strings.Replace(bare, `"severity":"error"`, `"x":1`, 1), false},
		{"Record in other case", `{"Record":` + bare + `}`, false},
		{"record not an object", `{"record":[` + bare + `]}`, false},
		{"version not a string", `{"record":` + bare + `,"datasetVersion":3}`, false},
		{"array", `[` + bare + `]`, false},
		{"empty object", `{}`, false},
	}
	loc := Location{File: "t.json", Line: 1}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fast, ok := parseEntryFast([]byte(tc.raw), loc)
			careful, probs := parseEntryCareful([]byte(tc.raw), loc)
			if ok != tc.wantFast {
				t.Fatalf("fast path ok = %v, want %v (careful problems: %v)", ok, tc.wantFast, probs)
			}
			if !ok {
				return
			}
			if len(probs) > 0 {
				t.Fatalf("fast path accepted what the careful path rejects: %v", probs)
			}
			if !reflect.DeepEqual(fast, careful) {
				t.Errorf("records differ:\nfast    %+v\ncareful %+v", fast, careful)
			}
		})
	}
}

// FuzzParseEntryFast checks the same property on any valid JSON input.
func FuzzParseEntryFast(f *testing.F) {
	f.Add(`{"record":{"id":"a1","repo":"acme/widget","slug":"s","errorCode":"E1","errorMessage":"m","severity":"error"},"datasetVersion":"v"}`)
	f.Add(`{"id":"a1","repo":"acme/widget","slug":"s","errorCode":"E1","errorMessage":"m","severity":"error","Tags":["x"]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		if checkSyntax([]byte(raw)) != nil {
			return
		}
		loc := Location{File: "f.json"}
		fast, ok := parseEntryFast([]byte(raw), loc)
		if !ok {
			return
		}
		careful, probs := parseEntryCareful([]byte(raw), loc)
		if len(probs) > 0 || !reflect.DeepEqual(fast, careful) {
			t.Fatalf("fast path disagrees on %q: problems %v", raw, probs)
		}
	})
}
