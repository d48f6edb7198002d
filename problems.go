package errkb

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a dataset: where, which record and field,
// and what.
type Problem struct {
	Location
	Record  string // the record's id, when known
	Field   string
	Message string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Location.String())
	if p.Record != "" {
		fmt.Fprintf(&b, ": record %q", p.Record)
	}
	if p.Field != "" {
		fmt.Fprintf(&b, ": field %q", p.Field)
	}
	b.WriteString(": ")
	b.WriteString(p.Message)
	return b.String()
}

// Problems lists every problem of a dataset; it is the error Load returns.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return fmt.Sprintf("%d problem(s) in dataset:\n%s", len(ps), strings.Join(lines, "\n"))
}
