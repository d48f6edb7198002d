package curate

import (
	"regexp"
	"strings"

	"github.com/errkb/errkb"
)

// Sample is one Go code field of a record, the code a reader copies.
type Sample struct {
	Field string // exampleFix, validationCode, tryCatchPattern or typeGuard
	Code  string // for exampleFix, the code after the fix
}

// SampleFields are the record fields that hold Go code a reader runs, in
// the order they are checked. sourceCode is the project's own code, quoted.
var SampleFields = []string{"exampleFix", "validationCode", "tryCatchPattern", "typeGuard"}

// Samples returns the Go samples of r that are not empty.
func Samples(r *errkb.Record) []Sample {
	var out []Sample
	for _, s := range []Sample{
		{"exampleFix", AfterFix(r.ExampleFix)},
		{"validationCode", r.ValidationCode},
		{"tryCatchPattern", r.TryCatchPattern},
		{"typeGuard", r.TypeGuard},
	} {
		if strings.TrimSpace(s.Code) != "" {
			out = append(out, s)
		}
	}
	return out
}

// beforeMark and afterMark are the comment lines that open the two halves
// of an exampleFix: "// before" and "// after", alone on their line
// (words may follow: "// after: bind to the stream by name").
var (
	beforeMark = regexp.MustCompile(`(?mi)^[ \t]*//[ \t]*before\b.*$`)
	afterMark  = regexp.MustCompile(`(?mi)^[ \t]*//[ \t]*after\b.*$`)
)

// AfterFix returns the code after the fix: what follows the "// after"
// line of an exampleFix, or all of it when it has no such line (a sample
// of one half, as the seed's).
func AfterFix(exampleFix string) string {
	loc := afterMark.FindStringIndex(exampleFix)
	if loc == nil {
		return exampleFix
	}
	return strings.TrimLeft(exampleFix[loc[1]:], "\n")
}

// HasBeforeAndAfter reports whether an exampleFix shows the code before the
// fix and after it, in that order.
func HasBeforeAndAfter(exampleFix string) bool {
	b := beforeMark.FindStringIndex(exampleFix)
	a := afterMark.FindStringIndex(exampleFix)
	if b == nil || a == nil || b[0] > a[0] {
		return false
	}
	return strings.TrimSpace(exampleFix[b[1]:a[0]]) != "" && strings.TrimSpace(exampleFix[a[1]:]) != ""
}
