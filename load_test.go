package errkb_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// load loads files as the dataset "ds".
func load(t *testing.T, files map[string]string) (*errkb.Dataset, errkb.Problems) {
	t.Helper()
	return errkbtest.Problems(t, errkb.Folder{Name: "ds", FS: errkbtest.Files(files)})
}

func envelope(rec map[string]any) string { return string(errkbtest.JSON(rec)) }

func TestLoadFormats(t *testing.T) {
	r1, r2 := errkbtest.Fields(), errkbtest.Fields(func(r map[string]any) { r["id"] = "f00dfeed00000002"; r["slug"] = "other" })
	bare, _ := json.Marshal(r1)
	tests := []struct {
		name    string
		files   map[string]string
		want    int
		version string
	}{
		{"envelope", map[string]string{"a.json": envelope(r1)}, 1, "v-test"},
		{"bare record", map[string]string{"a.json": string(bare)}, 1, ""},
		{"array of envelopes and records", map[string]string{"a.json": "[\n" + envelope(r1) + ",\n" + mustJSON(t, r2) + "\n]"}, 2, "v-test"},
		{"jsonl with blank lines", map[string]string{"d/a.jsonl": envelope(r1) + "\n\n" + envelope(r2) + "\n"}, 2, "v-test"},
		{"other files ignored", map[string]string{"a.json": envelope(r1), "README.md": "# notes", ".git/x.json": "{"}, 1, "v-test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, probs := load(t, tt.files)
			if len(probs) > 0 {
				t.Fatalf("unexpected problems:\n%v", probs)
			}
			if ds.Len() != tt.want {
				t.Fatalf("got %d records, want %d", ds.Len(), tt.want)
			}
			r, ok := ds.ByID("f00dfeed00000001")
			if !ok {
				t.Fatal("record f00dfeed00000001 not found by id")
			}
			if r.DatasetVersion != tt.version {
				t.Errorf("DatasetVersion = %q, want %q", r.DatasetVersion, tt.version)
			}
			if got, ok := ds.ByPath("ACME-labs/Gizmo", "gizmo-jammed"); !ok || got != r {
				t.Error("ByPath does not find the record with the repo in another case")
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLoadProblems checks that each kind of bad record is reported with its
// file, line, record, field and what is wrong.
func TestLoadProblems(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		data  string
		field string
		msg   string
		line  int
	}{
		{"invalid JSON", "bad.json", "{\n\"record\": {,\n}", "", "invalid JSON", 2},
		{"missing required", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { delete(r, "errorMessage") })), "errorMessage", "is required", 1},
		{"wrong type", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["lineNumber"] = "3" })), "lineNumber", "must be an integer, got a string", 1},
		{"wrong list type", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["tags"] = "gizmo" })), "tags", "must be an array of strings", 1},
		{"record not object", "a.json", `{"record": [1], "datasetVersion": "x"}`, "record", "must be an object", 1},
		{"not a github url", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["githubUrl"] = "javascript:alert(1)" })), "githubUrl", "https://github.com/", 1},
		{"http github url", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["githubUrl"] = "http://github.com/a/b" })), "githubUrl", "https://github.com/", 1},
		{"line outside snippet", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["lineNumber"] = 9 })), "lineNumber", "outside the snippet's lines 1-4", 1},
		{"start after end", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["sourceCodeStart"] = 7 })), "sourceCodeStart", "after sourceCodeEnd", 1},
		{"snippet length", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["sourceCode"] = "one line" })), "sourceCode", "has 1 lines", 1},
		{"bad repo", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["repo"] = "no-slash" })), "repo", `"owner/name"`, 1},
		{"bad slug", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["slug"] = "../etc" })), "slug", "letters, digits", 1},
		{"blank code", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["errorCode"] = " " })), "errorCode", "must not be blank", 1},
		{"empty message", "a.json", envelope(errkbtest.Fields(func(r map[string]any) { r["errorMessage"] = " " })), "errorMessage", "must not be empty", 1},
		{"jsonl line", "a.jsonl", envelope(errkbtest.Fields()) + "\n" + envelope(errkbtest.Fields(func(r map[string]any) {
			r["id"] = "f00dfeed00000009"
			r["slug"] = "x"
			r["severity"] = 5
		})), "severity", "must be a string", 2},
		{"array element line", "a.json", "[\n" + envelope(errkbtest.Fields()) + ",\n" + envelope(errkbtest.Fields(func(r map[string]any) {
			r["id"] = "f00dfeed00000009"
			r["slug"] = "x"
			delete(r, "repo")
		})) + "\n]", "repo", "is required", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, probs := load(t, map[string]string{tt.file: tt.data})
			if len(probs) == 0 {
				t.Fatal("no problem reported")
			}
			p := probs[0]
			if p.File != "ds/"+tt.file || p.Line != tt.line || p.Field != tt.field || !strings.Contains(p.Message, tt.msg) {
				t.Errorf("got %+v\nwant file ds/%s line %d field %q message containing %q", p, tt.file, tt.line, tt.field, tt.msg)
			}
			if tt.field != "" && tt.field != "record" && p.Record == "" && tt.field != "id" {
				t.Errorf("problem does not name the record: %s", p)
			}
		})
	}
}

