package extract

import "strings"

// Verb is one printf verb of a format string, with its byte span.
type Verb struct {
	Verb       byte // 's', 'd', 'w', ...
	Start, End int
}

// Verbs lists the verbs of a printf format in order; "%%" is not one.
func Verbs(format string) []Verb {
	var out []Verb
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		start := i
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			break
		}
		if format[i] == '%' {
			continue
		}
		out = append(out, Verb{Verb: format[i], Start: start, End: i + 1})
	}
	return out
}

// LiteralText is a format without its verbs, "%%" read as "%".
func LiteralText(format string) string {
	var b strings.Builder
	last := 0
	for _, v := range Verbs(format) {
		b.WriteString(format[last:v.Start])
		b.WriteByte(' ')
		last = v.End
	}
	b.WriteString(format[last:])
	return strings.ReplaceAll(b.String(), "%%", "%")
}

// LongestLiteral is the longest run of a format's literal text, between
// its verbs and "{name}" placeholders (errors.json's), for a substring test
// that matches every message the format makes.
func LongestLiteral(format string) string {
	best := ""
	last := 0
	consider := func(chunk string) {
		for _, part := range splitPlaceholders(strings.ReplaceAll(chunk, "%%", "%")) {
			if part = strings.TrimSpace(part); len(part) > len(best) {
				best = part
			}
		}
	}
	for _, v := range Verbs(format) {
		consider(format[last:v.Start])
		last = v.End
	}
	consider(format[last:])
	return best
}

// splitPlaceholders cuts s at every "{name}".
func splitPlaceholders(s string) []string {
	var parts []string
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			return append(parts, s)
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			return append(parts, s)
		}
		parts = append(parts, s[:open])
		s = s[open+end+1:]
	}
}
