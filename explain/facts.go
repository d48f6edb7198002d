package explain

import (
	"strconv"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/web/siteurl"
)

// part is one section of a record's page: a title, the record's prose, its
// facts and a code block. Text and Markdown write the same parts, so the
// two carry the same facts as the HTML page.
type part struct {
	title    string
	body     string // Markdown prose of the record, written as it is
	items    []item
	numbered bool   // items are steps in order (solutions)
	code     string // code shown as a block, after the items
}

// item is one fact: our fixed words, the code or name it quotes as
// written, its place (file:line), the link to that place, code quoted
// under it, and the steps under it (a call chain, a condition's guards).
type item struct {
	md    string // the record's own Markdown, written as it is, instead of words and lit
	words string
	lit   string
	place string
	url   string
	code  string
	steps []item
}

// fact is an item quoting lit, found at file:line.
func fact(words, lit, file string, line int, url string) item {
	return item{words: words, lit: lit, place: place(file, line), url: url}
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
func identityParts(r *errkb.Record, baseURL string) []part {
	var facts []item
	add := func(label, value string) {
		if value != "" {
			facts = append(facts, item{words: label + ":", lit: value})
		}
	}
	if r.QualifiedName != "" && r.ErrorCode != "" && r.ErrorCode != r.QualifiedName {
		add("Code", r.ErrorCode)
	}
	add("Class", r.ErrorClass)
	if r.NumericCode != nil {
		add("Error code", strconv.Itoa(*r.NumericCode))
	}
	if r.HTTPStatus != nil {
		add("HTTP status", strconv.Itoa(*r.HTTPStatus))
	}
	add("Go package", r.GoPackage)
	if r.HandlingStrategy != "" {
		facts = append(facts, item{words: "Handling: " + r.HandlingStrategy})
	}
	if r.Internal {
		facts = append(facts, item{words: InternalNote})
	}
	if s := Surface(r); s != "" {
		facts = append(facts, item{words: s})
	}
	parts := []part{{title: "What it is", items: facts}}
	var faces []item
	for _, f := range r.Faces {
		words := SideName(f.Side)
		if f.Package != "" {
			words += ", " + f.Package
		}
		it := item{words: words + ":", lit: f.Name, url: baseURL + siteurl.Lookup(f.ID)}
		join := fact("joined by "+f.Relation, "", f.FilePath, f.LineNumber, f.GithubURL)
		if f.Relation == "" {
			join.words = "joined at"
		}
		it.steps = []item{join}
		faces = append(faces, it)
	}
	if len(faces) > 0 {
		parts = append(parts, part{title: FacesTitle, items: faces})
	}
	return parts
}

// The parts below are the facts derived from the code, one function a
// section; order.go puts them in page order.

// conditionsPart lists each place the error is made with its guards,
// innermost first, and the settings they read.
func conditionsPart(r *errkb.Record) part {
	var out []item
	for _, c := range r.Conditions {
		it := fact("in", c.Function, c.FilePath, c.LineNumber, c.GithubURL)
		if c.Unconditional {
			it.words = UnconditionalIn
		}
		for _, g := range c.Guards {
			it.steps = append(it.steps, fact(g.Kind, g.Expr, g.FilePath, g.LineNumber, g.GithubURL))
		}
		for _, s := range c.Settings {
			st := fact("setting", s.Field, s.FilePath, s.LineNumber, s.GithubURL)
			if s.Type != "" {
				st.lit += " " + s.Type
			}
			if s.Doc != "" {
				st.code = s.Doc
			}
			it.steps = append(it.steps, st)
			if s.ConfigKey != "" {
				ck := item{words: "config key", lit: s.ConfigKey}
				if s.ConfigAt != nil {
					ck = fact("config key", s.ConfigKey, s.ConfigAt.FilePath, s.ConfigAt.LineNumber, s.ConfigAt.GithubURL)
				}
				it.steps = append(it.steps, ck)
			}
		}
		out = append(out, it)
	}
	return part{title: "When it happens", items: out}
}

func reachPart(r *errkb.Record) part {
	var entries []item
	for _, e := range r.ReturnedBy {
		it := fact("Returned by", e.Function, e.FilePath, e.LineNumber, e.GithubURL)
		for _, c := range e.Chain {
			it.steps = append(it.steps, fact("", c.Function, c.FilePath, c.LineNumber, c.GithubURL))
		}
		entries = append(entries, it)
	}
	return part{title: "How it reaches you", items: entries}
}

func handledPart(r *errkb.Record) part {
	var checks []item
	for _, c := range r.HandledAt {
		it := fact("in "+c.Function+":", c.Check, c.FilePath, c.LineNumber, c.GithubURL)
		it.code = c.Code
		checks = append(checks, it)
	}
	return part{title: "What the project does on it", items: checks}
}

func testsPart(r *errkb.Record) part {
	var tests []item
	for _, t := range r.Tests {
		it := fact("", t.Name, t.FilePath, t.LineNumber, t.GithubURL)
		if t.Assertion != "" {
			it.steps = []item{{words: "asserts", lit: t.Assertion}}
		}
		tests = append(tests, it)
	}
	if len(tests) > 0 {
		tests = append([]item{{words: TestsLabel}}, tests...)
	}
	return part{title: "Reproduced by", items: tests}
}

// docsPart is the doc comments and errors.json texts, and the record's
// own documentation when it is not curated prose shown at the top.
func docsPart(r *errkb.Record) part {
	p := part{title: "Documentation"}
	if !Curated(r) {
		p.body = r.Documentation
	}
	for _, d := range r.Docs {
		it := fact("", d.Of, d.FilePath, d.LineNumber, d.GithubURL)
		it.code = d.Text
		p.items = append(p.items, it)
	}
	return p
}

func raisedPart(r *errkb.Record) part {
	var sites []item
	for _, c := range r.CallSites {
		sites = append(sites, fact("", c.Function, c.FilePath, c.LineNumber, c.GithubURL))
	}
	return part{title: "Where it is raised", items: sites}
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

// textOf is an item's one line for a terminal.
func textOf(it item) string {
	if it.md != "" {
		return strings.TrimSpace(it.md)
	}
	var ws []string
	for _, s := range []string{it.words, oneLine(it.lit)} {
		if s != "" {
			ws = append(ws, s)
		}
	}
	s := strings.Join(ws, " ")
	if it.place != "" {
		s += " (" + it.place + ")"
	}
	return s
}

// markdownOf is an item's one line in Markdown: our words escaped, what it
// quotes as a code span, the place linked.
func markdownOf(it item) string {
	if it.md != "" {
		return strings.TrimSpace(it.md)
	}
	var ws []string
	if it.words != "" {
		ws = append(ws, mdInline(it.words))
	}
	if it.lit != "" {
		ws = append(ws, codeSpan(oneLine(it.lit)))
	}
	s := strings.Join(ws, " ")
	switch {
	case it.place != "" && it.url != "":
		s += " ([" + mdInline(it.place) + "](" + it.url + "))"
	case it.place != "":
		s += " (" + mdInline(it.place) + ")"
	case it.url != "":
		s = "[" + s + "](" + it.url + ")"
	}
	return s
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// writeTextParts writes parts for a terminal: titles flush left, facts
// indented, links under them.
func writeTextParts(ew *errWriter, parts []part) {
	for _, p := range parts {
		ew.printf("%s\n", p.title)
		if strings.TrimSpace(p.body) != "" {
			ew.printf("%s\n", indent(p.body))
		}
		for i, it := range p.items {
			prefix := ""
			if p.numbered {
				prefix = strconv.Itoa(i+1) + ". "
			}
			writeTextItem(ew, it, "  ", prefix)
		}
		if p.code != "" {
			ew.printf("%s\n", indentBy(p.code, "    "))
		}
		ew.printf("\n")
	}
}

func writeTextItem(ew *errWriter, it item, pad, prefix string) {
	ew.printf("%s%s%s\n", pad, prefix, textOf(it))
	if it.url != "" {
		ew.printf("%s  %s\n", pad, it.url)
	}
	if it.code != "" {
		ew.printf("%s\n", indentBy(it.code, pad+"    "))
	}
	for _, s := range it.steps {
		writeTextItem(ew, s, pad+"  ", "")
	}
}

// writeMarkdownParts writes parts as Markdown: a heading each, the
// record's prose as it is, facts as a list with their links, code fenced.
func writeMarkdownParts(ew *errWriter, parts []part) {
	for _, p := range parts {
		ew.printf("## %s\n\n", p.title)
		if strings.TrimSpace(p.body) != "" {
			ew.printf("%s\n\n", strings.TrimSpace(p.body))
		}
		for i, it := range p.items {
			bullet := "- "
			if p.numbered {
				bullet = strconv.Itoa(i+1) + ". "
			}
			writeMarkdownItem(ew, it, "", bullet)
		}
		if len(p.items) > 0 {
			ew.printf("\n")
		}
		if p.code != "" {
			fence := fenceFor(p.code)
			ew.printf("%s\n%s\n%s\n\n", fence, strings.TrimRight(p.code, "\n"), fence)
		}
	}
}

func writeMarkdownItem(ew *errWriter, it item, pad, bullet string) {
	ew.printf("%s%s%s\n", pad, bullet, markdownOf(it))
	if it.code != "" {
		fence := fenceFor(it.code)
		ew.printf("\n%s  %s\n%s\n%s  %s\n\n", pad, fence, indentBy(strings.TrimRight(it.code, "\n"), pad+"  "), pad, fence)
	}
	for _, s := range it.steps {
		writeMarkdownItem(ew, s, pad+"  ", "- ")
	}
}

func indentBy(s, pad string) string {
	return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
