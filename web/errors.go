package web

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/templates"
	"github.com/errkb/errkb/web/route"
)

// Error is an error with the HTTP status and machine-readable code it
// should be answered with. Handlers return it; handleError renders it.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

func badRequest(msg string) error {
	return &Error{Status: http.StatusBadRequest, Code: "bad_request", Message: msg}
}

func notFound(msg string) error {
	return &Error{Status: http.StatusNotFound, Code: "not_found", Message: msg}
}

// handleError is the one place errors become responses: JSON under /api/,
// an HTML page elsewhere; 5xx are logged at Error and never show internals,
// except 503 busy, a deliberate refusal under load, logged like a 4xx.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	e := asError(err)
	req := c.Request()
	if e.Status >= 500 && e != errBusy {
		s.log.Error("request failed", "request_id", requestID(c), "method", req.Method, "path", req.URL.Path, "status", e.Status, "err", err)
	} else {
		s.log.Info("request refused", "request_id", requestID(c), "method", req.Method, "path", req.URL.Path, "status", e.Status, "err", e.Message)
	}
	if h := c.Response().Header(); e.Status == http.StatusServiceUnavailable && h.Get("Retry-After") == "" {
		h.Set("Retry-After", "5")
	}
	if strings.HasPrefix(req.URL.Path, "/api/") {
		_ = writeJSON(c, e.Status, map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message}})
		return
	}
	if req.Method == http.MethodHead {
		_ = c.NoContent(e.Status)
		return
	}
	plain := func() { _ = c.Blob(e.Status, echo.MIMETextPlainCharsetUTF8, []byte(e.Message+"\n")) }
	if f := pageFormat(c); f == route.Text || f == route.Markdown {
		// A terminal asked: one line it can read, not an HTML page.
		c.Response().Header().Add(echo.HeaderVary, echo.HeaderAccept)
		plain()
		return
	}
	page, err := s.problemPage(req.Context(), e, req.URL.Path)
	if err != nil {
		s.log.Error("error page not rendered", "request_id", requestID(c), "path", req.URL.Path, "status", e.Status, "err", err)
	}
	if page == nil {
		// The status never depends on whether a page could be made.
		plain()
		return
	}
	_ = c.HTMLBlob(e.Status, page)
}

// problemPage is the HTML error page of e for a request to path, or nil
// when a line of text is the answer: to a client that left, or when the
// page cannot be rendered. It is rendered apart from the request's
// context ctx, which net/http cancels when the client half-closes its
// side after sending (and templ renders nothing under a cancelled
// context); the suggestions of a 404, a search, still stop with ctx.
func (s *Server) problemPage(ctx context.Context, e *Error, path string) ([]byte, error) {
	switch {
	case e.Status == StatusClientClosed:
		return nil, nil
	case e == errBusy:
		// Refusing must stay much cheaper than the work refused: the page
		// is the same every time, so it is rendered once.
		return s.busyPage(), nil
	}
	v := s.problemView(uncounted(ctx), e, path)
	var buf bytes.Buffer
	if err := templates.Problem(v).Render(context.WithoutCancel(ctx), &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// busyPage is the error page of errBusy, rendered on first use.
func (s *Server) busyPage() []byte {
	s.busyOnce.Do(func() {
		var buf bytes.Buffer
		ctx := context.Background() // once for every request: none of theirs
		if err := templates.Problem(s.problemView(ctx, errBusy, "")).Render(ctx, &buf); err == nil {
			s.busyHTML = buf.Bytes()
		}
	})
	return s.busyHTML
}

// asError maps any error to an *Error: echo's own (404 for unknown routes,
// 405) keep their status; anything unexpected is a 500 with a plain message.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := http.StatusText(he.Code)
		switch he.Code {
		case http.StatusNotFound:
			return &Error{Status: he.Code, Code: "not_found", Message: "There is no page at this address."}
		case http.StatusMethodNotAllowed:
			return &Error{Status: he.Code, Code: "method_not_allowed", Message: msg}
		}
		if he.Code < 500 {
			return &Error{Status: he.Code, Code: strings.ToLower(strings.ReplaceAll(msg, " ", "_")), Message: msg}
		}
	}
	return &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "Something went wrong on our side. The error has been logged."}
}

// problemView builds the error page; for a 404 it suggests records whose
// words appear in the path the reader asked for.
func (s *Server) problemView(ctx context.Context, e *Error, path string) templates.ProblemView {
	heading := http.StatusText(e.Status)
	if e.Status == http.StatusNotFound {
		heading = "Page not found"
	}
	v := templates.ProblemView{Base: s.base(heading, ""), Status: e.Status, Heading: heading, Message: e.Message}
	if e.Status != http.StatusNotFound {
		return v
	}
	words := strings.Join(strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '-' || r == '_' }), " ")
	words = strings.TrimPrefix(words, "errors ")
	v.Query = words
	// Suggestions are a search: made only when a worker is free, never
	// waited for, so a flood of unknown paths cannot queue behind them.
	if sr, err := s.search(); err == nil && words != "" && len(words) < 200 && s.work.tryAcquire() {
		defer s.work.done()
		if res, err := sr.Search(ctx, index.Query{Text: words, Limit: 5}); err == nil {
			for _, h := range res.Hits {
				v.Suggestions = append(v.Suggestions, recordItem(h.Record, nil))
			}
		}
	}
	return v
}
