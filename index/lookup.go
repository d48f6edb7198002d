package index

import (
	"context"
	"strings"

	"github.com/errkb/errkb"
)

// LookupResult is the answer to "which error is this?": Match is set only
// when one record clearly fits; Alternatives lists the candidates otherwise
// (and the runners-up when there is a match).
type LookupResult struct {
	Match        *errkb.Record
	Reason       string // why Match was chosen: "id", "code", "class", "message", "message in text"
	Alternatives []Hit
}

// minContainedMessage is the shortest message that counts as found inside a
// longer text; shorter ones ("bad request") occur by chance.
const minContainedMessage = 12

// Lookup identifies the record that q names. A wrong redirect is worse than
// none, so it only answers with a Match when the evidence is unambiguous:
// an exact id; a code, class or whole message that belongs to exactly one
// record; or a text that contains one record's full message, longer than
// any other contained message. Anything else leaves Match nil and lists the
// best search hits, so the reader chooses.
func (ix *Index) Lookup(ctx context.Context, text string) (*LookupResult, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return &LookupResult{}, nil
	}
	if r, ok := ix.ds.ByID(text); ok {
		return &LookupResult{Match: r, Reason: "id"}, nil
	}
	for _, c := range []struct {
		reason string
		recs   []*errkb.Record
	}{
		{"code", ix.byCode[NormalizeCode(text)]},
		{"class", ix.byClass[strings.ToLower(text)]},
		{"message", ix.byMsg[normalizeText(text)]},
	} {
		switch len(c.recs) {
		case 0:
			continue
		case 1:
			return &LookupResult{Match: c.recs[0], Reason: c.reason}, nil
		default:
			return &LookupResult{Alternatives: asHits(c.recs)}, nil
		}
	}

	res, err := ix.Search(ctx, Query{Text: text, Limit: 10})
	if err != nil {
		return nil, err
	}
	out := &LookupResult{Alternatives: res.Hits}
	if r := containedMessage(text, res.Hits); r != nil {
		out.Match, out.Reason = r, "message in text"
		out.Alternatives = without(res.Hits, r)
	}
	return out, nil
}

// containedMessage returns the record among hits whose full message occurs
// in text, if exactly one has the longest such message.
func containedMessage(text string, hits []Hit) *errkb.Record {
	norm := normalizeText(text)
	var best *errkb.Record
	bestLen, tie := 0, false
	for _, h := range hits {
		m := normalizeText(h.Record.ErrorMessage)
		if len(m) < minContainedMessage || !strings.Contains(norm, m) {
			continue
		}
		switch {
		case len(m) > bestLen:
			best, bestLen, tie = h.Record, len(m), false
		case len(m) == bestLen:
			tie = true
		}
	}
	if tie {
		return nil
	}
	return best
}

func asHits(recs []*errkb.Record) []Hit {
	hits := make([]Hit, len(recs))
	for i, r := range recs {
		hits[i] = Hit{Record: r}
	}
	return hits
}

func without(hits []Hit, r *errkb.Record) []Hit {
	out := make([]Hit, 0, len(hits))
	for _, h := range hits {
		if h.Record != r {
			out = append(out, h)
		}
	}
	return out
}
