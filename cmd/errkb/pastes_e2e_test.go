package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestLookupPastesLandConfidently: texts as engineers paste them, looked
// up in the embedded dataset, each answered by the record of its error
// (issue 23): a nats-server log line with the error it wraps shown too,
// Go's own errors, and an error of the nats CLI as fisk prints it
// ("<app>: error: <message>", fisk v0.9.1 app.go Errorf).
func TestLookupPastesLandConfidently(t *testing.T) {
	type want struct{ repo, message string }
	tests := []struct {
		query        string
		match, wraps want
	}{
		{"[1] 2026/12/07 10:00:00.123456 [WRN] Consumer create failed for 'ACC > ORDERS > proc': insufficient resources",
			want{"nats-io/nats-server", "Consumer create failed for '%s > %s > %s': %v"},
			want{"nats-io/nats-server", "insufficient resources"}},
		{"[WRN] Consumer create failed for 'ACC > ORDERS > proc': consumer name already in use",
			want{"nats-io/nats-server", "Consumer create failed for '%s > %s > %s': %v"},
			want{"nats-io/nats-server", "consumer name already in use"}},
		{"http: request body too large", want{"golang/go", "http: request body too large"}, want{}},
		{"write tcp 10.0.0.5:4222->10.0.0.9:51000: write: broken pipe", want{"golang/go", "broken pipe"}, want{}},
		{"json: cannot unmarshal string into Go value of type int",
			want{"golang/go", "json: cannot unmarshal string into Go value of type %v"}, want{}},
		{"nats: error: bcrypt cost should be between 4 and 31",
			want{"nats-io/natscli", "bcrypt cost should be between %d and %d"}, want{}},
	}
	env := func(string) string { return "" }
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		if code := run(t.Context(), []string{"lookup", "--json", tt.query}, &out, &errOut, env); code != 0 {
			t.Errorf("lookup %q: exit %d, not confident: %s", tt.query, code, errOut.String())
			continue
		}
		var res struct {
			Match, Wraps *struct{ Record map[string]any }
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		got := func(e *struct{ Record map[string]any }) want {
			if e == nil {
				return want{}
			}
			r, _ := e.Record["repo"].(string)
			m, _ := e.Record["errorMessage"].(string)
			return want{r, m}
		}
		if g := got(res.Match); g != tt.match {
			t.Errorf("lookup %q: match %q, want %q", tt.query, g, tt.match)
		}
		if g := got(res.Wraps); g != tt.wraps {
			t.Errorf("lookup %q: wraps %q, want %q", tt.query, g, tt.wraps)
		}
	}
}
