package tables

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
)

// RecordIdents collects the identifiers that name a record in code: its
// code and class, the distinctive identifiers and numbers (3+ digits)
// of its handling code, its own numeric code, and its package-qualified
// names (see lex.QualifiedNames). sourceCode is left out: the snippet
// around the raise site names many other errors.
func RecordIdents(r *errkb.Record) map[string]bool {
	out := map[string]bool{}
	for _, s := range []string{r.ErrorCode, r.ErrorClass, r.TypeGuard, r.ExampleFix, r.ValidationCode, r.TryCatchPattern} {
		lex.ScanIdents(s, func(id string) {
			if lex.DistinctiveIdent(id) {
				out[strings.ToLower(id)] = true
			}
		})
	}
	lex.QualifiedNames(r, func(q string) { out[q] = true })
	if r.NumericCode != nil {
		out[strconv.Itoa(*r.NumericCode)] = true
	}
	return out
}

// Part is what one record contributes to the lookup tables. It is
// computed beside the record's bleve document, on the goroutine that
// indexes it, so the records are read once and on every core; Assemble
// then joins all records' parts into the tables file.
//
// Words are numbered (see Dict): 100,000 records hold millions of
// words but only some hundred thousand distinct ones, and each record's
// parts are kept until all records are read.
type Part struct {
	msgWords, codeWords []word // sorted, distinct
	msgSeq              string // errorMessage words joined by spaces, padded
	code, class         word   // lex.NormalizeCode(errorCode), lower-case errorClass
	aliases             []word // lex.NormalizeCode of each alias: older names that still resolve
	repo                word   // lower-case
	idents              []word // distinct, sorted
	srcIdents           []word // distinct, in the order found
	patterns            []patternPart
	templates           []templateKey
	// lits are the record's literal messages, lower-cased (see
	// pattern.LiteralText): whether a message goes on from another record's is
	// known only when all records are read (see writePatterns).
	lits []string
}

// word is a word's number in the build's Dict: the parts hold no
// pointers for the collector to follow, in half the bytes of a pointer.
type word = uint32

// Dict numbers the words of a build's records, each distinct word
// once; the goroutines indexing records share it.
type Dict struct {
	mu   sync.Mutex
	num  map[string]word
	strs []string
}

// NewDict returns an empty dictionary, for one build.
func NewDict() *Dict { return &Dict{num: map[string]word{}} }

// id is s's number. s is copied when new: it may point into a record's
// text, which need not stay in memory.
func (d *Dict) id(s string) word {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, ok := d.num[s]
	if !ok {
		s = strings.Clone(s)
		n = word(len(d.strs))
		d.strs = append(d.strs, s)
		d.num[s] = n
	}
	return n
}

func (d *Dict) intern(ss []string) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = d.id(s)
	}
	return out
}

// str is w's text; only once no record is being added.
func (d *Dict) str(w word) string { return d.strs[w] }

func (d *Dict) words(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = d.strs[w]
	}
	return out
}

// patternPart is a pattern.Compiled with its words interned, and its
// literal text when it has one (lit, literal).
type patternPart struct {
	expr               string
	weight, prefix     int
	required           []word
	openStart, openEnd bool
	lit                string
	literal            bool
}

// templateKey is a record's message or pattern written as a template.
type templateKey struct {
	key    word // lex.NormalizeText of the template
	weight int
}

// NewPart computes r's part of the tables; sh is what it needs of the
// other records (see pattern.Shared).
func NewPart(r *errkb.Record, sh pattern.Shared, d *Dict) Part {
	var rt Part
	var patWords []string
	for _, pp := range pattern.OfRecords([]*errkb.Record{r}, sh) {
		for _, pc := range pp.Pieces {
			if !pc.Hole {
				patWords = append(patWords, lex.MessageWords(pc.Lit)...)
			}
		}
		lit, literal := pattern.LiteralText(pp.Pieces)
		if literal {
			rt.lits = append(rt.lits, lit)
		}
		if m, ok := pattern.Compile(pp.Pieces, pp.Expr); ok {
			rt.patterns = append(rt.patterns, patternPart{
				expr: m.Expr, weight: m.Weight, prefix: m.Prefix, required: d.intern(m.Required),
				openStart: m.OpenStart, openEnd: m.OpenEnd, lit: lit, literal: literal,
			})
		}
		if !pattern.IsTemplate(pp.Pieces) {
			continue // literal text, which the patterns match, or a regexp
		}
		w := 0
		for _, pc := range pp.Pieces {
			if !pc.Hole {
				w += lex.AlnumCount(pc.Lit)
			}
		}
		k := d.id(lex.NormalizeText(pattern.TemplateText(pp.Pieces)))
		if w > 0 && !slices.ContainsFunc(rt.templates, func(t templateKey) bool { return t.key == k }) {
			rt.templates = append(rt.templates, templateKey{k, w})
		}
	}
	mw := lex.MessageWords(r.ErrorMessage)
	rt.msgSeq = " " + strings.Join(mw, " ") + " "
	rt.msgWords = d.intern(sortedSet(append(mw, patWords...)))
	rt.codeWords = d.intern(sortedSet(strings.Fields(lex.SplitIdentifier(r.ErrorCode) + " " + lex.SplitIdentifier(r.ErrorClass))))
	rt.code, rt.class = d.id(lex.NormalizeCode(r.ErrorCode)), d.id(classKey(r.ErrorClass))
	rt.repo = d.id(strings.ToLower(r.Repo))
	for _, a := range r.Aliases {
		if k := d.id(lex.NormalizeCode(a)); k != rt.code && !slices.Contains(rt.aliases, k) {
			rt.aliases = append(rt.aliases, k)
		}
	}
	named := RecordIdents(r)
	rt.idents = d.intern(slices.Sorted(maps.Keys(named)))
	seen := map[string]bool{}
	lex.ScanIdents(r.SourceCode+"\n"+r.Documentation, func(id string) {
		// Numbers in a snippet are sizes, statuses and timeouts, not names.
		// Constants (EWOULDBLOCK) keep their case: lower-cased, they
		// would be words.
		k := strings.ToLower(id)
		if lex.CapsIdent(id) {
			k = id
		}
		if (lex.DistinctiveIdent(id) || lex.CapsIdent(id)) && !lex.IsNumber(id) && !named[k] && !seen[k] {
			seen[k] = true
			rt.srcIdents = append(rt.srcIdents, d.id(k))
		}
	})
	return rt
}

func sortedSet(ws []string) []string {
	slices.Sort(ws)
	return slices.Compact(ws)
}

// classKey is the class a lookup finds r by, lower-cased; "" for a
// function of package main ("main.main", "main.run"): every Go program's
// panic trace and many log prefixes hold those names, so they name no
// error.
func classKey(class string) string {
	c := strings.ToLower(class)
	if strings.HasPrefix(c, "main.") {
		return ""
	}
	return c
}
