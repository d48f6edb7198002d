package index

import (
	"html"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
)

// Part of the answer: a hit's highlights. The query's words are marked in
// a record's message and in a short fragment of its documentation.
// Fragments are HTML: the text escaped, with <mark> around matched words
// (the shape bleve's highlighter gives, which pages and the API already
// show). Only a page of hits is marked, so the cost does not grow with
// the rerank window.

// markedWords are the words marks marks: the words sent to the text
// search, but for stop words, which say nothing of why a record matched.
func markedWords(a *candidates) map[string]bool {
	terms := map[string]bool{}
	for _, w := range a.searched {
		if !stopWord(w) {
			terms[w] = true
		}
	}
	return terms
}

// stopWord reports whether w is one of the English stop words the index
// drops from prose and messages, or a modal verb ("will", "can"), which
// bleve's list keeps but which marks nothing worth seeing.
func stopWord(w string) bool {
	w = strings.ToLower(w)
	return englishStop[w] || modalVerbs[w]
}

var modalVerbs = map[string]bool{"will": true, "would": true, "shall": true, "should": true, "can": true, "could": true, "may": true, "might": true, "must": true}

// marks are the highlights of r, the words of terms marked in its message
// and in a fragment of its documentation.
func marks(terms map[string]bool, r *errkb.Record) map[string][]string {
	out := map[string][]string{}
	if m, n := markWords(r.ErrorMessage, terms); n > 0 {
		out["message"] = []string{m}
	}
	if f := fragment(r.Documentation, terms, 240); f != "" {
		out["documentation"] = []string{f}
	}
	return out
}

// markWords escapes s and marks the words in terms; n counts the marks.
func markWords(s string, terms map[string]bool) (string, int) {
	var b strings.Builder
	last, n := 0, 0
	for sp := range lex.EachWordSpan(s) {
		w := s[sp[0]:sp[1]]
		if !termMatches(strings.ToLower(w), terms) {
			continue
		}
		b.WriteString(html.EscapeString(s[last:sp[0]]))
		b.WriteString("<mark>" + html.EscapeString(w) + "</mark>")
		last = sp[1]
		n++
	}
	b.WriteString(html.EscapeString(s[last:]))
	return b.String(), n
}

// termMatches accepts a word in terms or sharing a long stem with one
// ("streams" for "stream"), as the English analyzer would.
func termMatches(w string, terms map[string]bool) bool {
	if terms[w] {
		return true
	}
	for _, suf := range []string{"s", "es", "ed", "ing"} {
		if len(w) > len(suf)+3 && terms[strings.TrimSuffix(w, suf)] {
			return true
		}
	}
	return false
}

// fragment returns about size bytes of s around its first matched word,
// highlighted, or "" when no word matches.
func fragment(s string, terms map[string]bool, size int) string {
	for sp := range lex.EachWordSpan(s) {
		if !termMatches(strings.ToLower(s[sp[0]:sp[1]]), terms) {
			continue
		}
		start := max(0, sp[0]-size/3)
		end := min(len(s), start+size)
		for start > 0 && !isBoundary(s[start-1]) {
			start++
		}
		for end < len(s) && !isBoundary(s[end]) {
			end--
		}
		if end <= start {
			start, end = sp[0], sp[1]
		}
		text, _ := markWords(s[start:end], terms)
		if start > 0 {
			text = "…" + text
		}
		if end < len(s) {
			text += "…"
		}
		return text
	}
	return ""
}

func isBoundary(c byte) bool { return c == ' ' || c == '\n' || c == '\t' }
