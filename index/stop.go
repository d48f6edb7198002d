package index

import "strings"

// StopWord reports whether w says nothing of which error matched: one of
// the English stop words the index drops from prose and messages, or a
// modal verb ("will", "can"), which bleve's list keeps but which marks
// nothing worth seeing in a highlight.
func StopWord(w string) bool {
	w = strings.ToLower(w)
	return englishStop[w] || modalVerbs[w]
}

var modalVerbs = map[string]bool{"will": true, "would": true, "shall": true, "should": true, "can": true, "could": true, "may": true, "might": true, "must": true}
