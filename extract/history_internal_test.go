package extract

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/errkb/errkb"
)

func TestWordsApart(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"error signing nonce: %v", "error signing nonce: %w", 0},
		{"nats: unknown acknowlegement policy %v", "nats: unknown acknowledgement policy %v", 1},
		{"configuration requests %s to be %v", "nats: configuration requests %s to be %v", 1},
		{"nats: stalled with too many outstanding async published messages", "%w: retry attempts cannot be negative", 9},
		{"pull: bad count %d", "pull: negative count %d", 1},
		{"", "a b", 2},
	} {
		if got := wordsApart(c.a, c.b); got != c.want {
			t.Errorf("wordsApart(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestFoldRenamedAPIError: a project's API error renamed with its code
// kept is the same error, its older name an alias; two of one code are
// not matched.
func TestFoldRenamedAPIError(t *testing.T) {
	api := func(name, msg string, code int) Error {
		return Error{Kind: API, Package: "example.com/p", Name: name, Message: msg, Code: &Code{Name: name, Value: code}}
	}
	rel := func(v string, errs ...Error) Release {
		r := Release{Version: v, Errors: errs}
		for _, e := range errs {
			r.Records = append(r.Records, errkb.Record{ID: RecordID("acme/p", e.Key()), Repo: "acme/p", Slug: e.Name, ErrorCode: e.Name, ErrorMessage: e.Message})
		}
		return r
	}
	recs := Fold(rel("v2", api("JSTooSmall", "too small", 10), api("JSNew", "new", 11)),
		[]Release{rel("v1", api("JSToSmall", "to small", 10), api("JSGone", "gone", 12))})
	got := map[string]string{}
	for _, r := range recs {
		got[r.Slug] = fmt.Sprintf("aliases=%v old=%v removed=%s", r.Aliases, r.History.Messages, r.History.RemovedIn)
	}
	want := map[string]string{
		"JSTooSmall": "aliases=[JSToSmall] old=[{to small [v1]}] removed=",
		"JSNew":      "aliases=[] old=[] removed=",
		"JSGone":     "aliases=[] old=[] removed=v2",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fold = %v, want %v", got, want)
	}
}
