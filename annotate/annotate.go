// Package annotate adds errkb links to log streams: every line goes out
// unchanged, and a line that holds an error errkb confidently knows gains
// the error's code and page URL. It owns reading and writing lines; what
// counts as a match is a Matcher's decision (an index on this machine, or
// a running errkb server).
package annotate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
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
// clearly matches: a wrong link is worse than none.
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
	OnError func(error)
}

// readSize is the reader's buffer; lines longer than this are copied
// through in pieces, never held whole.
const readSize = 64 << 10

// Stream copies r to w one line at a time, annotating the lines m matches.
// Output is flushed whenever no more input is waiting, so a follower such
// as `kubectl logs -f | errkb annotate` sees each line as it comes, while
// a file is still written in large blocks. It returns when r ends, ctx is
// done, or a read or write fails.
func Stream(ctx context.Context, r io.Reader, w io.Writer, m Matcher, opt Options) error {
	br := bufio.NewReaderSize(r, readSize)
	bw := bufio.NewWriterSize(w, readSize)
	for {
		if err := ctx.Err(); err != nil {
			return errors.Join(err, bw.Flush())
		}
		line, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			err = passLongLine(br, bw, line)
		case len(line) > 0:
			err = errors.Join(writeLine(ctx, bw, line, m, opt), ignoreEOF(err))
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return bw.Flush()
			}
			return errors.Join(err, bw.Flush())
		}
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// passLongLine copies a line that does not fit the read buffer, whose
// first part is head, through unchanged.
func passLongLine(br *bufio.Reader, bw *bufio.Writer, head []byte) error {
	if _, err := bw.Write(head); err != nil {
		return err
	}
	for {
		part, err := br.ReadSlice('\n')
		if _, werr := bw.Write(part); werr != nil {
			return werr
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) {
				return io.EOF
			}
			return err
		}
	}
}

// writeLine writes one line (with its end, if any) and its annotation.
func writeLine(ctx context.Context, bw *bufio.Writer, line []byte, m Matcher, opt Options) error {
	body, end := splitEnd(line)
	var match Match
	ok := false
	if len(body) > 0 && len(body) <= opt.MaxLineBytes {
		var err error
		match, ok, err = m.Match(ctx, string(body))
		if err != nil && opt.OnError != nil {
			opt.OnError(err)
		}
	}
	if !ok {
		_, err := bw.Write(line)
		return err
	}
	_, err := bw.Write(Annotate(body, match, opt.JSON))
	if err == nil {
		_, err = bw.Write(end)
	}
	return err
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
// already carries errkb_url is returned as it was.
func Annotate(line []byte, m Match, asJSON bool) []byte {
	out := make([]byte, 0, len(line)+len(m.Code)+len(m.URL)+40)
	if asJSON {
		if obj, ok := jsonObject(line); ok {
			if bytes.Contains(obj, []byte(`"`+KeyURL+`"`)) {
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
