package answer

import (
	"bytes"
	"strings"
	"testing"
)

func TestCacheStaysWithinBudget(t *testing.T) {
	c := NewCache(64 << 10)
	body := bytes.Repeat([]byte("x"), 4000)
	for i := range 100 {
		c.Put(string(rune('a'+i%26))+strings.Repeat("k", i), &Response{plain: &Answer{body: body}})
		if c.bytes > c.max {
			t.Fatalf("after %d puts: %d bytes cached, budget %d", i+1, c.bytes, c.max)
		}
	}
	total := 0
	for _, r := range c.entries {
		total += r.Size()
	}
	if total != c.bytes || len(c.entries) == 0 {
		t.Errorf("accounting: entries hold %d bytes, counter says %d (%d entries)", total, c.bytes, len(c.entries))
	}
}

func TestAcceptsGzip(t *testing.T) {
	for ae, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "br, gzip": true, "gzip;q=0": false, "gzip; q=0.000": false,
		"gzip;q=0.5": true, "deflate": false, "x-gzip": false,
	} {
		if got := AcceptsGzip(ae); got != want {
			t.Errorf("AcceptsGzip(%q) = %v, want %v", ae, got, want)
		}
	}
}

func TestETagMatches(t *testing.T) {
	for _, tc := range []struct {
		inm  string
		want bool
	}{
		{`"a"`, true}, {`W/"a"`, true}, {`"b", "a"`, true}, {`*`, true}, {`"b"`, false}, {``, false}, {`a`, false},
	} {
		if got := etagMatches(tc.inm, `"a"`); got != tc.want {
			t.Errorf("etagMatches(%q) = %v, want %v", tc.inm, got, tc.want)
		}
	}
}
