package index

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/errkb/errkb/index/internal/lex"
)

// The understanding stage: string -> *understood. The query's text is
// read before any index is asked; nothing here knows the records.

// understood is what Search and Lookup read out of pasted text before any
// index is asked. Engineers paste codes, messages, whole log lines, JSON
// logs and API error bodies; each gives the same few things: the texts a
// message may sit in, the words worth searching for, and identifiers.
type understood struct {
	raw string // the input, trimmed and bounded
	// segments are texts an error message may sit in: the input with white
	// space folded, the input with JSON string escapes undone, and every
	// value pulled out of JSON or key=value pairs.
	segments []string
	// words are the lower-case words of the message part, in order, with
	// the variable parts (numbers, paths, quoted values, ...) left out.
	words []string
	// tokens holds every lower-case letter-or-digit run of every segment,
	// so patterns can be skipped cheaply when a word they need is absent.
	tokens map[string]bool
	// chunks are the input's white-space separated pieces with surrounding
	// punctuation trimmed: candidate codes, ids and identifiers.
	chunks []string
	// keyedNumbers are numbers given as the value of a code-like key
	// ("err_code=10118", {"code": 10045}): named codes, not counters.
	keyedNumbers []string
	// structured is set when the input held JSON or key=value pairs.
	structured bool
}

// maxWords bounds the words sent to text search; a pasted stack trace must
// not become a thousand-clause query.
const maxWords = 40

// maxSegments bounds how many extracted values are matched against patterns.
const maxSegments = 24

// maxChunks bounds the pieces looked up as codes, ids and identifiers.
const maxChunks = 256

// understand reads q. It never fails: text that fits no known shape is
// taken as plain words.
func understand(q string) *understood {
	q = strings.TrimSpace(strings.ToValidUTF8(q, " "))
	if len(q) > MaxQueryBytes {
		q = q[:MaxQueryBytes]
		for !utf8.ValidString(q) {
			q = q[:len(q)-1]
		}
	}
	u := &understood{raw: q, tokens: map[string]bool{}}
	u.addSegment(q)
	if un := unescapeJSONText(q); un != q {
		u.addSegment(un)
	}
	var msgs []string
	for _, obj := range jsonObjects(q) {
		u.structured = true
		msgs = append(msgs, u.fromJSON(obj, "")...)
	}
	if kvs := keyValues(q); len(kvs) >= 1 {
		msgs = append(msgs, u.fromKeyValues(kvs)...)
	}
	if len(msgs) == 0 {
		msgs = []string{stripLogPrefix(q)}
	}
	for _, m := range msgs {
		u.words = append(u.words, lex.MessageWords(m)...)
	}
	if len(u.words) > maxWords {
		u.words = u.words[:maxWords]
	}
	u.chunks = chunks(q)
	u.keyedNumbers = append(u.keyedNumbers, bracketedCodes(q)...)
	return u
}

// bracketedCodeRE matches a number of three digits or more in brackets at
// the end of a line: the code a program writes after an error's
// description (nats.java's "consumer is offline [10119]", nats-server's
// ApiError "consumer is offline (10119)"). A number in brackets at the
// start of a line is a pid ("[7] 2026/11/02 ...").
var bracketedCodeRE = regexp.MustCompile(`\S\s*(?:\[(\d{3,})\]|\((\d{3,})\))\s*$`)

// bracketedCodes returns the codes bracketedCodeRE finds, a line at a time.
func bracketedCodes(q string) []string {
	var out []string
	for line := range strings.Lines(q) {
		if m := bracketedCodeRE.FindStringSubmatch(line); m != nil {
			out = append(out, m[1]+m[2])
		}
	}
	return out
}

func (u *understood) addSegment(s string) {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" || len(u.segments) >= maxSegments {
		return
	}
	for _, have := range u.segments {
		if have == s {
			return
		}
	}
	u.segments = append(u.segments, s)
	for _, t := range lex.Words(s) {
		u.tokens[t] = true
	}
}

// messageKeys name the fields of structured logs and API errors that hold
// the message; their values are preferred over other values for words.
var messageKeys = map[string]bool{
	"msg": true, "message": true, "error": true, "err": true, "description": true, "desc": true,
	"detail": true, "details": true, "reason": true, "cause": true, "errormessage": true,
	"error_message": true, "title": true, "exception": true, "errmsg": true,
}

// isCodeKey reports whether a key names an error code, so that its numeric
// value is a code rather than a count or a duration.
func isCodeKey(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "code") || k == "errno" || k == "err_no"
}

