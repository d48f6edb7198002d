package index

import (
	"context"
	"crypto/sha256"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
)

// Tests of the decide stage over the real records: lines made so that a
// message of one record sits inside another record's text, where a lookup
// that trusts the message it found is confidently wrong. Each query has
// the set of records a confident answer may name; naming none is always
// allowed, since search then shows the candidates.

// tuningRecords are the records of the real-record suite in dir whose
// queries are in the tuning half (scripts/relevancequeries splits by the
// first bit of the SHA-256 of the id), with the index over all of them.
func tuningRecords(t *testing.T, dir string) (*Index, []*errkb.Record) {
	t.Helper()
	ix, _ := realRelevanceIndex(t, dir)
	var out []*errkb.Record
	for _, r := range ix.Dataset().Records {
		if sum := sha256.Sum256([]byte(r.ID)); sum[0]&1 == 0 {
			out = append(out, r)
		}
	}
	return ix, out
}

// adversarial is a line and the records a confident lookup may name.
type adversarial struct {
	kind, q string
	ok      []string // ids
}

// checkAdversarial looks every query up and fails on a confident answer
// outside its set; it returns how many queries of each kind ran.
func checkAdversarial(t *testing.T, ix *Index, qs []adversarial) map[string]int {
	t.Helper()
	ctx := context.Background()
	n := map[string]int{}
	wrong := 0
	for _, q := range qs {
		n[q.kind]++
		lr, err := ix.Lookup(ctx, q.q)
		if err != nil {
			t.Fatal(err)
		}
		if lr.Match != nil && !slices.Contains(q.ok, lr.Match.ID) {
			wrong++
			if wrong <= 20 {
				t.Errorf("%s: Lookup(%q) = %s %q (%s), want one of %v or none", q.kind, q.q, lr.Match.ID, lr.Match.ErrorMessage, lr.Reason, q.ok)
			}
		}
	}
	if wrong > 20 {
		t.Errorf("... %d confidently wrong lookups in all", wrong)
	}
	return n
}

// TestMessageInsideAnotherRecordsTemplate fills the one free hole of
// every template on the real records (a %v, %w, %s or {name} that prints
// any text, after literal text that pins the line's start) with the whole
// message of other records: "snapshot failed: {err}" holding "permission
// denied". The line is the template's error with the other as its cause,
// unless the dataset declares that wrap. A lookup may name the template's
// record or none, never the record whose message fills the hole, however
// much more literal text that message has.
func TestMessageInsideAnotherRecordsTemplate(t *testing.T) {
	ix, recs := realLookup(t)
	var outers, inners []*errkb.Record
	for _, r := range recs {
		if len(r.Wraps) == 0 && freeHole(r.ErrorMessage) >= 0 && !pattern.TemplatePieces(r.ErrorMessage)[0].Hole {
			outers = append(outers, r)
		}
		if isInner(r) {
			inners = append(inners, r)
		}
	}
	var qs []adversarial
	heavier := 0
	for _, w := range outers {
		for _, s := range inners {
			if unrelated(w, s) {
				line := fillHoles(w.ErrorMessage, s.ErrorMessage)
				qs = append(qs, adversarial{"filled hole", line, append([]string{w.ID}, exactly(recs, line)...)})
				qs = append(qs, adversarial{"filled hole, log line", "Error: reload config: " + line, append([]string{w.ID}, exactly(recs, line)...)})
				if literalWeight(s.ErrorMessage) > literalWeight(w.ErrorMessage)+minPatternWeight {
					heavier++
				}
			}
		}
	}
	n := checkAdversarial(t, ix, qs)
	if n["filled hole"] < 100 || heavier < 40 {
		t.Fatalf("only %d lines, %d of them with the inner message heavier; the rule needs more", n["filled hole"], heavier)
	}
	t.Logf("%d lines, %d with the inner message outweighing the template", len(qs), heavier)
}

// pickInners chooses, for the i-th outer template, n inner messages to
// fill it with: half of them among the heaviest, the rest by turn.
func pickInners(inners []*errkb.Record, w *errkb.Record, i, n int) []*errkb.Record {
	byWeight := slices.Clone(inners)
	sort.SliceStable(byWeight, func(a, b int) bool {
		return literalWeight(byWeight[a].ErrorMessage) > literalWeight(byWeight[b].ErrorMessage)
	})
	var out []*errkb.Record
	for k := 0; k < n && len(inners) > 0; k++ {
		if k%2 == 0 {
			out = append(out, byWeight[(i+k*5)%min(len(byWeight), 40)])
		} else {
			out = append(out, inners[(i*31+k*17)%len(inners)])
		}
	}
	return slices.DeleteFunc(out, func(r *errkb.Record) bool { return r == w })
}

