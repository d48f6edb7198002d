package index

import (
	"strings"
)

// The evidence stage: *candidates -> []*evidence. Each candidate record's
// evidence from the tables is completed with how well its words cover the
// query's, whether the query names its project, and bleve's relevance, and
// weighed into one score (see score.go). It reads the candidates only.

// weigh completes and scores the evidence of every record bleve returned
// (the records with evidence from the tables among them, forced in).
func (ix *Index) weigh(c *candidates) []*evidence {
	maxText := 0.0
	for _, h := range c.hits {
		if _, ok := c.found[h.rec]; !ok {
			maxText = max(maxText, h.score)
		}
	}
	out := make([]*evidence, 0, len(c.hits))
	// The text matches' evidence in one allocation: a query ranks
	// hundreds of records.
	slab := make([]evidence, len(c.hits))
	for _, h := range c.hits {
		e, found := c.found[h.rec]
		if !found {
			e = &slab[0]
			slab = slab[1:]
			e.rec = h.rec
			if maxText > 0 {
				e.bleve = h.score / maxText
			}
		}
		ix.complete(c, e)
		out = append(out, e)
	}
	return out
}

// complete adds to e, a record's evidence, what the query's words and the
// projects it names say about the record, and scores it. bleve's
// relevance, which weigh sets, counts only for records found by text
// alone.
func (ix *Index) complete(c *candidates, e *evidence) {
	ix.textCover(c, e)
	if c.projects != nil {
		e.project = c.projects[strings.ToLower(ix.ds.Records[e.rec].Repo)]
	}
	e.computeScore()
}

// textCover scores how well the query's words and the record's words
// cover each other, weighting words by rarity. Half the score is how much
// of the query the record's message and names (code, class) explain; the
// other half how much of the message, and of the names, the query holds.
// So a fragment scores by how much of the message it names, a long log
// line by how much of the message it contains, and of two records sharing
// a code the one whose message the query spells out wins.
func (ix *Index) textCover(a *candidates, e *evidence) {
	if len(a.words) == 0 || e.code == 2 || e.class == 2 {
		// A query that is the record's name is not a description: its
		// words say nothing about which of the records sharing the name
		// is meant.
		return
	}
	msg, code := ix.t.MsgWords(e.rec), ix.t.CodeWords(e.rec)
	var qIDF, inAny, inMsg, inCode float64
	for i, w := range a.words {
		idf := a.idf[i]
		qIDF += idf
		inM, inC := msg.Has(w), code.Has(w)
		if inM {
			inMsg += idf
		}
		if inC {
			inCode += idf
		}
		if inM || inC {
			inAny += idf
		}
	}
	e.text = coverOfQuery * inAny / qIDF
	if msg.IDF > 0 {
		e.textLen += coverOfMessage * inMsg / msg.IDF
	}
	if code.IDF > 0 {
		e.textLen += coverOfNames * inCode / code.IDF
	}
	e.text += e.textLen
	if len(a.words) >= 2 && strings.Contains(ix.t.MsgSeq(e.rec), a.phrase) {
		e.phrase = true
	}
}
