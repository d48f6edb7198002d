package errkb

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
)

// Parsing turns one file's bytes into records, or the problems that say
// why not: parseJSON and parseJSONL split a file into entries, and
// parseEntry makes each a Record, the quick way (fastparse.go) when it
// can be sure, else the careful way, which names every problem.

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
	rec.raw = recRaw
	rec.DatasetVersion = version
	rec.Location = loc
	if probs := checkRecord(rec); len(probs) > 0 {
		return nil, probs
	}
	return rec, nil
}
