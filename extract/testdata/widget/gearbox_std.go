//go:build !widget_experimental

package widget

import "errors"

// ErrGearbox is returned when the gearbox does not shift.
var ErrGearbox = errors.New("widget: gearbox stuck")
