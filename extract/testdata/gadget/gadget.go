// Package gadget builds gadgets from widgets. It is a fictional module
// that depends on another (widget), for the extract tests of a module
// loaded from the module cache with its dependencies.
package gadget

import (
	"errors"

	"example.com/acme/widget"
)

// ErrNoGadget is returned when no gadget has the given name.
var ErrNoGadget = errors.New("gadget: no such gadget")

// Build builds a gadget around a widget.
func Build(name string) error {
	if name == "" {
		return ErrNoGadget
	}
	if err := widget.Assemble(name, 1); err != nil {
		return err
	}
	return widget.ErrSealed // a dependency's sentinel: not one of gadget's
}
