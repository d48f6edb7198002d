//go:build plan9

// Package plan9gears turns gears on Plan 9 only.
package plan9gears

import "errors"

// ErrPlan9 is returned on Plan 9 only.
var ErrPlan9 = errors.New("plan9gears: no gears on this system")
