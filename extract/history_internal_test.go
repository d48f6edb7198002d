package extract

import "testing"

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
