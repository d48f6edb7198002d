package kbgen

import (
	"regexp"
	"strings"
)

// part is one piece of a parsed message template: a literal, the subject
// (S), its plural (P) or a placeholder of kind q, s or d named text.
type part struct {
	kind byte
	text string
}

// Pattern styles for messagePattern; the knowledge base stores all three.
const (
	stylePrintf = iota
	styleBrace
	styleRegex
)

// parsedMsgs holds the parsed templates of conditions, parsed once so that
// record generation only renders.
var parsedMsgs = parseConditions()

func parseConditions() [][][]part {
	out := make([][][]part, len(conditions))
	for i, c := range conditions {
		for _, m := range c.msgs {
			out[i] = append(out[i], parseMsg(m))
		}
	}
	return out
}

// parseMsg splits a template such as "{S} <name:q> not found" into parts.
func parseMsg(m string) []part {
	var parts []part
	for m != "" {
		switch {
		case strings.HasPrefix(m, "{Sp}"):
			parts = append(parts, part{'P', ""})
			m = m[4:]
		case strings.HasPrefix(m, "{S}"):
			parts = append(parts, part{'S', ""})
			m = m[3:]
		case m[0] == '<':
			end := strings.IndexByte(m, '>')
			name, kind, _ := strings.Cut(m[1:end], ":")
			parts = append(parts, part{kind[0], name})
			m = m[end+1:]
		default:
			end := strings.IndexAny(m, "{<")
			if end < 0 {
				end = len(m)
			}
			parts = append(parts, part{'L', m[:end]})
			m = m[end:]
		}
	}
	return parts
}

func hasSlots(parts []part) bool {
	for _, p := range parts {
		if p.kind != 'L' && p.kind != 'S' && p.kind != 'P' {
			return true
		}
	}
	return false
}

// render writes parts with slot rendering delegated to slot; literals are
// passed through lit so the regex style can escape them.
func render(parts []part, subj, plural string, lit func(string) string, slot func(part) string) string {
	var b strings.Builder
	for _, p := range parts {
		switch p.kind {
		case 'L':
			b.WriteString(lit(p.text))
		case 'S':
			b.WriteString(lit(subj))
		case 'P':
			b.WriteString(lit(plural))
		default:
			b.WriteString(slot(p))
		}
	}
	return b.String()
}

func same(s string) string { return s }

// readable renders the human form stored in errorMessage: placeholders
// become <name>, quoted ones keep their quotes.
func readable(parts []part, subj, plural string) string {
	return render(parts, subj, plural, same, func(p part) string {
		if p.kind == 'q' {
			return `"<` + p.text + `>"`
		}
		return "<" + p.text + ">"
	})
}

// pattern renders messagePattern in one of the three styles.
func pattern(parts []part, style int, subj, plural string) string {
	switch style {
	case styleRegex:
		return "^" + render(parts, subj, plural, regexp.QuoteMeta, func(p part) string {
			switch p.kind {
			case 'q':
				return `"([^"]*)"`
			case 'd':
				return `(\d+)`
			}
			return `(.+)`
		}) + "$"
	case styleBrace:
		return render(parts, subj, plural, same, func(p part) string {
			if p.kind == 'q' {
				return `"{` + p.text + `}"`
			}
			return "{" + p.text + "}"
		})
	}
	return render(parts, subj, plural, same, func(p part) string { return "%" + string(p.kind) })
}

// raiseLine renders the source line that produces the error in language l,
// using that language's own formatting idiom.
func raiseLine(l int, parts []part, subj, plural, class, code string) string {
	ind := langs[l].indent + langs[l].indent
	slots := hasSlots(parts)
	switch l {
	case langGo:
		if !slots {
			return ind + "return nil, &" + class + `{Code: "` + code + `", Msg: "` + readable(parts, subj, plural) + `"}`
		}
		var args []string
		for _, p := range parts {
			if p.kind == 'q' || p.kind == 's' || p.kind == 'd' {
				args = append(args, p.text)
			}
		}
		return ind + "return nil, &" + class + `{Code: "` + code + `", Msg: fmt.Sprintf("` +
			pattern(parts, stylePrintf, subj, plural) + `", ` + strings.Join(args, ", ") + ")}"
	case langPython:
		msg := render(parts, subj, plural, same, func(p part) string {
			if p.kind == 'q' {
				return "{" + p.text + "!r}"
			}
			return "{" + p.text + "}"
		})
		f := "f"
		if !slots {
			f = ""
		}
		return ind + "raise " + class + "(" + f + `"` + msg + `", code="` + code + `")`
	case langTS:
		if !slots {
			return ind + "throw new " + class + `("` + readable(parts, subj, plural) + `", { code: "` + code + `" });`
		}
		msg := render(parts, subj, plural, same, func(p part) string {
			if p.kind == 'q' {
				return `"${` + p.text + `}"`
			}
			return "${" + p.text + "}"
		})
		return ind + "throw new " + class + "(`" + msg + "`, { code: \"" + code + "\" });"
	default:
		if !slots {
			return ind + "return Err(" + class + `::new("` + code + `", "` + readable(parts, subj, plural) + `".to_string()));`
		}
		msg := render(parts, subj, plural, same, func(p part) string {
			if p.kind == 'q' {
				return "{" + p.text + ":?}"
			}
			return "{" + p.text + "}"
		})
		return ind + "return Err(" + class + `::new("` + code + `", format!("` + msg + `")));`
	}
}
