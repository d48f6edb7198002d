// Generated code in the shape of nats-server's; fictional.

package server

import "strings"

const (
	// JSWidgetBentErrF widget {name} is bent by {degrees} degrees
	JSWidgetBentErrF ErrorIdentifier = 90002

	// JSWidgetNotFoundErr widget not found
	JSWidgetNotFoundErr ErrorIdentifier = 90001
)

var ApiErrors = map[ErrorIdentifier]*ApiError{
	JSWidgetBentErrF:    {Code: 400, ErrCode: 90002, Description: "widget {name} is bent by {degrees} degrees"},
	JSWidgetNotFoundErr: {Code: 404, ErrCode: 90001, Description: "widget not found"},
}

// NewJSWidgetBentError creates a new JSWidgetBentErrF error: "widget {name} is bent by {degrees} degrees"
func NewJSWidgetBentError(name interface{}, degrees interface{}) *ApiError {
	e := ApiErrors[JSWidgetBentErrF]
	return &ApiError{Code: e.Code, ErrCode: e.ErrCode, Description: strings.NewReplacer("{name}", "x", "{degrees}", "y").Replace(e.Description)}
}

// NewJSWidgetNotFoundError creates a new JSWidgetNotFoundErr error: "widget not found"
func NewJSWidgetNotFoundError() *ApiError {
	return ApiErrors[JSWidgetNotFoundErr]
}