// TestLoadEmptyCode checks that a record without a code of its own (an
// error made inside a function, headed by its message) is valid.
func TestLoadEmptyCode(t *testing.T) {
	ds, probs := load(t, map[string]string{"a.json": envelope(errkbtest.Fields(func(r map[string]any) { r["errorCode"] = "" }))})
	if len(probs) > 0 || ds.Len() != 1 {
		t.Errorf("kept %d records, problems %v; want the record kept", ds.Len(), probs)
	}
}

func TestLoadReportsEveryProblemAndKeepsValidRecords(t *testing.T) {
	files := map[string]string{
		"a-good.json": envelope(errkbtest.Fields()), // read first, so it is the one kept
		"b1.json": envelope(errkbtest.Fields(func(r map[string]any) {
			r["id"] = "f00dfeed00000002"
			r["slug"] = "b1"
			r["tags"] = 1
			delete(r, "severity")
		})),
		"b2.json": envelope(errkbtest.Fields(func(r map[string]any) { r["slug"] = "b2" })),                                            // duplicate id
		"b3.json": envelope(errkbtest.Fields(func(r map[string]any) { r["id"] = "f00dfeed00000003"; r["repo"] = "ACME-LABS/gizmo" })), // duplicate repo+slug
		"b4.json": "not json",
	}
	ds, probs := load(t, files)
	if ds.Len() != 1 {
		t.Errorf("kept %d records, want the 1 valid one", ds.Len())
	}
	want := map[string]bool{"ds/b1.json tags": false, "ds/b1.json severity": false, "ds/b2.json id": false, "ds/b3.json slug": false, "ds/b4.json ": false}
	for _, p := range probs {
		want[p.File+" "+p.Field] = true
	}
	for k, seen := range want {
		if !seen {
			t.Errorf("problem %q not reported; got:\n%v", k, probs)
		}
	}
	if len(probs) != len(want) {
		t.Errorf("got %d problems, want %d:\n%v", len(probs), len(want), probs)
	}
}

// TestUnknownFieldsKept checks that fields errkb does not know survive
// loading byte for byte, so the API can serve records without loss.
func TestUnknownFieldsKept(t *testing.T) {
	rec := errkbtest.Fields(func(r map[string]any) { r["futureField"] = map[string]any{"a": []any{1.5, "x", nil}} })
	ds, probs := load(t, map[string]string{"a.json": envelope(rec)})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	var got map[string]any
	if err := json.Unmarshal(ds.Records[0].RawJSON(), &got); err != nil {
		t.Fatal(err)
	}
	if mustJSON(t, got) != mustJSON(t, rec) {
		t.Errorf("raw record changed:\ngot  %s\nwant %s", mustJSON(t, got), mustJSON(t, rec))
	}
}

func TestInvalidUTF8(t *testing.T) {
	data := strings.Replace(envelope(errkbtest.Fields()), "gizmo is jammed", "gizmo \xff jammed", 1)
	_, probs := load(t, map[string]string{"a.json": data})
	if len(probs) != 1 || !strings.Contains(probs[0].Message, "UTF-8") {
		t.Errorf("want one invalid UTF-8 problem, got %v", probs)
	}
}

// TestEmbeddedDataset validates every record built into the binary and
// checks the seed is there byte for byte.
func TestEmbeddedDataset(t *testing.T) {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatalf("embedded dataset has problems:\n%v", err)
	}
	if ds.Len() == 0 {
		t.Fatal("embedded dataset is empty")
	}
	r, ok := ds.ByPath("nats-io/nats-server", "js-consumer-offline")
	if !ok {
		t.Fatal("seed record nats-io/nats-server/js-consumer-offline missing")
	}
	if r.ID != "dabd815d1877efcd" || r.ErrorCode != "JS_CONSUMER_OFFLINE" || r.LineNumber != 4979 {
		t.Errorf("seed record read wrongly: %+v", r)
	}
	seed, err := os.ReadFile("../shared/seed/000_adc7ebfac588a17b.txt")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("shared seed not beside the repo: %v", err)
		}
		t.Skipf("shared seed not beside the repo: %v", err)
	}
	if string(seed) != string(errkbtest.SeedJSON()) {
		t.Error("dataset/nats-io/nats-server/js-consumer-offline.json differs from the shared seed")
	}
}

func TestSnippetLines(t *testing.T) {
	ds, probs := load(t, map[string]string{"a.json": envelope(errkbtest.Fields())})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	r := ds.Records[0]
	lines := r.SnippetLines()
	if len(lines) != 4 || lines[0].Number != 1 || lines[3].Number != 4 {
		t.Fatalf("lines = %+v", lines)
	}
	if !lines[2].IsError || lines[2].Text != "return ErrJammed" {
		t.Errorf("error line not marked: %+v", lines[2])
	}
	want := "https://github.com/acme-labs/gizmo/blob/0000000000000000000000000000000000000000/gizmo.go#L3"
	if got := r.SourceLineURL(3); got != want {
		t.Errorf("SourceLineURL(3) = %q, want %q", got, want)
	}
}
