package errkb_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// variant is one change to the fixture record: a field set to value, or
// removed when value is nil, and optionally a raw key spliced in first.
type variant struct {
	name  string
	field string
	value any
	// splice is a raw `"key":value,` inserted at the start of the record
	// object, for keys encoding/json cannot produce (duplicates).
	splice string
}

// fieldVariants makes every known field oversize, under each cap, and of
// the wrong type in turn, and repeats or recases its key.
func fieldVariants() []variant {
	base := errkbtest.Fields()
	var vs []variant
	for _, name := range errkb.FieldNames() {
		add := func(what string, v any) { vs = append(vs, variant{name: name + "/" + what, field: name, value: v}) }
		for _, n := range []int{errkb.MaxTagBytes, errkb.MaxTextFieldBytes, errkb.MaxMarkdownBytes, errkb.MaxCodeBytes} {
			long := strings.Repeat("a", n+1)
			add("string>"+itoa(n), long)
			add("entry>"+itoa(n), []string{"ok", long})
			add("callSite>"+itoa(n), []map[string]any{{"filePath": long, "function": "f", "lineNumber": 1}})
		}
		add("entries>max", make([]string, errkb.MaxListEntries+1))
		add("callSites>max", make([]map[string]any, errkb.MaxListEntries+1))
		add("int", 7)
		add("huge int", json.Number("100000000000000000000000000000"))
		add("int64 max", json.Number("9223372036854775807"))
		add("int64 min", json.Number("-9223372036854775808"))
		add("string", "seven")
		add("bool", true)
		add("object", map[string]any{"url": "javascript:alert(1)"})
		add("list of ints", []int{1})
		add("link", "[x](ms-msdt:/id)")
		add("script link", "javascript:alert(1)")
		add("null", json.RawMessage("null"))
		add("removed", nil)
		v, _ := json.Marshal(base[name])
		vs = append(vs,
			variant{name: name + "/duplicate", field: name, value: base[name], splice: `"` + name + `":` + string(v) + `,`},
			variant{name: name + "/case", field: name, value: base[name], splice: `"` + strings.ToUpper(name) + `":` + string(v) + `,`})
	}
	for _, key := range []string{"link", "links", "url", "urls", "href", "docsLink"} {
		vs = append(vs, variant{name: "unknown " + key, field: key, value: []string{"ms-msdt:/id"}})
	}
	vs = append(vs, variant{name: "call site link", field: "callSites",
		value: []map[string]any{{"filePath": "a.go", "githubUrl": "javascript:alert(1)"}}})
	return vs
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// entry is the fixture record with v applied, as one envelope.
func (v variant) entry(t testing.TB) []byte {
	t.Helper()
	entry := errkbtest.JSON(errkbtest.Fields(func(fields map[string]any) {
		if v.value == nil {
			delete(fields, v.field)
		} else {
			fields[v.field] = v.value
		}
	}))
	return bytes.Replace(entry, []byte(`"record":{`), []byte(`"record":{`+v.splice), 1)
}

// TestPathsAgreeOnEveryField loads each variant as a .json file (indented,
// so problems name lines) and as a .jsonl line, with the fast record path
// and without it, and checks both give the same records and problems.
func TestPathsAgreeOnEveryField(t *testing.T) {
	for _, v := range fieldVariants() {
		entry := v.entry(t)
		var indented bytes.Buffer
		if err := json.Indent(&indented, entry, "", "  "); err != nil {
			t.Fatal(err)
		}
		for file, data := range map[string][]byte{"r.json": indented.Bytes(), "r.jsonl": append(entry, '\n')} {
			fsys := fstest.MapFS{file: {Data: data}}
			fast, fastErr := errkb.Load(errkb.Folder{Name: "d", FS: fsys})
			careful, carefulErr := errkb.LoadCareful(errkb.Folder{Name: "d", FS: fsys})
			if !reflect.DeepEqual(fast.Records, careful.Records) || errString(fastErr) != errString(carefulErr) {
				t.Errorf("%s in %s: the paths disagree\nfast:    %d records, %v\ncareful: %d records, %v",
					v.name, file, fast.Len(), fastErr, careful.Len(), carefulErr)
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestEveryFieldCapped checks that no string field escapes the caps: a
// value longer than the largest cap is refused, naming the field, on both
// paths. contentChangedAt of 4,100 bytes once passed the fast path because
// a hand-kept field list left it out.
func TestEveryFieldCapped(t *testing.T) {
	for _, name := range errkb.FieldNames() {
		for _, n := range []int{4100, errkb.MaxCodeBytes + 1} {
			v := variant{field: name, value: strings.Repeat("a", n)}
			if _, isString := errkbtest.Fields()[name].(string); !isString && name != "contentChangedAt" {
				continue
			}
			if n == 4100 && name != "contentChangedAt" {
				continue
			}
			fsys := fstest.MapFS{"r.jsonl": {Data: v.entry(t)}}
			for careful, load := range []func(...errkb.Folder) (*errkb.Dataset, error){errkb.Load, errkb.LoadCareful} {
				ds, err := load(errkb.Folder{Name: "d", FS: fsys})
				if ds.Len() != 0 || !strings.Contains(errString(err), `field "`+name+`"`) {
					t.Errorf("%s of %d bytes (careful only: %d): %d records loaded, problems %v", name, n, careful, ds.Len(), err)
				}
			}
		}
	}
}

// FuzzPathsAgree loads any bytes as a .json and a .jsonl file with the
// fast record path and without it: both must give the same records and
// the same problems.
func FuzzPathsAgree(f *testing.F) {
	entry := errkbtest.JSON(errkbtest.Record())
	f.Add(entry)
	for _, v := range fieldVariants() {
		if e := v.entry(f); len(e) < 2<<10 { // small seeds keep mutation fast
			f.Add(e)
		}
	}
	f.Add(bytes.Replace(entry, []byte(`"id"`), []byte(`"Id":"x","id"`), 1))
	f.Add(bytes.Replace(entry, []byte(`{"datasetVersion"`), []byte(`{"meta":{"a":1,"a":2},"datasetVersion"`), 1))
	f.Add(bytes.Replace(entry, []byte(`"callSites":[{`), []byte(`"callSites":[{"link":"ms-msdt:x",`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"f.json": {Data: data}, "f.jsonl": {Data: data}}
		fast, fastErr := errkb.Load(errkb.Folder{Name: "d", FS: fsys})
		careful, carefulErr := errkb.LoadCareful(errkb.Folder{Name: "d", FS: fsys})
		if !reflect.DeepEqual(fast.Records, careful.Records) || errString(fastErr) != errString(carefulErr) {
			t.Fatalf("the paths disagree on %q\nfast:    %v\ncareful: %v", data, fastErr, carefulErr)
		}
	})
}

// TestFieldTableFits checks the table against the fast parser's bound.
func TestFieldTableFits(t *testing.T) {
	if n := len(errkb.FieldNames()); n > errkb.MaxKnownFields {
		t.Fatalf("%d known fields; the fast parser marks at most %d", n, errkb.MaxKnownFields)
	}
}
