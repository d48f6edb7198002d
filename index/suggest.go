package index

import (
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
)

// Part of the answer: did-you-mean, proposed when nothing matched well.

// Suggestion is one "did you mean": a query to run instead, and the
// record it names when it is a near code or a near message.
type Suggestion struct {
	Text   string
	Record *errkb.Record
}

// maxSuggestions bounds the did-you-mean list.
const maxSuggestions = 5

// didYouMean proposes other queries. A query written like a code gets
// the codes and classes within a few edits of it; any other query with a
// corrected word gets the corrected text. When nothing matched well, the
// near codes and the messages of the hits sharing most words with the
// query follow.
func (ix *Index) didYouMean(a *candidates, ranked []*evidence) []Suggestion {
	weak := true
	if len(ranked) > 0 {
		t, _ := ranked[0].tier()
		weak = t < tierNearCode && ranked[0].text < 0.75 && !ranked[0].explainsQuery()
	}
	var out []Suggestion
	seen := map[string]bool{strings.ToLower(a.u.raw): true}
	add := func(s Suggestion) {
		k := strings.ToLower(s.Text)
		if len(out) < maxSuggestions && s.Text != "" && !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	codeLike := lex.LooksLikeCode(strings.TrimSpace(a.u.raw))
	if a.correctedText != "" && !codeLike {
		add(Suggestion{Text: a.correctedText})
	}
	if !weak && !codeLike {
		return out
	}
	near := a.near
	if a.nearLater != "" {
		near = ix.t.NearCodes(lex.CodeKeys(a.nearLater, a.u.chunks)...) // left to now: see nearCodes
	}
	for _, f := range near {
		for _, i := range ix.t.CodeKeys(f.Word) {
			r := ix.ds.Records[i]
			text := r.ErrorCode
			if strings.ToLower(r.ErrorClass) == f.Word {
				text = r.ErrorClass
			}
			add(Suggestion{Text: text, Record: r})
		}
	}
	if !weak {
		return out
	}
	for _, e := range ranked {
		if e.text >= 0.3 {
			r := ix.ds.Records[e.rec]
			add(Suggestion{Text: r.ErrorMessage, Record: r})
		}
	}
	return out
}

// explainsQuery reports whether every word of the query is in the
// record's message or names: "timeout" for ACCOUNT_TIMEOUT "timed out
// waiting for account" is a good match even though the message says it
// in other words, and near messages offered beside it only distract.
// e.explained() is coverOfQuery of this coverage (see textCover).
func (e *evidence) explainsQuery() bool { return e.explained()/coverOfQuery >= 0.999 }
