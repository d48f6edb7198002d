package sprocket

import (
	"errors"
	"fmt"
	"os"
)

// Machine turns gears.
type Machine struct {
	speed  int
	jammed bool
	motor  motor
}

// Start starts the machine at the configured speed; without one it
// returns ErrStalled.
func (m *Machine) Start(cfg Config) error {
	if cfg.Speed > 0 {
		m.speed = cfg.Speed
	} else {
		return ErrStalled
	}
	m.motor.strict = cfg.strict
	return nil
}

// Restart starts the machine again, at speed 1 when it stalls.
func (m *Machine) Restart(cfg Config) error {
	err := m.Start(cfg)
	if errors.Is(err, ErrStalled) {
		m.speed = 1
		return nil
	}
	return err
}

// Shift moves to gear n.
func (m *Machine) Shift(n int) error {
	return gear(n)
}

func gear(n int) error {
	switch n {
	case 1, 2:
		return nil
	case 3:
		return ErrStripped
	default:
		return fmt.Errorf("sprocket: gear %d is out of range", n)
	}
}

// Load reads a part file.
func Load(path string) error {
	return load(path)
}

func load(path string) error {
	if err := open(path); err != nil {
		return fmt.Errorf("sprocket: load %s: %w", path, err)
	}
	return nil
}

func open(path string) error {
	_, err := os.Stat(path)
	if err != nil {
		return ErrMissing
	}
	return nil
}

// driver turns the machine.
type driver interface {
	Turn() error
}

type motor struct {
	strict bool
	hot    bool
}

func (mo motor) Turn() error {
	if mo.strict && mo.hot {
		return ErrOverheated
	}
	return nil
}

// Run turns the machine through its driver.
func (m *Machine) Run() error {
	var d driver = m.motor
	return d.Turn()
}

// Stop stops the machine through a method value.
func (m *Machine) Stop() error {
	stop := m.halt
	return stop()
}

func (m *Machine) halt() error {
	if m.jammed {
		return ErrJammed
	}
	m.speed = 0
	return nil
}

// Each calls fn for each gear, checking for a jam first in a closure.
func (m *Machine) Each(fn func(int)) error {
	check := func() error {
		for i := 0; i < m.speed; i++ {
			if m.jammed {
				return fmt.Errorf("sprocket: jammed at gear %d", i)
			}
		}
		return nil
	}
	if err := check(); err != nil {
		return err
	}
	for i := 0; i < m.speed; i++ {
		fn(i)
	}
	return nil
}

// Check looks the machine over without reporting a jam.
func (m *Machine) Check() error { return m.inspect(false) }

// Probe looks the machine over and reports a jam.
func (m *Machine) Probe() error { return m.inspect(true) }

// inspect returns ErrJammed only when strict: Check, which passes false,
// never returns it.
func (m *Machine) inspect(strict bool) error {
	if strict && m.jammed {
		return ErrJammed
	}
	return nil
}

// Label names the machine after its speed: never an empty name, so it
// never returns ErrUnnamed.
func (m *Machine) Label() error { return m.named(fmt.Sprintf("part-%d", m.speed)) }

// Rename names the machine; an empty name is ErrUnnamed.
func (m *Machine) Rename(name string) error { return m.named(name) }

func (m *Machine) named(name string) error { return checkName(name) }

func checkName(name string) error {
	if name == "" {
		return ErrUnnamed
	}
	return nil
}

// Erase removes the machine's parts and wipes them.
func (m *Machine) Erase() error { return m.remove(true) }

// Drop removes the machine's parts without wiping them: it never returns
// the wipe's error.
func (m *Machine) Drop() error { return m.remove(false) }

func (m *Machine) remove(secure bool) error {
	if m.speed < 0 {
		secure = false // a phi of the parameter and false: only the parameter can make it true
	}
	if secure {
		if err := wipe(); err != nil {
			return err
		}
	}
	return nil
}

func wipe() error { return errors.New("sprocket: the wipe failed") }
