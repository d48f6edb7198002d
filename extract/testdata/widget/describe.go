package widget

import "strings"

// Describe says in words why a widget failed.
func Describe(err error) string {
	if strings.Contains(err.Error(), ErrGearbox.Error()) { // its text compared: not raised
		return "the gearbox"
	}
	return "widget failed: " + ErrGearJammed.Error() // its text given to the caller: raised
}
