package siteurl

import (
	"net/url"
	"testing"
)

func TestPaths(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Project("nats-io/nats-server"), "/errors/nats-io/nats-server"},
		{Record("nats-io/nats-server", "js-consumer-offline"), "/errors/nats-io/nats-server/js-consumer-offline"},
		{API(Record("a/b", "c")), "/api/v1/errors/a/b/c"},
		{Tag("a b/c"), "/tags/a%20b%2Fc"},
		{Search("a b&c"), "/search?q=a+b%26c"},
		{SearchWith(url.Values{"q": {"x"}, "page": {"2"}}), "/search?page=2&q=x"},
		{Lookup("E1 x"), "/lookup?q=E1+x"},
		{APILookup("x"), "/api/v1/lookup?q=x"},
		{SitemapPart(3), "/sitemap-3.xml"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
