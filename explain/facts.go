package explain

import (
	"strconv"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/web/siteurl"
)

// Section is one section of a record's page: a title, the record's prose, its
// facts and a code block. Text and Markdown write the same parts, so the
// two carry the same facts as the HTML page.
type Section struct {
	ID       string // the anchor of the section on the page
	Title    string
	Body     string // Markdown prose of the record, written as it is
	Intro    string // fixed words before the facts
	Facts    []Fact
	Numbered bool   // the facts are steps in order (solutions)
	Code     string // Go code shown as a block, after the facts
}

// Fact is one fact: our fixed words, the code or name it quotes as
// written, its place (file:line), the link to that place, code quoted
// under it, and the steps under it (a call chain, a condition's guards).
type Fact struct {
	MD    string // the record's own Markdown, written as it is, instead of Words and Lit
	Words string // our fixed words
	Lit   string // the name or code as written in the source
	Place string // file:line
	URL   string // the place on GitHub
	Code  string // Go code quoted under the fact (a handling block)
	Quote string // text quoted under it (a doc comment)
	Steps []Fact
}

// fact is a Fact quoting lit, found at file:line.
func fact(words, lit, file string, line int, url string) Fact {
	return Fact{Words: words, Lit: lit, Place: place(file, line), URL: url}
}

// place is "file:line" of a fact, or "" when the fact has no file.
func place(file string, line int) string {
	if file == "" {
		return ""
	}
	if line > 0 {
		return file + ":" + strconv.Itoa(line)
	}
	return file
}

// identityParts is what the record is: class, codes, package, how it is
// met, and its faces. (The severity, when the source says one, is on the
// headline.)
func identityParts(r *errkb.Record, baseURL string) []Section {
	var facts []Fact
	add := func(label, value string) {
		if value != "" {
			facts = append(facts, Fact{Words: label + ":", Lit: value})
		}
	}
	if r.QualifiedName != "" && r.ErrorCode != "" && r.ErrorCode != r.QualifiedName {
		add("Code", r.ErrorCode)
	}
	add("Class", r.ErrorClass)
	add("Type", r.ErrorType)
	if r.NumericCode != nil {
		add("Error code", strconv.Itoa(*r.NumericCode))
	}
	if r.HTTPStatus != nil {
		add("HTTP status", strconv.Itoa(*r.HTTPStatus))
	}
	add("Go package", r.GoPackage)
	if r.MessagePattern != r.ErrorMessage {
		add("Message pattern", r.MessagePattern)
	}
	if r.HandlingStrategy != "" {
		facts = append(facts, Fact{Words: "Handling: " + r.HandlingStrategy})
	}
	if r.Internal {
		facts = append(facts, Fact{Words: InternalNote})
	}
	if s := Surface(r); s != "" {
		facts = append(facts, Fact{Words: s})
	}
	var parts []Section
	if len(facts) > 0 {
		parts = append(parts, Section{ID: "what", Title: "What it is", Facts: facts})
	}
	var faces []Fact
	for _, f := range r.Faces {
		words := SideName(f.Side)
		if f.Package != "" {
			words += ", " + f.Package
		}
		it := Fact{Words: words + ":", Lit: f.Name, URL: baseURL + siteurl.Lookup(f.ID)}
		join := fact("joined by "+f.Relation, "", f.FilePath, f.LineNumber, f.GithubURL)
		if f.Relation == "" {
			join.Words = "joined at"
		}
		it.Steps = []Fact{join}
		faces = append(faces, it)
	}
	if len(faces) > 0 {
		parts = append(parts, Section{ID: "faces", Title: FacesTitle, Facts: faces})
	}
	return parts
}

// The parts below are the facts derived from the code, one function a
// section; order.go puts them in page order.

// conditionsPart lists each place the error is made with its guards,
// innermost first, and the settings they read.
func conditionsPart(r *errkb.Record) Section {
	var out []Fact
	for _, c := range r.Conditions {
		it := fact("in", c.Function, c.FilePath, c.LineNumber, c.GithubURL)
		if c.Unconditional {
			it.Words = UnconditionalIn
		}
		for _, g := range c.Guards {
			it.Steps = append(it.Steps, fact(GuardWords(g.Kind), g.Expr, g.FilePath, g.LineNumber, g.GithubURL))
		}
		for _, s := range c.Settings {
			st := fact("setting", s.Field, s.FilePath, s.LineNumber, s.GithubURL)
			if s.Type != "" {
				st.Lit += " " + s.Type
			}
			if s.Doc != "" {
				st.Quote = s.Doc
			}
			it.Steps = append(it.Steps, st)
			if s.ConfigKey != "" {
				ck := Fact{Words: "config key", Lit: s.ConfigKey}
				if s.ConfigAt != nil {
					ck = fact("config key", s.ConfigKey, s.ConfigAt.FilePath, s.ConfigAt.LineNumber, s.ConfigAt.GithubURL)
				}
				it.Steps = append(it.Steps, ck)
			}
		}
		out = append(out, it)
	}
	return Section{ID: "conditions", Title: "When it happens", Facts: out}
}

