package errkb

import (
	"html"
	"regexp"
	"strings"
)

// urlKey reports whether a field name says it holds a URL or a list of
// them: githubUrl, homepage, docsLink, links, urls, href...
func urlKey(key string) bool {
	k := strings.TrimSuffix(strings.ToLower(key), "s")
	for _, suffix := range []string{"url", "uri", "link", "href", "src", "homepage", "website"} {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// AllowedURL is the one link policy of errkb: a URL is kept when it is
// relative or uses http, https or mailto (the schemes pkgsite's sanitizer
// allows). Validation refuses records whose links break it, and pages drop
// such links when they render Markdown. Any other scheme can run code or
// start a program on the reader's machine (javascript:, ms-msdt:,
// search-ms:). u is judged as a browser would read it: with and without
// its HTML entities decoded, white space and control characters dropped,
// case ignored, and no scheme unless the text before ':' is one.
func AllowedURL(u string) bool {
	return allowedScheme(u) && allowedScheme(html.UnescapeString(u))
}

var schemeRE = regexp.MustCompile(`^[a-z][a-z0-9+.-]*$`)

func allowedScheme(u string) bool {
	scheme, _, found := strings.Cut(strings.ToLower(stripControls(u)), ":")
	if !found || !schemeRE.MatchString(scheme) {
		return true
	}
	switch scheme {
	case "http", "https", "mailto":
		return true
	}
	return false
}

func stripControls(s string) string {
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

var (
	// inlineLink finds the destination of [text](dest), ![img](dest) and
	// <autolinks>, with the spaces CommonMark allows.
	inlineLink = regexp.MustCompile(`(?i)(?:\]\(\s*<?|<)\s*([a-z][a-z0-9+.-]*:[^\s)>]*)`)
	// refDef finds the destination of a reference definition "[x]: dest".
	// bareFTP finds the ftp:// URLs the Linkify extension turns into links.
	bareFTP = regexp.MustCompile(`(?:^|[\s*_~(])(ftp://\S+)`)
	refDef  = regexp.MustCompile(`(?im)^ {0,3}\[[^\]]+\]:\s*<?\s*([a-z][a-z0-9+.-]*:\S*)`)
)

// dangerousLink returns the first link destination of Markdown text md
// that AllowedURL refuses, or "". Pages drop such links when they render;
// reporting them tells the dataset's author the text is wrong.
func dangerousLink(md string) string {
	text := html.UnescapeString(md)
	// Each pattern needs a piece of text that most prose lacks; looking
	// for it first keeps the regexps off the common case.
	if squeezed := squeeze.Replace(text); strings.Contains(squeezed, "](") || strings.Contains(squeezed, "<") {
		for _, m := range inlineLink.FindAllStringSubmatch(squeezed, -1) {
			if !AllowedURL(m[1]) {
				return m[1]
			}
		}
	}
	if strings.Contains(text, "ftp://") {
		if m := bareFTP.FindStringSubmatch(text); m != nil {
			return m[1]
		}
	}
	if strings.Contains(text, "]:") {
		for _, m := range refDef.FindAllStringSubmatch(text, -1) {
			if !AllowedURL(m[1]) {
				return m[1]
			}
		}
	}
	return ""
}

// squeeze drops what browsers ignore inside a URL.
var squeeze = strings.NewReplacer("\t", "", "\r", "", "\n", "", "\x00", "")
