package server

func lookup(name string) *ApiError {
	if name == "" {
		return NewJSWidgetNotFoundError()
	}
	if name == "bent" {
		return NewJSWidgetBentError(name, 90)
	}
	return NewJSWidgetNotFoundError()
}
