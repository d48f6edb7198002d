package index

// Bounds on the work one query text can cause. A pasted log line can hold
// thousands of words, and bleve turns each word into a clause; past
// maxClauses it fails the whole search. Query understanding keeps at most
// maxWords words (understand.go); these bound what reaches bleve and the
// typo automata.
const (
	// maxQueryRunes bounds the letters of the words sent to bleve: bleve
	// splits ideographic text into one term per character, so a count of
	// words alone does not bound the clauses.
	maxQueryRunes = 1000
	// maxFuzzyTermBytes is the longest word typo correction is tried on.
	maxFuzzyTermBytes = 32
)
