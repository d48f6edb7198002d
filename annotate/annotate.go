// Package annotate adds errkb links to log streams: every line goes out
// unchanged, and a line that holds an error errkb confidently knows gains
// the error's code and page URL. It owns reading and writing lines; what
// counts as a match is a Matcher's decision (an index on this machine, or
// a running errkb server).
package annotate

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
)

// Keys that annotations add: to the end of a plain line as key=value
// pairs, to a JSON line as members of its object.
const (
	KeyCode = "errkb_code"
	KeyURL  = "errkb_url"
)

// Match is the error one line holds.
type Match struct {
	Code string // the error's code, or its class or slug when it has none
	URL  string // the error's page
}

// Matcher finds the error a line holds. ok is false unless one error
// clearly matches: a wrong link is worse than none. Stream calls it from
// several goroutines at once.
type Matcher interface {
	Match(ctx context.Context, line string) (m Match, ok bool, err error)
}

// Options change how lines are written.
type Options struct {
	// JSON adds the keys to lines that are JSON objects, keeping every key
	// they had; other lines get the plain suffix.
	JSON bool
	// MaxLineBytes is the longest line looked up; longer lines pass
	// unchanged. 0 means no line is looked up.
	MaxLineBytes int
	// OnError hears each failed lookup; the line still goes out unchanged.
	// Stream calls it from one goroutine at a time.
	OnError func(error)
	// Workers is how many lines are looked up at once; 0 means one per
	// CPU. Lines still come out in the order they came in.
	Workers int
}

// annotateLine returns what to write for one line (with its end, if
// any): the line itself, or the line with its annotation. OnError hears a
// failed lookup.
func annotateLine(ctx context.Context, line []byte, m Matcher, opt Options) []byte {
	body, end := splitEnd(line)
	if len(body) == 0 || len(body) > opt.MaxLineBytes {
		return line
	}
	match, ok, err := m.Match(ctx, string(body))
	if err != nil && opt.OnError != nil {
		opt.OnError(err)
	}
	if !ok {
		return line
	}
	return append(Annotate(body, match, opt.JSON), end...)
}

// splitEnd splits a line from its "\n" or "\r\n".
func splitEnd(line []byte) (body, end []byte) {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
		if n > 0 && line[n-1] == '\r' {
			n--
		}
	}
	return line[:n], line[n:]
}

// Annotate returns line with m added: as two members at the end of the
// object when asJSON is set and line is a JSON object, else as
// "  errkb_code=CODE errkb_url=URL" after the line. A JSON line that
// already carries either key is returned as it was.
func Annotate(line []byte, m Match, asJSON bool) []byte {
	out := make([]byte, 0, len(line)+len(m.Code)+len(m.URL)+40)
	if asJSON {
		if obj, ok := jsonObject(line); ok {
			if bytes.Contains(obj, []byte(`"`+KeyURL+`"`)) || bytes.Contains(obj, []byte(`"`+KeyCode+`"`)) {
				return append(out, line...)
			}
			closing := bytes.LastIndexByte(line, '}')
			out = append(out, line[:closing]...)
			if !emptyObject(obj) {
				out = append(out, ',')
			}
			out = append(out, `"`+KeyCode+`":`...)
			out = appendJSONString(out, m.Code)
			out = append(out, `,"`+KeyURL+`":`...)
			out = appendJSONString(out, m.URL)
			return append(out, line[closing:]...)
		}
	}
	out = append(out, line...)
	out = append(out, "  "+KeyCode+"="...)
	out = append(out, logfmtValue(m.Code)...)
	out = append(out, " "+KeyURL+"="...)
	return append(out, logfmtValue(m.URL)...)
}

// jsonObject returns line without surrounding space when it is one valid
// JSON object.
func jsonObject(line []byte) ([]byte, bool) {
	t := bytes.TrimSpace(line)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' || !json.Valid(t) {
		return nil, false
	}
	return t, true
}

func emptyObject(obj []byte) bool {
	return len(bytes.TrimSpace(obj[1:len(obj)-1])) == 0
}

func appendJSONString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// logfmtValue quotes a value that holds spaces, quotes or '=' so logfmt
// readers (Loki, Grafana, humans) take it whole.
func logfmtValue(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"=") {
		return strconv.Quote(s)
	}
	return s
}