func reachPart(r *errkb.Record) Section {
	var entries []Fact
	for _, e := range r.ReturnedBy {
		it := fact("Returned by", e.Function, e.FilePath, e.LineNumber, e.GithubURL)
		for _, c := range e.Chain {
			it.Steps = append(it.Steps, fact("", c.Function, c.FilePath, c.LineNumber, c.GithubURL))
		}
		entries = append(entries, it)
	}
	for _, c := range r.Closes {
		it := fact(ClosesWords, c.Call, c.FilePath, c.LineNumber, c.GithubURL)
		it.Steps = []Fact{{Words: "in", Lit: c.Function}}
		entries = append(entries, it)
	}
	return Section{ID: "returned-by", Title: "How it reaches you", Facts: entries}
}

func handledPart(r *errkb.Record) Section {
	var checks []Fact
	for _, c := range r.HandledAt {
		it := fact("in "+c.Function+":", c.Check, c.FilePath, c.LineNumber, c.GithubURL)
		it.Code = dedent(c.Code)
		checks = append(checks, it)
	}
	return Section{ID: "handled-at", Title: "What the project does on it", Facts: checks}
}

func testsPart(r *errkb.Record) Section {
	var tests []Fact
	for _, t := range r.Tests {
		it := fact("", t.Name, t.FilePath, t.LineNumber, t.GithubURL)
		if t.Assertion != "" {
			it.Steps = []Fact{{Words: "asserts", Lit: t.Assertion}}
		}
		tests = append(tests, it)
	}
	p := Section{ID: "tests", Title: "Reproduced by", Facts: tests}
	if len(tests) > 0 {
		p.Intro = TestsLabel
	}
	return p
}

// docsPart is the doc comments and errors.json texts, and the record's
// own documentation when it is not curated prose shown at the top.
func docsPart(r *errkb.Record) Section {
	p := Section{ID: "docs", Title: "Documentation"}
	if !Curated(r) {
		p.Body = r.Documentation
	}
	for _, d := range r.Docs {
		it := fact("", d.Of, d.FilePath, d.LineNumber, d.GithubURL)
		it.Quote = d.Text
		p.Facts = append(p.Facts, it)
	}
	return p
}

// historyPart is the versions the error appears in and its earlier
// wordings. An error already in the oldest version analysed is said to
// be there, not to be new in it: the history does not reach further back.
// The wording before today's is introduced by the first version with
// today's, when the history names it; earlier ones by the versions that
// used them.
func historyPart(r *errkb.Record) Section {
	p := Section{ID: "history", Title: "History"}
	h := r.History
	if h == nil {
		return p
	}
	switch {
	case h.FirstVersion != "" && h.FirstVersion == h.OldestAnalyzed:
		p.Facts = append(p.Facts, Fact{Words: "Already in the oldest version analysed,", Lit: h.FirstVersion})
	case h.FirstVersion != "":
		p.Facts = append(p.Facts, Fact{Words: "First in", Lit: h.FirstVersion})
	}
	for i := len(h.Messages) - 1; i >= 0; i-- { // the latest wording first
		m := h.Messages[i]
		f := Fact{Words: "Earlier the message read", Lit: m.Message}
		if i == len(h.Messages)-1 && h.MessageSince != "" {
			f.Words = "Before " + oneLine(h.MessageSince) + " the message read"
		}
		if len(m.Versions) > 0 {
			f.Steps = []Fact{{Words: "in", Lit: strings.Join(m.Versions, ", ")}}
		}
		p.Facts = append(p.Facts, f)
	}
	if h.RemovedIn != "" {
		p.Facts = append(p.Facts, Fact{Words: "Removed in", Lit: h.RemovedIn})
	}
	return p
}

// differsPart shows, for a curated record merged with its extracted twin,
// each fact the record states otherwise than the code at the version the
// extractor read: both values, and the line the code's comes from.
func differsPart(r *errkb.Record) Section {
	p := Section{ID: "differs", Title: DiffersTitle}
	if r.Extracted == nil || len(r.Extracted.Differs) == 0 {
		return p
	}
	v := r.Extracted.Version
	p.Intro = "This record was written by hand against another version of the code. At " + v + " the code reads otherwise:"
	for _, d := range r.Extracted.Differs {
		it := Fact{Words: d.Field + ", as written:", Lit: d.Curated}
		it.Steps = []Fact{{Words: "at " + v + ":", Lit: d.Extracted, URL: d.GithubURL}}
		p.Facts = append(p.Facts, it)
	}
	return p
}

func raisedPart(r *errkb.Record) Section {
	var sites []Fact
	for _, c := range r.CallSites {
		sites = append(sites, fact("", c.Function, c.FilePath, c.LineNumber, c.GithubURL))
	}
	return Section{ID: "raised", Title: "Where it is raised", Facts: sites}
}

