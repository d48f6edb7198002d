package natserrors

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract/program"
)

// Docs are each entry's own words, errors.json's description, comment
// and help, by the key of its error (extract.Error.Key), each with the
// line of errors.json that holds it.
func (t *Table) Docs(root string, o program.Origin) (map[string][]errkb.Doc, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(tableFile)))
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(data, []byte("\n"))
	out := map[string][]errkb.Doc{}
	for _, e := range t.entries {
		start := t.lines[e.Constant]
		if e.Constant == "" || start == 0 {
			continue
		}
		for _, f := range []struct{ name, text string }{{"description", e.Description}, {"comment", e.Comment}, {"help", e.Help}} {
			if strings.TrimSpace(f.text) == "" {
				continue
			}
			line := fieldLine(lines, start, f.name)
			if line == 0 {
				continue
			}
			out[t.pkg+"."+e.Constant] = append(out[t.pkg+"."+e.Constant], errkb.Doc{Of: "errors.json " + f.name, Text: f.text,
				FilePath: o.RepoPath(tableFile), LineNumber: line, GithubURL: o.LineURL(tableFile, line)})
		}
	}
	return out, nil
}

// fieldLine is the line, at or after the entry's "constant" line and
// within its object, that holds the field name; 0 when none does.
func fieldLine(lines [][]byte, start int, name string) int {
	key := []byte(`"` + name + `":`)
	for i := start - 1; i < len(lines) && i < start+12; i++ {
		s := bytes.TrimSpace(lines[i])
		if bytes.HasPrefix(s, key) {
			return i + 1
		}
		if bytes.HasPrefix(s, []byte("}")) {
			break
		}
	}
	return 0
}

// Names are the generated constructor of each entry, by the key of its
// error: a call of it stands for the error in the project's code and
// tests (NewJSStreamNotFoundError()).
func (t *Table) Names() map[string][]string {
	out := map[string][]string{}
	for constant, c := range t.cons {
		out[t.pkg+"."+constant] = []string{t.pkg + "." + c.name}
	}
	return out
}
