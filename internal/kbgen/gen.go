package kbgen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/errkb/errkb"
)

// Envelope is the on-disk wrapper around a record, as in the seed files.
type Envelope struct {
	Record         errkb.Record `json:"record"`
	DatasetVersion string       `json:"datasetVersion"`
}

// numProjects is the number of fictional repositories records spread over.
const numProjects = 420

// Code styles a project uses for its error codes.
const (
	codeScreaming = iota // CONSUMER_NOT_FOUND
	codeNumeric          // FRV-1042
	codeDotted           // ferrovia.consumer.not_found
)

// project is one fictional repository with its stable properties.
type project struct {
	owner, name, repo string
	lang              int
	codeStyle         int
	prefix            string
	shas              [3]string
	mult, off         int
}

// Generator produces records as a pure function of (seed, index), so any
// record can be built independently and in parallel without changing the
// output.
type Generator struct {
	seed     uint64
	mixed    uint64
	projects []project
	tags     []string
	combos   int
}

// NewGenerator builds the project catalogue for seed.
func NewGenerator(seed uint64) *Generator {
	g := &Generator{seed: seed, mixed: mix64(seed ^ 0x6b6267656e)}
	g.combos = len(subjects) * len(conditions)
	g.tags = tagVocabulary()
	r := rand.New(rand.NewPCG(g.mixed, mix64(g.mixed)))
	owners := map[string]bool{}
	repos := map[string]bool{}
	for len(g.projects) < numProjects {
		owner := pick(r, ownerHeads) + pick(r, ownerTails)
		if owners[owner] {
			continue
		}
		owners[owner] = true
		for n := 1 + r.IntN(3) + r.IntN(2); n > 0 && len(g.projects) < numProjects; n-- {
			name := pick(r, repoHeads) + pick(r, repoTails)
			if repos[name] {
				continue
			}
			repos[name] = true
			p := project{owner: owner, name: name, repo: owner + "/" + name,
				lang: r.IntN(len(langs)), codeStyle: r.IntN(3), off: r.IntN(g.combos)}
			if r.IntN(3) == 0 {
				p.prefix = strings.ToUpper(name[:3])
			}
			for j := range p.shas {
				p.shas[j] = fmt.Sprintf("%016x%016x%08x", r.Uint64(), r.Uint64(), r.Uint32())
			}
			for p.mult = 1 + r.IntN(g.combos-1); gcd(p.mult, g.combos) != 1; p.mult++ {
			}
			g.projects = append(g.projects, p)
		}
	}
	return g
}

// DatasetVersion is constant per seed so regenerated data compares equal.
func (g *Generator) DatasetVersion() string {
	return "kbgen-seed-" + strconv.FormatUint(g.seed, 10)
}

// slot identifies record k of project p: a unique (subject, condition)
// pair plus a version that only grows past the number of combinations.
func (g *Generator) slot(p, k int) (subj, cond, ver int) {
	pr := &g.projects[p]
	idx := ((k%g.combos)*pr.mult + pr.off) % g.combos
	return idx / len(conditions), idx % len(conditions), k / g.combos
}

// code derives the error code of record k of project p. Odd records
// occasionally reuse their predecessor's code so the data set contains a
// few codes shared by two records of one repository.
func (g *Generator) code(p, k int) string {
	if k%2 == 1 && mix64(g.mixed^uint64(p)<<32^uint64(k))%64 == 0 {
		k--
	}
	pr := &g.projects[p]
	s, c, ver := g.slot(p, k)
	var code string
	switch pr.codeStyle {
	case codeNumeric:
		pre := pr.prefix
		if pre == "" {
			pre = "E"
		} else {
			pre += "-"
		}
		return pre + strconv.Itoa(1000+s*len(conditions)+c+ver*g.combos)
	case codeDotted:
		code = pr.name + "." + subjects[s] + "." + strings.ReplaceAll(conditions[c].slug, "-", "_")
		if ver > 0 {
			code += ".v" + strconv.Itoa(ver+1)
		}
		return code
	}
	code = strings.ToUpper(subjects[s] + "_" + strings.ReplaceAll(conditions[c].slug, "-", "_"))
	if pr.prefix != "" {
		code = pr.prefix + "_" + code
	}
	if ver > 0 {
		code += "_V" + strconv.Itoa(ver+1)
	}
	return code
}

// numericSuffix is the number a code ends with ("SIN-2899" -> 2899).
func numericSuffix(code string) int {
	i := len(code)
	for i > 0 && code[i-1] >= '0' && code[i-1] <= '9' {
		i--
	}
	n, _ := strconv.Atoi(code[i:])
	return n
}

