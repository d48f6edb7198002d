package lex

import (
	"iter"
	"regexp"
	"strings"
	"unicode"
)

// quotedRE matches short quoted values: stream names, subjects, keys.
var quotedRE = regexp.MustCompile("\"[^\"]{0,80}\"|'[^']{0,80}'|`[^`]{0,80}`")

// MessageWords returns the words of a message with its variable parts left
// out, the way error-grouping tools normalize messages before comparing
// them: numbers, hex, UUIDs, IPs, durations, paths, subjects and short
// quoted values are placeholders' fillings, not the message.
func MessageWords(m string) []string {
	m = quotedRE.ReplaceAllStringFunc(m, func(q string) string {
		if len(strings.Fields(q)) <= 2 {
			return " "
		}
		return q
	})
	var out []string
	for _, f := range strings.Fields(m) {
		if strings.ContainsAny(f, "%{}") {
			continue // placeholders of a template
		}
		f = strings.Trim(f, `"'`+"`"+`:;,.()[]{}<>!?`)
		if f == "" || isVariable(f) {
			continue
		}
		out = append(out, Words(f)...)
	}
	return out
}

// isVariable reports whether a piece of a message looks like a value
// filled into a placeholder rather than part of the message itself.
func isVariable(f string) bool {
	if strings.ContainsAny(f, "/\\=@*>") {
		return true // paths, URLs, key=value, addresses, subject wildcards
	}
	letters, digits := 0, 0
	for _, r := range f {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	if digits > 0 {
		return true // numbers, hex, ids, durations, versions, IPs
	}
	if strings.Count(f, ".") >= 1 && !strings.HasSuffix(f, ".") {
		return true // dotted names: subjects, hosts, packages
	}
	return letters == 0
}

// Words splits s into lower-case runs of letters and digits.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// WordSpans returns the byte spans of letter-or-digit runs in s.
func WordSpans(s string) [][2]int {
	var out [][2]int
	for sp := range EachWordSpan(s) {
		out = append(out, sp)
	}
	return out
}

// EachWordSpan yields the spans of letters and digits in s, without
// collecting them: fragment stops at the first matched word of a long text.
func EachWordSpan(s string) iter.Seq[[2]int] {
	return func(yield func([2]int) bool) {
		start := -1
		for i, r := range s {
			isWord := unicode.IsLetter(r) || unicode.IsDigit(r)
			switch {
			case isWord && start < 0:
				start = i
			case !isWord && start >= 0:
				if !yield([2]int{start, i}) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			yield([2]int{start, len(s)})
		}
	}
}

// AlnumCount counts the letters and digits of s: how much literal text a
// pattern pins down is counted so.
func AlnumCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}
