package widget

import (
	"errors"
	"fmt"

	"example.com/acme/widget/internal/gears"
)

// Assemble builds the named widget.
func Assemble(name string, size int) error {
	if name == "" {
		return ErrNoWidget
	}
	if size > 10 {
		return SizeError{Got: size, Want: 10}
	}
	if size < 0 {
		return fmt.Errorf("assemble %s: %w", name, ErrGearJammed)
	}
	if err := gears.Turn(size); err != nil {
		return fmt.Errorf("assemble %s: gears: %w", name, gears.ErrStripped)
	}
	if err := check(name); err == ErrSealed {
		return err
	}
	return errors.New("widget: assembly failed")
}

func check(name string) error {
	if err := gears.Turn(1); errors.Is(err, ErrNoWidget) {
		return nil
	}
	switch name {
	case "old":
		return errSpringLoose
	case "red":
		return ColorError(name)
	case "x":
		return fmt.Errorf("check %q: part %d missing", name, 3)
	}
	return ErrSealed
}
