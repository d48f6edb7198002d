package curate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Kind is what a source is.
type Kind int

const (
	// CodeLine is a line or lines of a file at a tagged version on GitHub.
	CodeLine Kind = iota + 1
	// DocsPage is a page of the project's documentation site.
	DocsPage
	// Thread is a public issue, pull request or discussion thread, cited
	// for a maintainer's answer in it.
	Thread
)

// CodeLink is a parsed GitHub link to lines of a file at a version.
type CodeLink struct {
	Repo    string // owner/name
	Version string // the tag the link is pinned to
	Path    string // the file, from the repo's root
	Start   int    // the first line
	End     int    // the last line (Start when the link names one line)
}

var (
	codeLinkRE = regexp.MustCompile(`^https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/blob/(v[0-9][^/#?]*)/([^#?]+)#L([0-9]+)(?:-L([0-9]+))?$`)
	threadRE   = regexp.MustCompile(`^https://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/(?:issues|pull|discussions)/[0-9]+$`)
	// docsRE is a page of docs.nats.io: the path of a file of the
	// nats-io/nats.docs repository without ".md", as GitBook serves it.
	docsRE   = regexp.MustCompile(`^https://docs\.nats\.io(?:/[a-z0-9_-]+)+(?:#[a-z0-9-]+)?$`)
	handleRE = regexp.MustCompile(`@([A-Za-z0-9-]+)`)
)

// ParseCodeLink parses a link to lines of a file at a tag; ok is false for
// any other URL.
func ParseCodeLink(u string) (CodeLink, bool) {
	m := codeLinkRE.FindStringSubmatch(u)
	if m == nil {
		return CodeLink{}, false
	}
	l := CodeLink{Repo: m[1], Version: m[2], Path: m[3]}
	l.Start, _ = strconv.Atoi(m[4])
	l.End = l.Start
	if m[5] != "" {
		l.End, _ = strconv.Atoi(m[5])
	}
	if l.Start < 1 || l.End < l.Start || strings.Contains(l.Path, "..") {
		return CodeLink{}, false
	}
	return l, true
}

// Classify says what kind of source u is, or why it is none: a curated
// claim rests on code at a pinned version, the project's documentation or a
// maintainer's answer, and on nothing else.
func Classify(u string) (Kind, error) {
	switch {
	case codeLinkRE.MatchString(u):
		if _, ok := ParseCodeLink(u); !ok {
			return 0, fmt.Errorf("%s: not a valid line range", u)
		}
		return CodeLine, nil
	case threadRE.MatchString(u):
		return Thread, nil
	case docsRE.MatchString(u):
		return DocsPage, nil
	}
	return 0, fmt.Errorf("%s: neither a GitHub link to lines at a version (https://github.com/OWNER/REPO/blob/vX.Y.Z/FILE#LN), a page of https://docs.nats.io/, nor an issue, pull request or discussion thread", u)
}

// Handles returns the GitHub handles a note names ("answer by @ripienaar").
func Handles(note string) []string {
	var out []string
	for _, m := range handleRE.FindAllStringSubmatch(note, -1) {
		out = append(out, m[1])
	}
	return out
}

// Maintainers reads the GitHub handles a MAINTAINERS.md lists, as in
// "[@derekcollison](https://github.com/derekcollison)".
func Maintainers(maintainersMD string) []string {
	var out []string
	for _, m := range maintainerRE.FindAllStringSubmatch(maintainersMD, -1) {
		out = append(out, m[1])
	}
	return out
}

var maintainerRE = regexp.MustCompile(`\[@([A-Za-z0-9-]+)\]\(https://github\.com/[A-Za-z0-9-]+\)`)

func itoa(n int) string { return strconv.Itoa(n) }
