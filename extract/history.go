package extract

import (
	"regexp"
	"slices"
	"strings"

	"github.com/errkb/errkb"
)

// Release is one analysed version of a module: its errors and the records
// made of them. Fold reads the errors for identity and the records for
// what a page shows.
type Release struct {
	Version string
	Errors  []Error
	Records []errkb.Record
}

// Fold fills the history of the newest release's records from the older
// ones, oldest first, and returns them with the records of errors the
// newest release no longer has, each as its last release had it, marked
// removed in the first analysed release without it.
//
// Errors are matched by identity only, never by likeness (see
// docs/extract.md, "Older versions"): the same Key (a named error's package
// and name; an unnamed one's package, kind and exact message), or, for an
// unnamed error whose wording changed, the same package, kind and
// function when that function makes exactly one unmatched such error in
// both releases.
func Fold(newest Release, older []Release) []errkb.Record {
	all := append(slices.Clone(older), newest)
	var tracks []*track
	byKey := map[string]*track{}
	for i := len(all) - 1; i >= 0; i-- {
		rel := all[i]
		recs := recordsByID(rel.Records)
		var unmatched []*Error
		seen := map[*track]bool{}
		for j := range rel.Errors {
			e := &rel.Errors[j]
			if t := byKey[e.Key()]; t != nil && !seen[t] {
				t.see(i, e, seen)
				continue
			}
			unmatched = append(unmatched, e)
		}
		for _, e := range unmatched {
			t := sameCode(tracks, e, unmatched, seen)
			if t != nil && e.Name != t.last.Name && !slices.Contains(t.rec.Aliases, e.Name) {
				t.rec.Aliases = append(t.rec.Aliases, e.Name) // the older name still names it
			}
			if t == nil {
				t = sameFunc(tracks, e, unmatched, seen)
			}
			if t == nil {
				r, ok := recs[RecordID(recOrigin(rel).Repo, e.Key())]
				if !ok {
					continue // an error without a record (none is dropped by Records)
				}
				t = &track{rec: r, newest: i}
				tracks = append(tracks, t)
			}
			byKey[e.Key()] = t
			t.see(i, e, seen)
		}
	}
	versions := make([]string, len(all))
	for i, r := range all {
		versions[i] = r.Version
	}
	return finish(tracks, versions)
}

// track is one error followed from the newest release it is in down to
// the oldest: its record (as that newest release has it) and the message
// of each release it was seen in, by release index.
type track struct {
	rec    errkb.Record
	newest int
	last   *Error // the error in the oldest release it was seen in so far
	msgs   map[int]string
}

func (t *track) see(i int, e *Error, seen map[*track]bool) {
	if t.msgs == nil {
		t.msgs = map[int]string{}
	}
	t.msgs[i] = e.Message
	if e.Kind == Type {
		// An error type's message is one branch of its Error(), which
		// one may change between versions without any wording changing
		// (crypto/x509's HostnameError, go1.21.13 to go1.26.8), so it is
		// not taken for an older wording.
		t.msgs[i] = t.rec.ErrorMessage
	}
	t.last = e
	seen[t] = true
}

// sameCode is the track a project's own API error continues under a new
// name: the one unseen API error of e's package with e's numeric code,
// when e is the only unmatched one with it too. The code is what clients
// see and the table states it, so a new name for it is the same error
// (nats-server v2.9.25's JSConsumerMaxRequestExpiresToSmall is v2.15.3's
// JSConsumerMaxRequestExpiresTooSmall, both 10115).
func sameCode(tracks []*track, e *Error, unmatched []*Error, seen map[*track]bool) *track {
	if e.Kind != API || e.Code == nil {
		return nil
	}
	same := func(o *Error) bool {
		return o.Kind == API && o.Package == e.Package && o.Code != nil && o.Code.Value == e.Code.Value
	}
	if countFunc(unmatched, same) != 1 {
		return nil
	}
	var found *track
	for _, t := range tracks {
		if seen[t] || !same(t.last) {
			continue
		}
		if found != nil {
			return nil
		}
		found = t
	}
	return found
}

// sameFunc is the track an unnamed error e continues under a new wording:
// the one unseen track of an unnamed error of e's package, kind and
// function, when e is the only unmatched error of that function too and
// the two wordings differ by one word at most, format verbs aside. The
// last condition is what keeps one function's one error from being taken
// for another it made before: nats.go v1.21.0's PublishMsgAsync returned
// only "nats: stalled with too many outstanding async published
// messages", v1.54.0's only "%w: retry attempts cannot be negative".
func sameFunc(tracks []*track, e *Error, unmatched []*Error, seen map[*track]bool) *track {
	fn := madeIn(e)
	if e.Name != "" || fn == "" {
		return nil
	}
	same := func(o *Error) bool {
		return o.Name == "" && o.Package == e.Package && o.Kind == e.Kind && madeIn(o) == fn
	}
	if n := countFunc(unmatched, same); n != 1 {
		return nil
	}
	var found *track
	for _, t := range tracks {
		if seen[t] || !same(t.last) || wordsApart(t.last.Message, e.Message) > 1 {
			continue
		}
		if found != nil {
			return nil
		}
		found = t
	}
	return found
}

