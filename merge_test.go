package errkb

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestMergeCurated: a curated record keeps its own bytes and fields, gains
// what its extracted twin knows beside them, and answers to the twin's
// names; the twin is gone.
func TestMergeCurated(t *testing.T) {
	const twin = `{"id":"e1","repo":"acme-labs/widget","slug":"%s","errorCode":"ErrGearJammed","aliases":["GEAR_JAMMED"],` +
		`"errorMessage":"widget: gear jammed","severity":"error","numericCode":4107,"httpStatus":503,"errorClass":"GearError",` +
		`"filePath":"gear.go","lineNumber":12,"githubUrl":"https://github.com/acme-labs/widget/blob/v1.2.0/gear.go#L12",` +
		`"qualifiedName":"widget.ErrGearJammed","surface":"returned","callSites":[{"filePath":"spin.go","lineNumber":40,"function":"Spin","githubUrl":"https://github.com/acme-labs/widget/blob/v1.2.0/spin.go#L40"}],` +
		`"faces":[{"id":"e9","side":"server","package":"example.com/acme/widget/server","name":"server.GearJammed","relation":"err_code 4107","filePath":"codes.go","lineNumber":3,"githubUrl":"https://github.com/acme-labs/widget/blob/v1.2.0/codes.go#L3"}]}`
	for _, tc := range []struct {
		name, curated, twinSlug string
		wantDiffers             []string
	}{
		{
			name:     "same slug, curated location a call site",
			curated:  `{"id":"c1","repo":"acme-labs/widget","slug":"gear-jammed","errorCode":"GEAR_JAMMED","errorMessage":"widget: gear jammed","severity":"error","httpStatus":null,"filePath":"spin.go","lineNumber":40}`,
			twinSlug: "gear-jammed", wantDiffers: []string{"errorCode"},
		},
		{
			name:     "another slug, the twin's alias, a moved line",
			curated:  `{"id":"c1","repo":"acme-labs/widget","slug":"jammed","errorCode":"GEAR_JAMMED","errorMessage":"the gear is jammed","severity":"error","errorClass":"GearError","filePath":"spin.go","lineNumber":31}`,
			twinSlug: "err-gear-jammed", wantDiffers: []string{"errorCode", "errorMessage", "location"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"x/acme-labs/widget/_source.json": {Data: []byte(widgetSource)},
				"x/acme-labs/widget/a.json":       {Data: []byte(strings.Replace(twin, "%s", tc.twinSlug, 1))},
				"c/acme-labs/widget/b.json":       {Data: []byte(tc.curated)},
			}
			ds, err := Load(Folder{Name: "ds", FS: fsys})
			if err != nil {
				t.Fatal(err)
			}
			if len(ds.Records) != 1 {
				t.Fatalf("%d records, want the curated one alone", len(ds.Records))
			}
			r := ds.Records[0]
			raw := r.RawJSON()
			own := strings.TrimSuffix(tc.curated, "}")
			if !bytes.HasPrefix(raw, []byte(own+`,"extracted":{`)) {
				t.Fatalf("raw JSON %s does not keep the curated bytes, then the extracted facts", raw)
			}
			var got struct{ Extracted Extracted }
			if err := json.Unmarshal(raw, &got); err != nil || !reflect.DeepEqual(&got.Extracted, r.Extracted) {
				t.Fatalf("the raw JSON's extracted facts %+v (%v), want the record's %+v", got.Extracted, err, r.Extracted)
			}
			e := r.Extracted
			if e.ID != "e1" || e.Slug != tc.twinSlug || e.Version != "v1.2.0" || e.ErrorCode != "ErrGearJammed" {
				t.Errorf("extracted names %+v", e)
			}
			if r.NumericCode == nil || *r.NumericCode != 4107 || r.HTTPStatus == nil || *r.HTTPStatus != 503 {
				t.Errorf("numeric code %v, HTTP status %v, want the twin's 4107 and 503", r.NumericCode, r.HTTPStatus)
			}
			if e.NumericCode == nil || *e.NumericCode != 4107 || len(e.CallSites) != 1 || len(e.Faces) != 1 || e.Surface != "returned" {
				t.Errorf("extracted facts %+v", e)
			}
			if len(r.CallSites) != 1 || len(r.Faces) != 1 || r.QualifiedName != "widget.ErrGearJammed" || r.Surface != "returned" {
				t.Errorf("the record does not read the twin's facts: %+v", r)
			}
			if r.ErrorCode != "GEAR_JAMMED" || !reflect.DeepEqual(r.Aliases, []string{"ErrGearJammed"}) {
				t.Errorf("code %q aliases %q, want its own code and the twin's as an alias", r.ErrorCode, r.Aliases)
			}
			var fields []string
			for _, d := range e.Differs {
				fields = append(fields, d.Field)
			}
			if !reflect.DeepEqual(fields, tc.wantDiffers) {
				t.Errorf("differs %v, want %v", e.Differs, tc.wantDiffers)
			}
			for _, id := range []string{"c1", "e1"} {
				if got, ok := ds.ByID(id); !ok || got != r {
					t.Errorf("ByID(%s) is not the merged record", id)
				}
			}
			if got, ok := ds.ByPath("acme-labs/widget", tc.twinSlug); !ok || got != r {
				t.Errorf("ByPath(%s) is not the merged record", tc.twinSlug)
			}
		})
	}
}
