package errkb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"strings"

	"github.com/errkb/errkb/internal/parallel"
)

// Source is one dataset folder: the embedded dataset or a --dataset folder.
// Name prefixes file names in problems so users can find the file.
type Source struct {
	Name string
	FS   fs.FS
}

// Load reads every .json and .jsonl file of the sources, validates each
// record and checks that ids and repo+slug pairs are unique across all of
// them. It always returns the dataset of valid records; when any record is
// bad it also returns Problems listing every problem found, so the caller
// decides whether to refuse or to serve the rest.
func Load(sources ...Source) (*Dataset, error) {
	return LoadWithOptions(Options{}, sources...)
}

// Options tune loading.
type Options struct {
	// Parsed, when set, is called with each file's valid records as soon
	// as the file is parsed, on several goroutines at once. A storage
	// engine (internal/store) uses it to move the records' text out of the
	// heap while only a few files' records are on it.
	Parsed func(records []*Record)
}

// LoadWithOptions is Load with options.
func LoadWithOptions(opts Options, sources ...Source) (*Dataset, error) {
	var (
		records  []*Record
		problems Problems
	)
	var total int64
	provDirs := make(map[string]Provenance)
	for _, src := range sources {
		files, size, probs := datasetFiles(src)
		problems = append(problems, probs...)
		if total += size; total > maxDatasetBytes {
			return NewDataset(nil), Problems{{Location: Location{File: src.Name},
				Message: fmt.Sprintf("the dataset's files hold more than %d bytes (%d MiB); a dataset may hold at most %d MiB, so split it or raise the cap", total, total>>20, maxDatasetBytes>>20)}}
		}
		files, provFiles := splitProvenance(files)
		prov, provProbs := readProvenance(src, provFiles)
		problems = append(problems, provProbs...)
		maps.Copy(provDirs, prov)
		for _, r := range parseFiles(src, files, opts.Parsed) {
			records = append(records, r.records...)
			problems = append(problems, r.problems...)
		}
	}
	records = preferCurated(records, provDirs)
	records, dups := dropDuplicates(records)
	problems = append(problems, dups...)
	ds := NewDataset(records)
	ds.Provenance = provenanceByRepo(provDirs)
	if len(problems) > 0 {
		return ds, problems
	}
	return ds, nil
}

// Files lists the dataset files of src, as Load reads them, or says why
// they cannot all be listed.
func Files(src Source) ([]string, error) {
	files, _, probs := datasetFiles(src)
	if len(probs) > 0 {
		return nil, probs
	}
	return files, nil
}

// datasetFiles lists the .json and .jsonl files of src in walk order,
// skipping folders whose names start with a dot, with their total size.
func datasetFiles(src Source) ([]string, int64, Problems) {
	var (
		files    []string
		size     int64
		problems Problems
	)
	err := fs.WalkDir(src.FS, ".", func(p string, d fs.DirEntry, err error) error {
		name := path.Join(src.Name, p)
		if err != nil {
			problems = append(problems, Problem{Location: Location{File: name}, Message: fileError(err)})
			return nil
		}
		if d.IsDir() {
			if p != "." && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if ext := path.Ext(p); ext == ".json" || ext == ".jsonl" {
			files = append(files, p)
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	if err != nil {
		problems = append(problems, Problem{Location: Location{File: src.Name}, Message: err.Error()})
	}
	return files, size, problems
}

// byteOrderMark is U+FEFF in UTF-8, which some editors put at the start
// of a file and JSON does not allow.
var byteOrderMark = []byte("\xEF\xBB\xBF")

// fileError says in plain words why a dataset file could not be read.
// A dataset opened with os.OpenRoot refuses symbolic links that leave its
// folder with an error whose text ("statat x: path escapes from parent")
// names no cause a user would recognise; os does not export it to compare.
func fileError(err error) string {
	if strings.Contains(err.Error(), "path escapes from parent") {
		return "is a symbolic link to a file outside the dataset folder; copy the file into the folder instead"
	}
	return err.Error()
}

// fileResult is what one dataset file holds.
type fileResult struct {
	records  []*Record
	problems Problems
}

// parseFiles reads and parses the files on every CPU; results keep the
// files' order, so which of two duplicates is kept never depends on timing.
func parseFiles(src Source, files []string, parsed func([]*Record)) []fileResult {
	results := make([]fileResult, len(files))
	parallel.For(len(files), func(i int) {
		results[i] = parseFile(src, files[i])
		if parsed != nil {
			parsed(results[i].records)
		}
	})
	return results
}

func parseFile(src Source, p string) fileResult {
	name := path.Join(src.Name, p)
	data, err := readCapped(src.FS, p)
	if err != nil {
		return fileResult{problems: Problems{{Location: Location{File: name}, Message: fileError(err)}}}
	}
	if bytes.HasPrefix(data, byteOrderMark) {
		return fileResult{problems: Problems{{Location: Location{File: name, Line: 1},
			Message: "starts with a byte-order mark (U+FEFF); JSON files must be saved as UTF-8 without one"}}}
	}
	var r fileResult
	if path.Ext(p) == ".jsonl" {
		r.records, r.problems = parseJSONL(name, data)
	} else {
		r.records, r.problems = parseJSON(name, data)
	}
	return r
}

// parseJSON reads a .json file: one envelope, one bare record, or an array
// of either.
func parseJSON(file string, data []byte) ([]*Record, Problems) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, Problems{{Location: Location{File: file}, Message: "file is empty"}}
	}
	if trimmed[0] != '[' {
		if err := checkSyntax(data); err != nil {
			return nil, Problems{syntaxProblem(file, data, 0, err)}
		}
		rec, probs := parseEntry(data, Location{File: file, Line: lineAt(data, len(data)-len(trimmed))})
		return collect(rec, probs)
	}
	if err := checkSyntax(data); err != nil {
		return nil, Problems{syntaxProblem(file, data, 0, err)}
	}
	var elems []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening '['
		return nil, Problems{syntaxProblem(file, data, 0, err)}
	}
	var lines []int
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, Problems{syntaxProblem(file, data, 0, err)}
		}
		end := int(dec.InputOffset())
		elems = append(elems, raw)
		lines = append(lines, lineAt(data, end-len(raw)))
	}
	var (
		records  []*Record
		problems Problems
	)
	for i, raw := range elems {
		rec, probs := parseEntry(raw, Location{File: file, Line: lines[i]})
		if rec != nil {
			records = append(records, rec)
		}
		problems = append(problems, probs...)
	}
	return records, problems
}