func countFunc(errs []*Error, f func(*Error) bool) int {
	n := 0
	for _, e := range errs {
		if f(e) {
			n++
		}
	}
	return n
}

// madeIn is the function an unnamed error is made in: its own, or the one
// function of its only site (a log line, a protocol string); "" when that
// is not one function.
func madeIn(e *Error) string {
	if e.Func != "" {
		return e.Func
	}
	if len(e.Sites) == 1 {
		return e.Sites[0].Func
	}
	return ""
}

// verbRE matches a format verb with its flags, width and argument index.
var verbRE = regexp.MustCompile(`%[-+# 0-9.*\[\]]*[a-zA-Z%]`)

// wordsApart is how many words (inserted, deleted or replaced) two
// messages differ by, with every format verb taken as the same word.
func wordsApart(a, b string) int {
	x := strings.Fields(verbRE.ReplaceAllString(a, "%v"))
	y := strings.Fields(verbRE.ReplaceAllString(b, "%v"))
	prev := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := range x {
		cur := make([]int, len(y)+1)
		cur[0] = i + 1
		for j := range y {
			sub := prev[j]
			if x[i] != y[j] {
				sub++
			}
			cur[j+1] = min(sub, prev[j+1]+1, cur[j]+1)
		}
		prev = cur
	}
	return prev[len(y)]
}

// recOrigin is the origin Records gave a release's records: their repo.
func recOrigin(rel Release) Origin {
	if len(rel.Records) == 0 {
		return Origin{}
	}
	return Origin{Repo: rel.Records[0].Repo}
}

func recordsByID(recs []errkb.Record) map[string]errkb.Record {
	m := make(map[string]errkb.Record, len(recs))
	for _, r := range recs {
		m[r.ID] = r
	}
	return m
}

// finish writes each track's history on its record: the newest release's
// records first, as they were, then the removed ones, each by slug.
func finish(tracks []*track, versions []string) []errkb.Record {
	newest := len(versions) - 1
	var cur, removed []*track
	for _, t := range tracks {
		t.rec.History = history(t, versions)
		if t.newest < newest {
			t.rec.History.RemovedIn = versions[t.newest+1]
			removed = append(removed, t)
			continue
		}
		cur = append(cur, t)
	}
	bySlug := func(a, b *track) int { return strings.Compare(a.rec.Slug, b.rec.Slug) }
	slices.SortFunc(cur, bySlug)
	slices.SortFunc(removed, bySlug)
	used, ids := map[string]bool{}, map[string]bool{}
	var out []errkb.Record
	for _, t := range append(cur, removed...) {
		r := t.rec
		if used[r.Slug] { // a later error took the slug: this one's last version tells them apart
			r.Slug += "-" + strings.ReplaceAll(versions[t.newest], ".", "-")
		}
		used[r.Slug], ids[r.ID] = true, true
		out = append(out, r)
	}
	for i := range out { // a removed error's links name only records that are kept
		out[i].Wraps = keep(out[i].Wraps, ids)
		out[i].WrappedBy = keep(out[i].WrappedBy, ids)
	}
	return out
}

// history is a track's versions: the oldest analysed release it is in,
// each earlier wording with the releases that used it (oldest first), and
// the first release of the wording its newest release has.
func history(t *track, versions []string) *errkb.History {
	h := &errkb.History{OldestAnalyzed: versions[0]}
	now := t.msgs[t.newest]
	since := t.newest
	for i := range versions {
		m, ok := t.msgs[i]
		if !ok {
			continue
		}
		if h.FirstVersion == "" {
			h.FirstVersion = versions[i]
		}
		if m == now {
			continue
		}
		j := slices.IndexFunc(h.Messages, func(o errkb.OldMessage) bool { return o.Message == m })
		if j < 0 {
			h.Messages = append(h.Messages, errkb.OldMessage{Message: m})
			j = len(h.Messages) - 1
		}
		h.Messages[j].Versions = append(h.Messages[j].Versions, versions[i])
	}
	for i := t.newest; i >= 0; i-- { // back from the newest, while the wording is today's
		m, ok := t.msgs[i]
		if !ok {
			continue
		}
		if m != now {
			break
		}
		since = i
	}
	if len(h.Messages) > 0 {
		h.MessageSince = versions[since]
	}
	return h
}

// keep is the ids of list that are in ids.
func keep(list []string, ids map[string]bool) []string {
	return slices.DeleteFunc(slices.Clone(list), func(id string) bool { return !ids[id] })
}
