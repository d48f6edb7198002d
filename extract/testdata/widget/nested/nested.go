package nested

import "errors"

// ErrNested belongs to another module and is not extracted with widget.
var ErrNested = errors.New("nested: another module")
