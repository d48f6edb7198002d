package index

import (
	"sort"
	"strings"
)

// The rank stage: []*evidence -> ranked []*evidence. Records are ordered
// by their evidence score; records of one error family that the query
// names with the same evidence are evened out first, so that the family's
// order (see before) decides between them.

// rank orders evs, best first.
func (ix *Index) rank(evs []*evidence) []*evidence {
	ix.evenSharedCodes(evs)
	sort.SliceStable(evs, func(i, j int) bool { return ix.before(evs[i], evs[j]) })
	return evs
}

// before orders ranked records: by score, and records with equal evidence
// (several records sharing the code or class that was asked for) by
// severity, then by the shorter slug, since records sharing a code tend to
// name the special cases with longer slugs ("lock-serialization-conflict"
// beside "serialization-conflict"), then by dataset order.
func (ix *Index) before(a, b *evidence) bool {
	if a.sortScore != b.sortScore {
		return a.sortScore > b.sortScore
	}
	ra, rb := ix.ds.Records[a.rec], ix.ds.Records[b.rec]
	if sa, sb := severityRank(ra.Severity), severityRank(rb.Severity); sa != sb {
		return sa > sb
	}
	if len(ra.Slug) != len(rb.Slug) {
		return len(ra.Slug) < len(rb.Slug)
	}
	return a.rec < b.rec
}

// evenSharedCodes sets sortScore. Records sharing a code or a class that
// the query matches with the same evidence apart from message length and
// bleve's length-normalized score are made equal, so that the shorter
// message does not win only for being shorter, and before's order among
// one error family applies.
func (ix *Index) evenSharedCodes(ranked []*evidence) {
	type key struct {
		class bool // a class name, else a code
		name  string
		core  float64
	}
	keys := make([][2]key, len(ranked))
	best := make(map[key]float64, 2*len(ranked))
	for i, e := range ranked {
		e.sortScore = e.score
		r := ix.ds.Records[e.rec]
		core := round3(e.score - 100*e.textLen - 10*e.bleve)
		keys[i] = [2]key{{false, NormalizeCode(r.ErrorCode), core}, {true, strings.ToLower(r.ErrorClass), core}}
		for _, k := range keys[i] {
			if k.name != "" && !strings.HasSuffix(k.name, ":") {
				best[k] = max(best[k], e.score)
			}
		}
	}
	for i, e := range ranked {
		for _, k := range keys[i] {
			if k.name != "" && !strings.HasSuffix(k.name, ":") {
				e.sortScore = max(e.sortScore, best[k])
			}
		}
	}
}

func severityRank(s string) int {
	switch strings.ToLower(s) {
	case "fatal", "critical", "panic":
		return 4
	case "error":
		return 3
	case "warning", "warn":
		return 2
	case "info", "notice":
		return 1
	}
	return 0
}
