package web

import (
	"html"
	"strings"

	"github.com/errkb/errkb/templates"
)

// snippetHTML renders the inline Markdown of a search snippet: code spans
// become <code>, *emphasis* <em> and **strong** <strong>, links their
// text, and the syntax itself is dropped, so a reader never sees raw
// backticks or asterisks. The snippet is a highlight fragment (record text
// escaped, <mark> around matched words, possibly cut mid-sentence), so it
// is read back into plain text with the marks kept aside, parsed, and
// written again with every character escaped: the only tags out are
// <mark>, <code>, <em> and <strong>, properly nested.
func snippetHTML(fragment string) templates.HTML {
	text, marked := unmarkFragment(fragment)
	st := parseInline(text)
	for i := range marked {
		st[i].mark = marked[i]
	}
	return templates.HTML(writeStyled(text, st))
}

// style is what one byte of a snippet is: dropped syntax, or text inside
// strong, em, code and mark (outermost first).
type style struct {
	drop                   bool
	strong, em, code, mark bool
}

// unmarkFragment splits a highlight fragment into its plain text and, per
// byte, whether it was inside <mark>. Fragments hold only escaped text and
// <mark> tags; anything else tag-like is taken as text.
func unmarkFragment(f string) (string, []bool) {
	var b strings.Builder
	var marked []bool
	in := false
	for f != "" {
		switch {
		case strings.HasPrefix(f, "<mark>"):
			in, f = true, f[len("<mark>"):]
			continue
		case strings.HasPrefix(f, "</mark>"):
			in, f = false, f[len("</mark>"):]
			continue
		}
		end := strings.Index(f, "<mark>")
		if c := strings.Index(f, "</mark>"); c >= 0 && (end < 0 || c < end) {
			end = c
		}
		if end < 0 {
			end = len(f)
		}
		t := html.UnescapeString(f[:end])
		b.WriteString(t)
		for range len(t) {
			marked = append(marked, in)
		}
		f = f[end:]
	}
	return b.String(), marked
}

// parseInline finds the inline Markdown of s: code spans first (nothing
// inside them is Markdown), then links, backslash escapes and emphasis in
// the rest. Block syntax at a line start (heading hashes, quote marks) is
// dropped; newlines read as spaces.
func parseInline(s string) []style {
	st := make([]style, len(s))
	code := make([]bool, len(s)) // inside a code span or its backticks
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := runLen(s, i, '`')
		closeAt := findRun(s, i+n, '`', n)
		if closeAt < 0 {
			// Unclosed (the fragment was cut): drop the backticks.
			for j := i; j < i+n; j++ {
				st[j].drop, code[j] = true, true
			}
			i += n
			continue
		}
		for j := i; j < closeAt+n; j++ {
			code[j] = true
			st[j].code = j >= i+n && j < closeAt
			st[j].drop = !st[j].code
		}
		i = closeAt + n
	}
	dropBlockMarks(s, st, code)
	dropLinks(s, st, code)
	emphasis(s, st, code)
	return st
}

// runLen is the length of the run of c starting at i.
func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// findRun finds the next run of exactly n c's at or after i, or -1.
func findRun(s string, i int, c byte, n int) int {
	for i < len(s) {
		if s[i] != c {
			i++
			continue
		}
		m := runLen(s, i, c)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// dropBlockMarks drops "#" headings and ">" quote marks at line starts.
func dropBlockMarks(s string, st []style, code []bool) {
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i-1] != '\n' || code[i] {
			continue
		}
		j := i
		for j < len(s) && (s[j] == '#' || s[j] == '>') {
			j++
		}
		if j > i && j < len(s) && s[j] == ' ' {
			for k := i; k <= j; k++ {
				st[k].drop = true
			}
		}
	}
}

// dropLinks keeps the text of [text](url) links and drops the rest: the
// snippet sits inside a link to the record already.
func dropLinks(s string, st []style, code []bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '[' || code[i] || escaped(s, i) {
			continue
		}
		end := strings.IndexByte(s[i:], ']')
		if end < 0 || i+end+1 >= len(s) || s[i+end+1] != '(' {
			continue
		}
		end += i
		paren := strings.IndexByte(s[end:], ')')
		if paren < 0 {
			continue
		}
		st[i].drop = true
		for k := end; k <= end+paren; k++ {
			st[k].drop = true
		}
		i = end + paren
	}
}

