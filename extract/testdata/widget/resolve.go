package widget

// Names here mean what the type checker says, not what they look like.

import (
	. "errors"
	"fmt"

	. "example.com/acme/widget/internal/gears"
)

// Tint is ColorError under another name.
type Tint = ColorError

// printer is not the fmt package, though a parameter below is named fmt.
type printer struct{}

func (printer) Errorf(format string, args ...any) error { return nil }

// Polish checks a widget's finish.
func Polish(name string, coats int) error {
	if coats > 3 {
		return ErrStripped // gears.ErrStripped, dot-imported
	}
	if coats < 0 {
		return New("widget: negative coats of polish") // errors.New, dot-imported
	}
	if name == "" {
		return Tint(name) // a conversion to ColorError through its alias
	}
	ErrSealed := coats * 2 // a local number, not the sentinel
	return report(printer{}, fmt.Sprint(ErrSealed))
}

func report(fmt printer, what string) error {
	return fmt.Errorf("widget: reported by a printer, not made here: %s", what)
}
