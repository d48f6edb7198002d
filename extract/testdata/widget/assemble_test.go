package widget

import "errors"

var errOnlyInTests = errors.New("widget: test only")
