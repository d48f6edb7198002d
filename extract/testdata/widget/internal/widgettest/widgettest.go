// Package widgettest helps the widget tests; it is not part of what the
// module ships.
package widgettest

import "errors"

// ErrFake is what the fake widget returns.
var ErrFake = errors.New("widgettest: fake widget failure")
