package widget

import (
	"errors"
	"fmt"
	"log"
	"log/slog"
	"strconv"
)

// MountError is a string error type: its constants are sentinels.
type MountError string

func (e MountError) Error() string { return "widget: mount: " + string(e) }

// ErrMountBent is returned for a bent mount.
const ErrMountBent = MountError("bent bracket")

// prefix heads every message of the polish step.
const prefix = "widget: polish: "

// polishFormat is the format of a polish failure, held in a constant.
const polishFormat = prefix + "coat %d of %d dried badly"

// LatchError reports a latch that did not close.
type LatchError struct {
	Latch  string
	Reason string
}

func (e *LatchError) Error() string {
	if e.Reason == "" {
		return "widget: latch " + e.Latch + " left open"
	}
	return fmt.Sprintf("widget: latch %s: %s", e.Latch, e.Reason)
}

// StepError reports a failed step, with the part when one is known: a
// caller may add the part after the error is made.
type StepError struct {
	Step string
	Part string
}

func (e *StepError) Error() string {
	if e.Part != "" {
		return "widget: step " + e.Step + " failed on part " + e.Part
	}
	return "widget: step " + e.Step + " failed"
}

// errWornOut is what a RepairError holds when no repair helps.
var errWornOut = errors.New("widget: worn out")

// RepairError reports a failed repair of a part.
type RepairError struct {
	Part string
	Err  error
}

func (e *RepairError) Error() string {
	if e.Err == errWornOut {
		return "widget: replace the " + e.Part
	}
	return "widget: repair of the " + e.Part + " failed: " + e.Err.Error()
}

// Fault is a fault of the widget's controller.
type Fault int

const (
	FaultNone Fault = iota
	FaultOverheat
	FaultStall
)

func (f Fault) Error() string {
	switch f {
	case FaultOverheat:
		return "widget: controller overheated"
	case FaultStall:
		return "widget: motor stalled"
	}
	return "widget: unknown controller fault"
}

// Errno is a code of the widget's firmware.
type Errno uintptr

const (
	EWORN    Errno = 1
	EFATIGUE Errno = 2
	ETIRED   Errno = 2 // the same code under another name
)

var errnoText = [...]string{
	1: "gear teeth worn",
	2: "spring fatigue",
}

func (e Errno) Error() string {
	if int(e) < len(errnoText) && errnoText[e] != "" {
		return errnoText[e]
	}
	return "widget: firmware errno " + strconv.Itoa(int(e))
}

// newError is the package's own constructor: each constant message it
// is given is an error.
func newError(msg string) error { return errors.New("widget: " + msg) }

// JamError reports a jammed mechanism.
type JamError struct{ Where, Why string }

func (e *JamError) Error() string { return fmt.Sprintf("widget: %s jammed: %s", e.Where, e.Why) }

// jamError makes a JamError of the door: a constructor, through the
// type's field.
func jamError(why string) error { return &JamError{Where: "door", Why: why} }

// stepError makes a StepError: two fields take parameters, so a call's
// constant is the text of neither for certain.
func stepError(step, part string) error { return &StepError{Step: step, Part: part} }

// Buff gives the widget coats of polish.
func Buff(coats int) error {
	switch coats {
	case 0:
		return ErrMountBent
	case 1:
		return &LatchError{Latch: "lid", Reason: "jammed by polish"}
	case 2:
		return errors.New(prefix + "streaks left")
	case 3:
		return fmt.Errorf(polishFormat, coats, 3)
	case 4:
		return newError("too many coats")
	case 5:
		return jamError("hinge rusted")
	case 6:
		return FaultStall
	case 7:
		return &StepError{Step: "sand"}
	case 8:
		return &RepairError{Part: "axle", Err: errWornOut}
	case 9:
		return stepError("paint", "lid")
	}
	return EWORN
}

// logger is how the widget service logs: any type with methods of this
// shape is a logger.
type logger struct{ prefix string }

func (l *logger) Warnf(format string, args ...any)  { log.Printf("[WRN] "+l.prefix+format, args...) }
func (l *logger) Errorf(format string, args ...any) { log.Printf("[ERR] "+l.prefix+format, args...) }

// conn is a client connection of the widget service.
type conn struct {
	log logger
	out []byte
}

// errProto is an error line of the wire protocol.
const errProto = "-ERR '%s'\r\n"

func (c *conn) sendErr(msg string) { c.out = append(c.out, fmt.Sprintf(errProto, msg)...) }

// serve runs one request of the widget service.
func (c *conn) serve(coats int) {
	err := Buff(coats)
	if err == nil {
		return
	}
	c.log.Warnf("polish of %d coats failed: %v", coats, err)
	if err == ErrMountBent {
		c.log.Errorf("widget service cannot mount: %v", ErrMountBent)
		c.sendErr("Mount Violation")
		return
	}
	slog.Error("widget service stopped", "err", err)
	c.out = append(c.out, fmt.Sprintf(errProto, "Stale Widget")...)
}
