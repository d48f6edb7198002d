package extract_test

import (
	"cmp"
	"slices"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
)

// TestSurface checks how a user meets each error of the fake server and
// client, as read from what their code does with it.
func TestSurface(t *testing.T) {
	got := map[string]string{}
	for _, b := range joined(t) {
		for _, r := range b.Records {
			got[cmp.Or(r.QualifiedName, r.ErrorMessage)] = r.Surface
		}
	}
	tests := []struct{ name, want string }{
		{"client.ErrWidgetNotFound", errkb.SurfaceReturned}, // returned by request, then by Get
		{"stream.ErrUnknown", errkb.SurfaceReturned},
		{"client.ErrBadConfig", errkb.SurfaceStartup},            // returned by Configure, and widgetctl exits with it
		{"client: empty request", errkb.SurfaceProtocol},         // its text goes into a -ERR line
		{"client: nothing to write to", errkb.SurfaceLog},        // flush only logs it
		{"client: question mark request", errkb.SurfaceReturned}, // note logs it and hands it back to Check
		{"server.JSWidgetNotFoundErr", errkb.SurfaceProtocol},    // a table entry the server makes
		{"server.JSWidgetUnusedErr", ""},                         // one it never makes
	}
	for _, tt := range tests {
		if s, ok := got[tt.name]; !ok || s != tt.want {
			t.Errorf("surface of %s = %q (found %v), want %q", tt.name, s, ok, tt.want)
		}
	}
}

// TestSurfaceCloses checks that a logged error whose connection is closed
// right after says where, and one only logged says nothing of it.
func TestSurfaceCloses(t *testing.T) {
	got := map[string][]errkb.Closing{}
	for _, b := range joined(t) {
		for _, r := range b.Records {
			got[cmp.Or(r.QualifiedName, r.ErrorMessage)] = r.Closes
		}
	}
	closes := got["widget frame is too long"]
	want := []errkb.Closing{{Call: "(*conn).closeConnection", Function: "(*conn).readLoop", FilePath: "conn.go", LineNumber: 28,
		GithubURL: "https://github.com/acme-labs/fakeclient/blob/v0.1.0/conn.go#L28"}}
	if !slices.Equal(closes, want) {
		t.Errorf("closes = %+v, want %+v", closes, want)
	}
	if c := got["client: nothing to write to"]; len(c) > 0 {
		t.Errorf("an error only logged closes %+v", c)
	}
}

func TestClosesName(t *testing.T) {
	for name, want := range map[string]bool{"Close": true, "close": true, "closeConnection": true, "CloseConn": true, "close_conn": true,
		"closedStateForErr": false, "closer": false, "enclose": false, "clos": false} {
		if got := extract.ClosesName(name); got != want {
			t.Errorf("ClosesName(%q) = %v, want %v", name, got, want)
		}
	}
}