// ID returns the 16-hex id of record i. mix64 is a bijection, so ids are
// unique for all indexes of one seed.
func (g *Generator) ID(i int) string {
	return fmt.Sprintf("%016x", mix64(g.mixed+uint64(i)))
}

// Record builds record i.
func (g *Generator) Record(i int) errkb.Record {
	p, k := i%len(g.projects), i/len(g.projects)
	pr := &g.projects[p]
	r := rand.New(rand.NewPCG(mix64(g.mixed^uint64(i)), mix64(uint64(i)+0x9e3779b97f4a7c15)))
	si, ci, ver := g.slot(p, k)
	cond := &conditions[ci]
	subj := subjects[si]
	slug := subj + "-" + cond.slug
	if ver > 0 {
		slug += "-v" + strconv.Itoa(ver+1)
	}
	rec := errkb.Record{
		ID:               g.ID(i),
		Repo:             pr.repo,
		Slug:             slug,
		ErrorCode:        g.code(p, k),
		ErrorType:        pick(r, errorTypes),
		ErrorClass:       pascal(subj) + cond.class + "Error",
		Severity:         severity(r, cond),
		HandlingStrategy: pick(r, strategies[cond.family]),
		BackgroundTag:    subj + "-" + cond.slug,
		AnalyzedSha:      pr.shas[r.IntN(len(pr.shas))],
		SchemaVersion:    2,
	}
	if r.IntN(100) < 55 {
		status := cond.http
		rec.HTTPStatus = &status
	}
	if pr.codeStyle == codeNumeric {
		// The number of a numeric code ("SIN-2899"), as JetStream's
		// err_code sits beside its JS_* code.
		n := numericSuffix(rec.ErrorCode)
		rec.NumericCode = &n
	}
	parts := parsedMsgs[ci][r.IntN(len(parsedMsgs[ci]))]
	plural := pluralize(subj)
	rec.ErrorMessage = readable(parts, subj, plural)
	style := []int{stylePrintf, styleBrace, styleBrace, styleBrace}[pr.lang]
	if pr.lang == langPython && r.IntN(2) == 0 {
		style = stylePrintf
	}
	if hasSlots(parts) && r.IntN(100) < 15 {
		style = styleRegex
	}
	rec.MessagePattern = pattern(parts, style, subj, plural)

	c := newContext(pr, subj, plural, cond, rec.ErrorClass, rec.ErrorCode, r)
	rec.FilePath = g.filePath(p, si, pr)
	g.snippet(&rec, r, c, parts, subj, plural, pr.lang)
	rec.GithubURL = "https://github.com/" + pr.repo + "/blob/" + rec.AnalyzedSha + "/" + rec.FilePath +
		"#L" + strconv.Itoa(rec.SourceCodeStart) + "-L" + strconv.Itoa(rec.SourceCodeEnd)
	g.prose(&rec, r, c, cond, pr)
	l := &langs[pr.lang]
	rec.ExampleFix = c.expand(pick(r, l.fix))
	rec.ValidationCode = c.expand(pick(r, l.valid))
	rec.TypeGuard = c.expand(pick(r, l.guard))
	rec.TryCatchPattern = c.expand(pick(r, l.try))
	rec.Tags = g.pickTags(r, subj, cond, l.name)
	trimToBudget(&rec)
	analyzed := baseMillis + r.Int64N(100*dayMillis)
	rec.AnalyzedAt = formatMillis(analyzed)
	if r.IntN(100) < 30 {
		changed := formatMillis(analyzed - 1000 - r.Int64N(60*dayMillis))
		rec.ContentChangedAt = &changed
	}
	return rec
}

// Envelope wraps record i for output.
func (g *Generator) Envelope(i int) Envelope {
	return Envelope{Record: g.Record(i), DatasetVersion: g.DatasetVersion()}
}

// filePath is a function of the project and subject only, so every error
// about one subject in a repository lives in the same file.
func (g *Generator) filePath(p, si int, pr *project) string {
	h := mix64(g.mixed ^ uint64(p)<<20 ^ uint64(si)<<1)
	subj := subjects[si]
	stem := subj + fileStems[h%uint64(len(fileStems))]
	h >>= 8
	switch pr.lang {
	case langGo:
		return []string{"internal/" + subj + "/", "pkg/" + subj + "/", "server/", subj + "/"}[h%4] + stem + ".go"
	case langPython:
		return []string{pr.name + "/" + subj + "/", pr.name + "/", "src/" + pr.name + "/"}[h%3] + stem + ".py"
	case langTS:
		stem = strings.ReplaceAll(stem, "_", "-")
		return []string{"src/" + subj + "/" + stem, "src/" + stem, "packages/" + subj + "/src/index"}[h%3] + ".ts"
	}
	return []string{"src/" + subj + "/mod", "src/" + stem, "crates/" + pr.name + "-" + subj + "/src/lib"}[h%3] + ".rs"
}

