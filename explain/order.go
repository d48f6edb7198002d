package explain

import (
	"strings"

	"github.com/errkb/errkb"
)

// Sections is every section of r's page below its header, in page order
// (issue 21): when it happens, how it reaches you, how to check for and
// handle it, what the project does on it, the tests that reproduce it,
// its documentation and where it is raised. A curated record's prose
// keeps its place among them: what it means first, its trigger
// scenarios beside the conditions, its fixes beside the guard. Sections
// with nothing to say are left out. The page, the terminal text and the
// Markdown all show these, so none of them lacks a fact another has.
func Sections(r *errkb.Record) []Section {
	prose := func(id, title, body string) Section { return Section{ID: id, Title: title, Body: body} }
	code := func(id, title, code string) Section { return Section{ID: id, Title: title, Code: code} }
	var ps []Section
	if Curated(r) {
		ps = append(ps, prose("documentation", "What it means", r.Documentation))
	}
	ps = append(ps,
		conditionsPart(r),
		prose("triggers", TriggersTitle(r), r.TriggerScenarios),
		prose("situations", "Common situations", r.CommonSituations),
		reachPart(r),
		code("type-guard", "How to check for it", Guard(r)),
		code("try-catch", "Handling the error", r.TryCatchPattern),
		code("validation", "Validation", r.ValidationCode),
		mdList("solutions", "Solutions", r.Solutions, true),
		code("example-fix", "Example fix", r.ExampleFix),
		mdList("prevention", "Prevention", r.PreventionTips, false),
		handledPart(r),
		testsPart(r),
		docsPart(r),
		historyPart(r),
		raisedPart(r),
		differsPart(r),
	)
	out := ps[:0]
	for _, p := range ps {
		if strings.TrimSpace(p.Body) != "" || len(p.Facts) > 0 || strings.TrimSpace(p.Code) != "" {
			out = append(out, p)
		}
	}
	return out
}

// TriggersTitle is the heading of the record's triggerScenarios: "When it
// happens", unless the code's conditions already take that heading.
func TriggersTitle(r *errkb.Record) string {
	if len(r.Conditions) > 0 {
		return "Trigger scenarios"
	}
	return "When it happens"
}

// mdList is a list field of Markdown entries as a section.
func mdList(id, title string, entries []string, numbered bool) Section {
	p := Section{ID: id, Title: title, Numbered: numbered}
	for _, e := range entries {
		if strings.TrimSpace(e) != "" {
			p.Facts = append(p.Facts, Fact{MD: e})
		}
	}
	return p
}
