package index

import (
	"context"
	"sort"
	"strings"

	"github.com/errkb/errkb"
)

// This file answers Lookup's question for text a program wrote, such as a
// log line, at the rate logs arrive. A log line's message is printed by
// the program, so it is never misspelt: the typo correction Lookup does for
// what people type is skipped, and with it most of the cost. The text
// search is skipped as well whenever the evidence alone decides.

// textOnlyCeiling is the highest sortScore a record found by text search
// alone can reach: 100 for word cover, 25 for a phrase, 10 for bleve's
// score and 15 for naming the project (see computeScore), raised by
// evenSharedCodes at most to the score of a record sharing its code with
// the same core, which adds at most 50 for the message length it covers.
// A record with evidence scoring above it stays first after the text
// search, so the evidence decides alone.
const textOnlyCeiling = 100 + 25 + 10 + 15 + 50

// Identify returns the record that text, a line a program wrote, clearly
// names, and the reason, as Lookup would: it never names a record Lookup
// would not. It leaves out what Lookup finds only by correcting typos, and
// it runs the text search only when the evidence alone does not decide.
// It returns nil when no record clearly matches.
func (ix *Index) Identify(ctx context.Context, text string) (*errkb.Record, string, error) {
	if strings.TrimSpace(text) == "" {
		return nil, "", nil
	}
	a := ix.analyzeUpTo(understand(text), 0)
	ranked := make([]*evidence, 0, len(a.ev))
	best := tierNone
	for _, e := range a.ev {
		t, _ := e.tier()
		best = max(best, t)
		ranked = append(ranked, e)
	}
	if best < tierCorrected {
		return nil, "", nil // Lookup's confidence needs at least this tier
	}
	for _, e := range ranked {
		ix.textCover(a, e)
		e.project = a.projects[strings.ToLower(ix.ds.Records[e.rec].Repo)]
		e.computeScore()
	}
	ix.evenSharedCodes(ranked)
	sort.SliceStable(ranked, func(i, j int) bool { return ix.before(ranked[i], ranked[j]) })
	if len(ranked) > maxEvidenceDocs || ranked[0].sortScore <= textOnlyCeiling {
		// A record found by its words alone might come first: only the
		// full lookup can tell.
		res, err := ix.Lookup(ctx, text)
		if err != nil || res.Match == nil || res.Reason == "corrected message" {
			return nil, "", err
		}
		return res.Match, res.Reason, nil
	}
	m, reason := ix.confident(a, ranked)
	if m == nil {
		return nil, "", nil
	}
	return ix.ds.Records[m.rec], reason, nil
}