// snippet fills sourceCode and its line range: filler code around a guard
// block whose body is the line raising the error.
func (g *Generator) snippet(rec *errkb.Record, r *rand.Rand, c *context, parts []part, subj, plural string, li int) {
	l := &langs[li]
	total := 27 + r.IntN(8)
	block := 3
	if l.closer == "" {
		block = 2
	}
	before := 6 + r.IntN(total-block-10)
	after := total - before - block
	buf := make([]byte, 0, 2048)
	c.uses = [32]uint8{}
	buf = c.fill(buf, r, l, before)
	buf = c.appendExpanded(buf, pick(r, l.guards))
	buf = append(buf, '\n')
	buf = append(buf, raiseLine(li, parts, subj, plural, rec.ErrorClass, rec.ErrorCode)...)
	if l.closer != "" {
		buf = append(buf, '\n')
		buf = c.appendExpanded(buf, l.closer)
	}
	buf = append(buf, '\n')
	buf = c.fill(buf, r, l, after)
	rec.SourceCode = string(buf[:len(buf)-1])
	rec.LineNumber = 40 + r.IntN(2400)
	rec.SourceCodeStart = rec.LineNumber - before - 1
	rec.SourceCodeEnd = rec.SourceCodeStart + total - 1
}

// sizeBudget caps the encoded size of a record so every record stays
// within the 3-6 KB range benchmarks assume, with room for the envelope.
const sizeBudget = 5500

// trimToBudget shrinks records whose JSON would exceed sizeBudget: first
// optional advice entries (keeping at least three of each), then trailing
// snippet lines after the raising block (keeping at least three).
func trimToBudget(rec *errkb.Record) {
	size := encodedSize(rec)
	for size > sizeBudget && len(rec.Solutions) > 3 {
		size -= jsonLen(rec.Solutions[len(rec.Solutions)-1]) + 3
		rec.Solutions = rec.Solutions[:len(rec.Solutions)-1]
	}
	for size > sizeBudget && len(rec.PreventionTips) > 3 {
		size -= jsonLen(rec.PreventionTips[len(rec.PreventionTips)-1]) + 3
		rec.PreventionTips = rec.PreventionTips[:len(rec.PreventionTips)-1]
	}
	for size > sizeBudget && rec.SourceCodeEnd-rec.LineNumber > 4 {
		cut := strings.LastIndexByte(rec.SourceCode, '\n')
		size -= jsonLen(rec.SourceCode[cut:])
		rec.SourceCode = rec.SourceCode[:cut]
		rec.SourceCodeEnd--
	}
	if strings.HasSuffix(rec.SourceCode, "\n") { // never end on a blank line
		rec.SourceCode = rec.SourceCode[:len(rec.SourceCode)-1]
		rec.SourceCodeEnd--
	}
	rec.GithubURL = rec.GithubURL[:strings.LastIndexByte(rec.GithubURL, 'L')+1] + strconv.Itoa(rec.SourceCodeEnd)
}

// encodedSize is a close upper estimate of the record's JSON size: 600
// bytes of keys, punctuation, numbers and nulls plus every escaped string.
func encodedSize(rec *errkb.Record) int {
	size := 600
	for _, s := range []string{rec.ID, rec.Repo, rec.Slug, rec.ErrorCode, rec.ErrorMessage,
		rec.MessagePattern, rec.ErrorType, rec.ErrorClass, rec.Severity, rec.FilePath,
		rec.SourceCode, rec.GithubURL, rec.Documentation, rec.TriggerScenarios,
		rec.CommonSituations, rec.ExampleFix, rec.HandlingStrategy, rec.ValidationCode,
		rec.TypeGuard, rec.TryCatchPattern, rec.BackgroundTag, rec.AnalyzedSha, rec.AnalyzedAt} {
		size += jsonLen(s)
	}
	for _, list := range [][]string{rec.Solutions, rec.PreventionTips, rec.Tags} {
		for _, s := range list {
			size += jsonLen(s) + 3
		}
	}
	return size
}

// jsonLen is the length of s once encoded as a JSON string body; the
// generator only emits ASCII, so escapes are the only expansion.
func jsonLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '\n', '\t':
			n++
		}
	}
	return n
}