// Guard is the check offered to a Go caller: the record's own guard where
// ShowsGuard allows it, else the client-side check of a JetStream API
// error, else "".
func Guard(r *errkb.Record) string {
	if ShowsGuard(r) {
		return r.TypeGuard
	}
	return ClientCheck(r)
}

// textOf is an Fact's one line for a terminal.
func textOf(it Fact) string {
	if it.MD != "" {
		return strings.TrimSpace(it.MD)
	}
	var ws []string
	for _, s := range []string{it.Words, oneLine(it.Lit)} {
		if s != "" {
			ws = append(ws, s)
		}
	}
	s := strings.Join(ws, " ")
	if it.Place != "" {
		s += " (" + it.Place + ")"
	}
	return s
}

// markdownOf is an Fact's one line in Markdown: our words escaped, what it
// quotes as a code span, the place linked.
func markdownOf(it Fact) string {
	if it.MD != "" {
		return strings.TrimSpace(it.MD)
	}
	var ws []string
	if it.Words != "" {
		ws = append(ws, mdInline(it.Words))
	}
	if it.Lit != "" {
		ws = append(ws, codeSpan(oneLine(it.Lit)))
	}
	s := strings.Join(ws, " ")
	switch {
	case it.Place != "" && it.URL != "":
		s += " ([" + mdInline(it.Place) + "](" + it.URL + "))"
	case it.Place != "":
		s += " (" + mdInline(it.Place) + ")"
	case it.URL != "":
		s = "[" + s + "](" + it.URL + ")"
	}
	return s
}

// dedent removes the indentation every line of a quoted block shares, so
// a block cut from deep inside a function reads from the left margin.
func dedent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		switch {
		case first:
			prefix, first = ind, false
		default:
			for !strings.HasPrefix(ind, prefix) {
				prefix = prefix[:len(prefix)-1]
			}
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return strings.Join(lines, "\n")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// writeTextParts writes parts for a terminal: titles flush left, facts
// indented, links under them.
func writeTextParts(ew *errWriter, parts []Section) {
	for _, p := range parts {
		ew.printf("%s\n", p.Title)
		if strings.TrimSpace(p.Body) != "" {
			ew.printf("%s\n", indent(p.Body))
		}
		if p.Intro != "" {
			ew.printf("  %s\n", p.Intro)
		}
		for i, it := range p.Facts {
			prefix := ""
			if p.Numbered {
				prefix = strconv.Itoa(i+1) + ". "
			}
			writeTextItem(ew, it, "  ", prefix)
		}
		if p.Code != "" {
			ew.printf("%s\n", indentBy(p.Code, "    "))
		}
		ew.printf("\n")
	}
}

func writeTextItem(ew *errWriter, it Fact, pad, prefix string) {
	ew.printf("%s%s%s\n", pad, prefix, textOf(it))
	if it.URL != "" {
		ew.printf("%s  %s\n", pad, it.URL)
	}
	for _, q := range []string{it.Code, it.Quote} {
		if q != "" {
			ew.printf("%s\n", indentBy(q, pad+"    "))
		}
	}
	for _, s := range it.Steps {
		writeTextItem(ew, s, pad+"  ", "")
	}
}

// writeMarkdownParts writes parts as Markdown: a heading each, the
// record's prose as it is, facts as a list with their links, code fenced.
func writeMarkdownParts(ew *errWriter, parts []Section) {
	for _, p := range parts {
		ew.printf("## %s\n\n", p.Title)
		if strings.TrimSpace(p.Body) != "" {
			ew.printf("%s\n\n", strings.TrimSpace(p.Body))
		}
		if p.Intro != "" {
			ew.printf("%s\n\n", mdInline(p.Intro))
		}
		for i, it := range p.Facts {
			bullet := "- "
			if p.Numbered {
				bullet = strconv.Itoa(i+1) + ". "
			}
			writeMarkdownItem(ew, it, "", bullet)
		}
		if len(p.Facts) > 0 {
			ew.printf("\n")
		}
		if p.Code != "" {
			fence := fenceFor(p.Code)
			ew.printf("%s\n%s\n%s\n\n", fence, strings.TrimRight(p.Code, "\n"), fence)
		}
	}
}

func writeMarkdownItem(ew *errWriter, it Fact, pad, bullet string) {
	ew.printf("%s%s%s\n", pad, bullet, markdownOf(it))
	for _, q := range []string{it.Code, it.Quote} {
		if q != "" {
			fence := fenceFor(q)
			ew.printf("\n%s  %s\n%s\n%s  %s\n\n", pad, fence, indentBy(strings.TrimRight(q, "\n"), pad+"  "), pad, fence)
		}
	}
	for _, s := range it.Steps {
		writeMarkdownItem(ew, s, pad+"  ", "- ")
	}
}

func indentBy(s, pad string) string {
	return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
