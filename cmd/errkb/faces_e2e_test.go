package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLookupServerErrorAsClientsPrintIt: the seed's err_code, and the
// text nats.go prints for it, land on the seed's page, which gives the
// err_code and HTTP status merged in from the record extracted of it; so
// does a log line holding that text, through annotate.
func TestLookupServerErrorAsClientsPrintIt(t *testing.T) {
	const seedURL = "/errors/nats-io/nats-server/js-consumer-offline"
	// jetstream.APIError.Error of nats.go v1.55.0:
	// https://github.com/nats-io/nats.go/blob/v1.55.0/jetstream/errors.go#L517-L519
	const printed = "nats: API error: code=500 err_code=10119 description=consumer is offline"
	env := func(string) string { return "" }
	for _, q := range []string{"10119", printed} {
		var out, errOut bytes.Buffer
		if code := run(t.Context(), []string{"lookup", "--json", q}, &out, &errOut, env); code != 0 {
			t.Fatalf("lookup %q: exit %d: %s", q, code, errOut.String())
		}
		var res struct {
			Match struct {
				Record map[string]any
				URL    string
			}
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		ext, _ := res.Match.Record["extracted"].(map[string]any)
		if res.Match.URL != seedURL || ext["numericCode"] != 10119.0 || ext["httpStatus"] != 500.0 {
			t.Errorf("lookup %q: %s, extracted %v; want the seed with err_code 10119 and HTTP 500", q, res.Match.URL, ext)
		}
	}

	log := filepath.Join(t.TempDir(), "app.log")
	must(t, os.WriteFile(log, []byte("2026/11/30 10:00:00 reconcile ORDERS: "+printed+"\n"), 0o644))
	var out, errOut bytes.Buffer
	if code := run(t.Context(), []string{"annotate", log}, &out, &errOut, env); code != 0 {
		t.Fatalf("annotate: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "errkb_url="+seedURL+"\n") {
		t.Errorf("annotate: %q, want the seed's page", out.String())
	}
}
