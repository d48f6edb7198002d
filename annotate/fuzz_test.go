package annotate

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzStream feeds arbitrary log text through Stream: every line must come
// back, unchanged or with the annotation added, and a JSON object line
// must stay a JSON object.
func FuzzStream(f *testing.F) {
	for _, s := range []string{
		"INFO ok\nERROR fuel below reserve\n",
		`{"msg":"fuel below reserve"}` + "\n",
		"{}fuel below reserve\r\n{ }\n",
		`{"a":"}"} fuel below reserve`,
		"\xff\xfe fuel below reserve\n\n\n",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, in string, asJSON bool) {
		var out bytes.Buffer
		if err := Stream(context.Background(), strings.NewReader(in), &out, &fakeMatcher{}, Options{JSON: asJSON, MaxLineBytes: 1 << 10}); err != nil {
			t.Fatal(err)
		}
		ins := strings.SplitAfter(in, "\n")
		outs := strings.SplitAfter(out.String(), "\n")
		if len(ins) != len(outs) {
			t.Fatalf("%d lines in, %d out", len(ins), len(outs))
		}
		for i, l := range ins {
			o := outs[i]
			if o == l {
				continue
			}
			body, _ := splitEnd([]byte(l))
			if !strings.Contains(string(body), "fuel below reserve") || len(body) > 1<<10 {
				t.Fatalf("line %q changed to %q", l, o)
			}
			if _, ok := jsonObject(body); ok && asJSON {
				ob, _ := splitEnd([]byte(o))
				var m map[string]any
				if err := json.Unmarshal(ob, &m); err != nil || m[KeyURL] == nil {
					t.Fatalf("JSON line %q became %q: %v", l, o, err)
				}
				continue
			}
			if !strings.HasPrefix(o, string(body)) || !strings.Contains(o, suffix) {
				t.Fatalf("line %q annotated as %q", l, o)
			}
		}
	})
}
