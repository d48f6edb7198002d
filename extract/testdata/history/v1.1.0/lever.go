// Package lever is a fictional module whose two versions test how
// extract folds an older version's errors into the newer one's history.
package lever

import (
	"errors"
	"fmt"
)

// ErrStuck is returned when the lever does not move.
var ErrStuck = errors.New("lever is stuck")

// ErrLoose is returned when the lever has come loose.
var ErrLoose = errors.New("lever loose")

// Pull pulls the lever n times.
func Pull(n int) error {
	if n < 0 {
		return fmt.Errorf("pull: negative count %d", n)
	}
	return ErrStuck
}

// Push pushes the lever n times.
func Push(n int) error {
	if n < 0 {
		return errors.New("push: negative")
	}
	if n > 9 {
		return errors.New("push: too many")
	}
	return ErrLoose
}
