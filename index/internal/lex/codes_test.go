package lex

import (
	"slices"
	"testing"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"JS_CONSUMER_OFFLINE": "js_consumer_offline", "js-consumer-offline": "js_consumer_offline",
		" js consumer offline ": "js_consumer_offline", "cache.evict.failed": "cache_evict_failed",
	} {
		if got := NormalizeCode(in); got != want {
			t.Errorf("NormalizeCode(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"JSConsumerOfflineReasonError": "js consumer offline reason error",
		"JS_CONSUMER_OFFLINE":          "js consumer offline",
		"HTTPServerError2":             "http server error2",
		"parseURL":                     "parse url",
	} {
		if got := SplitIdentifier(in); got != want {
			t.Errorf("SplitIdentifier(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLooksLikeCode(t *testing.T) {
	for s, want := range map[string]bool{
		"JS_CONSUMER_OFLINE": true, "js-consumer-offline": true, "JSConsumerOflineError": true, "cache.evict": true,
		"consumer offline": false, "timeout": false, "Timeout": false, "": false,
	} {
		if got := LooksLikeCode(s); got != want {
			t.Errorf("LooksLikeCode(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestCodeKeys(t *testing.T) {
	for _, tc := range []struct {
		whole  string
		chunks []string
		want   []string
	}{
		{"JS CONSUMER OFLINE", []string{"JS", "CONSUMER", "OFLINE"}, []string{"js_consumer_ofline", "jsconsumerofline"}},
		{"js-consumer-ofline", []string{"js-consumer-ofline"}, []string{"js_consumer_ofline", "js-consumer-ofline"}},
		{"JSConsumerOflineError", []string{"JSConsumerOflineError"}, []string{"jsconsumeroflineerror", "jsconsumeroflineerror"}},
	} {
		if got := CodeKeys(tc.whole, tc.chunks); !slices.Equal(got, tc.want) {
			t.Errorf("CodeKeys(%q, %q) = %q, want %q", tc.whole, tc.chunks, got, tc.want)
		}
	}
}
