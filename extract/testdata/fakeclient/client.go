// Package client talks to the fake server of extract/natserrors's tests.
// It is a fictional module that the extract tests read with that server,
// to join the server's errors with the client's.
package client

import "errors"

// ErrorCode is the code the server puts in its API errors.
type ErrorCode uint32

const (
	ErrCodeWidgetNotFound ErrorCode = 90001
	ErrCodeWidgetBent     ErrorCode = 90002
)

// APIError is an error answer of the server.
type APIError struct {
	Code        int
	ErrorCode   ErrorCode
	Description string
}

func (e *APIError) Error() string { return "client: API error: " + e.Description }

var (
	// ErrWidgetNotFound is returned when the server has no such widget.
	ErrWidgetNotFound = &APIError{Code: 404, ErrorCode: ErrCodeWidgetNotFound, Description: "widget not found"}

	// ErrBent is returned when the server says the widget is bent.
	ErrBent = errors.New("client: widget bent")

	// ErrClosed is returned once the connection is closed.
	ErrClosed = errors.New("client: connection closed")
)

// Get asks the server for a widget.
func Get(name string) error {
	err := request(name)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode == ErrCodeWidgetBent {
		return ErrBent
	}
	return err
}

func request(name string) error {
	if name == "" {
		return ErrClosed
	}
	return ErrWidgetNotFound
}
