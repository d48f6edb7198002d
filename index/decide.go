package index

import "github.com/errkb/errkb/index/internal/pattern"

// The decide stage: ranked []*evidence -> a confident match or none. A
// lookup redirects only when the first record's strongest evidence names
// one error and no other record's evidence is as strong.

// decide returns the first hit when it clearly identifies the error:
// its tier is tierCorrected or above, it is first in the ranking, and no
// other record has evidence of the same tier and strength or more. A code
// naming one record while the message found names another with more text
// is a conflict, not a match.
func (ix *Index) decide(a *candidates, ranked []*evidence) (*evidence, string) {
	if len(ranked) == 0 {
		return nil, ""
	}
	c := ranked[0]
	if outer := ix.logLineAround(c, ranked); outer != nil { // decide_logline.go
		c = outer
	}
	t1, s1 := ix.decisiveTier(a, c)
	if t1 < tierCorrected {
		return nil, ""
	}
	m1 := c.messageWeight()
	byMessage := t1 == tierPattern // the message found decides
	tied := []*evidence{c}
	for _, e := range a.found {
		if e == c || ix.wrapsFound(c, e) { // decide_logline.go
			continue
		}
		t, s := ix.decisiveTier(a, e)
		switch {
		case t > t1, t == t1 && s > s1:
			return nil, ""
		case t == t1 && s == s1 && (t != tierName || e.messageWeight() >= m1):
			// A shared code is told apart only by the message found
			// beside it ("code":40021 with the message of one of them),
			// and faces of one error by which of them is the error.
			tied = append(tied, e)
		case t1 >= tierName && t == tierPattern && e.pattern.Weight > c.pattern.Weight && !c.errCode:
			return nil, ""
		case t == t1 && t == tierName:
			byMessage = true
		}
	}
	if len(tied) > 1 {
		if c = ix.errorAmong(tied); c == nil {
			return nil, ""
		}
	}
	if byMessage && !c.errCode && (ix.insideAnother(c, a.u.segments, a.found) || !c.pattern.Whole && ix.heldAround(c, a.u.segments, ranked)) {
		return nil, ""
	}
	// The record's own err_code, keyed as a client prints it, names the
	// error whatever else the description fits (faces.go).
	if !c.errCode && ix.unexplained(a, c, t1, byMessage, ranked) { // decide_precision.go
		return nil, ""
	}
	reason := c.reason(t1)
	if t1 == tierName && m1 > 0 {
		reason += " and message"
	}
	return c, reason
}

// messageWeight is the literal text of the record's pattern found as typed,
// or 0 when that is too little to count.
func (e *evidence) messageWeight() int {
	if e.code == 2 || e.class == 2 {
		return 0 // the query is the name; its words are not a message
	}
	if p := e.pattern; !p.Corrected && (p.Bounded && p.Weight >= minPatternWeight || p.Whole && p.Weight >= pattern.MinWholeWeight) {
		return p.Weight
	}
	return 0
}

func (e *evidence) reason(tier int) string {
	switch tier {
	case tierID:
		return "id"
	case tierName:
		switch {
		case e.code > 0:
			return "code"
		case e.class > 0:
			return "class"
		}
		return "identifier"
	case tierPattern:
		if e.pattern.Whole {
			return "message"
		}
		return "message in text"
	case tierNearCode:
		return "near code"
	}
	return "corrected message"
}
