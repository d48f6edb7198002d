package web

import (
	"testing"

	"github.com/errkb/errkb"
)

// TestCodeAndMessage: an error without a name of its own is titled by
// its message alone.
func TestCodeAndMessage(t *testing.T) {
	tests := []struct{ code, msg, want string }{
		{"ErrNoResponders", "nats: no responders available for request", "ErrNoResponders: nats: no responders available for request"},
		{"", "QoS=2 is disabled for PUBLISH messages", "QoS=2 is disabled for PUBLISH messages"},
	}
	for _, tt := range tests {
		if got := codeAndMessage(&errkb.Record{ErrorCode: tt.code, ErrorMessage: tt.msg}); got != tt.want {
			t.Errorf("codeAndMessage(%q, %q) = %q, want %q", tt.code, tt.msg, got, tt.want)
		}
	}
}
