package index

import (
	"sort"
	"strings"

	"github.com/errkb/errkb/index/internal/lex"
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
		class  bool   // a class name, else a code
		family uint32 // see families
		core   float64
	}
	fam := ix.families()
	keys := make([][2]key, len(ranked))
	best := make(map[key]float64, 2*len(ranked))
	for i, e := range ranked {
		e.sortScore = e.score
		core := round3(e.score - weightText*e.textLen - weightBleve*e.bleve)
		keys[i] = [2]key{{false, fam.code[e.rec], core}, {true, fam.class[e.rec], core}}
		for _, k := range keys[i] {
			if k.family != 0 {
				best[k] = max(best[k], e.score)
			}
		}
	}
	for i, e := range ranked {
		for _, k := range keys[i] {
			if k.family != 0 {
				e.sortScore = max(e.sortScore, best[k])
			}
		}
	}
}

// families numbers the error families of the records: records whose
// codes NormalizeCode spells alike share a code number, records whose
// classes are equal but for case a class number; 0 is none (no code, or a
// prefix ending in ":"). evenSharedCodes keys the ranked records by these
// numbers instead of building two strings for each of them per query.
// Made on the first ranking (a few hundredths of a second and 0.8 MB at
// 100,000 records).
type families struct{ code, class []uint32 }

func (ix *Index) families() *families {
	ix.familiesOnce.Do(func() {
		n := len(ix.ds.Records)
		f := &families{code: make([]uint32, n), class: make([]uint32, n)}
		codes, classes := map[string]uint32{}, map[string]uint32{}
		number := func(m map[string]uint32, name string) uint32 {
			if name == "" || strings.HasSuffix(name, ":") {
				return 0
			}
			id, ok := m[name]
			if !ok {
				id = uint32(len(m) + 1)
				m[name] = id
			}
			return id
		}
		for i, r := range ix.ds.Records {
			f.code[i] = number(codes, lex.NormalizeCode(r.ErrorCode))
			f.class[i] = number(classes, strings.ToLower(r.ErrorClass))
		}
		ix.fam = f
	})
	return ix.fam
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
