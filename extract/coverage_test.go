package extract_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
)

// TestCoverageClasses checks each way of making an error that the
// fixture's polish.go shows, beyond sentinels, types and errors.New.
func TestCoverageClasses(t *testing.T) {
	res := loadFixture(t, extract.LoadOptions{})
	tests := []struct {
		name                    string
		find                    func(e *extract.Error) bool
		kind                    extract.Kind
		message, surface, level string
		code                    int // the numeric code, 0 for none
		sites                   int
	}{
		{"a constant of a string error type", named("ErrMountBent"), extract.Sentinel, "widget: mount: bent bracket", "", "", 0, 2},
		{"an integer constant whose text a table gives", named("EWORN"), extract.Sentinel, "gear teeth worn", "", "", 1, 1},
		{"of two constants with one text, the first name", named("EFATIGUE"), extract.Sentinel, "spring fatigue", "", "", 2, 0},
		{"a constant whose text a switch gives", named("FaultStall"), extract.Sentinel, "widget: motor stalled", "", "", 0, 1},
		{"a switch's type says its default", named("Fault"), extract.Type, "widget: unknown controller fault", "", "", 0, 0},
		{"an Error method's other branch", message("widget: latch %v left open"), extract.Call, "widget: latch %v left open", "", "", 0, 1},
		{"a struct literal with every field constant", message("widget: latch lid: jammed by polish"), extract.Call, "widget: latch lid: jammed by polish", "", "", 0, 1},
		{"a struct literal with some fields constant", message("widget: size %d, want 10"), extract.Call, "widget: size %d, want 10", "", "", 0, 1},
		{"a literal renders through each branch it may take", message("widget: step sand failed"), extract.Call, "widget: step sand failed", "", "", 0, 1},
		{"a literal renders through each branch it may take, the other", message("widget: step sand failed on part %v"), extract.Call, "widget: step sand failed on part %v", "", "", 0, 1},
		{"a literal renders through the branch its constant fields choose", message("widget: replace the axle"), extract.Call, "widget: replace the axle", "", "", 0, 1},
		{"a message folded from constants", message("widget: polish: streaks left"), extract.Call, "widget: polish: streaks left", "", "", 0, 1},
		{"a format held in a named constant", message("widget: polish: coat %d of %d dried badly"), extract.Call, "widget: polish: coat %d of %d dried badly", "", "", 0, 1},
		{"a call of the package's own constructor", message("widget: too many coats"), extract.Call, "widget: too many coats", "", "", 0, 1},
		{"a constructor through an error type's field", message("widget: door jammed: hinge rusted"), extract.Call, "widget: door jammed: hinge rusted", "", "", 0, 1},
		{"a method logger's Warnf", message("polish of %d coats failed: %v"), extract.Log, "polish of %d coats failed: %v", "log", "warning", 0, 1},
		{"slog.Error's message", message("widget service stopped"), extract.Log, "widget service stopped", "log", "error", 0, 1},
		{"a -ERR line of a sender", message("-ERR 'Mount Violation'"), extract.Protocol, "-ERR 'Mount Violation'", "protocol", "", 0, 1},
		{"a -ERR line formatted in place", message("-ERR 'Stale Widget'"), extract.Protocol, "-ERR 'Stale Widget'", "protocol", "", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := find(t, res, tt.find)
			if e == nil {
				t.Fatalf("not found among %v", keysOf(res, func(e *extract.Error) string { return e.Key() }))
			}
			if e.Kind != tt.kind || e.Message != tt.message || e.Surface != tt.surface || e.Severity != tt.level || len(e.Sites) != tt.sites {
				t.Errorf("got %s %q surface %q level %q with %d sites, want %s %q %q %q with %d",
					e.Kind, e.Message, e.Surface, e.Severity, len(e.Sites), tt.kind, tt.message, tt.surface, tt.level, tt.sites)
			}
			if got := 0; e.Code != nil || tt.code != 0 {
				if e.Code != nil {
					got = e.Code.Value
				}
				if got != tt.code {
					t.Errorf("code %+v, want %d", e.Code, tt.code)
				}
			}
		})
	}
	if e := find(t, res, named("ETIRED")); e != nil {
		t.Errorf("ETIRED extracted beside EFATIGUE, with the same text: %+v", e)
	}
	if e := find(t, res, message("widget: latch lid left open")); e != nil {
		t.Errorf("a literal that sets Reason rendered through the branch for no Reason: %+v", e)
	}
	if e := find(t, res, message("widget: repair of the axle failed: %v")); e != nil {
		t.Errorf("a literal with Err: errWornOut rendered through the branch for another Err: %+v", e)
	}
	if e := find(t, res, message("widget: door jammed: %s")); e != nil {
		t.Errorf("the literal inside the constructor jamError is an error of its own: %+v", e)
	}
	if e := find(t, res, func(e *extract.Error) bool { return strings.Contains(e.Message, "paint") }); e != nil {
		t.Errorf("stepError, which fills two fields with parameters, is taken for a constructor: %+v", e)
	}
	logged := find(t, res, message("widget service cannot mount: %v"))
	if logged == nil || !slices.Equal(logged.Wraps, []string{"example.com/acme/widget.ErrMountBent"}) {
		t.Errorf("a log line of a sentinel: %+v, want it to wrap ErrMountBent", logged)
	}
	for _, notLog := range []string{"[WRN] ", "[ERR] "} {
		if e := find(t, res, func(e *extract.Error) bool { return e.Kind == extract.Log && e.Message == notLog }); e != nil {
			t.Errorf("log.Printf, which names no level, is a log record: %+v", e)
		}
	}
}

// TestLogAndProtocolRecords checks what a log line's and a -ERR line's
// records say beyond the message: where they are met, at which level,
// the function that writes them, and no type guard, as neither is an
// error value.
func TestLogAndProtocolRecords(t *testing.T) {
	out := t.TempDir()
	extractTo(t, fixture(t), out)
	ds, err := errkb.Load(errkb.Folder{Name: "out", FS: os.DirFS(out)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]string{ // message: surface, severity, class
		"polish of %d coats failed: %v": {"log", "warning", "widget.(*conn).serve"},
		"-ERR 'Mount Violation'":        {"protocol", "error", "widget.(*conn).serve"},
		"widget: too many coats":        {"", "error", "widget.Buff"},
	}
	for _, r := range ds.Records {
		w, ok := want[r.ErrorMessage]
		if !ok {
			continue
		}
		delete(want, r.ErrorMessage)
		if got := [3]string{r.Surface, r.Severity, r.ErrorClass}; got != w {
			t.Errorf("%q: surface, severity, class = %q, want %q", r.ErrorMessage, got, w)
		}
		if (r.TypeGuard == "") != (r.Surface != "") {
			t.Errorf("%q: typeGuard %q", r.ErrorMessage, r.TypeGuard)
		}
	}
	if len(want) > 0 {
		t.Errorf("no records for %v", want)
	}
}
