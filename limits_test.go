package errkb

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// fictional builds a record of a fictional project with extra fields
// spliced in (a JSON fragment starting with a comma, or "").
func fictional(id, extra string) string {
	return `{"id":"` + id + `","repo":"example-org/fixture","slug":"` + id + `","errorCode":"E_` + id +
		`","errorMessage":"fixture error ` + id + `","severity":"error"` + extra + `}`
}

// TestHostileDataset loads a dataset folder with one record per problem a
// hostile or broken dataset can have, and checks each is reported with its
// file and field while the good record is still loaded.
func TestHostileDataset(t *testing.T) {
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	tests := []struct {
		file, content string
		field, msg    string
	}{
		{"utf8.json", fictional("utf8", `,"documentation":"bad `+"\xff\xfe"+` bytes"`), "documentation", "invalid UTF-8"},
		{"deep.json", fictional("deep", `,"extra":`+deep), "extra", "nests 5000 levels deep"},
		{"toodeep.json", `{"record":` + strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000) + `}`, "", "invalid JSON"},
		{"jsurl.json", fictional("jsurl", `,"githubUrl":"javascript:alert(1)"`), "githubUrl", "https://github.com/ URL"},
		{"jsurl2.json", fictional("jsurl2", `,"homepageUrl":"JaVa\tScRiPt&colon;alert(1)"`), "homepageUrl", "http, https or mailto"},
		{"jsnested.json", fictional("jsnested", `,"links":[{"title":"x","href":"vbscript:x"}]`), "links[0].href", "http, https or mailto"},
		{"mdjs.json", fictional("mdjs", `,"documentation":"see [here](javascript:alert(1))"`), "documentation", `links to "javascript:alert(1`},
		{"mdjs2.json", fictional("mdjs2", `,"solutions":["ok","[x]: JAVASCRIPT:alert(1)"]`), "solutions[1]", "JAVASCRIPT:alert(1)"},
		{"mdjs3.json", fictional("mdjs3", `,"commonSituations":"![i](data:image/svg+xml;base64,PHN2Zz4=)"`), "commonSituations", "data:"},
		{"mdjs4.json", fictional("mdjs4", `,"triggerScenarios":"<javascript&#58;alert(1)>"`), "triggerScenarios", "javascript"},
		{"bigmd.json", fictional("bigmd", `,"documentation":"`+strings.Repeat("[a](b", 4000)+`"`), "documentation", "Markdown of 20000 bytes"},
		{"bigtip.json", fictional("bigtip", `,"preventionTips":["`+strings.Repeat("x", MaxMarkdownBytes+1)+`"]`), "preventionTips[0]", "Markdown of"},
		{"bigcode.json", fictional("bigcode", `,"exampleFix":"`+strings.Repeat("x", MaxCodeBytes+1)+`"`), "exampleFix", "code of"},
		{"bigmsg.json", fictional("bigmsg", `,"messagePattern":"`+strings.Repeat("x", MaxTextFieldBytes+1)+`"`), "messagePattern", "text of"},
		{"manytags.json", fictional("manytags", `,"tags":[`+strings.Repeat(`"t",`, MaxListEntries)+`"t"]`), "tags", "101 entries"},
		{"bigrecord.json", fictional("bigrecord", `,"blob":"`+strings.Repeat("x", MaxRecordBytes)+`"`), "", "record is"},
		{"zdup.json", fictional("good", ""), "id", "duplicates the id of the record at hostile/good.json"},
	}
	files := fstest.MapFS{"good.json": {Data: []byte(fictional("good", `,"documentation":"Use <stream> and [docs](https://example.com) and std::vector<int> and C:\\path"`))}}
	for _, tt := range tests {
		files[tt.file] = &fstest.MapFile{Data: []byte(tt.content)}
	}
	ds, err := Load(Folder{Name: "hostile", FS: files})
	var probs Problems
	if !errors.As(err, &probs) {
		t.Fatalf("Load: %v, want Problems", err)
	}
	if ds.Len() != 1 {
		t.Errorf("loaded %d records, want only the good one", ds.Len())
	}
	for _, tt := range tests {
		found := false
		for _, p := range probs {
			if p.File == "hostile/"+tt.file && p.Field == tt.field && strings.Contains(p.Message, tt.msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no problem with field %q and %q; got:\n%s", tt.file, tt.field, tt.msg, problemsOf(probs, "hostile/"+tt.file))
		}
	}
	for _, p := range probs {
		if p.File == "hostile/good.json" {
			t.Errorf("the good record was reported: %s", p)
		}
	}
}

func problemsOf(probs Problems, file string) string {
	var out []string
	for _, p := range probs {
		if p.File == file {
			out = append(out, "  "+p.String())
		}
	}
	return strings.Join(out, "\n")
}

// TestDangerousLink checks the Markdown link check against prose that only
// looks like a scheme.
func TestDangerousLink(t *testing.T) {
	for md, want := range map[string]bool{
		"[a](javascript:alert(1))":           true,
		"[a]( <JavaScript:alert(1)> )":       true,
		"[a](java\nscript:alert(1))":         true,
		"[a](&#106;avascript:alert(1))":      true,
		"<vbscript:msgbox>":                  true,
		"   [r]: data:text/html,<script>":    true,
		"[a](https://example.com)":           false,
		"[a](/errors/x)":                     false,
		"std::vector<int> and <stream>":      false,
		"C:\\Windows\\path and [x](C:\\tmp)": true, // pages drop it: "C:" reads as a scheme
		"C:\\Windows\\path":                  false,
		"[help](ms-msdt:/id PCWDiagnostic)":  true,
		"<search-ms:query=x>":                true,
		"the javascript: prefix in prose":    false,
		"`[a](javascript:x)` in code":        true, // reported though goldmark would not link it: strict is fine
	} {
		if got := dangerousLink(md) != ""; got != want {
			t.Errorf("dangerousLink(%q) = %v, want %v", md, got, want)
		}
	}
}

// TestJSONDepth checks the depth count, strings with brackets included.
func TestJSONDepth(t *testing.T) {
	for raw, want := range map[string]int{
		`1`: 0, `"[[["`: 0, `[]`: 1, `{"a":[1,{"b":[]}]}`: 4, `["\"[", [[]]]`: 3, `"\\"`: 0,
	} {
		if got := jsonDepth([]byte(raw)); got != want {
			t.Errorf("jsonDepth(%s) = %d, want %d", raw, got, want)
		}
	}
}
