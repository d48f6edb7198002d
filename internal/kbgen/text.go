package kbgen

import (
	"math/rand/v2"
	"strings"
	"time"

	"github.com/errkb/errkb"
)

// context carries the values substituted into templates for one record.
// verb, field and comment are re-drawn per filler chunk for variety.
type context struct {
	subj, plural, pascalSubj, fn, fnExported, class, code string
	cli, cfg, phrase, pkg, recv, indent                   string
	verb, field, comment                                  string
	uses                                                  [32]uint8 // filler chunk uses in the current snippet
}

// famConfig names the config key each family's prose points at.
var famConfig = [...]string{
	famNotFound: "auto_create", famConflict: "lock_ttl", famTimeout: "request_timeout",
	famLimit: "max_per_account", famValidation: "strict_mode", famAuth: "token_ttl",
	famUnavailable: "failover_timeout", famIntegrity: "verify_checksums",
	famState: "ready_timeout", famIO: "retention", famCompat: "min_client_version",
	famResource: "pool_size",
}

func newContext(pr *project, subj, plural string, cond *condition, class, code string, r *rand.Rand) *context {
	verb := pick(r, verbs)
	c := &context{
		subj: subj, plural: plural, pascalSubj: pascal(subj), class: class, code: code,
		cli: pr.name, cfg: subj + "." + famConfig[cond.family], phrase: cond.phrase,
		pkg: pr.name, recv: subj[:1], indent: langs[pr.lang].indent,
		verb: verb, field: pick(r, fields), comment: pick(r, comments),
	}
	if pr.lang == langPython || pr.lang == langRust {
		c.fn = verb + "_" + subj
	} else {
		c.fn = verb + c.pascalSubj
	}
	c.fnExported = pascal(verb) + c.pascalSubj
	return c
}

// lookup resolves a template key; ok is false for text that merely looks
// like a key, such as Rust format arguments or Python f-string fields.
func (c *context) lookup(key string) (string, bool) {
	switch key {
	case "S", "var":
		return c.subj, true
	case "Sp":
		return c.plural, true
	case "Subj":
		return c.pascalSubj, true
	case "fn":
		return c.fn, true
	case "Fn":
		return c.fnExported, true
	case "Class":
		return c.class, true
	case "code":
		return c.code, true
	case "cli":
		return c.cli, true
	case "cfg":
		return c.cfg, true
	case "phrase":
		return c.phrase, true
	case "pkg":
		return c.pkg, true
	case "recv":
		return c.recv, true
	case "verb":
		return c.verb, true
	case "Verb":
		return pascal(c.verb), true
	case "field":
		return c.field, true
	case "Field":
		return pascal(c.field), true
	case "FIELD":
		return strings.ToUpper(c.field), true
	case "comment":
		return c.comment, true
	}
	return "", false
}

// appendExpanded appends tmpl with keys substituted and tabs replaced by
// the language indent.
func (c *context) appendExpanded(dst []byte, tmpl string) []byte {
	for i := 0; i < len(tmpl); i++ {
		switch ch := tmpl[i]; ch {
		case '\t':
			dst = append(dst, c.indent...)
		case '{':
			if end := strings.IndexByte(tmpl[i+1:], '}'); end > 0 && end < 12 {
				if v, ok := c.lookup(tmpl[i+1 : i+1+end]); ok {
					dst = append(dst, v...)
					i += end + 1
					continue
				}
			}
			dst = append(dst, ch)
		default:
			dst = append(dst, ch)
		}
	}
	return dst
}

func (c *context) expand(tmpl string) string {
	return string(c.appendExpanded(make([]byte, 0, len(tmpl)+64), tmpl))
}

// fill appends exactly n lines of filler code, each terminated by '\n'.
// To read like real code it avoids blank lines at the edges, repeating the
// previous chunk, and using a multi-line or declaring chunk twice in one
// snippet.
func (c *context) fill(dst []byte, r *rand.Rand, l *lang, n int) []byte {
	verb, field, comment := c.verb, c.field, c.comment
	defer func() { c.verb, c.field, c.comment = verb, field, comment }()
	uses := &c.uses
	prev := -1
	for tries := 0; n > 0; tries++ {
		ci := r.IntN(len(l.fillers))
		chunk := l.fillers[ci]
		lines := strings.Count(chunk, "\n") + 1
		blank := chunk == ""
		limit := uint8(3)
		if lines > 1 || declares(chunk) {
			limit = 1
		}
		if lines > n || (blank && (prev < 0 || l.fillers[prev] == "" || n == 1)) ||
			(tries < 200 && (ci == prev || uses[ci] >= limit)) {
			continue
		}
		uses[ci]++
		prev, tries = ci, 0
		c.verb, c.field, c.comment = pick(r, verbs), pick(r, fields), pick(r, comments)
		dst = c.appendExpanded(dst, chunk)
		dst = append(dst, '\n')
		n -= lines
	}
	return dst
}

