package index

import (
	"context"
	"strings"

	"github.com/errkb/errkb"
)

// Lookup: the pipeline's entry point for "which error is this?", the
// stages of Search followed by the decision, and the answer it gives.

// LookupResult is the answer to "which error is this?": Match is set only
// when one record clearly fits; Alternatives lists the candidates otherwise
// (and the runners-up when there is a match).
type LookupResult struct {
	Match  *errkb.Record
	Reason string // why Match was chosen: "id", "code", "class", "identifier", "message", "message in text", "near code", "corrected message"
	// Wrapped is the error a log line Match wraps in its last hole, found
	// in the text too (decide_logline.go), or nil.
	Wrapped      *errkb.Record
	Alternatives []Hit
	// DidYouMean proposes other queries when nothing matched well.
	DidYouMean []Suggestion
}

// maxAlternatives is how many candidates a lookup lists.
const maxAlternatives = 10

// Lookup identifies the record that text names. It ranks exactly as
// Search does, then answers with a Match only when the first hit's
// evidence is of a kind that identifies one error and no other record has
// evidence as strong (see evidence.tier). A wrong redirect is worse than
// none: a code shared by several records, two records whose patterns pin
// down as much text, or a query that only shares words with a message,
// all leave Match nil and list the candidates for the reader to choose.
func (ix *Index) Lookup(ctx context.Context, text string) (*LookupResult, error) {
	if strings.TrimSpace(text) == "" {
		return &LookupResult{}, nil
	}
	c, err := ix.candidates(ctx, understand(text), Query{Text: text}, rerankWindow) // understand.go, candidates.go
	if err != nil {
		return nil, err
	}
	ranked := ix.rank(ix.weigh(c))        // evidence.go, rank.go
	match, reason := ix.decide(c, ranked) // decide.go
	out := &LookupResult{Alternatives: ix.alternatives(c, ranked, match), DidYouMean: ix.didYouMean(c, ranked)}
	if match != nil {
		out.Match, out.Reason = ix.ds.Records[match.rec], reason
		out.Wrapped = ix.wrappedRecord(match, ranked)
	}
	return out, nil
}

// alternatives are the ranked records other than the match, highlighted.
// A name shared by several records (a code raised at several call sites)
// lists exactly those records, for the reader to choose from.
func (ix *Index) alternatives(c *candidates, ranked []*evidence, match *evidence) []Hit {
	onlyNamed := false
	if len(ranked) > 0 && match == nil {
		t, _ := ranked[0].tier()
		onlyNamed = t >= tierName
	}
	var out []Hit
	terms := markedWords(c)
	for _, e := range ranked {
		if e == match {
			continue
		}
		if t, _ := e.tier(); onlyNamed && t < tierName {
			continue
		}
		if len(out) == maxAlternatives {
			break
		}
		r := ix.ds.Records[e.rec]
		out = append(out, Hit{Record: r, Score: e.score, Highlights: marks(terms, r)})
	}
	return out
}
