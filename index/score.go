package index

import (
	"math"

	"github.com/errkb/errkb/index/internal/pattern"
)

// The evidence one query gives about one record: what each part of it is
// worth (its score, which ranking orders by) and how strong its strongest
// part is (its tier, which the decision and the answer read). It is no
// stage but what the stages pass along: the candidates stage fills in
// what the tables say (names, patterns), the evidence stage what the
// words say, and the later stages read it. The weights are declared here
// once, for every stage that needs to know what a part can add (the word
// postings' cut-offs, the ceiling of a record found by text alone,
// ranking's evening out).

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
	// errCode: the query gives the record's own numeric code where a
	// code goes (under a code key, in brackets, or alone), and the
	// record is the error the code belongs to (see Index.errorOf). It
	// decides: the message of a wrapper around it ("nats: API error:
	// code=500 err_code=10119 ...") names no other error.
	errCode   bool
	nearCode  int // edits between the query and the record's code or class; 0: not near
	pattern   pattern.Hit
	text      float64 // 0..1: how well query and message words cover each other
	textLen   float64 // the part of text that measures how much of the message the query holds
	phrase    bool    // the query's words occur in this order in the message
	bleve     float64 // 0..1: bleve's relevance over all fields, for prose matches
	project   bool    // the query names the record's project ("nwcache[311]: ...")
	score     float64
	sortScore float64 // score, evened out among records sharing a code; see evenSharedCodes
}

// The weights of the evidence that text gives, which stages other than
// computeScore reason about: what a record found by its words alone can
// score (see textOnlyCeiling and coverDecides) and which part of a score
// is word cover (see evenSharedCodes).
const (
	weightText    = 100.0 // word cover, 0..1 (see textCover)
	weightPhrase  = 25.0  // the query's words in the message's order
	weightBleve   = 10.0  // bleve's relevance, 0..1 over the hits
	weightProject = 15.0  // the query names the record's project
)

// weightErrCode is what an error's own numeric code, given where a code
// goes, adds: more than the most a message pattern can (6*80+60), so the
// error ranks above a face of it whose message holds the code
// ("nats: API error: code=500 err_code=10012 ...").
const weightErrCode = 550.0

// The parts of the word cover (see textCover), which sum to 1: how much
// of the query the record's message and names explain, how much of the
// message the query holds, and how much of the names.
const (
	coverOfQuery   = 0.5
	coverOfMessage = 0.25
	coverOfNames   = 0.25
)

// computeScore weighs the evidence. The tiers are far apart on purpose: naming
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
	if e.errCode {
		s += weightErrCode
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
	s += weightText * e.text
	if e.phrase {
		s += weightPhrase
	}
	s += weightBleve * e.bleve
	if e.project {
		s += weightProject
	}
	// Rounded so that float noise in bleve's scores does not decide
	// between records with equal evidence; see Index.before.
	e.score = round3(s)
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// Evidence tiers, weakest first. Only tierCorrected and above can make a
// lookup confident.
const (
	tierNone = iota
	tierText
	tierCorrected // the message, found after correcting typos
	tierNearCode  // a code or class a letter or two away
	tierPattern   // the message, found as typed
	tierName      // the record's code, class or a code identifier
	tierID        // the record's id
)

// minPatternWeight is how many literal letters a pattern must pin down to
// identify a record inside a longer text; shorter ones ("not found")
// occur by chance. A pattern that is the whole query needs fewer
// (pattern.MinWholeWeight); one found only after correcting typos, more.
const (
	minPatternWeight   = 10
	minCorrectedWeight = 12
)

// tier ranks the strongest evidence for one record, with a strength that
// orders records within the tier.
func (e *evidence) tier() (tier, strength int) {
	p := e.pattern
	switch {
	case e.id:
		return tierID, 0
	case e.code > 0 || e.class > 0 || e.keyedIdent:
		// Naming the record by code and class at once is stronger than by
		// either: a JSON log's "type" may be a shared class while its
		// "code" is the record's own. An identifier only this record uses
		// ("zip.ErrChecksum" beside zlib's ErrChecksum) adds to either.
		return tierName, e.code + e.class + boolInt(e.keyedIdent)
	case p.Weight > 0 && !p.Corrected && (p.Bounded && p.Weight >= minPatternWeight || p.Whole && p.Weight >= pattern.MinWholeWeight):
		// A message found as typed is stronger found with its client
		// prefix than without.
		return tierPattern, 2*p.Weight + boolInt(!p.Stripped)
	case e.nearCode > 0:
		return tierNearCode, -e.nearCode
	case p.Corrected && p.Weight >= minCorrectedWeight:
		return tierCorrected, p.Weight
	case e.text > 0:
		return tierText, 0
	}
	return tierNone, 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// explained is the part of the word cover that measures how much of the
// query the record's message and names explain (see textCover).
func (e *evidence) explained() float64 { return e.text - e.textLen }
