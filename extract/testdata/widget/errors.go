// Package widget assembles widgets. It is a fictional module that the
// extract tests read.
package widget

import (
	"errors"
	"fmt"
)

// ErrCode is the code the widget service puts in its API errors.
type ErrCode uint16

const (
	ErrCodeGearJammed  ErrCode = 4101
	ErrCodeSpringLoose ErrCode = 4102
)

// APIError is an error answer of the widget service.
type APIError struct {
	Code        int
	ErrorCode   ErrCode
	Description string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("widget: %s (code %d)", e.Description, e.ErrorCode)
}

var (
	// ErrGearJammed is returned when the gear cannot turn.
	ErrGearJammed = &APIError{Code: 409, ErrorCode: ErrCodeGearJammed, Description: "gear jammed"}

	// ErrNoWidget is returned when no widget has the given name.
	ErrNoWidget = errors.New("widget: no such widget")

	errSpringLoose = fmt.Errorf("widget: spring loose")
)

// ErrSealed is returned for a sealed widget.
var ErrSealed = errors.New("widget: sealed")

// SizeError reports a widget of the wrong size.
type SizeError struct{ Got, Want int }

func (e SizeError) Error() string { return fmt.Sprintf("widget: size %d, want %d", e.Got, e.Want) }

// ColorError says a color is unknown.
type ColorError string

func (e ColorError) Error() string { return "widget: unknown color" }
