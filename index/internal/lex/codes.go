package lex

import (
	"strings"
	"unicode"
)

// NormalizeCode folds the forms one error code is written in to one key:
// case is ignored and '-', ' ' and '.' count as '_', so JS_CONSUMER_OFFLINE,
// js-consumer-offline and "js consumer offline" are the same code.
func NormalizeCode(s string) string {
	s = strings.TrimSpace(strings.ToLower(s))
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', ' ', '\t', '.':
			return '_'
		}
		return r
	}, s)
}

// SplitIdentifier turns SCREAMING_SNAKE, kebab-case and CamelCase into
// space-separated lower-case words, so "JSConsumerOfflineReasonError"
// becomes "js consumer offline reason error".
func SplitIdentifier(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			b.WriteByte(' ')
			continue
		}
		if i > 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte(' ')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// NormalizeText lower-cases s and folds runs of white space, for comparing
// messages.
func NormalizeText(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// CodeKeys are the keys a short query may spell a code or class as: the
// whole of it normalized (see NormalizeCode), and its chunks joined,
// lower-cased ("JS CONSUMER OFFLINE" and "JSConsumerOffline").
func CodeKeys(whole string, chunks []string) []string {
	return []string{NormalizeCode(whole), strings.ToLower(strings.Join(chunks, ""))}
}

// LooksLikeCode reports whether a short query is written like a code or a
// class (JS_CONSUMER_OFLINE, js-consumer-offline, JSConsumerOflineError)
// rather than as words, where a near code would be a guess.
func LooksLikeCode(s string) bool {
	if strings.ContainsAny(s, "_-.") {
		return true
	}
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}