// TestAdversarialLookups makes lines from the tuning half's records of
// both real-record suites that would make errkb confidently wrong if it
// trusted the first message it found:
//
//   - near duplicates: the same message raised in several places or
//     projects, or printed by a client with a "nats: " prefix and by the
//     server without it;
//   - prefixes, suffixes and middles: a message followed or preceded by
//     the next word of a longer message that holds it (a fragment of the
//     longer one);
//   - filled holes: a template's free hole filled with another record's
//     whole message;
//   - appended wraps: the message of a record another record wraps with
//     "%w: ...", followed by that record's text with a value, or a typo,
//     where the text is literal.
//
// A confident lookup must name a record whose message the line is
// (exactly, or as the longer message it is a fragment of), never the
// shorter message inside it.
func TestAdversarialLookups(t *testing.T) {
	for _, dir := range []string{realSuiteDefault, "../testdata/extractrelevance"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			ix, tune := tuningRecords(t, dir)
			all := ix.Dataset().Records
			qs := nearDuplicates(all, tune)
			qs = append(qs, extensionsOf(all, tune)...)
			qs = append(qs, appendedWraps(all, tune)...)
			var inners []*errkb.Record
			for _, r := range tune {
				if isInner(r) {
					inners = append(inners, r)
				}
			}
			for i, w := range tune {
				if len(w.Wraps) > 0 || freeHole(w.ErrorMessage) < 0 || pattern.TemplatePieces(w.ErrorMessage)[0].Hole {
					continue
				}
				for _, s := range pickInners(inners, w, i, 4) {
					if unrelated(w, s) {
						line := fillHoles(w.ErrorMessage, s.ErrorMessage)
						qs = append(qs, adversarial{"filled hole", line, append([]string{w.ID}, exactly(all, line)...)})
					}
				}
			}
			n := checkAdversarial(t, ix, distinct(qs, 1000))
			t.Logf("%d adversarial lines, run: %v", len(qs), n)
			n["extension of another"] = n["prefix of another"] + n["suffix of another"]
			for _, k := range []string{"near duplicate", "extension of another", "filled hole", "appended wrap"} {
				if n[k] < 5 {
					t.Errorf("only %d %q lines; the generator needs more", n[k], k)
				}
			}
		})
	}
}

// distinct drops repeated lines and keeps at most n lines of each kind,
// taken evenly, so the test runs in seconds.
func distinct(qs []adversarial, n int) []adversarial {
	seen := map[string]bool{}
	byKind := map[string][]adversarial{}
	var kinds []string
	for _, q := range qs {
		if !seen[q.q] {
			seen[q.q] = true
			if byKind[q.kind] == nil {
				kinds = append(kinds, q.kind)
			}
			byKind[q.kind] = append(byKind[q.kind], q)
		}
	}
	var out []adversarial
	for _, k := range kinds {
		ks := byKind[k]
		step := max(1, (len(ks)+n-1)/n)
		for i := 0; i < len(ks); i += step {
			out = append(out, ks[i])
		}
	}
	return out
}

// nearDuplicates are the messages of tune that another record prints too,
// alone or behind or without a "name: " prefix: alone, in a log line, and
// with the prefix added or taken away.
func nearDuplicates(all, tune []*errkb.Record) []adversarial {
	byBare := map[string][]*errkb.Record{}
	for _, r := range all {
		if isLiteral(r.ErrorMessage) {
			byBare[bareMessage(r.ErrorMessage)] = append(byBare[bareMessage(r.ErrorMessage)], r)
		}
	}
	var out []adversarial
	for _, r := range tune {
		if !isLiteral(r.ErrorMessage) || len(byBare[bareMessage(r.ErrorMessage)]) < 2 || lex.AlnumCount(bareMessage(r.ErrorMessage)) < pattern.MinWholeWeight {
			continue
		}
		bare := bareMessage(r.ErrorMessage)
		for _, q := range []string{r.ErrorMessage, bare, "nats: " + bare} {
			out = append(out, adversarial{"near duplicate", q, exactly(all, q)})
			out = append(out, adversarial{"near duplicate, log line", `level=error msg="request failed" err="reload: ` + q + `"`, exactly(all, q)})
		}
	}
	return out
}

