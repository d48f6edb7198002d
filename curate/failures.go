package curate

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
)

// FailuresFile is the file of the dataset that lists the code samples that
// do not compile against the module versions the dataset names, with the
// compiler's messages: what a record's page marks on a sample. The compile
// test keeps it exact.
const FailuresFile = "compile-failures.tsv"

// Failure is one compiler message about one sample of one record.
type Failure struct {
	Repo, Slug, Field string
	Message           string // "LINE:COL: message", lines counted in the sample
}

func (f Failure) String() string {
	return f.Repo + "/" + f.Slug + " " + f.Field + ": " + f.Message
}

func (f Failure) line() string {
	clean := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace
	return strings.Join([]string{f.Repo, f.Slug, f.Field, clean(f.Message)}, "\t")
}

const failuresHeader = `# The code samples of the dataset that do not compile against the module
# versions the dataset names (curate/testdata/snippets/go.mod), one compiler
# message a line: repo, slug, field, message (line:column in the sample).
# A record's page marks these samples. Rewrite it with
#   go test ./curate -run TestSamplesCompile -update
# The test fails when a sample's result differs from this file.
`

// ReadFailures parses a failures file.
func ReadFailures(r io.Reader) ([]Failure, error) {
	var out []Failure
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 4)
		if len(parts) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated fields (repo, slug, field, message), got %d", FailuresFile, n, len(parts))
		}
		out = append(out, Failure{Repo: parts[0], Slug: parts[1], Field: parts[2], Message: parts[3]})
	}
	return out, sc.Err()
}

// WriteFailures writes fs as a failures file, sorted.
func WriteFailures(w io.Writer, fs []Failure) error {
	lines := make([]string, len(fs))
	for i, f := range fs {
		lines[i] = f.line()
	}
	slices.Sort(lines)
	if _, err := io.WriteString(w, failuresHeader); err != nil {
		return err
	}
	for _, l := range lines {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// DiffFailures returns the failures of got that want lacks (new) and those
// of want that got lacks (fixed or changed).
func DiffFailures(got, want []Failure) (added, gone []Failure) {
	key := func(f Failure) string { return f.line() }
	in := func(fs []Failure) map[string]bool {
		m := make(map[string]bool, len(fs))
		for _, f := range fs {
			m[key(f)] = true
		}
		return m
	}
	g, w := in(got), in(want)
	for _, f := range got {
		if !w[key(f)] {
			added = append(added, f)
		}
	}
	for _, f := range want {
		if !g[key(f)] {
			gone = append(gone, f)
		}
	}
	return added, gone
}
