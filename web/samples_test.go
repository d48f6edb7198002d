package web

import (
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/curate"
)

// embeddedBrokenSamples is the embedded dataset's list of samples that do
// not compile, as errkb serve reads it.
func embeddedBrokenSamples(t *testing.T) map[string][]string {
	t.Helper()
	f, err := errkb.Embedded().FS.Open(curate.FailuresFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fails, err := curate.ReadFailures(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, fl := range fails {
		k := SampleKey(fl.Repo, fl.Slug, fl.Field)
		out[k] = append(out[k], fl.Message)
	}
	return out
}

// TestBrokenSamplesMarked: the seed's samples that do not compile are
// marked with the compiler's messages, and the curated record that
// replaces its samples shows its compiling one beside each.
func TestBrokenSamplesMarked(t *testing.T) {
	broken := embeddedBrokenSamples(t)
	s := newTestServer(t, Config{BrokenSamples: broken})
	d := doc(t, fetch(t, s, seedPath))
	repl, ok := s.ds.ByPath("nats-io/nats-server", "js-consumer-offline-reason")
	if !ok {
		t.Fatal("the curated record that replaces the seed's samples is missing")
	}
	for id, field := range sampleFields {
		msgs := broken[SampleKey("nats-io/nats-server", "js-consumer-offline", field)]
		sec := d.Find("#" + id)
		if len(msgs) == 0 {
			if sec.Find(".broken").Length() != 0 {
				t.Errorf("#%s marked though it compiles", id)
			}
			continue
		}
		got := sec.Find("ul.compiler").Text()
		for _, m := range msgs {
			if !strings.Contains(got, m) {
				t.Errorf("#%s lacks the compiler's message %q", id, m)
			}
		}
		fixed := sec.Find(".fixed-sample")
		if sampleOf(repl, field) == "" {
			if fixed.Length() != 0 {
				t.Errorf("#%s: a compiling sample shown that the curated record lacks", id)
			}
			continue
		}
		if href := fixed.Find("a").AttrOr("href", ""); href != "/errors/nats-io/nats-server/js-consumer-offline-reason" {
			t.Errorf("#%s: the compiling sample comes from %q", id, href)
		}
		if fixed.Find("pre").Length() != 1 {
			t.Errorf("#%s: no compiling sample beside the broken one", id)
		}
	}
	// Without the list, nothing is marked.
	plain := doc(t, fetch(t, newTestServer(t, Config{}), seedPath))
	if plain.Find(".broken, .fixed-sample").Length() != 0 {
		t.Error("samples marked without a list of failures")
	}
}
