package widget

// finisher puts a finish on a widget. Its calls are resolved by the call
// graph: Finish calls lacquer's or wax's, never paint's.
type finisher interface{ finish(name string) error }

type lacquer struct{}

func (lacquer) finish(name string) error { return Polish(name, 2) }

type wax struct{}

func (wax) finish(name string) error { return nil }

// paint is a finisher that no code uses as one.
type paint struct{}

func (paint) finish(name string) error { return ErrGearJammed }

// Finish applies the finish the widget asks for.
func Finish(name string, glossy bool) error {
	var f finisher = wax{}
	if glossy {
		f = lacquer{}
	}
	return f.finish(name)
}

// Inspect checks every part, through a closure.
func Inspect(parts []string) error {
	return each(parts, func(part string) error { return check(part) })
}

func each(parts []string, fn func(string) error) error {
	for _, p := range parts {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// Sand returns paint as a value of any type, not as a finisher: CHA
// counts it among finishers all the same.
func Sand() any { return paint{} }
