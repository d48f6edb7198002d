//go:build widget_experimental

package widget

import (
	"errors"
	"fmt"
)

// ErrGearbox is returned when the experimental gearbox does not shift.
var ErrGearbox = errors.New("widget: experimental gearbox stuck")

// Shift shifts the experimental gearbox.
func Shift(gear int) error {
	if gear > 6 {
		return fmt.Errorf("widget: experimental gearbox has no gear %d", gear)
	}
	return ErrGearbox
}
