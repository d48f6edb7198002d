package sprocket

import "fmt"

// Retry turns the machine again, warming it first when asked; whichever
// of the two failed last is what it reports.
func (m *Machine) Retry(warm bool) error {
	err := m.Shift(1)
	if warm {
		err = m.Shift(2)
	}
	if err != nil {
		return fmt.Errorf("sprocket: retry failed: %w", err)
	}
	return nil
}
