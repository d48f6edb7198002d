package testdata

import "errors"

var ErrInTestdata = errors.New("testdata: not part of the module")
