// Package stream reads widgets as a stream from the fake server.
package stream

import "errors"

// ErrorCode is the code the server puts in its API errors.
type ErrorCode uint32

const (
	ErrCodeWidgetNotFound ErrorCode = 90001
	ErrCodeUnknown        ErrorCode = 90009 // no entry of the server's table has it
)

var (
	// ErrNotFound is returned when the server has no such widget.
	ErrNotFound = errors.New("stream: no such widget")

	// ErrUnknown is returned for a code the server does not define.
	ErrUnknown = errors.New("stream: unknown widget code")

	// ErrClosed is returned once the connection is closed.
	ErrClosed = errors.New("client: connection closed")
)

// Fetch turns the server's answer into an error.
func Fetch(code ErrorCode) error {
	switch code {
	case ErrCodeWidgetNotFound:
		return ErrNotFound
	case ErrCodeUnknown:
		return ErrUnknown
	}
	if code != ErrCodeWidgetNotFound { // not a mapping: the code is anything else
		return ErrClosed
	}
	return nil
}
