// Package gears turns the widget's gears.
package gears

import "errors"

// ErrStripped is returned when a gear has lost its teeth.
var ErrStripped = errors.New("gears: teeth stripped")

// Turn turns the gears n times.
func Turn(n int) error {
	if n > 100 {
		return ErrStripped
	}
	return nil
}