// extensionsOf makes, for each literal message of tune that another
// literal message holds with more words, the fragment of the longer one
// that is the shorter message and the word next to it there.
func extensionsOf(all, tune []*errkb.Record) []adversarial {
	var literal []*errkb.Record
	words := map[*errkb.Record][]string{}
	for _, b := range all {
		if isLiteral(b.ErrorMessage) {
			literal = append(literal, b)
			words[b] = lex.Words(b.ErrorMessage)
		}
	}
	var out []adversarial
	for _, a := range tune {
		run := lex.Words(bareMessage(a.ErrorMessage))
		if !isLiteral(a.ErrorMessage) || lex.AlnumCount(a.ErrorMessage) < minPatternWeight {
			continue
		}
		for _, b := range literal {
			if b == a {
				continue
			}
			seq := words[b]
			for _, i := range runsOf(seq, run) {
				before, after := neighbours(seq, i, len(run))
				bare := strings.Join(run, " ")
				if after != "" && len(after) > 2 {
					q := bare + " " + after
					out = append(out, adversarial{"prefix of another", q, append([]string{b.ID}, exactly(all, q)...)})
				}
				if before != "" && len(before) > 2 && !strings.HasPrefix(b.ErrorMessage, before+": ") {
					q := before + " " + bare
					out = append(out, adversarial{"suffix of another", q, append([]string{b.ID}, exactly(all, q)...)})
				}
			}
		}
	}
	return out
}

// appendedWraps makes, for each record of tune that wraps another with
// "%w: text", the wrapped message followed by that text with a value in
// place of its last word, and with a typo in its longest word.
func appendedWraps(all, tune []*errkb.Record) []adversarial {
	byID := map[string]*errkb.Record{}
	for _, r := range all {
		byID[r.ID] = r
	}
	var out []adversarial
	for _, w := range tune {
		tail, ok := strings.CutPrefix(w.ErrorMessage, "%w: ")
		if len(w.Wraps) != 1 || !ok || byID[w.Wraps[0]] == nil || !isLiteral(byID[w.Wraps[0]].ErrorMessage) || !isLiteral(tail) {
			continue
		}
		inner := byID[w.Wraps[0]].ErrorMessage
		words := strings.Fields(tail)
		if len(words) < 3 {
			continue
		}
		value := strings.Join(words[:len(words)-1], " ") + " eu-west"
		longest := slices.MaxFunc(words, func(a, b string) int { return len(a) - len(b) })
		typo := strings.Replace(tail, longest, swapAt(longest, len(longest)/2), 1)
		for _, q := range []string{inner + ": " + value, inner + ": " + typo, "Error: " + inner + ": " + value} {
			out = append(out, adversarial{"appended wrap", q, []string{w.ID}})
		}
	}
	return out
}