// escaped reports whether s[i] follows a backslash.
func escaped(s string, i int) bool { return i > 0 && s[i-1] == '\\' }

// emphasis pairs '*' and '_' runs outside code: a run opens when a
// non-space follows it and closes when a non-space precedes it; '_' also
// needs a non-word character on its outer side, so snake_case names stay
// as written. Paired runs of two or more are strong, of one emphasis.
// Unpaired '*' runs that could open or close are dropped (the fragment
// was cut between them); a lone '*' between spaces is text.
func emphasis(s string, st []style, code []bool) {
	type opener struct {
		at, n int
		c     byte
	}
	var stack []opener
	for i := 0; i < len(s); {
		c := s[i]
		if code[i] || st[i].drop || (c != '*' && c != '_') {
			if c == '\\' && !code[i] && i+1 < len(s) && strings.IndexByte("\\`*_[]#>", s[i+1]) >= 0 {
				st[i].drop = true
				i += 2
				continue
			}
			i++
			continue
		}
		n := runLen(s, i, c)
		before, after := byte(' '), byte(' ')
		if i > 0 {
			before = s[i-1]
		}
		if i+n < len(s) {
			after = s[i+n]
		}
		canOpen := !isSpace(after)
		canClose := !isSpace(before)
		if c == '_' {
			canOpen = canOpen && !isWord(before)
			canClose = canClose && !isWord(after)
		}
		closed := false
		if canClose {
			for k := len(stack) - 1; k >= 0; k-- {
				if stack[k].c == c {
					o := stack[k]
					m := min(o.n, n, 2)
					for j := o.at + o.n - m; j < o.at+o.n; j++ {
						st[j].drop = true
					}
					for j := i; j < i+m; j++ {
						st[j].drop = true
					}
					for j := o.at + o.n; j < i; j++ {
						if m >= 2 {
							st[j].strong = true
						} else {
							st[j].em = true
						}
					}
					stack = stack[:k]
					closed = true
					break
				}
			}
		}
		if !closed && canOpen {
			stack = append(stack, opener{at: i, n: n, c: c})
		} else if !closed && c == '*' && canClose {
			for j := i; j < i+n; j++ {
				st[j].drop = true
			}
		}
		i += n
	}
	for _, o := range stack {
		if o.c == '*' {
			for j := o.at; j < o.at+o.n; j++ {
				st[j].drop = true
			}
		}
	}
}

// newlines read as spaces in a one-paragraph snippet.
var newlines = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// writeStyled writes s escaped, with tags opened and closed wherever the
// style changes, always nested strong > em > code > mark.
func writeStyled(s string, st []style) string {
	var b strings.Builder
	b.Grow(len(s) + 32)
	var cur style
	tags := [4]string{"strong", "em", "code", "mark"}
	flags := func(x style) [4]bool { return [4]bool{x.strong, x.em, x.code, x.mark} }
	set := func(next style) {
		have, want := flags(cur), flags(next)
		first := 4
		for k := range 4 {
			if have[k] != want[k] {
				first = k
				break
			}
		}
		for k := 3; k >= first; k-- {
			if have[k] {
				b.WriteString("</" + tags[k] + ">")
			}
		}
		for k := first; k < 4; k++ {
			if want[k] {
				b.WriteString("<" + tags[k] + ">")
			}
		}
		cur = next
	}
	start := 0
	flush := func(end int) {
		t := newlines.Replace(s[start:end])
		b.WriteString(html.EscapeString(t))
	}
	for i := range len(s) {
		if st[i].drop {
			flush(i)
			start = i + 1
			continue
		}
		next := st[i]
		if flags(next) != flags(cur) {
			flush(i)
			start = i
			set(next)
		}
	}
	flush(len(s))
	set(style{})
	return b.String()
}
