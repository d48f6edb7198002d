package sprocket

// logger writes the machine's log.
type logger struct{ lines []string }

// Warnf logs a warning.
func (l *logger) Warnf(format string, v ...any) { l.lines = append(l.lines, format) }

var lg logger

// Oil checks the oil level, and logs when it runs low while turning.
func (m *Machine) Oil(level int) {
	if level < 10 && m.speed > 0 {
		lg.Warnf("sprocket: oil low at speed %d", m.speed)
	}
}
