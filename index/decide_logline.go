package index

import (
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
)

// Part of the decide stage: a pasted log line that holds a wrapped error
// ("[WRN] Consumer create failed for 'ACC > ORDERS > proc': insufficient
// resources") is the log record's, whose last hole the error fills; the
// error it wraps is listed beside it. The error's message is the text of
// an error, not values of the user's own, and says nothing against the
// log record that holds it.

// wrappedTail is the longest record found whose message ends the text
// that c, a log record whose message ends in a hole, was found in: the
// error the log line wraps. It is nil when there is none.
func (ix *Index) wrappedTail(c *evidence, found map[int32]*evidence) *evidence {
	var best *evidence
	for _, e := range found {
		if ix.wrapsFound(c, e) && (best == nil || len(e.pattern.Text) > len(best.pattern.Text)) {
			best = e
		}
	}
	return best
}

// wrapsFound reports whether e's message, found as typed, ends the text
// that c, a log record whose message ends in a hole, was found in: the
// log line holds e's error in its last hole.
func (ix *Index) wrapsFound(c, e *evidence) bool {
	r := ix.ds.Records[c.rec]
	if e == c || r.Surface != errkb.SurfaceLog || c.pattern.Corrected || e.pattern.Corrected || e.pattern.Weight < minPatternWeight {
		return false
	}
	text := e.pattern.Text
	if text == "" || len(text) >= len(c.pattern.Text) || !strings.HasSuffix(c.pattern.Text, text) || !endsInHole(r) {
		return false
	}
	t, _ := e.tier()
	return t == tierPattern
}

// endsInHole reports whether r's message ends with a hole: what fills it
// is the rest of the line.
func endsInHole(r *errkb.Record) bool {
	tmpl := r.MessagePattern
	if tmpl == "" {
		tmpl = r.ErrorMessage
	}
	pieces := pattern.TemplatePieces(tmpl)
	return len(pieces) > 0 && pieces[len(pieces)-1].Hole
}

// wrappedLetters is how many letters of c's text the error it wraps
// spells (see wrappedTail).
func (ix *Index) wrappedLetters(c *evidence, found map[int32]*evidence) int {
	if e := ix.wrappedTail(c, found); e != nil {
		return lex.AlnumCount(e.pattern.Text)
	}
	return 0
}

// wrappedRecord is the first ranked record whose error the log record of
// c wraps (see wrapsFound), or nil.
func (ix *Index) wrappedRecord(c *evidence, ranked []*evidence) *errkb.Record {
	for _, e := range ranked {
		if ix.wrapsFound(c, e) {
			return ix.ds.Records[e.rec]
		}
	}
	return nil
}

// logLineAround is the first ranked log record whose last hole holds c's
// error (see wrapsFound), or nil: the text is that log line, not the
// error alone.
func (ix *Index) logLineAround(c *evidence, ranked []*evidence) *evidence {
	for _, e := range ranked {
		if ix.wrapsFound(e, c) {
			return e
		}
	}
	return nil
}
