package errkb

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A test-only model with the shapes the coming record fields have: an
// array of objects whose elements hold a list of strings (a call chain),
// a nullable integer, and an array of objects of their own (guards), next
// to a nullable Markdown string. The walk handles it as it handles
// Record, with no code of its own.
type testRecord struct {
	Name  string     `json:"name"`
	Note  *string    `json:"note"`
	Sites []testSite `json:"sites"`
}

type testSite struct {
	Function string      `json:"function"`
	Line     int         `json:"line"`
	Chain    []string    `json:"chain"`
	Status   *int        `json:"status"`
	Guards   []testGuard `json:"guards"`
}

type testGuard struct {
	Expr string `json:"expr"`
	Line int    `json:"line"`
}

var testGuardFields = []field[testGuard]{
	str("expr", code|bulk, func(g *testGuard) *string { return &g.Expr }),
	num("line", 0, func(g *testGuard) *int { return &g.Line }),
}

var testSiteFields = []field[testSite]{
	str("function", 0, func(s *testSite) *string { return &s.Function }),
	num("line", 0, func(s *testSite) *int { return &s.Line }),
	strs("chain", shared, func(s *testSite) *[]string { return &s.Chain }),
	optNum("status", 0, func(s *testSite) **int { return &s.Status }),
	objs("guards", 0, "guard", func(s *testSite) *[]testGuard { return &s.Guards }, testGuardFields),
}

var testFields = []field[testRecord]{
	str("name", required, func(r *testRecord) *string { return &r.Name }),
	optStr("note", markdown|bulk, func(r *testRecord) **string { return &r.Note }),
	objs("sites", 0, "site", func(r *testRecord) *[]testSite { return &r.Sites }, testSiteFields),
}

func TestTestTableMatchesItsType(t *testing.T) {
	checkTable(t, testFields)
	checkTable(t, testSiteFields)
	checkTable(t, testGuardFields)
	checkInfos(t, reflect.TypeFor[testRecord](), infos(testFields))
}

// TestShapeAndTextsRoundTrip saves values of the test model as a storage
// engine does, as their shape and their texts, and sets them back into
// zero values: they must read the same, and list the same texts with the
// same attributes.
func TestShapeAndTextsRoundTrip(t *testing.T) {
	note, status := "see [the docs](https://example.com)", 503
	tests := []struct {
		name string
		v    testRecord
	}{
		{"zero", testRecord{}},
		{"name only", testRecord{Name: "n"}},
		{"empty note", testRecord{Name: "n", Note: new(string)}},
		{"nested", testRecord{Name: "n", Note: &note, Sites: []testSite{
			{Function: "(*Server).Start", Line: 12, Chain: []string{"Start", "listen"}, Status: &status,
				Guards: []testGuard{{Expr: "s.opts.Port == 0", Line: 10}, {Expr: "!ok", Line: 11}}},
			{Function: "Dial"},
			{Function: "(*Conn).Read", Line: 3, Chain: []string{"Read"}, Guards: []testGuard{{Expr: "n < 0"}}},
		}}},
	}
	var a Arena
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			shape := appendShape(nil, testFields, &tc.v)
			texts := appendTexts(nil, testFields, &tc.v)
			var got testRecord
			gotTexts, ok := setShape(&a, testFields, &got, reader64(&shape), nil)
			if !ok {
				t.Fatal("SetShape refused a shape AppendShape made")
			}
			if len(shape) != 0 {
				t.Fatalf("%d values of the shape left unread", len(shape))
			}
			if again := appendTexts(nil, testFields, &got); !reflect.DeepEqual(again, gotTexts) {
				t.Fatalf("SetShape listed the texts %v, AppendTexts %v", gotTexts, again)
			}
			if len(gotTexts) != len(texts) {
				t.Fatalf("%d texts set back, want %d", len(gotTexts), len(texts))
			}
			for k, tx := range texts {
				if gotTexts[k].Bulk != tx.Bulk || gotTexts[k].Shared != tx.Shared {
					t.Errorf("text %d: attributes %+v, want %+v", k, gotTexts[k], tx)
				}
				*gotTexts[k].P = *tx.P
			}
			if !reflect.DeepEqual(got, tc.v) {
				t.Errorf("set back:\n%+v\nwant\n%+v", got, tc.v)
			}
		})
	}
}

// TestSetShapeRefusesDamage checks what a damaged file could hold in a
// shape: a count over MaxListEntries, a presence other than 0 or 1, or a
// shape cut short is refused, not allocated.
func TestSetShapeRefusesDamage(t *testing.T) {
	tests := []struct {
		name  string
		shape []int64
	}{
		{"presence 2", []int64{2}},
		{"negative presence", []int64{-1}},
		{"too many sites", []int64{0, MaxListEntries + 1}},
		{"negative count", []int64{0, -3}},
		{"too many guards", []int64{1, 1, 7, 0, 0, MaxListEntries + 1}},
	}
	var a Arena
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got testRecord
			if _, ok := setShape(&a, testFields, &got, reader64(&tc.shape), nil); ok {
				t.Errorf("accepted %v: %+v", tc.shape, got)
			}
		})
	}
}

// reader64 yields the values of *s in order, then zeros.
func reader64(s *[]int64) func() int64 {
	return func() int64 {
		if len(*s) == 0 {
			return 0
		}
		v := (*s)[0]
		*s = (*s)[1:]
		return v
	}
}

// TestObjectFieldsInJSON checks what validation and the fast parser read
// of an array of objects: its JSON type, its name in problems, and the
// class of its elements' fields.
func TestObjectFieldsInJSON(t *testing.T) {
	sites := &testFields[2]
	if got, want := sites.kindName(), "an array of site objects (function, line, chain, status, guards)"; got != want {
		t.Errorf("kind name %q, want %q", got, want)
	}
	for raw, want := range map[string]bool{
		`[{"function":"f","guards":[{"expr":"x","line":2}]}]`: true,
		`[]`:                     true,
		`[{"line":"twelve"}]`:    false,
		`{"function":"f"}`:       false,
		`[{"guards":{"x":1}}]`:   false,
		`[{"chain":["a",1]}]`:    false,
		`[null,{"function":""}]`: true,
	} {
		if got := sites.decodes(json.RawMessage(raw)); got != want {
			t.Errorf("decodes(%s) = %v, want %v", raw, got, want)
		}
	}
	if c := elementClass(&sites.fieldInfo, "function"); c != classText {
		t.Errorf("class of a site's function %d, want text", c)
	}
	guards, _ := sites.elems.field("guards")
	if c := elementClass(guards, "expr"); c != classCode {
		t.Errorf("class of a guard's expr %d, want code", c)
	}
}
