package tables

import (
	"github.com/errkb/errkb/index/internal/pattern"
	"github.com/errkb/errkb/index/internal/tabfile"
)

// The compiled patterns' part of the tables file. Package pattern parses,
// compiles and matches them; the tables keep them as columns, pattern i's
// values at position i of each (see pattern.Columns).

// writePatterns writes every record's compiled patterns, in record order,
// with an index from each pattern's rarest required word to the patterns
// it keys. A literal message is open at an end no other record's message
// goes on from, so it needs all records' messages.
func writePatterns(w *tabfile.Writer, d *Dict, parts []Part) {
	var (
		recs, weights  []int32
		prefixes, ends []int32
		exprs          []string
		req            []word
		reqOff         = []uint32{0}
		lits           []string
	)
	for _, rt := range parts {
		lits = append(lits, rt.lits...)
	}
	ext := pattern.NewExtensions(lits)
	df := map[word]int{}
	for i, rt := range parts {
		for _, m := range rt.patterns {
			openStart, openEnd := true, true
			if m.literal {
				openStart = m.openStart || !ext.Continued(m.lit, true)
				openEnd = m.openEnd || !ext.Continued(m.lit, false)
			}
			var e int32
			if openStart {
				e |= pattern.StartOpenBit
			}
			if openEnd {
				e |= pattern.EndOpenBit
			}
			ends = append(ends, e)
			prefixes = append(prefixes, int32(m.prefix))
			recs = append(recs, int32(i))
			weights = append(weights, int32(m.weight))
			exprs = append(exprs, m.expr)
			req = append(req, m.required...)
			reqOff = append(reqOff, uint32(len(req)))
			for _, w := range m.required {
				df[w]++
			}
		}
	}
	byWord := postingsBuilder{}
	var always []int32
	for i := range recs {
		words := req[reqOff[i]:reqOff[i+1]]
		if len(words) == 0 {
			always = append(always, int32(i))
			continue
		}
		key := words[0]
		for _, w := range words[1:] {
			if df[w] < df[key] {
				key = w
			}
		}
		byWord.add(key, int32(i))
	}
	w.Int32s("patterns.rec", recs)
	w.Int32s("patterns.weight", weights)
	w.Int32s("patterns.prefix", prefixes)
	w.Int32s("patterns.ends", ends)
	w.Strings("patterns.expr", exprs)
	w.Strings("patterns.req", d.words(req))
	w.Uint32s("patterns.reqoff", reqOff)
	byWord.write(w, d, "patterns.byword")
	w.Int32s("patterns.always", always)
}

// readPatterns reads the columns writePatterns wrote; pattern.NewSet
// checks them.
func readPatterns(s *tabfile.Reader) pattern.Columns {
	return pattern.Columns{
		Rec:    tabfile.Slice[int32](s, "patterns.rec"),
		Weight: tabfile.Slice[int32](s, "patterns.weight"),
		Prefix: tabfile.Slice[int32](s, "patterns.prefix"),
		Ends:   tabfile.Slice[int32](s, "patterns.ends"),
		Expr:   s.Strings("patterns.expr"),
		Req:    s.Strings("patterns.req"),
		ReqOff: tabfile.Slice[uint32](s, "patterns.reqoff"),
		ByWord: s.Postings("patterns.byword"),
		Always: tabfile.Slice[int32](s, "patterns.always"),
	}
}
