package bleveshim

import (
	"bytes"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
)

// The analyzers the index's mapping names, registered with bleve when
// this package is loaded. They are bleve's "en" and "standard" analyzers
// with the tokenizer swapped for wordTokenizer, which gives the same
// tokens faster: the index and every query's terms are the same.
const (
	wordsTokenizer   = "errkb-words"
	ProseAnalyzer    = "errkb-en"       // en: possessives, lower case, stop words, Porter stemming
	CodeTextAnalyzer = "errkb-standard" // standard: lower case, stop words
)

func init() {
	registry.RegisterTokenizer(wordsTokenizer, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return wordTokenizer{}, nil
	})
	analyzer := func(filters ...string) registry.AnalyzerConstructor {
		return func(_ map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
			t, err := cache.TokenizerNamed(wordsTokenizer)
			if err != nil {
				return nil, err
			}
			a := &analysis.DefaultAnalyzer{Tokenizer: t}
			for _, name := range filters {
				f, err := cache.TokenFilterNamed(name)
				if err != nil {
					return nil, err
				}
				a.TokenFilters = append(a.TokenFilters, f)
			}
			return a, nil
		}
	}
	registry.RegisterAnalyzer(ProseAnalyzer, analyzer(en.PossessiveName, lowercase.Name, en.StopName, porter.Name))
	registry.RegisterAnalyzer(CodeTextAnalyzer, analyzer(lowercase.Name, en.StopName))
}

// wordTokenizer splits text into words exactly as bleve's unicode
// tokenizer does (Unicode word boundaries, github.com/blevesearch/segment):
// the same terms, byte offsets, positions and types. That tokenizer ran a
// Unicode state machine over every byte and was the largest single cost of
// building the index; almost all of errkb's text is ASCII, where the
// boundaries are simple enough to find directly:
//
//   - A line break always ends a word, so each line is tokenized on its
//     own; a line holding any non-ASCII byte is handed to the unicode
//     tokenizer whole (as is input that is not valid UTF-8, where what
//     segment does depends on what came before).
//   - In ASCII, only letters, digits, '_' and the joiners . : ' , ; can
//     be part of a word. A run of other bytes is never in one.
//   - A run of word bytes that, leaving out joiners at either end, is made
//     of letters, digits and '_' alone is one word: a number if it has no
//     letter but a digit, otherwise a word (even "_" alone, as segment
//     has it). Joiners at either end are not part of it.
//   - Any other run (a joiner inside, as in "os.Open" or "1,000") is
//     handed to segment, whose rules decide whether it is one word.
//
// FuzzWordTokenizer compares both on arbitrary input and
// TestWordTokenizerOnShippedRecords on every field of the shipped dataset.
type wordTokenizer struct{}

var unicodeTokenizer = unicode.NewUnicodeTokenizer()

func (wordTokenizer) Tokenize(input []byte) analysis.TokenStream {
	if !utf8.Valid(input) {
		// segment's handling of invalid UTF-8 depends on what precedes it.
		return unicodeTokenizer.Tokenize(input)
	}
	// Tokens are 64 bytes each and a field's are garbage once bleve has
	// counted them: sizing the slab by the runs of word bytes, one more
	// pass, allocates about a third less than a guess from the length.
	toks := make([]analysis.Token, 0, wordRuns(input))
	pos := 1
	for start := 0; start < len(input); {
		end := bytes.IndexByte(input[start:], '\n')
		if end < 0 {
			end = len(input)
		} else {
			end += start
		}
		line := input[start:end]
		if isASCII(line) {
			toks = asciiWords(toks, line, start, &pos)
		} else {
			toks = appendSegmented(toks, unicodeTokenizer.Tokenize(line), start, &pos)
		}
		start = end + 1
	}
	rv := make(analysis.TokenStream, len(toks))
	for i := range toks {
		rv[i] = &toks[i]
	}
	return rv
}

// asciiWords appends the words of line, an ASCII line starting at byte
// offset off of the input.
func asciiWords(toks []analysis.Token, line []byte, off int, pos *int) []analysis.Token {
	for i := 0; i < len(line); {
		if class[line[i]] == other {
			i++
			continue
		}
		j := i
		for j < len(line) && class[line[j]] != other {
			j++
		}
		run := line[i:j]
		lo, hi := 0, len(run)
		for lo < hi && class[run[lo]] == joiner {
			lo++
		}
		for hi > lo && class[run[hi-1]] == joiner {
			hi--
		}
		kinds := byte(0)
		for _, c := range run[lo:hi] {
			kinds |= class[c]
		}
		switch {
		case lo == hi:
		case kinds&joiner != 0:
			toks = appendSegmented(toks, segmentRun(run), off+i, pos)
		default:
			typ := analysis.AlphaNumeric
			if kinds&letter == 0 && kinds&digit != 0 {
				typ = analysis.Numeric
			}
			toks = append(toks, analysis.Token{Term: run[lo:hi], Start: off + i + lo, End: off + i + hi, Position: *pos, Type: typ})
			*pos++
		}
		i = j
	}
	return toks
}

// segmentRun tokenizes a run of word bytes with segment's word rules, as
// the unicode tokenizer does.
func segmentRun(run []byte) analysis.TokenStream {
	return unicodeTokenizer.Tokenize(run)
}

// appendSegmented appends tokens of text starting at byte offset off,
// numbering them on from *pos.
func appendSegmented(toks []analysis.Token, ts analysis.TokenStream, off int, pos *int) []analysis.Token {
	for _, t := range ts {
		t.Start += off
		t.End += off
		t.Position = *pos
		*pos++
		toks = append(toks, *t)
	}
	return toks
}

// wordRuns counts the runs of ASCII word bytes in b, about the number of
// its words (a run with a joiner inside may be several).
func wordRuns(b []byte) int {
	n := 0
	in := false
	for _, c := range b {
		w := class[c] != other
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// Byte classes of ASCII for asciiWords; other is never part of a word.
const (
	other  = 0
	letter = 1 << iota
	digit
	underscore
	joiner // . : ' , ;
)

var class = func() (c [256]byte) {
	for b := 'a'; b <= 'z'; b++ {
		c[b] = letter
		c[b-'a'+'A'] = letter
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = digit
	}
	c['_'] = underscore
	for _, b := range ".:',;" {
		c[b] = joiner
	}
	return c
}()
