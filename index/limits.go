package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on the work one query text can cause. A pasted log line can hold
// thousands of words, and bleve turns each word into a clause; past
// maxClauses it fails the whole search. Fuzzy matching builds a Levenshtein
// automaton per word, which bleve refuses (and which would be slow) for
// very long words.
const (
	// maxQueryTerms is how many words of a text are matched; the words of
	// a log line that identify an error come first far more often than not.
	maxQueryTerms = 256
	// maxQueryRunes bounds the letters of the words kept: bleve splits
	// ideographic text into one term per character, so a count of words
	// alone does not bound the clauses.
	maxQueryRunes = 1000
	// maxFuzzyTermBytes is the longest word typo-tolerant matching is tried on.
	maxFuzzyTermBytes = 32
)

// queryTerms splits text the way bleve's tokenizers roughly do, on anything
// but letters and digits.
func queryTerms(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

// boundText keeps the first words of text, up to maxQueryTerms words and
// maxQueryRunes letters; shorter texts are returned as they are.
func boundText(text string) string {
	terms := queryTerms(text)
	n, runes := 0, 0
	for ; n < len(terms) && n < maxQueryTerms; n++ {
		runes += utf8.RuneCountInString(terms[n])
		if runes > maxQueryRunes {
			break
		}
	}
	if n == len(terms) {
		return text
	}
	return strings.Join(terms[:n], " ")
}

// fuzzyAllowed reports whether typo-tolerant matching is cheap for text:
// few words, none of them long.
func fuzzyAllowed(text string, maxWords int) bool {
	terms := queryTerms(text)
	if len(terms) == 0 || len(terms) > maxWords {
		return false
	}
	for _, t := range terms {
		if len(t) > maxFuzzyTermBytes {
			return false
		}
	}
	return true
}
