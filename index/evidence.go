package index

import (
	"math"
	"strings"

	"github.com/errkb/errkb/index/internal/pattern"
)

// The evidence stage: candidates -> []*evidence. Each candidate record's
// evidence from the tables is completed with how well its words cover the
// query's, whether the query names its project, and bleve's relevance, and
// weighed into one score. It reads the candidates only.

// evidence is what one query says about one record. Ranking adds it up;
// Lookup's confidence reads its strongest part.
type evidence struct {
	rec   int32
	id    bool
	code  int // 2: the whole query is the record's code; 1: one piece of it is
	class int // likewise for errorClass
	// ident sums, over identifiers of the record's code found in the
	// query, 1/(records using the identifier); srcIdent likewise for
	// identifiers of its source snippet, and number for bare numbers,
	// which may as well be pids, ports or counts.
	ident, srcIdent, number float64
	// keyedIdent: a number under a code-like key, or the whole query, is an
	// identifier of this record and of no other.
	keyedIdent bool
	nearCode   int // edits between the query and the record's code or class; 0: not near
	pattern    pattern.Hit
	text       float64 // 0..1: how well query and message words cover each other
	textLen    float64 // the part of text that measures how much of the message the query holds
	phrase     bool    // the query's words occur in this order in the message
	bleve      float64 // 0..1: bleve's relevance over all fields, for prose matches
	project    bool    // the query names the record's project ("nwcache[311]: ...")
	score      float64
	sortScore  float64 // score, evened out among records sharing a code; see evenSharedCodes
}

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
		ix.textCover(c, e)
		if c.projects != nil {
			e.project = c.projects[strings.ToLower(ix.ds.Records[h.rec].Repo)]
		}
		e.computeScore()
		out = append(out, e)
	}
	return out
}

// score weighs the evidence. The tiers are far apart on purpose: naming
// a record (id, code, class) outranks finding its message, which outranks
// sharing words with it; within a tier, the amount of matched literal text
// and word coverage decide. A pattern counts by the letters it pins down,
// so "(.+)" alone adds nothing and a specific message beats a generic one.
func (e *evidence) computeScore() {
	s := 0.0
	if e.id {
		s += 1000
	}
	s += [3]float64{0, 400, 600}[e.code]
	s += [3]float64{0, 350, 550}[e.class]
	if e.keyedIdent {
		s += 450
	} else {
		s += 150*min(1, e.ident) + 100*min(1, e.srcIdent) + 40*min(1, e.number)
	}
	if e.nearCode > 0 {
		s += 320 - 70*float64(e.nearCode)
	}
	if p := e.pattern; p.Weight > 0 {
		ps := 6 * float64(min(p.Weight, 80))
		if p.Full {
			ps += 60
		}
		if p.Corrected {
			ps *= 0.75
		}
		if p.Stripped {
			// Found without its client prefix: below the record whose
			// message is exactly that text (the server's).
			ps -= 15
		}
		s += ps
	}
	s += 100 * e.text
	if e.phrase {
		s += 25
	}
	s += 10 * e.bleve
	if e.project {
		s += 15
	}
	// Rounded so that float noise in bleve's scores does not decide
	// between records with equal evidence; see Index.before.
	e.score = round3(s)
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

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
	e.text = 0.5 * inAny / qIDF
	if msg.IDF > 0 {
		e.textLen += 0.25 * inMsg / msg.IDF
	}
	if code.IDF > 0 {
		e.textLen += 0.25 * inCode / code.IDF
	}
	e.text += e.textLen
	if len(a.words) >= 2 && strings.Contains(ix.t.MsgSeq(e.rec), a.phrase) {
		e.phrase = true
	}
}
