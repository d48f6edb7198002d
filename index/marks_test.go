package index

import (
	"reflect"
	"testing"
)

// TestMarkedWordsSkipStopWords: stop words and modal verbs of a query are
// searched but never marked; "be" and "Will" were.
func TestMarkedWordsSkipStopWords(t *testing.T) {
	got := markedWords(&candidates{searched: []string{"will", "be", "the", "consumer", "deleted", "can"}})
	want := map[string]bool{"consumer": true, "deleted": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("markedWords = %v, want %v", got, want)
	}
	if m, n := markWords("Will be deleted", got); n != 1 || m != "Will be <mark>deleted</mark>" {
		t.Errorf("markWords = %q (%d marks)", m, n)
	}
}