// declares reports whether a filler chunk introduces a variable, which
// must not happen twice in one scope.
func declares(chunk string) bool {
	return strings.Contains(chunk, ":=") || strings.Contains(chunk, "const ") ||
		strings.Contains(chunk, "let ") || strings.Contains(chunk, " = ")
}

// sample returns k distinct expanded, capitalized entries of list.
func (c *context) sample(r *rand.Rand, list []string, k int) []string {
	k = min(k, len(list))
	out := make([]string, 0, k)
	for _, j := range r.Perm(len(list))[:k] {
		out = append(out, capitalize(c.expand(list[j])))
	}
	return out
}

var raiseVerb = [...]string{langGo: "returned", langPython: "raised", langTS: "thrown", langRust: "returned"}

// prose fills the Markdown and advice fields of rec.
func (g *Generator) prose(rec *errkb.Record, r *rand.Rand, c *context, cond *condition, pr *project) {
	fam := &families[cond.family]
	var b strings.Builder
	b.Grow(1024)
	b.WriteString("`" + rec.ErrorCode + "` is " + raiseVerb[pr.lang] + " by `" + c.fn + "` in `" + rec.FilePath +
		"` when the " + c.subj + " is " + cond.phrase + ". ")
	b.WriteString(c.expand(fam.doc[0]) + " " + c.expand(fam.doc[1]))
	b.WriteString("\n\nThe message reads `" + rec.ErrorMessage + "`; match on the code, not the text.\n\n**Typical causes:**\n\n")
	for _, s := range c.sample(r, fam.causes, 3) {
		b.WriteString("- " + s + "\n")
	}
	if r.IntN(100) < 40 {
		b.WriteString("\nSee the [" + c.subj + " guide](https://docs." + pr.owner + ".example/" + pr.name + "/" +
			c.subj + "#" + cond.slug + ") for the full recovery procedure.\n")
	}
	if rec.Severity == "warning" || rec.Severity == "info" {
		b.WriteString("\n> Reported at `" + rec.Severity + "` severity: the operation continues, but results may be incomplete.\n")
	}
	rec.Documentation = strings.TrimSuffix(b.String(), "\n")
	rec.TriggerScenarios = joinClauses(c.sample(r, fam.causes, 3))
	rec.CommonSituations = joinClauses(c.sample(r, fam.situations, 3))
	total := 3 + r.IntN(3)
	fromFam := min(total, 2+r.IntN(3))
	rec.Solutions = append(c.sample(r, fam.solutions, fromFam), c.sample(r, genericSolutions, total-fromFam)...)
	total = 3 + r.IntN(3)
	fromFam = min(total, 2+r.IntN(2))
	rec.PreventionTips = append(c.sample(r, fam.tips, fromFam), c.sample(r, genericTips, total-fromFam)...)
}

// pickTags returns 3-6 distinct tags from the vocabulary, always including
// the subject and condition so tag facets are meaningful.
func (g *Generator) pickTags(r *rand.Rand, subj string, cond *condition, langName string) []string {
	n := 3 + r.IntN(4)
	tags := make([]string, 0, n)
	tags = append(tags, subj, cond.slug)
	if r.IntN(2) == 0 {
		tags = append(tags, langName)
	}
	for len(tags) < n {
		t := pick(r, g.tags)
		dup := false
		for _, have := range tags {
			dup = dup || have == t
		}
		if !dup {
			tags = append(tags, t)
		}
	}
	return tags
}

// tagVocabulary lists every tag a record may carry, in a fixed order.
func tagVocabulary() []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, s := range subjects {
		add(s)
	}
	for _, c := range conditions {
		add(c.slug)
	}
	for _, l := range langs {
		add(l.name)
	}
	for _, t := range generalTags {
		add(t)
	}
	return out
}

func severity(r *rand.Rand, cond *condition) string {
	if cond.slug == "deprecated" || cond.slug == "leak-detected" {
		return []string{"warning", "warning", "warning", "info", "error"}[r.IntN(5)]
	}
	switch n := r.IntN(100); {
	case n < 60:
		return "error"
	case n < 80:
		return "warning"
	case n < 88:
		return "fatal"
	}
	return "info"
}

const dayMillis = 24 * 60 * 60 * 1000

// baseMillis anchors analyzedAt; a fixed date keeps output reproducible.
var baseMillis = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC).UnixMilli()

func formatMillis(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

func joinClauses(parts []string) string {
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToLower(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "; ") + "."
}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func pascal(s string) string { return capitalize(s) }

func pluralize(s string) string {
	switch {
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mix64 is the SplitMix64 finalizer, a bijection on uint64 used to derive
// independent seeds and unique ids from (seed, index).
func mix64(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	return z ^ z>>31
}
