package index

import (
	"context"
	"slices"
	"strings"

	"github.com/errkb/errkb"
)

// LookupLine answers Lookup's question for text a program wrote, such as
// a log line, at the rate logs arrive. A log line's message is printed by
// the program, so it is never misspelt: the typo correction Lookup does for
// what people type is skipped, and with it most of the cost. The text
// search is skipped as well whenever the tables' evidence alone decides.

// textOnlyCeiling is the highest sortScore a record found by text search
// alone can reach: full word cover, a phrase, bleve's whole relevance and
// its project named (see computeScore), raised by evenSharedCodes at most
// to the score of a record sharing its code with the same core, which
// adds at most the cover of the message and names it holds. A record
// with evidence scoring above it stays first after the text search, so
// the evidence decides alone.
const textOnlyCeiling = weightText + weightPhrase + weightBleve + weightProject + weightText*(coverOfMessage+coverOfNames)

// LookupLine returns the record that text, a line a program wrote,
// clearly names, and the reason, as Lookup would: it never names a record Lookup
// would not, and names the same one whenever Lookup's reason is not a
// corrected typo. It runs the pipeline's candidates stage on the lookup
// tables alone, then evidence, rank and decide as Lookup does, and runs
// the text search (the full Lookup) only when the evidence alone does not
// decide. It returns nil when no record clearly matches.
//
// Typos are corrected only for a line that names a record as written and
// holds a word the vocabulary does not know: Lookup corrects that word,
// and a message the correction completes may contest the match ("invalid
// mapping destination: functon argument ..." completes the message of the
// record wrapping "invalid mapping destination"). Most lines of a log
// name no record, and for them the corrections, the cost, are skipped.
func (ix *Index) LookupLine(ctx context.Context, text string) (*errkb.Record, string, error) {
	if strings.TrimSpace(text) == "" {
		return nil, "", nil
	}
	u := understand(text)
	m, reason, decided := ix.decideByTables(u, 0)
	if decided && m != nil && slices.ContainsFunc(u.words, func(w string) bool { return !ix.t.Words().Known(w) }) {
		m, reason, decided = ix.decideByTables(u, maxCorrections)
	}
	if !decided {
		// A record found by its words alone might come first: only the
		// full lookup can tell.
		res, err := ix.Lookup(ctx, text)
		if err != nil || res.Match == nil || res.Reason == "corrected message" {
			return nil, "", err
		}
		return res.Match, res.Reason, nil
	}
	if m == nil || reason == "corrected message" {
		return nil, "", nil
	}
	return ix.ds.Records[m.rec], reason, nil
}

// decideByTables decides u on the lookup tables' evidence, correcting
// at most corrections words. decided is false when a record found by
// text search alone could come first, which only Lookup can tell.
func (ix *Index) decideByTables(u *understood, corrections int) (m *evidence, reason string, decided bool) {
	c := ix.tableCandidates(u, corrections)
	evs := make([]*evidence, 0, len(c.found))
	best := tierNone
	for _, e := range c.found {
		t, _ := e.tier()
		best = max(best, t)
		evs = append(evs, e)
	}
	if best < tierCorrected {
		return nil, "", true // Lookup's confidence needs at least this tier
	}
	for _, e := range evs {
		ix.complete(c, e) // as weigh completes a record the tables found
	}
	ranked := ix.rank(evs)
	if len(ranked) > maxEvidenceDocs || ranked[0].sortScore <= textOnlyCeiling {
		return nil, "", false
	}
	m, reason = ix.decide(c, ranked)
	if m != nil && ix.mayBeHeld(m, c.u) {
		// A record that holds this message and goes on from it as the
		// text does may be found by text search alone (see heldAround).
		return nil, "", false
	}
	return m, reason, true
}
