// Package sprocket is a fictional module whose errors take every shape
// extract/knowledge derives facts for: an else branch, a switch, a wrap
// chain, an interface call, a method value, a closure, a test helper, a
// functional option, a configuration key, a guard on a constant argument
// and a guard on a parameter that callers up the chain fill.
package sprocket

import "errors"

var (
	// ErrStalled is returned when the machine is started without speed.
	ErrStalled = errors.New("sprocket: machine stalled")
	// ErrStripped is returned for a stripped gear.
	ErrStripped = errors.New("sprocket: gear stripped")
	// ErrMissing is returned when a part file is missing.
	ErrMissing = errors.New("sprocket: part missing")
	// ErrOverheated is returned by a motor that runs too hot.
	ErrOverheated = errors.New("sprocket: motor overheated")
	// ErrJammed is returned when the machine is jammed.
	ErrJammed = errors.New("sprocket: machine jammed")
	// ErrUnnamed is returned for a part without a name.
	ErrUnnamed = errors.New("sprocket: part has no name")
	// ErrUnused is never returned by the module.
	ErrUnused = errors.New("sprocket: never made")
)