// parseJSONL reads a .jsonl file: one envelope or bare record a line; blank
// lines are allowed.
func parseJSONL(file string, data []byte) ([]*Record, Problems) {
	var (
		records  []*Record
		problems Problems
	)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), MaxFileBytes)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		loc := Location{File: file, Line: n}
		if err := checkSyntax(line); err != nil {
			problems = append(problems, syntaxProblem(file, line, n-1, err))
			continue
		}
		rec, probs := parseEntry(bytes.Clone(line), loc)
		if rec != nil {
			records = append(records, rec)
		}
		problems = append(problems, probs...)
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, Problem{Location: Location{File: file}, Message: err.Error()})
	}
	return records, problems
}

func collect(rec *Record, probs Problems) ([]*Record, Problems) {
	if rec == nil {
		return nil, probs
	}
	return []*Record{rec}, probs
}

// checkSyntax reports the first JSON syntax error of data, if any.
func checkSyntax(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		err = errors.New("invalid JSON")
	}
	return err
}

func syntaxProblem(file string, data []byte, lineOffset int, err error) Problem {
	loc := Location{File: file}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		loc.Line = lineOffset + lineAt(data, int(se.Offset))
	}
	return Problem{Location: loc, Message: "invalid JSON: " + err.Error()}
}

// lineAt is the 1-based line of byte offset off in data.
func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// fastPath is off only in tests that compare the two paths.
var fastPath = true

// parseEntry turns one envelope or bare record into a Record, or reports
// why it cannot.
func parseEntry(raw []byte, loc Location) (*Record, Problems) {
	if probs := tooLarge(raw, loc); probs != nil {
		return nil, probs
	}
	if fastPath {
		if rec, ok := parseEntryFast(raw, loc); ok {
			return rec, nil
		}
	}
	return parseEntryCareful(raw, loc)
}

// parseEntryCareful decodes field by field so that it can report every
// problem of the entry.
func parseEntryCareful(raw []byte, loc Location) (*Record, Problems) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, Problems{{Location: loc, Message: "expected a JSON object (an envelope or a record), got " + jsonKind(raw)}}
	}
	recRaw, version := json.RawMessage(raw), ""
	fields := top
	if r, ok := top["record"]; ok {
		if v, ok := top["datasetVersion"]; ok && !isNull(v) {
			if err := json.Unmarshal(v, &version); err != nil {
				return nil, Problems{{Location: loc, Field: "datasetVersion", Message: "must be a string, got " + jsonKind(v)}}
			}
		}
		fields = nil // a fresh map: Unmarshal would merge into the envelope's
		if err := json.Unmarshal(r, &fields); err != nil {
			return nil, Problems{{Location: loc, Field: "record", Message: "must be an object, got " + jsonKind(r)}}
		}
		recRaw = r
	}
	id := stringField(fields, "id")
	var probs Problems
	if _, envelope := top["record"]; envelope {
		probs = checkKeys(raw, loc, id, envelopeKeyFold, true)
	} else {
		probs = checkKeys(raw, loc, id, bareKeyFold, false)
	}
	probs = append(probs, checkFields(fields, loc)...)
	probs = append(probs, checkHostile(fields, loc)...)
	if len(probs) > 0 {
		return nil, probs
	}
	rec := &Record{}
	if err := json.Unmarshal(recRaw, rec); err != nil {
		return nil, Problems{{Location: loc, Record: stringField(fields, "id"), Message: err.Error()}}
	}
	rec.Raw = recRaw
	rec.DatasetVersion = version
	rec.Source = loc
	if probs := checkRecord(rec); len(probs) > 0 {
		return nil, probs
	}
	return rec, nil
}

func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// jsonKind names the JSON type of v for error messages.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func stringField(fields map[string]json.RawMessage, name string) string {
	var s string
	if v, ok := fields[name]; ok {
		_ = json.Unmarshal(v, &s)
	}
	return s
}

// MaxFileBytes caps one dataset file and one JSONL line.
const MaxFileBytes = 64 << 20

// MaxDatasetBytes caps the files of all sources of one Load together: a
// dataset is held in memory (or, spilled, in the page cache) whole, and
// 100,000 records take about 450 MB.
const MaxDatasetBytes = 4 << 30

// maxDatasetBytes is MaxDatasetBytes, lowered by tests.
var maxDatasetBytes int64 = MaxDatasetBytes

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
