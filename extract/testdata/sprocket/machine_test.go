package sprocket

import (
	"errors"
	"strings"
	"testing"
)

// requireStalled is a test helper: the tests that call it assert
// ErrStalled through it.
func requireStalled(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrStalled) {
		t.Fatalf("got %v, want %v", err, ErrStalled)
	}
}

func TestStartWithoutSpeed(t *testing.T) {
	var m Machine
	requireStalled(t, m.Start(Config{}))
}

func TestShift(t *testing.T) {
	var m Machine
	if err := m.Shift(3); err != ErrStripped {
		t.Fatalf("got %v", err)
	}
	err := m.Shift(9)
	if err == nil || !strings.Contains(err.Error(), "is out of range") {
		t.Fatalf("got %v", err)
	}
}

func TestLoadMissing(t *testing.T) {
	if err := Load("/nonexistent"); !errors.Is(err, ErrMissing) {
		t.Fatalf("got %v", err)
	}
}

// TestShiftLow asserts that ErrStripped does not happen: it is no test
// of the error.
func TestShiftLow(t *testing.T) {
	var m Machine
	if err := m.Shift(1); errors.Is(err, ErrStripped) {
		t.Fatalf("gear 1 is not stripped: %v", err)
	}
}
