// Package server is a fictional server whose error table has the shape of
// nats-server's errors.json, for the natserrors tests.
package server

import "fmt"

// ErrorIdentifier names an entry of the table.
type ErrorIdentifier uint16

// ApiError is an error answer of the fictional API.
type ApiError struct {
	Code        int    `json:"code"`
	ErrCode     uint16 `json:"err_code,omitempty"`
	Description string `json:"description,omitempty"`
}

func (e *ApiError) Error() string { return fmt.Sprintf("%s (%d)", e.Description, e.ErrCode) }