// fromJSON records every string value of v as a segment and returns the
// values of message keys. Numbers under code-like keys become keyedNumbers.
func (u *understood) fromJSON(v any, key string) []string {
	var msgs []string
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			msgs = append(msgs, u.fromJSON(e, k)...)
		}
	case []any:
		for _, e := range v {
			msgs = append(msgs, u.fromJSON(e, key)...)
		}
	case string:
		u.addSegment(v)
		if messageKeys[strings.ToLower(key)] {
			msgs = append(msgs, v)
		}
		if isCodeKey(key) {
			u.keyedNumbers = append(u.keyedNumbers, v)
		}
	case json.Number:
		if isCodeKey(key) {
			u.keyedNumbers = append(u.keyedNumbers, v.String())
		}
	}
	return msgs
}

// jsonObjects decodes the JSON objects that start at the first few '{' of
// s, as in a log line that ends in a JSON payload.
func jsonObjects(s string) []any {
	var out []any
	for tries := 0; tries < 4; tries++ {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil {
			out = append(out, v)
			s = s[i+int(dec.InputOffset()):]
			continue
		}
		s = s[i+1:]
	}
	return out
}

// unescapeJSONText undoes JSON string escapes in text that is not valid
// JSON as a whole (a truncated JSON log line, or a JSON string pasted with
// its quotes), so the message inside can still be matched.
func unescapeJSONText(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n', 't', 'r':
			b.WriteByte(' ')
		case 'u':
			if i+4 < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(n))
					i += 4
					continue
				}
			}
			b.WriteString(`\u`)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// keyValue is one key=value pair of a logfmt line or a client wrapper.
type keyValue struct{ key, value string }

var keyRE = regexp.MustCompile(`(?:^|\s)([A-Za-z_][A-Za-z0-9_.\-]*)=`)

// keyValues reads key=value pairs (slog text, logfmt, and wrappers such as
// "code=500 err_code=10118 description=stream not found"). A quoted value
// is unquoted; an unquoted value of a message key runs to the next key, as
// wrappers print descriptions without quotes; other unquoted values end at
// white space.
func keyValues(s string) []keyValue {
	locs := keyRE.FindAllStringSubmatchIndex(s, 64)
	var out []keyValue
	for i, loc := range locs {
		key := s[loc[2]:loc[3]]
		rest := s[loc[1]:]
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		var val string
		switch {
		case strings.HasPrefix(rest, `"`):
			if q, err := strconv.QuotedPrefix(rest); err == nil {
				val, _ = strconv.Unquote(q)
			} else {
				val = strings.Trim(s[loc[1]:end], `"`)
			}
		case messageKeys[strings.ToLower(key)]:
			val = strings.TrimSpace(s[loc[1]:end])
		default:
			val, _, _ = strings.Cut(rest, " ")
		}
		out = append(out, keyValue{key, val})
	}
	return out
}

func (u *understood) fromKeyValues(kvs []keyValue) []string {
	u.structured = true
	var msgs []string
	for _, kv := range kvs {
		u.addSegment(kv.value)
		if messageKeys[strings.ToLower(kv.key)] {
			msgs = append(msgs, kv.value)
		}
		if isCodeKey(kv.key) {
			u.keyedNumbers = append(u.keyedNumbers, kv.value)
		}
	}
	return msgs
}

// logPrefixRE matches what loggers put before a message: dates, times,
// pids, levels, bracketed tags and file:line positions.
var logPrefixRE = regexp.MustCompile(`^(?:\s*(?:` +
	`\d{4}[-/]\d{2}[-/]\d{2}(?:[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?` + // dates
	`|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?` + // times
	`|[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2}` + // syslog
	`|\[[^\]]{0,40}\]` + // [pid], [ERR], [main]
	`|<\d+>` + // syslog priority
	`|(?i:trace|debug|dbg|info|inf|notice|warn|warning|wrn|error|err|erro|eror|fatal|ftl|panic|crit|critical)\b:?` +
	`|[\w./\-]+\.[a-z]{1,4}:\d+:?` + // file.go:123
	`|\d+` + // pids, counters
	`|-` +
	`)\s*)+`)

// stripLogPrefix removes a log line's prefix, leaving the message.
func stripLogPrefix(s string) string {
	if loc := logPrefixRE.FindStringIndex(s); loc != nil && loc[1] < len(s) {
		return s[loc[1]:]
	}
	return s
}

// chunks splits s at white space and trims punctuation around each piece,
// keeping the '_', '-' and '.' that codes and identifiers are made of.
func chunks(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(`"'`+"`"+`,;()[]{}<>=`, r)
	}) {
		f = strings.Trim(f, ":.!?-")
		if f != "" {
			out = append(out, f)
		}
		if len(out) >= maxChunks {
			break
		}
	}
	return out
}
