package web

import (
	"bytes"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// render writes a templ component with an explicit status. It buffers the
// page so a failing template becomes a clean 500, not half a page.
func (s *Server) render(c echo.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}
