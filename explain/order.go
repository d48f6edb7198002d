package explain

import (
	"strings"

	"github.com/errkb/errkb"
)

// parts is every section of r below its headline and message, in the
// order of its page (issue 21): what it is, when it happens, how it
// reaches you, how to check for and handle it, what the project does on
// it, the tests that reproduce it, its documentation, and where it is
// raised. The record's own prose keeps its place among them; sections
// with nothing to say are left out.
func parts(r *errkb.Record, baseURL string) []part {
	ps := identityParts(r, baseURL)
	prose := func(title, body string) part { return part{title: title, body: body} }
	if Curated(r) {
		ps = append(ps, prose("What it means", r.Documentation))
	}
	cond := conditionsPart(r)
	ps = append(ps, cond, prose(TriggersTitle(r), r.TriggerScenarios), prose("Common situations", r.CommonSituations), reachPart(r))
	ps = append(ps, part{title: "How to check for it", code: Guard(r)})
	for _, c := range []struct{ title, code string }{
		{"Handling the error", r.TryCatchPattern},
		{"Validation", r.ValidationCode},
	} {
		ps = append(ps, part{title: c.title, code: c.code})
	}
	ps = append(ps, mdList("Solutions", r.Solutions, true), part{title: "Example fix", code: r.ExampleFix}, mdList("Prevention", r.PreventionTips, false))
	ps = append(ps, handledPart(r), testsPart(r), docsPart(r), raisedPart(r))
	out := ps[:0]
	for _, p := range ps {
		if strings.TrimSpace(p.body) != "" || len(p.items) > 0 || strings.TrimSpace(p.code) != "" {
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

// mdList is a list field of Markdown entries as a part.
func mdList(title string, entries []string, numbered bool) part {
	p := part{title: title, numbered: numbered}
	for _, e := range entries {
		if strings.TrimSpace(e) != "" {
			p.items = append(p.items, item{md: e})
		}
	}
	return p
}
