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
	"runtime"
	"strings"
	"sync"
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

// Options tune loading for large datasets.
type Options struct {
	// SpillDir, when set, moves the records' raw JSON and long text fields
	// out of the Go heap into a read-only mapping of an unlinked file in
	// this folder (see spillFile). Records read the same; a server with a
	// hundred thousand records needs a fraction of the memory. Where this
	// is not possible the records stay on the heap, and SpillError says why.
	//
	// A dataset loaded without problems is also saved there as a snapshot,
	// and a later Load of the same files by the same binary reads the
	// snapshot instead of parsing JSON (see snapshot_linux.go).
	SpillDir string
}

// LoadWithOptions is Load with options.
func LoadWithOptions(opts Options, sources ...Source) (*Dataset, error) {
	var (
		records  []*Record
		problems Problems
		sf       *spillFile
		spillErr error
		digests  = make(map[*Record][32]byte)
	)
	key := ""
	if opts.SpillDir != "" {
		if key = filesKey(sources); key != "" {
			if ds, err := loadSnapshot(opts.SpillDir, key); err == nil {
				ds.Provenance = provenanceOf(sources)
				return ds, nil
			}
		}
		sf, spillErr = newSpillFile(opts.SpillDir)
	}
	provDirs := make(map[string]Provenance)
	for _, src := range sources {
		recs, probs := loadSource(src, sf, &spillErr, digests, provDirs)
		records = append(records, recs...)
		problems = append(problems, probs...)
	}
	records = preferCurated(records, provDirs)
	records, dups := dropDuplicates(records)
	problems = append(problems, dups...)
	ds := newDataset(records)
	ds.Provenance = provenanceByRepo(provDirs)
	ds.spill, ds.spillErr, ds.digests = sf, spillErr, digests
	if sf != nil {
		if len(problems) == 0 && spillErr == nil && key != "" {
			if err := saveSnapshot(opts.SpillDir, key, ds, sf); err != nil {
				ds.spillErr = fmt.Errorf("save snapshot: %w", err)
			}
		}
		sf.done()
		ds.ReleasePages()
	}
	if len(problems) > 0 {
		return ds, problems
	}
	return ds, nil
}

func loadSource(src Source, sf *spillFile, spillErr *error, digests map[*Record][32]byte, provDirs map[string]Provenance) ([]*Record, Problems) {
	files, problems := datasetFiles(src)
	files, provFiles := splitProvenance(files)
	prov, probs := readProvenance(src, provFiles)
	problems = append(problems, probs...)
	maps.Copy(provDirs, prov)
	results := parseFiles(src, files, sf, spillErr)
	var records []*Record
	for _, r := range results {
		records = append(records, r.records...)
		problems = append(problems, r.problems...)
		for j, rec := range r.records {
			digests[rec] = r.digests[j]
		}
	}
	return records, problems
}

// datasetFiles lists the .json and .jsonl files of src in walk order,
// skipping folders whose names start with a dot.
func datasetFiles(src Source) ([]string, Problems) {
	var (
		files    []string
		problems Problems
	)
	err := fs.WalkDir(src.FS, ".", func(p string, d fs.DirEntry, err error) error {
		name := path.Join(src.Name, p)
		if err != nil {
			problems = append(problems, Problem{Location: Location{File: name}, Message: err.Error()})
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
		}
		return nil
	})
	if err != nil {
		problems = append(problems, Problem{Location: Location{File: src.Name}, Message: err.Error()})
	}
	return files, problems
}

// fileResult is what one dataset file holds.
type fileResult struct {
	records  []*Record
	digests  [][32]byte // of records, in order
	problems Problems
}

// parseFiles reads and parses the files on every CPU; results keep the
// files' order, so which of two duplicates is kept never depends on timing.
// With sf, each file's records are spilled as soon as they are parsed, so
// at most a few files' records are ever on the heap at once.
func parseFiles(src Source, files []string, sf *spillFile, spillErr *error) []fileResult {
	results := make([]fileResult, len(files))
	next := make(chan int)
	var (
		wg   sync.WaitGroup
		once sync.Once
	)
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := range next {
				results[i] = parseFile(src, files[i])
				for _, r := range results[i].records {
					results[i].digests = append(results[i].digests, recordDigest(r))
				}
				if sf == nil {
					continue
				}
				if err := sf.spill(results[i].records); err != nil {
					once.Do(func() { *spillErr = err })
				}
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func parseFile(src Source, p string) fileResult {
	name := path.Join(src.Name, p)
	data, err := readCapped(src.FS, p)
	if err != nil {
		return fileResult{problems: Problems{{Location: Location{File: name}, Message: err.Error()}}}
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

// parseEntry turns one envelope or bare record into a Record, or reports
// why it cannot.
func parseEntry(raw []byte, loc Location) (*Record, Problems) {
	if probs := tooLarge(raw, loc); probs != nil {
		return nil, probs
	}
	if rec, ok := parseEntryFast(raw, loc); ok {
		return rec, nil
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
	probs := checkFields(fields, loc)
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
