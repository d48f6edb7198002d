package web

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
)

// TestLookupServerErrorPrintedByClient: what nats.go prints for the seed's
// error redirects to the seed's page through /lookup, and the page gives
// the err_code and HTTP status the seed's record lacks, merged in from the
// record extracted of the same error.
func TestLookupServerErrorPrintedByClient(t *testing.T) {
	s := newTestServer(t, Config{})
	// jetstream.APIError.Error of nats.go v1.55.0:
	// https://github.com/nats-io/nats.go/blob/v1.55.0/jetstream/errors.go#L517-L519
	for _, q := range []string{
		"nats: API error: code=500 err_code=10119 description=consumer is offline",
		"10119",
	} {
		w := get(t, s, "/lookup?q="+url.QueryEscape(q))
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != seedPath {
			t.Errorf("lookup %q: %d to %q, want %s", q, w.Code, w.Header().Get("Location"), seedPath)
		}
	}
	page := get(t, s, seedPath).Body.String()
	for _, want := range []string{"10119", "500"} {
		// A value of its own in an element, whatever the markup around it.
		if !regexp.MustCompile(`>\s*` + want + `\s*<`).MatchString(page) {
			t.Errorf("the seed's page does not show %s", want)
		}
	}
}
