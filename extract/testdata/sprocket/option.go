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

// SpinOnce spins with an option it makes itself: WithTurns's error, which
// only a caller's option can hold, never comes out of it.
func (m *Machine) SpinOnce() error { return m.Spin(withNothing()) }

func withNothing() Option { return func(*spin) error { return nil } }
