package sprocket

import "fmt"

// Option sets up a Spin.
type Option func(*spin) error

type spin struct{ turns int }

// WithTurns spins n times; n must be positive.
func WithTurns(n int) Option {
	return func(s *spin) error {
		if n <= 0 {
			return fmt.Errorf("sprocket: turns must be positive, got %d", n)
		}
		s.turns = n
		return nil
	}
}

// Spin spins the machine with the options given.
func (m *Machine) Spin(opts ...Option) error {
	var s spin
	for _, o := range opts {
		if err := o(&s); err != nil {
			return err
		}
	}
	return nil
}
