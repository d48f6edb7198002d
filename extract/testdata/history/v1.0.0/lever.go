// Package lever is a fictional module whose two versions test how
// extract folds an older version's errors into the newer one's history.
package lever

import (
	"errors"
	"fmt"
)

// ErrStuck is returned when the lever does not move.
var ErrStuck = errors.New("lever stuck")

// ErrBent is returned for a bent lever.
var ErrBent = errors.New("lever bent")

// ErrLoose is returned when the lever has come loose.
var ErrLoose = errors.New("lever loose")

// Pull pulls the lever n times.
func Pull(n int) error {
	if n < 0 {
		return fmt.Errorf("pull: bad count %d", n)
	}
	if n > 100 {
		return ErrBent
	}
	return ErrStuck
}

// Push pushes the lever n times.
func Push(n int) error {
	if n < 0 {
		return errors.New("push: below zero")
	}
	if n > 9 {
		return errors.New("push: above nine")
	}
	return ErrLoose
}
