// Package errlink puts links to an errkb knowledge base into a service's
// logs and errors, so whoever reads a log line or an error message is one
// click from the page that explains it.
//
// A service names its errkb server once with New, registers the sentinel
// errors it returns with their pages, and then either wraps its slog
// handler (Handler adds an error_url attribute to every record carrying a
// known error) or wraps errors (Wrap appends the link to the message).
// Errors that carry their own code, through an ErrorCode() string method,
// link to the server's /lookup for that code without registration.
//
// The package uses the standard library only (and the server's address
// rules, web/siteurl, which do too), so importing it brings in none of
// the server's dependencies.
package errlink

import (
	"errors"
	"net/url"
	"strings"
	"sync"

	"github.com/errkb/errkb/web/siteurl"
)

// AttrKey is the attribute Handler adds to log records.
const AttrKey = "error_url"

// Coder is an error that carries its own error code, such as an API error
// with the code the server answered.
type Coder interface {
	ErrorCode() string
}

// KB is one errkb knowledge base and the errors a service registered with
// it. Its methods are safe for concurrent use.
type KB struct {
	base string

	mu        sync.RWMutex
	sentinels []sentinel
}

type sentinel struct {
	err error
	url string
}

// New returns the knowledge base served at baseURL, for example
// "https://errkb.example.com" or "https://docs.example.com/kb".
func New(baseURL string) *KB {
	return &KB{base: strings.TrimRight(baseURL, "/")}
}

// LookupURL is the address that takes a reader to the error q names: a
// code, a message or a whole log line. The server redirects to the page
// when one error clearly matches, and to a search otherwise.
func (kb *KB) LookupURL(q string) string {
	return kb.base + siteurl.Lookup(q)
}

// PageURL is the stable page of one error, from its project ("owner/repo")
// and slug, as errkb's pages and API name them.
func (kb *KB) PageURL(repo, slug string) string {
	owner, name, _ := strings.Cut(repo, "/")
	return kb.base + siteurl.Record(url.PathEscape(owner)+"/"+url.PathEscape(name), url.PathEscape(slug))
}

// Register ties target, a sentinel error the service returns, to link:
// any error for which errors.Is(err, target) holds gets link. Use PageURL
// or LookupURL to build it. Later registrations of the same target win.
func (kb *KB) Register(target error, link string) {
	kb.mu.Lock()
	defer kb.mu.Unlock()
	for i := range kb.sentinels {
		if kb.sentinels[i].err == target {
			kb.sentinels[i].url = link
			return
		}
	}
	kb.sentinels = append(kb.sentinels, sentinel{target, link})
}

// URL returns the link for err: the registered sentinel it matches with
// errors.Is, else the lookup of the code of the first Coder in its chain.
// ok is false when neither applies.
func (kb *KB) URL(err error) (link string, ok bool) {
	if err == nil {
		return "", false
	}
	var le *LinkedError
	if errors.As(err, &le) {
		return le.URL, true
	}
	kb.mu.RLock()
	for _, s := range kb.sentinels {
		if errors.Is(err, s.err) {
			kb.mu.RUnlock()
			return s.url, true
		}
	}
	kb.mu.RUnlock()
	var c Coder
	if errors.As(err, &c) {
		if code := strings.TrimSpace(c.ErrorCode()); code != "" {
			return kb.LookupURL(code), true
		}
	}
	return "", false
}

// LinkedError is an error whose message ends with the link to its page.
// errors.Is and errors.As see through it to the error it wraps.
type LinkedError struct {
	Err error
	URL string
}

func (e *LinkedError) Error() string { return e.Err.Error() + " (see " + e.URL + ")" }

// Unwrap returns the wrapped error.
func (e *LinkedError) Unwrap() error { return e.Err }

// Wrap returns err with its link appended to the message when kb knows
// err, and err unchanged otherwise (nil stays nil). An error wrapped once
// is not wrapped again.
func (kb *KB) Wrap(err error) error {
	var le *LinkedError
	if err == nil || errors.As(err, &le) {
		return err
	}
	link, ok := kb.URL(err)
	if !ok {
		return err
	}
	return &LinkedError{Err: err, URL: link}
}