// freeHole is the index of the one hole of a template that may print any
// text (%v, %w, %s, {name}), or -1 when it has none or more than one such.
func freeHole(msg string) int {
	at := -1
	for i, pc := range pattern.TemplatePieces(msg) {
		if pc.Hole && pattern.AnyText(pc.Lit) && pc.Lit != "%q" {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	if pattern.LooksLikeRegexp(msg) {
		return -1
	}
	return at
}

// fillHoles fills a template's free hole with text and its other holes
// with values of their kind.
func fillHoles(msg, text string) string {
	var b strings.Builder
	free := freeHole(msg)
	for i, pc := range pattern.TemplatePieces(msg) {
		switch {
		case !pc.Hole:
			b.WriteString(pc.Lit)
		case i == free:
			b.WriteString(text)
		default:
			b.WriteString(sampleValue(pc.Lit))
		}
	}
	return b.String()
}

func sampleValue(verb string) string {
	switch verb[len(verb)-1] {
	case 'd', 'i', 'u':
		return "7"
	case 'x', 'X':
		return "ff"
	case 'f', 'g', 'e':
		return "1.5"
	case 't':
		return "true"
	case 'q':
		return `"orders"`
	}
	return "orders"
}

// isInner reports whether r's message can fill another's hole in these
// tests: literal text enough to be found inside a line, and no digits,
// which a line may give as a code that names the record by itself.
func isInner(r *errkb.Record) bool {
	return isLiteral(r.ErrorMessage) && lex.AlnumCount(r.ErrorMessage) >= minPatternWeight && !strings.ContainsAny(r.ErrorMessage, "0123456789")
}

func isLiteral(msg string) bool {
	return msg != "" && !pattern.LooksLikeRegexp(msg) && !slices.ContainsFunc(pattern.TemplatePieces(msg), func(p pattern.Piece) bool { return p.Hole })
}

// literalWeight is the letters and digits of a template's literal text.
func literalWeight(msg string) int {
	n := 0
	for _, pc := range pattern.TemplatePieces(msg) {
		if !pc.Hole {
			n += lex.AlnumCount(pc.Lit)
		}
	}
	return n
}

// bareMessage is a message without a leading client prefix ("nats: ").
func bareMessage(msg string) string {
	if n := pattern.PrefixLen(msg); n > 0 && lex.AlnumCount(msg[n:]) >= pattern.MinWholeWeight {
		return msg[n:]
	}
	return msg
}

// unrelated reports whether neither message holds the other's text, so
// that the filled line is the outer error holding the inner one.
func unrelated(outer, inner *errkb.Record) bool {
	o, in := strings.ToLower(outer.ErrorMessage), strings.ToLower(inner.ErrorMessage)
	for _, pc := range pattern.TemplatePieces(o) {
		if !pc.Hole && lex.AlnumCount(pc.Lit) > 0 && strings.Contains(in, strings.TrimSpace(pc.Lit)) {
			return false
		}
	}
	return !strings.Contains(o, in)
}

// exactly lists the records whose message, or message pattern, is the
// whole of q, leaving out catch-alls ("{err}") that pin down too little
// to be evidence; when none is, those whose message is q without its
// client prefix (a client printing the server's error).
func exactly(recs []*errkb.Record, q string) []string {
	var out []string
	q = strings.Join(strings.Fields(q), " ")
	for _, m := range wholeMessages(recs) {
		if m.re.MatchString(q) {
			out = append(out, m.id)
		}
	}
	if bare := bareMessage(q); len(out) == 0 && bare != q {
		return exactly(recs, bare)
	}
	return out
}

type wholeMessage struct {
	id string
	re *regexp.Regexp
}

var wholeMessageCache sync.Map // first record -> []wholeMessage

// wholeMessages are the records' messages and patterns as regexps that
// match a whole text, compiled once per dataset.
func wholeMessages(recs []*errkb.Record) []wholeMessage {
	if v, ok := wholeMessageCache.Load(recs[0]); ok {
		return v.([]wholeMessage)
	}
	var out []wholeMessage
	for _, r := range recs {
		for _, m := range []string{r.ErrorMessage, r.MessagePattern} {
			if m == "" || pattern.LooksLikeRegexp(m) || literalWeight(m) < pattern.MinWholeWeight {
				continue
			}
			_, expr := pattern.Parse(m)
			if re, err := regexp.Compile(`(?is)^(?:` + expr + `)$`); err == nil {
				out = append(out, wholeMessage{r.ID, re})
			}
		}
	}
	wholeMessageCache.Store(recs[0], out)
	return out
}

// TestWhereAMessageSits checks the text tests the two rules read, on
// fictional records.
func TestWhereAMessageSits(t *testing.T) {
	spans := []struct {
		outer, inner, seg string
		want              bool
	}{
		{"snapshot failed: permission denied", "permission denied", "snapshot failed: permission denied", true},
		{"parse error: 'bad options for '", "bad options for 'keys'", "parse error: 'bad options for 'keys''", true},
		{"invalid subject", "subject filter 'x' for the source: invalid subject", "subject filter 'x' for the source: invalid subject", false},
		{"permission denied", "permission denied", "permission denied", false},
	}
	for _, c := range spans {
		if got := spansOver(c.outer, c.inner, []string{c.seg}); got != c.want {
			t.Errorf("spansOver(%q, %q) = %v, want %v", c.outer, c.inner, got, c.want)
		}
	}
	rec := func(id, msg string, wraps ...string) *errkb.Record {
		return &errkb.Record{ID: id, ErrorMessage: msg, Wraps: wraps}
	}
	inner := rec("a", "quota exceeded")
	conts := []struct {
		outer *errkb.Record
		text  string
		want  bool
	}{
		{rec("b", "%w: retry after the window closes", "a"), "quota exceeded: retry after the widnow closes", true},
		{rec("b", "%w: retry after the window closes", "a"), "Error: reload: quota exceeded", false},
		{rec("c", "daily quota exceeded for tenant %s"), "daily quota exceeded", true},
		{rec("c", "daily quota exceeded for tenant %s"), "request 7f3a91 quota exceeded", false},
		{rec("c", "daily quota exceeded for tenant %s"), "backup: quota exceeded", false},
		{rec("d", "nats: quota exceeded soon"), "nats: quota exceeded", false},
	}
	for _, c := range conts {
		before, after := continuations([]string{c.text}, inner)
		if got := continuedBy(before, after, c.outer, inner); got != c.want {
			t.Errorf("%q continued by %q: %v, want %v (words before %q, after %q)", c.text, c.outer.ErrorMessage, got, c.want, before, after)
		}
	}
	own := rec("e", "nats: quota exceeded")
	if before, after := continuations([]string{"nats: quota exceeded"}, own); len(before)+len(after) > 0 {
		t.Errorf("a message's own prefix counts as text going on from it: %q %q", before, after)
	}
}
